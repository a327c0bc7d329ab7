"""Reading and changing VS Code settings (any extension's), at the user, workspace or folder level. The tools
reach them as `call.services.configuration` (`ConfigurationService`, built by host/services.py); Hermes's own
settings are read typed through host/settings.py."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import node, vscode
from hermes.core.tools import ToolError
from hermes.core.settings_spec import CONFIGURATION_TARGETS
from hermes.host.changes.log import change_log_of, check_write, note_write

TARGET_NAMES = CONFIGURATION_TARGETS

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.services import CallContext
if TYPE_CHECKING:
    from vscode import ConfigurationTarget, Uri
js_undefined = None  # in the bundle, Transcrypt turns this name into JS `undefined`
# __pragma__('noskip')


def or_null(value: Any) -> Any:
    return None if value is None else value


def folder_scope() -> 'Optional[Uri]':
    folders = vscode.workspace.workspaceFolders
    return None if folders is None or len(folders) == 0 else folders[0].uri


def read_setting(key: str) -> 'JsonObject':
    """The effective value of `key` ('editor.tabSize', or a section like 'editor') and where it is set, whole (how
    much of a large section a model is shown is the tools' decision: tools/workspace_parts.py)."""
    scope = folder_scope()
    config = vscode.workspace.getConfiguration(js_undefined, scope) if scope is not None else \
        vscode.workspace.getConfiguration()
    value = config.js_get(key)
    info = config.inspect(key)
    result = {'key': key, 'value': or_null(value)}  # type: JsonObject
    if info is not None:
        result['defaultValue'] = or_null(info.defaultValue)
        result['userValue'] = or_null(info.globalValue)
        result['workspaceValue'] = or_null(info.workspaceValue)
        result['workspaceFolderValue'] = or_null(info.workspaceFolderValue)
    result['known'] = value is not None or info is not None
    return result


def target_for(name: str) -> 'ConfigurationTarget':
    targets = vscode.ConfigurationTarget
    if name == 'user':
        return targets.Global
    if name == 'workspace':
        if vscode.workspace.workspaceFolders is None:
            raise ToolError('No folder is open, so there are no workspace settings; use target "user".')
        return targets.Workspace
    if folder_scope() is None:
        raise ToolError('No folder is open, so there are no folder settings; use target "user".')
    return targets.WorkspaceFolder


async def write_setting(key: str, value: 'Json', target_name: str) -> 'JsonObject':
    """Set `key` to `value` (None removes it at that level); returns the setting as read back."""
    target = target_for(target_name)
    scope = folder_scope() if target_name == 'workspace_folder' else None
    config = vscode.workspace.getConfiguration(js_undefined, scope) if scope is not None else \
        vscode.workspace.getConfiguration()
    try:
        await config.js_update(key, js_undefined if value is None else value, target)
    except JsError as error:
        raise ToolError('VS Code refused to change "' + key + '": ' + error_message(error))
    return read_setting(key)


class ConfigurationService:
    """Any extension's settings as the tools read and change them (`call.services.configuration`), so a test
    can hand a tool a fake."""

    def read(self, key: str) -> 'JsonObject':
        """The effective value of `key` and where it is set (`read_setting`)."""
        return read_setting(key)

    async def write(self, key: str, value: 'Json', target_name: 'Optional[str]' = None,
                    call: 'Optional[CallContext]' = None) -> 'JsonObject':
        """Set `key` to `value` (None removes it) at `target_name` (TARGET_NAMES; None: this folder's settings
        when a folder is open, else the user's); returns the setting as read back. With the tool `call`, the
        change to the workspace's settings file is recorded in the change log (the user's own settings are
        outside the workspace: never recorded)."""
        if target_name is None:
            target_name = 'user' if vscode.workspace.workspaceFolders is None else 'workspace'
        settings_file = settings_file_of(target_name) if change_log_of(call) is not None else None
        before = None  # type: Optional[str]
        if settings_file is not None:
            check_write(call, settings_file, None)
            before = _text_or_none(settings_file)
        result = await write_setting(key, value, target_name)
        if settings_file is not None:
            note_write(call, settings_file, before, _text_or_none(settings_file))
        return result


def settings_file_of(target_name: str) -> 'Optional[str]':
    """The file VS Code writes a workspace or folder setting to (a `.code-workspace` file for a multi-root
    workspace's own settings), or None (the user's settings, or no folder)."""
    folders = vscode.workspace.workspaceFolders
    if target_name == 'user' or folders is None or len(folders) == 0:
        return None
    workspace_file = vscode.workspace.workspaceFile
    if target_name == 'workspace' and workspace_file is not None and workspace_file.scheme == 'file':
        return workspace_file.fsPath
    if folders[0].uri.scheme != 'file':
        return None
    return node('path').join(folders[0].uri.fsPath, '.vscode', 'settings.json')


def _text_or_none(path: str) -> 'Optional[str]':
    """A settings file's text, or None when there is none (or it cannot be read as text)."""
    try:
        return node('fs').readFileSync(path, 'utf8')
    except JsError:
        return None
