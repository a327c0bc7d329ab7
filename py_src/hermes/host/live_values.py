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

_state = {'on': False, 'values': {}}


def remembered(key, compute):
    """`compute()`, or its value from an earlier call while nothing it depends on has changed.
    Callers must not change the value they get (copy it first)."""
    if not _state['on']:
        return compute()
    slot = 'k:' + key  # a prefix keeps keys clear of dict members
    values = _state['values']
    if slot not in values:
        values[slot] = compute()
    return values[slot]


def forget_all(event=None):
    _state['values'] = {}


def stop():
    """Read fresh values from now on (on dispose; tests reset it between them)."""
    _state['on'] = False
    forget_all()


def register_live_values(context):
    """Keep the values until a setting or the workspace folders change; stop caching on dispose."""
    workspace = vscode.workspace
    context.subscriptions.push(workspace.onDidChangeConfiguration(to_js_callback(forget_all)))
    context.subscriptions.push(workspace.onDidChangeWorkspaceFolders(to_js_callback(forget_all)))
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(stop)))
    forget_all()
    _state['on'] = True
