# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import FileDeleteArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool


async def delete_file(args: 'FileDeleteArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    path = paths.resolve_path(args['path'])
    how = await call.services.files.delete_path(path, args['recursive'] is True, call)
    if how == 'trash':
        return 'Moved ' + paths.display_path(path) + ' to the trash.'
    return ('Deleted ' + paths.display_path(path) + ' (this file system has no trash; the deletion can be undone with '
            'Edit > Undo in VS Code).')


TOOL = Tool(
    'file_delete',
    'Delete a file, or a folder with recursive: true. It goes to the trash where the file system has one, '
    'else it is deleted in a way VS Code can undo. Files with unsaved editor changes and workspace folders '
    'themselves are refused.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'Path to delete, workspace-relative or absolute inside the '
                                                  'workspace.'},
        'recursive': {'type': 'boolean', 'description': 'Required to delete a folder that is not empty.'},
    }, 'required': ['path'], 'additionalProperties': False},
    delete_file,
    title='Delete file or folder',
    read_only=False,
    destructive=True,
)
