# __pragma__('tconv')
from hermes.core.tools import Tool
from hermes.core.values import get_key
from hermes.host.paths import resolve_path, display_path
from hermes.host.files import write_text, create_folder


async def create_file(args, call):
    path = resolve_path(args['path'])
    shown = display_path(path)
    if get_key(args, 'directory') is True:
        if args['content'] != '':
            return {'content': [{'type': 'text', 'text': 'A folder has no content: drop content or directory.'}],
                    'isError': True}
        await create_folder(path)
        return 'Created the folder ' + shown + '.'
    await write_text(path, args['content'], True, call)
    return 'Created ' + shown + '.'


TOOL = Tool(
    'file_create',
    'Create a new file with the given content (missing parent folders are created), or a new folder with '
    'directory: true. Fails if something already exists at that path (file_write replaces files).',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'Path to create, workspace-relative or absolute inside the '
                                                  'workspace.'},
        'content': {'type': 'string', 'default': '', 'description': 'Initial content of the file.'},
        'directory': {'type': 'boolean', 'description': 'Create a folder instead of a file.'},
    }, 'required': ['path'], 'additionalProperties': False},
    create_file,
    title='Create file or folder',
    read_only=False,
    destructive=True,
)
