# __pragma__('tconv')
from hermes.core.tools import Tool
from hermes.host.configuration import read_setting


async def get_config(args, call):
    return read_setting(args['key'])


TOOL = Tool(
    'workspace_get_config',
    'Read a VS Code setting by its id ("editor.tabSize", "python.defaultInterpreterPath") or a whole section '
    '("editor"): the effective value for this workspace, and the default, user, workspace and folder values it '
    'comes from. "known": false means no extension defines it.',
    {'type': 'object', 'properties': {
        'key': {'type': 'string', 'minLength': 1, 'description': 'Setting id or section.'},
    }, 'required': ['key'], 'additionalProperties': False},
    get_config,
    title='Get setting',
)
