# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileCreateArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.file_parts import write_file_text


async def create_file(args: 'FileCreateArgs', call: 'CallContext') -> 'ToolReturn':
    paths, files = call.services.paths, call.services.files
    path = paths.resolve_path(args['path'])
    shown = paths.display_path(path)
    if args['directory'] is True:
        if args['content'] != '':
            return {'content': [{'type': 'text', 'text': 'A folder has no content: drop content or directory.'}],
                    'isError': True}
        await files.create_folder(path)
        return 'Created the folder ' + shown + '.'
    await write_file_text(files, path, args['content'], True, call)
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
