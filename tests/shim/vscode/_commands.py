"""vscode.commands: registered commands, and the built-in ones Hermes runs (vscode.diff, setContext)."""
import asyncio

import vscode
from vscode._events import Disposable, resolved
from vscode._types import JsObjectDict
from vscode._window import Tab, _TabInput


def _open_diff(left, right, title=None, options=None):
    provider = vscode.workspace.content_providers.get(right.scheme)
    text = provider['provideTextDocumentContent'](right) if provider is not None else None
    tab = Tab(title or 'diff', None)
    tab.input = _TabInput(original=left, modified=right)
    vscode.window.diffs.append(JsObjectDict(left=left, right=right, title=title, text=text, tab=tab))
    vscode.window.tabGroups._open(tab)
    return resolved(None)


def _open_changes(title, resources):
    vscode.window.multi_diffs.append(JsObjectDict(title=title, resources=list(resources)))
    return resolved(None)


_BUILTIN_COMMANDS = {
    'vscode.diff': _open_diff,
    'vscode.changes': _open_changes,
    'setContext': lambda key, value: vscode.commands.context_keys.__setitem__(key, value),
}


class _Commands:
    def __init__(self):
        self.handlers = {}
        self.executed = []
        self.context_keys = {}  # what setContext set

    def registerCommand(self, command_id, handler, this_arg=None):
        if command_id in self.handlers:
            raise ValueError(f"command '{command_id}' already exists")
        self.handlers[command_id] = handler
        return Disposable(lambda: self.handlers.pop(command_id, None))

    def executeCommand(self, command_id, *args):
        self.executed.append((command_id, args))
        if command_id in _BUILTIN_COMMANDS and command_id not in self.handlers:
            return _BUILTIN_COMMANDS[command_id](*args)
        if command_id not in self.handlers:
            raise ValueError(f"command '{command_id}' not found")
        result = self.handlers[command_id](*args)
        # VS Code always answers with a Thenable, whatever the handler returned
        return result if asyncio.isfuture(result) or asyncio.iscoroutine(result) else resolved(result)

    def getCommands(self, filter_internal=False):
        return resolved(sorted(set(self.handlers) | set(_BUILTIN_COMMANDS)))
