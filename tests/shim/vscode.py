"""A CPython stand-in for the `vscode` module, for pytest.

It behaves like VS Code where Hermes depends on it (disposables dispose, commands dispatch, output
channels keep their lines, configuration reads settings with defaults) and records what the code
did, so tests can assert on it. `reset()` gives every test a fresh world. It grows with each
capability; anything not here raises AttributeError, so a test can't silently pass on a missing API.
"""
import asyncio
import os
import urllib.parse


# ------------------------------------------------------------------------------ basic types

class JsObject:
    """Python code reads some properties by subscript (`obj['name']`) to dodge Transcrypt's renaming."""

    def __getitem__(self, key):
        return getattr(self, key, None)

    def __setitem__(self, key, value):
        setattr(self, key, value)


class Disposable:
    def __init__(self, on_dispose=None):
        self._on_dispose = on_dispose
        self.disposed = False

    def dispose(self):
        if not self.disposed:
            self.disposed = True
            if self._on_dispose:
                self._on_dispose()

    @staticmethod
    def from_(*disposables):
        return Disposable(lambda: [d.dispose() for d in disposables])


class EventEmitter:
    def __init__(self):
        self._listeners = []

    def event(self, listener, this_arg=None, disposables=None):
        self._listeners.append(listener)
        disposable = Disposable(lambda: self._listeners.remove(listener))
        if disposables is not None:
            disposables.append(disposable)
        return disposable

    def fire(self, data=None):
        for listener in list(self._listeners):
            _start(listener(data))

    def dispose(self):
        self._listeners.clear()


class Uri:
    def __init__(self, scheme, path, query='', fragment=''):
        self.scheme, self.path, self.query, self.fragment = scheme, path, query, fragment

    @property
    def fsPath(self):
        return self.path

    @staticmethod
    def file(path):
        return Uri('file', os.path.abspath(path))

    @staticmethod
    def parse(value):
        parts = urllib.parse.urlsplit(value)
        return Uri(parts.scheme, parts.path, parts.query, parts.fragment)

    @staticmethod
    def joinPath(base, *segments):
        return Uri(base.scheme, os.path.join(base.path, *segments))

    def toString(self):
        return f'{self.scheme}://{self.path}' if self.scheme != 'file' else f'file://{self.path}'

    def __eq__(self, other):
        return isinstance(other, Uri) and (self.scheme, self.path) == (other.scheme, other.path)

    def __hash__(self):
        return hash((self.scheme, self.path))

    def __repr__(self):
        return f'Uri({self.toString()!r})'


class Position:
    def __init__(self, line, character):
        self.line, self.character = line, character

    def __eq__(self, other):
        return (self.line, self.character) == (other.line, other.character)


class Range:
    def __init__(self, start_or_line, end_or_char, end_line=None, end_char=None):
        if end_line is None:
            self.start, self.end = start_or_line, end_or_char
        else:
            self.start = Position(start_or_line, end_or_char)
            self.end = Position(end_line, end_char)

    @property
    def isEmpty(self):
        return self.start == self.end


class Selection(Range):
    def __init__(self, anchor_or_line, active_or_char, active_line=None, active_char=None):
        super().__init__(anchor_or_line, active_or_char, active_line, active_char)
        self.anchor, self.active = self.start, self.end


class StatusBarAlignment:
    Left = 1
    Right = 2


class ThemeColor:
    def __init__(self, id):
        self.id = id


class CancellationTokenSource:
    def __init__(self):
        self._emitter = EventEmitter()
        self.token = type('CancellationToken', (), {})()
        self.token.isCancellationRequested = False
        self.token.onCancellationRequested = self._emitter.event

    def cancel(self):
        if not self.token.isCancellationRequested:
            self.token.isCancellationRequested = True
            self._emitter.fire(None)

    def dispose(self):
        self._emitter.dispose()


# ------------------------------------------------------------------------------ window

class OutputChannel:
    def __init__(self, name, options=None):
        self.name = name
        self.is_log = bool(options and options.get('log'))
        self.lines = []
        self.visible = False
        self.disposed = False

    def _append(self, level, message):
        self.lines.append(f'[{level}] {message}' if self.is_log else message)

    def info(self, message, *args):
        self._append('info', message)

    def warn(self, message, *args):
        self._append('warning', message)

    def error(self, message, *args):
        self._append('error', message)

    def debug(self, message, *args):
        self._append('debug', message)

    def trace(self, message, *args):
        self._append('trace', message)

    def appendLine(self, message):
        self.lines.append(message)

    def show(self, preserve_focus=False):
        self.visible = True

    def dispose(self):
        self.disposed = True


class StatusBarItem(JsObject):
    def __init__(self, id, alignment, priority):
        self.id, self.alignment, self.priority = id, alignment, priority
        self.text = self.tooltip = self.command = None
        self.name = None
        self.backgroundColor = None
        self.visible = False
        self.disposed = False

    def show(self):
        self.visible = True

    def hide(self):
        self.visible = False

    def dispose(self):
        self.disposed = True
        self.visible = False


class _Window:
    def __init__(self):
        self.output_channels = []
        self.status_bar_items = []
        self.messages = []  # (level, text, items)
        self.message_answers = []  # queued answers for show*Message calls with items
        self.quick_picks = []
        self.quick_pick_answers = []  # functions choosing from the offered items
        self.tabGroups = TabGroups()
        self.webview_view_providers = {}
        self.status_messages = []
        self.activeTextEditor = None

    def createOutputChannel(self, name, options=None):
        channel = OutputChannel(name, options if isinstance(options, dict) else None)
        self.output_channels.append(channel)
        return channel

    def createStatusBarItem(self, id, alignment=None, priority=None):
        item = StatusBarItem(id, alignment, priority)
        self.status_bar_items.append(item)
        return item

    def _message(self, level, text, items):
        self.messages.append((level, text, list(items)))
        return _resolved(self.message_answers.pop(0) if self.message_answers else None)

    def showInformationMessage(self, text, *items):
        return self._message('info', text, items)

    def showWarningMessage(self, text, *items):
        return self._message('warning', text, items)

    def showErrorMessage(self, text, *items):
        return self._message('error', text, items)

    def showQuickPick(self, items, options=None):
        self.quick_picks.append(list(items))
        return _resolved(self.quick_pick_answers.pop(0)(items) if self.quick_pick_answers else None)

    # webview views and the active editor (the side panel)
    def registerWebviewViewProvider(self, view_id, provider, options=None):
        if view_id in self.webview_view_providers:
            raise ValueError(f"a webview view provider for '{view_id}' is already registered")
        self.webview_view_providers[view_id] = (provider, options)
        return Disposable(lambda: self.webview_view_providers.pop(view_id, None))

    def setStatusBarMessage(self, text, timeout=None):
        self.status_messages.append(text)
        return Disposable()


class Tab(JsObject):
    def __init__(self, label, uri=None, active=False, dirty=False, pinned=False, preview=False):
        self.label = label
        self.input = None if uri is None else type('TabInputText', (), {'uri': uri, 'modified': None})()
        self.isActive, self.isDirty, self.isPinned, self.isPreview = active, dirty, pinned, preview


class TabGroup(JsObject):
    def __init__(self, view_column, tabs, active=True):
        self.viewColumn, self.tabs, self.isActive = view_column, tabs, active


class TabGroups:
    def __init__(self):
        self.all = []


# ------------------------------------------------------------------------------ webviews and editors

class Webview(JsObject):
    """What a WebviewView's `webview` offers; `receive(message)` is the test posting from the page."""

    def __init__(self):
        self.options = None
        self.html = ''
        self.cspSource = 'https://shim.vscode-cdn.net'
        self.posted = []
        self._received = EventEmitter()
        self.onDidReceiveMessage = self._received.event

    def asWebviewUri(self, uri):
        return Uri('https', 'shim.vscode-cdn.net' + uri.path)

    def postMessage(self, message):
        self.posted.append(message)
        return _resolved(True)

    def receive(self, message):
        self._received.fire(message)


class WebviewView(JsObject):
    def __init__(self):
        self.webview = Webview()
        self.visible = True
        self._disposed = EventEmitter()
        self.onDidDispose = self._disposed.event

    def dispose(self):
        self._disposed.fire(None)


class TextDocument(JsObject):
    def __init__(self, text='', path='/tmp/shim.txt'):
        self.text = text
        self.uri = Uri.file(path)

    def getText(self, range=None):
        return self.text


class TextEditor(JsObject):
    """An editor whose edits are recorded as (selection, text) replacements."""

    def __init__(self, document=None, selections=None):
        self.document = document or TextDocument()
        self.selections = selections or [Selection(0, 0, 0, 0)]
        self.selection = self.selections[0]
        self.edits = []

    def edit(self, callback, options=None):
        editor = self

        class Builder:
            def replace(self, location, text):
                editor.edits.append((location, text))

            def insert(self, location, text):
                editor.edits.append((location, text))
        callback(Builder())
        return _resolved(True)


class ConfigurationTarget:
    Global = 1
    Workspace = 2
    WorkspaceFolder = 3


# ------------------------------------------------------------------------------ commands

class _Commands:
    def __init__(self):
        self.handlers = {}
        self.executed = []

    def registerCommand(self, command_id, handler, this_arg=None):
        if command_id in self.handlers:
            raise ValueError(f"command '{command_id}' already exists")
        self.handlers[command_id] = handler
        return Disposable(lambda: self.handlers.pop(command_id, None))

    def executeCommand(self, command_id, *args):
        self.executed.append((command_id, args))
        if command_id not in self.handlers:
            raise ValueError(f"command '{command_id}' not found")
        return self.handlers[command_id](*args)

    def getCommands(self, filter_internal=False):
        return _resolved(sorted(self.handlers))


# ------------------------------------------------------------------------------ workspace

class WorkspaceFolder(JsObject):
    def __init__(self, path, index=0):
        self.uri = Uri.file(path)
        self.name = os.path.basename(path)
        self.index = index


class Configuration:
    def __init__(self, store, section):
        self._store, self._section = store, section

    def _key(self, key):
        return f'{self._section}.{key}' if self._section else key

    def get(self, key, default=None):
        return self._store.get(self._key(key), default)

    js_get = get  # what `config.js_get(...)` in py_src compiles to `.get(...)` for

    def has(self, key):
        return self._key(key) in self._store

    def update(self, key, value, target=None):
        self._store[self._key(key)] = value
        return _resolved(None)


class ConfigurationChangeEvent:
    def __init__(self, changed_keys):
        self._changed = changed_keys

    def affectsConfiguration(self, section, scope=None):
        return any(key == section or key.startswith(section + '.') for key in self._changed)


class _Workspace(JsObject):
    def __init__(self):
        self.settings = {}
        self.workspaceFolders = None
        self.name = None
        self._config_changed = EventEmitter()
        self.onDidChangeConfiguration = self._config_changed.event

    def getConfiguration(self, section=None, scope=None):
        return Configuration(self.settings, section)

    def open_folders(self, paths):
        """Test helper: open folders as the user would."""
        self.workspaceFolders = [WorkspaceFolder(path, index) for index, path in enumerate(paths)]
        self.name = ', '.join(folder.name for folder in self.workspaceFolders)

    def set_setting(self, key, value):
        """Test helper: change a setting the way the user would, firing the change event."""
        self.settings[key] = value
        self._config_changed.fire(ConfigurationChangeEvent([key]))


# ------------------------------------------------------------------------------ context

class SecretStorage:
    def __init__(self):
        self.values = {}
        self._changed = EventEmitter()
        self.onDidChange = self._changed.event

    def get(self, key):
        return _resolved(self.values.get(key))

    js_get = get

    def store(self, key, value):
        self.values[key] = value
        self._changed.fire({'key': key})
        return _resolved(None)

    def delete(self, key):
        self.values.pop(key, None)
        return _resolved(None)


class Memento:
    def __init__(self):
        self.values = {}

    def get(self, key, default=None):
        return self.values.get(key, default)

    js_get = get

    def update(self, key, value):
        self.values[key] = value
        return _resolved(None)

    def keys(self):
        return list(self.values)


class Subscriptions(list):
    def push(self, *items):
        self.extend(items)
        return len(self)


class ExtensionContext:
    """What VS Code hands to activate(); `dispose_all()` does what VS Code does on deactivate."""

    def __init__(self, version='0.1.0', storage_dir='/tmp/hermes-test-storage'):
        self.subscriptions = Subscriptions()
        self.secrets = SecretStorage()
        self.globalState = Memento()
        self.workspaceState = Memento()
        self.globalStorageUri = Uri.file(storage_dir)
        self.extensionUri = Uri.file(os.getcwd())
        self.extension = type('Extension', (), {})()
        self.extension.packageJSON = {'version': version, 'name': 'hermes-agent'}
        self.extension.id = 'hermes-agent.hermes-agent'

    def dispose_all(self):
        for disposable in reversed(self.subscriptions):
            disposable.dispose()
        self.subscriptions.clear()


# ------------------------------------------------------------------------------ helpers

def _start(result):
    """An async listener's coroutine runs as a JS promise would: scheduled on the running loop, or
    (with no loop running) to completion right away."""
    if asyncio.iscoroutine(result):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(result)
            return
        asyncio.ensure_future(result)


def _resolved(value):
    """What an awaited Thenable gives: a finished future when a loop runs, else the value itself."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return value
    future = loop.create_future()
    future.set_result(value)
    return future


class McpHttpServerDefinition:
    def __init__(self, label, uri, headers=None, version=None):
        self.label, self.uri, self.headers, self.version = label, uri, headers or {}, version


class _Clipboard:
    def __init__(self):
        self.text = ''

    def writeText(self, text):
        self.text = text
        return _resolved(None)

    def readText(self):
        return _resolved(self.text)


class _Env:
    def __init__(self):
        self.appName = 'Visual Studio Code (shim)'
        self.clipboard = _Clipboard()


class _Lm:
    def __init__(self):
        self.mcp_providers = {}

    def registerMcpServerDefinitionProvider(self, provider_id, provider):
        self.mcp_providers[provider_id] = provider
        return Disposable(lambda: self.mcp_providers.pop(provider_id, None))


def reset():
    """Give the module a fresh world (called before every test by conftest)."""
    global window, commands, workspace, env, lm
    window = _Window()
    commands = _Commands()
    workspace = _Workspace()
    env = _Env()
    lm = _Lm()


version = '1.139.1'
window = commands = workspace = env = lm = None
reset()
