# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import WorkspaceGetFoldersArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool


async def get_folders(args: 'WorkspaceGetFoldersArgs', call: 'CallContext') -> 'ToolReturn':
    paths = call.services.paths
    return {'name': paths.workspace_name(), 'folders': paths.workspace_folders()}


TOOL = Tool(
    'workspace_get_folders',
    'List the folders open in this VS Code window (name, absolute path, URI). Paths given to other '
    'tools are relative to these folders. An empty list means no folder is open.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    get_folders,
    title='Get workspace folders',
    essential=True,  # offered even when the model's context is too small for every tool
)
