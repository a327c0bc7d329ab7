"""Values the file tools need on every call, derived from VS Code state (the files.exclude and
search.exclude settings compiled to globs, the workspace folders), kept until VS Code says that
state changed. Reading the configuration builds a fresh view of every setting each time, and the
folders a dict per folder: a large part of a small-file tool's cost in code-server.

Caching is on only while the listeners that clear it are registered (`register_live_values`, in
activate): code running without them (unit tests that change the shim's settings directly) always
reads fresh values, so a setting always applies at once, without a reload."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, TypedDict
if TYPE_CHECKING:  # the type checker's vscode (typings/vscode.pyi); the test shim has no such names
    from vscode import ExtensionContext
# __pragma__('noskip')


# __pragma__('skip')
class _State(TypedDict):
    on: bool  # caching (the listeners that clear it are registered)
    values: Dict[str, Any]  # 'k:<key>' → the remembered value
# __pragma__('noskip')

_state = {'on': False, 'values': {}}  # type: _State


def remembered(key: str, compute: 'Callable[[], Any]') -> 'Any':
    """`compute()`, or its value from an earlier call while nothing it depends on has changed.
    Callers must not change the value they get (copy it first)."""
    if not _state['on']:
        return compute()
    slot = 'k:' + key  # a prefix keeps keys clear of dict members
    values = _state['values']
    if slot not in values:
        values[slot] = compute()
    return values[slot]


def forget_all(event: 'Any' = None) -> None:
    _state['values'] = {}


def stop() -> None:
    """Read fresh values from now on (on dispose; tests reset it between them)."""
    _state['on'] = False
    forget_all()


def register_live_values(context: 'ExtensionContext') -> None:
    """Keep the values until a setting or the workspace folders change; stop caching on dispose."""
    workspace = vscode.workspace
    context.subscriptions.push(workspace.onDidChangeConfiguration(to_js_callback(forget_all)))
    context.subscriptions.push(workspace.onDidChangeWorkspaceFolders(to_js_callback(forget_all)))
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(stop)))
    forget_all()
    _state['on'] = True
