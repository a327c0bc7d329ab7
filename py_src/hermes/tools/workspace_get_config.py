# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import WorkspaceGetConfigArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.values import is_object
from hermes.tools.workspace_parts import shown_setting

# Sections whose user-level values are editor preferences, not credentials: read without asking. Any other
# user-level value (http.proxyAuthorization, an extension's tokens or connection strings…) lives outside the
# workspace and may be a secret, so showing it asks; workspace and folder values are the workspace's own.
# Not `hermes` either: its user values say where the LLM is and which headers (API keys) go to it.
SAFE_SECTIONS = ['editor', 'files', 'workbench', 'explorer', 'search', 'diffEditor', 'scm', 'debug',
                 'testing', 'notebook', 'breadcrumbs', 'outline', 'problems', 'typescript', 'javascript', 'python',
                 'json', 'html', 'css', 'markdown', 'emmet', 'git', 'npm', 'extensions', 'update', 'telemetry']


def is_safe_key(key: str) -> bool:
    section = key.split('.')[0]
    return section in SAFE_SECTIONS or (section.startswith('[') and section.endswith(']'))


async def get_config(args: 'WorkspaceGetConfigArgs', call: 'CallContext') -> 'ToolReturn':
    key = args['key']
    result = call.services.configuration.read(key)
    # a user-level value, or a whole section (which may carry user-level values inside it)
    from_user = result.get('userValue') is not None or is_object(result.get('value'))
    if from_user and not is_safe_key(key):
        refusal = await call.confirm('workspace_get_config', 'Read your user setting ' + key,
                                     {'key': key, 'what': 'shows your user-level value of "' + key + '" (user settings '
                                      'are outside the workspace and may hold secrets)'})
        if refusal is not None:
            raise ToolError(refusal)
    return shown_setting(result)


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
