# __pragma__('tconv')
from hermes.core.tools import Tool


async def get_open_tabs(args, call):
    return {'tabs': call.services.tabs.described()}


TOOL = Tool(
    'editor_get_open_tabs',
    'List the editor tabs open in VS Code: label, file path, editor group, and whether each is active, '
    'has unsaved changes (dirty), is pinned or is a preview.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    get_open_tabs,
    title='Get open editor tabs',
)
