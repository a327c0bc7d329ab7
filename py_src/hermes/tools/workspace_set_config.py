# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import WorkspaceSetConfigArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.settings_spec import CONFIGURATION_TARGETS
from hermes.tools.workspace_parts import shown_setting

# Every JSON value, spelled out: an empty schema says nothing, and some clients refuse one.
JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null']


async def set_config(args: 'WorkspaceSetConfigArgs', call: 'CallContext') -> 'ToolReturn':
    return shown_setting(await call.services.configuration.write(args['key'], args['value'],
                                                                args['target'], call))


TOOL = Tool(
    'workspace_set_config',
    'Change a VS Code setting: value is any JSON value (null removes the setting at that level). target: '
    '"workspace" (this folder\'s .vscode/settings.json, the default when a folder is open), "user" (all '
    'windows) or "workspace_folder". Returns the setting as read back. Only settings some extension defines '
    'can be written.',
    {'type': 'object', 'properties': {
        'key': {'type': 'string', 'minLength': 1, 'description': 'Setting id, e.g. "editor.tabSize".'},
        'value': {'anyOf': [{'type': kind} for kind in JSON_TYPES], 'description': 'New value (any JSON); null removes it.'},
        'target': {'type': 'string', 'enum': CONFIGURATION_TARGETS, 'description': 'Where to write it.'},
    }, 'required': ['key', 'value'], 'additionalProperties': False},
    set_config,
    title='Change setting',
    read_only=False,
    destructive=True,
)
