# __pragma__('tconv')
from hermes.core.tools import Tool
from hermes.host.editors import open_tabs


async def get_open_tabs(args, call):
    return {'tabs': open_tabs()}


TOOL = Tool(
    'editor_get_open_tabs',
    'List the editor tabs open in VS Code: label, file path, editor group, and whether each is active, '
    'has unsaved changes (dirty), is pinned or is a preview.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    get_open_tabs,
    title='Get open editor tabs',
)
