"""The one reader of `hermes.*` settings: `setting('llm.model')`, typed by core/settings_spec.py (and, for the type
checker, by contracts/settings.py, generated from it: `setting('mcp.port')` is an int there, an undeclared key an error).

- A value that does not match the declared schema (wrong type, not in the enum, out of bounds) reads as
  the declared default, so callers never re-check types or repeat defaults.
- A protected setting (scope `application`/`machine`: the confirmation gate, outside-workspace access,
  MCP, the LLM endpoint…) is read from the user's settings only (`inspect().globalValue`): a workspace's
  `.vscode/settings.json` cannot weaken it even where VS Code would hand its value over.
"""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.core.schema import validate
from hermes.core.settings_spec import declaration, is_protected
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional
from hermes.contracts.json import Json
from hermes.contracts.settings import SettingKey, SettingReader
if TYPE_CHECKING:  # the type checker's vscode (typings/vscode.pyi); the test shim has no such names
    from vscode import ConfigurationChangeEvent, ExtensionContext
# __pragma__('noskip')


def _raw_value(key: 'SettingKey') -> 'Json':
    config = vscode.workspace.getConfiguration('hermes')
    if not is_protected(key):
        return config.js_get(key)
    found = config.inspect(key)
    return None if found is None else found.globalValue


def _read(key: 'SettingKey') -> 'Json':
    entry = declaration(key)
    value = _raw_value(key)
    if value is None or len(validate(value, entry, 'hermes.' + key)) > 0:
        return entry['default']
    return value


setting = _read  # type: SettingReader


def on_settings_changed(context: 'ExtensionContext', section: str, callback: 'Callable[[], Any]') -> None:
    """Call `callback()` when anything under `hermes.<section>` changes (no reload needed)."""
    def listener(event: 'ConfigurationChangeEvent') -> None:
        if event.affectsConfiguration('hermes.' + section):
            callback()
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(listener))
