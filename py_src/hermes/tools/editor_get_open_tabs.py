# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import EditorGetOpenTabsArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool


async def get_open_tabs(args: 'EditorGetOpenTabsArgs', call: 'CallContext') -> 'ToolReturn':
    return {'tabs': call.services.tabs.described()}


TOOL = Tool(
    'editor_get_open_tabs',
    'List the editor tabs open in VS Code: label, file path, editor group, and whether each is active, '
    'has unsaved changes (dirty), is pinned or is a preview.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    get_open_tabs,
    title='Get open editor tabs',
)
