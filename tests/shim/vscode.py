"""A CPython stand-in for the `vscode` module, for pytest.

It behaves like VS Code where Hermes depends on it (disposables dispose, commands dispatch, output
channels keep their lines, configuration reads settings with defaults) and records what the code
did, so tests can assert on it. `reset()` gives every test a fresh world. It grows with each
capability; anything not here raises AttributeError, so a test can't silently pass on a missing API.
"""
import asyncio
import os
import tempfile
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

            js_replace = replace

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

    js_update = update  # `.update` would be renamed to `.py_update` by Transcrypt


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
        self.isTrusted = True
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

    js_update = update

    def keys(self):
        return list(self.values)


class Subscriptions(list):
    def push(self, *items):
        self.extend(items)
        return len(self)


class ExtensionContext:
    """What VS Code hands to activate(); `dispose_all()` does what VS Code does on deactivate."""

    def __init__(self, version='0.1.0', storage_dir=None):
        storage_dir = storage_dir or tempfile.mkdtemp(prefix='hermes-test-storage-')
        self.subscriptions = Subscriptions()
        self.secrets = SecretStorage()
        self.globalState = Memento()
        self.workspaceState = Memento()
        self.globalStorageUri = Uri.file(storage_dir)
        self.storageUri = Uri.file(os.path.join(storage_dir, 'workspace'))  # None without a folder
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


def _reset_base():
    """window, commands, workspace, env and lm, new."""
    global window, commands, workspace, env, lm
    window = _Window()
    commands = _Commands()
    workspace = _Workspace()
    env = _Env()
    lm = _Lm()


version = '1.139.1'
window = commands = workspace = env = lm = None


# ==================================================================================================
# Terminals, debugging and language features (the terminal/debug/git/lsp tools).
# A section of its own: new classes, and a reset() that extends the one above instead of editing it.
# Objects here read a missing attribute as None, the way JS reads `undefined`.

class _Undefined:
    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return None

    def __getitem__(self, key):
        return getattr(self, key)


def _soon(callback, *args):
    """Run `callback` on the next loop turn (VS Code fires most events asynchronously)."""
    try:
        asyncio.get_running_loop().call_soon(callback, *args)
    except RuntimeError:
        callback(*args)


_position_equal = Position.__eq__
Position.__eq__ = lambda self, other: isinstance(other, Position) and _position_equal(self, other)  # `== None` too


class Location(_Undefined):
    def __init__(self, uri, range_or_position):
        self.uri = uri
        if isinstance(range_or_position, Position):
            range_or_position = Range(range_or_position, range_or_position)
        self.range = range_or_position


class SourceBreakpoint(_Undefined):
    _next = [0]

    def __init__(self, location, enabled=True, condition=None, hitCondition=None, logMessage=None):
        SourceBreakpoint._next[0] += 1
        self.id = f'bp{SourceBreakpoint._next[0]}'
        self.location, self.enabled, self.condition = location, enabled, condition
        self.hitCondition, self.logMessage = hitCondition, logMessage


class FunctionBreakpoint(_Undefined):
    def __init__(self, functionName, enabled=True, condition=None):
        self.functionName, self.enabled, self.condition = functionName, enabled, condition


class MarkdownString(_Undefined):
    def __init__(self, value=''):
        self.value = value


class Hover(_Undefined):
    def __init__(self, contents, range=None):
        self.contents = contents if isinstance(contents, list) else [contents]
        self.range = range


class SymbolKind:
    (File, Module, Namespace, Package, Class, Method, Property, Field, Constructor, Enum, Interface, Function,
     Variable, Constant, String, Number, Boolean, Array, Object, Key, Null, EnumMember, Struct, Event, Operator,
     TypeParameter) = range(26)


class DocumentSymbol(_Undefined):
    def __init__(self, name, detail, kind, range, selectionRange):
        self.name, self.detail, self.kind, self.range, self.selectionRange = name, detail, kind, range, selectionRange
        self.children = []


class SymbolInformation(_Undefined):
    def __init__(self, name, kind, containerName, location):
        self.name, self.kind, self.containerName, self.location = name, kind, containerName, location


class TextEdit(_Undefined):
    def __init__(self, range, newText):
        self.range, self.newText = range, newText

    @staticmethod
    def replace(range, newText):
        return TextEdit(range, newText)


class TextLine(_Undefined):
    def __init__(self, text, number):
        self.text, self.lineNumber = text, number


class ShimTextDocument(_Undefined):
    """A text document over a file: `lines` are its text; edits change it until `save()` writes it."""

    def __init__(self, uri, text):
        self.uri, self._text = uri, text
        self.isDirty = False
        self.version = 1
        self.languageId = os.path.splitext(uri.fsPath)[1].lstrip('.') or 'plaintext'
        self.fileName = uri.fsPath

    @property
    def lineCount(self):
        return len(self._text.split('\n'))

    def lineAt(self, line):
        line = line.line if isinstance(line, Position) else line
        lines = self._text.split('\n')
        if not 0 <= line < len(lines):
            raise IndexError(f'Illegal value for `line`: {line}')
        return TextLine(lines[line], line)

    def getText(self, range=None):
        if range is None:
            return self._text
        return self._text[self.offsetAt(range.start):self.offsetAt(range.end)]

    def offsetAt(self, position):
        lines = self._text.split('\n')
        return sum(len(item) + 1 for item in lines[:position.line]) + position.character

    def positionAt(self, offset):
        before = self._text[:offset].split('\n')
        return Position(len(before) - 1, len(before[-1]))

    def _apply(self, edits):
        for edit in sorted(edits, key=lambda e: self.offsetAt(e.range.start), reverse=True):
            start, end = self.offsetAt(edit.range.start), self.offsetAt(edit.range.end)
            self._text = self._text[:start] + edit.newText + self._text[end:]
        self.isDirty = True
        self.version += 1

    def save(self):
        with open(self.uri.fsPath, 'w') as handle:
            handle.write(self._text)
        self.isDirty = False
        return _resolved(True)


def _shim_open_text_document(uri):
    uri = Uri.file(uri) if isinstance(uri, str) else uri
    for document in workspace.shim_documents:
        if document.uri == uri:
            return _resolved(document)
    if not os.path.isfile(uri.fsPath):
        future_error = FileNotFoundError(f'cannot open {uri.toString()}. Detail: Unable to read file')
        raise future_error
    with open(uri.fsPath) as handle:
        document = ShimTextDocument(uri, handle.read())
    workspace.shim_documents.append(document)
    return _resolved(document)


def _shim_apply_edit(edit, metadata=None):
    for uri, edits in edit.entries():
        document = _shim_open_text_document(uri)
        document = document.result() if hasattr(document, 'result') else document
        document._apply(edits)
    workspace.applied_edits.append(edit)
    return _resolved(workspace.apply_edit_answer)


# ---------------------------------------------------------------------------- terminals

class ShellExecutionCommandLine(_Undefined):
    def __init__(self, value):
        self.value, self.isTrusted, self.confidence = value, True, 2


class ShellExecution(_Undefined):
    """Output written with `_write` reaches every `read()` iterator; `_end()` finishes them."""

    def __init__(self, command, cwd=None):
        self.commandLine = ShellExecutionCommandLine(command)
        self.cwd = cwd
        self._chunks = []
        self._ended = False
        self._event = None
        self.reads = 0

    def _signal(self):
        if self._event is not None:
            self._event.set()
            self._event = None

    def _write(self, chunk):
        self._chunks.append(chunk)
        self._signal()

    def _end(self):
        self._ended = True
        self._signal()

    def read(self):
        self.reads += 1
        return self._iterate()

    async def _iterate(self):
        index = 0
        while True:
            while index < len(self._chunks):
                index += 1
                yield self._chunks[index - 1]
            if self._ended:
                return
            if self._event is None:
                self._event = asyncio.Event()
            await self._event.wait()


class ShellIntegration(_Undefined):
    def __init__(self, terminal):
        self._terminal = terminal
        self.cwd = Uri.file(terminal.creationOptions.get('cwd') or os.getcwd())

    def executeCommand(self, command_line, args=None):
        return self._terminal._run(command_line)


class Terminal(_Undefined):
    """A terminal whose "shell" answers from `window.shell_commands`: command → (chunks, exit code);
    exit code None means the command runs until Ctrl+C (exit 130). Unknown commands exit 127."""

    def __init__(self, options):
        self.name = options.get('name') or 'bash'
        self.creationOptions = options
        self.shellIntegration = None
        self.exitStatus = None
        self.processId = _resolved(4242)
        self.sent = []
        self.shown = False
        self._running = None

    def show(self, preserve_focus=False):
        self.shown = True
        window.activeTerminal = self

    def hide(self):
        self.shown = False

    def sendText(self, text, add_new_line=True):
        self.sent.append((text, add_new_line))
        if text == '\x03' and self._running is not None:
            self._finish(self._running, 130)
        elif add_new_line and self.shellIntegration is not None and self._running is None:
            self._run(text)

    def dispose(self):
        if self.exitStatus is not None:
            return
        self.exitStatus = _Undefined()
        self.exitStatus.code = None
        self.exitStatus.reason = 3
        if self in window.terminals:
            window.terminals.remove(self)
        if window.activeTerminal is self:
            window.activeTerminal = window.terminals[-1] if window.terminals else None
        _soon(window._terminal_closed.fire, self)

    def _activate_shell_integration(self):
        if self.exitStatus is None and self.shellIntegration is None:
            self.shellIntegration = ShellIntegration(self)
            window._shell_integration_changed.fire(_Event(terminal=self, shellIntegration=self.shellIntegration))

    def _run(self, command):
        execution = ShellExecution(command, self.shellIntegration.cwd)
        self._running = execution
        chunks, exit_code = window.shell_commands.get(command, ([f'bash: {command.split()[0]}: command not found\r\n'], 127))
        _soon(self._start, execution, list(chunks), exit_code)
        return execution

    def _start(self, execution, chunks, exit_code):
        window._execution_started.fire(_Event(terminal=self, execution=execution, shellIntegration=self.shellIntegration))
        for chunk in chunks:
            execution._write(chunk)
        if exit_code is not None:
            _soon(self._finish, execution, exit_code)

    def _finish(self, execution, exit_code):
        if execution._ended:
            return
        execution._end()
        if self._running is execution:
            self._running = None
        window._execution_ended.fire(_Event(terminal=self, execution=execution, exitCode=exit_code,
                                            shellIntegration=self.shellIntegration))


class _Event(_Undefined):
    def __init__(self, **fields):
        self.__dict__.update(fields)


def _create_terminal(options=None, *rest):
    options = dict(options) if isinstance(options, dict) else {'name': options}
    terminal = Terminal(options)
    window.terminals.append(terminal)
    window.created_terminals.append(terminal)
    if window.activeTerminal is None:
        window.activeTerminal = terminal
    _soon(window._terminal_opened.fire, terminal)
    if window.terminal_shell_integration:
        _soon(terminal._activate_shell_integration)
    return terminal


def _install_terminals(win):
    win.terminals = []
    win.created_terminals = []
    win.activeTerminal = None
    win.shell_commands = {}
    win.terminal_shell_integration = True  # tests set False: shells without shell integration
    win.createTerminal = _create_terminal
    for attribute, event in [('_terminal_opened', 'onDidOpenTerminal'), ('_terminal_closed', 'onDidCloseTerminal'),
                             ('_shell_integration_changed', 'onDidChangeTerminalShellIntegration'),
                             ('_execution_started', 'onDidStartTerminalShellExecution'),
                             ('_execution_ended', 'onDidEndTerminalShellExecution')]:
        emitter = EventEmitter()
        setattr(win, attribute, emitter)
        setattr(win, event, emitter.event)


# ---------------------------------------------------------------------------- debugging

class DebugSession(_Undefined):
    """A session whose DAP requests are answered by `handlers[command](args)` (a dict or an exception)."""
    _next = [0]

    def __init__(self, name, type='node', configuration=None, parent=None, handlers=None):
        DebugSession._next[0] += 1
        self.id = f'session-{DebugSession._next[0]}'
        self.name, self.type = name, type
        self.configuration = configuration or {'name': name, 'type': type, 'request': 'launch'}
        self.parentSession = parent
        self.handlers = dict(handlers or {})
        self.requests = []
        self.trackers = []

    async def customRequest(self, command, args=None):
        self.requests.append((command, args))
        for tracker in self.trackers:
            if tracker.get('onWillReceiveMessage'):
                tracker['onWillReceiveMessage']({'type': 'request', 'command': command, 'arguments': args})
        handler = self.handlers.get(command)
        if handler is None:
            raise Exception(f"Unrecognized request '{command}'")
        result = handler(args or {})
        if isinstance(result, Exception):
            raise result
        return result

    def send_event(self, event, body=None):
        """What the debug adapter sends: every tracker sees it."""
        for tracker in self.trackers:
            if tracker.get('onDidSendMessage'):
                tracker['onDidSendMessage']({'seq': 1, 'type': 'event', 'event': event, 'body': body or {}})


class _Debug(_Undefined):
    def __init__(self):
        self.breakpoints = []
        self.activeDebugSession = None
        self.sessions = []
        self.tracker_factories = []
        self.started = []  # (folder, name or configuration)
        self.launcher = None  # tests: launcher(folder, config) → [DebugSession] (they may send events later)
        self._started = EventEmitter()
        self._terminated = EventEmitter()
        self._breakpoints_changed = EventEmitter()
        self.onDidStartDebugSession = self._started.event
        self.onDidTerminateDebugSession = self._terminated.event
        self.onDidChangeBreakpoints = self._breakpoints_changed.event

    def registerDebugAdapterTrackerFactory(self, debug_type, factory):
        entry = (debug_type, factory)
        self.tracker_factories.append(entry)
        return Disposable(lambda: self.tracker_factories.remove(entry))

    def addBreakpoints(self, breakpoints):
        self.breakpoints = self.breakpoints + list(breakpoints)
        self._breakpoints_changed.fire({'added': list(breakpoints), 'removed': [], 'changed': []})

    def removeBreakpoints(self, breakpoints):
        self.breakpoints = [bp for bp in self.breakpoints if bp not in breakpoints]
        self._breakpoints_changed.fire({'added': [], 'removed': list(breakpoints), 'changed': []})

    def add_session(self, session):
        """Test helper: a session starts (trackers attach, the start event fires)."""
        for debug_type, factory in self.tracker_factories:
            if debug_type in ('*', session.type):
                tracker = factory['createDebugAdapterTracker'](session)
                if tracker is not None:
                    session.trackers.append(tracker)
        self.sessions.append(session)
        self.activeDebugSession = session
        self._started.fire(session)
        return session

    def end_session(self, session):
        if session not in self.sessions:
            return
        for child in [item for item in self.sessions if item.parentSession is session]:
            self.end_session(child)
        session.send_event('terminated')
        self.sessions.remove(session)
        if self.activeDebugSession is session:
            self.activeDebugSession = self.sessions[-1] if self.sessions else None
        self._terminated.fire(session)

    def startDebugging(self, folder, name_or_config, options=None):
        config = name_or_config
        if isinstance(name_or_config, str):
            known = workspace.settings.get('launch.configurations') or []
            matches = [item for item in known if item.get('name') == name_or_config]
            if not matches:
                return _resolved(False)
            config = matches[0]
        self.started.append((folder, name_or_config))
        if self.launcher is None:
            self.add_session(DebugSession(config.get('name', 'debug'), config.get('type', 'node'), config))
            return _resolved(True)
        sessions = self.launcher(folder, config)
        return _resolved(bool(sessions))

    def stopDebugging(self, session=None):
        targets = [session] if session is not None else [item for item in self.sessions if item.parentSession is None]
        for target in targets:
            _soon(self.end_session, target)
        return _resolved(None)


def _reset_tool_suite():
    global debug
    _install_terminals(window)
    debug = _Debug()
    if not hasattr(workspace, 'openTextDocument'):
        workspace.shim_documents = []
        workspace.openTextDocument = _shim_open_text_document
    if not hasattr(workspace, 'applyEdit'):
        workspace.applied_edits = []
        workspace.apply_edit_answer = True
        workspace.applyEdit = _shim_apply_edit


debug = None


# ==================================================================================================
# Documents, editors, files, search, diagnostics, tasks and settings (the editor/file/workspace/command
# tools). A section of its own, self-contained: it adds classes and extends reset() at its end.
# Files are real (tests use tmp_path); documents hold text until saved, as VS Code's do.

import re as _re  # noqa: E402
import shutil as _shutil  # noqa: E402


class FileType:
    Unknown = 0
    File = 1
    Directory = 2
    SymbolicLink = 64


class FileSystemError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.message, self.code = message, code


class ProgressLocation:
    SourceControl = 1
    Window = 10
    Notification = 15


class TextEditorRevealType:
    Default = 0
    InCenter = 1
    InCenterIfOutsideViewport = 2
    AtTop = 3


class DiagnosticSeverity:
    Error = 0
    Warning = 1
    Information = 2
    Hint = 3


class Diagnostic(JsObject):
    def __init__(self, range, message, severity=DiagnosticSeverity.Error):
        self.range, self.message, self.severity = range, message, severity
        self.source = None
        self.code = None


class RelativePattern(JsObject):
    def __init__(self, base, pattern):
        if isinstance(base, str):
            base = Uri.file(base)
        self.baseUri = base.uri if isinstance(base, WorkspaceFolder) else base
        self.base = self.baseUri.fsPath
        self.pattern = pattern


class _QueryUri(Uri):
    """Uri.from({scheme, path, query}): a URI whose string form keeps its query (VS Code's does)."""

    def toString(self):
        return f'{self.scheme}:{self.path}' + (f'?{self.query}' if self.query else '')


Uri.js_from = staticmethod(lambda parts: _QueryUri(parts['scheme'], parts.get('path', ''), parts.get('query', ''),
                                                   parts.get('fragment', '')))

_LANGUAGES = {'.ts': 'typescript', '.js': 'javascript', '.py': 'python', '.md': 'markdown', '.json': 'json',
              '.txt': 'plaintext'}


class _DocLine(JsObject):
    def __init__(self, text, number):
        self.text, self.lineNumber = text, number
        self.range = Range(number, 0, number, len(text))
        self.isEmptyOrWhitespace = text.strip() == ''


class _Document(JsObject):
    """A TextDocument: positions count lines split at \\n or \\r\\n, as VS Code does."""

    def __init__(self, uri, text, language_id=None):
        self.uri = uri
        self.fileName = uri.fsPath
        self.isUntitled = False
        self.isClosed = False
        self.isDirty = False
        self.version = 1
        self.languageId = language_id or _LANGUAGES.get(os.path.splitext(uri.path)[1], 'plaintext')
        self.saves = 0
        self._set(text)

    def _set(self, text):
        self._text = text
        self._starts = [0] + [match.end() for match in _re.finditer('\n', text)]

    @property
    def eol(self):
        return 2 if '\r\n' in self._text else 1

    @property
    def lineCount(self):
        return len(self._starts)

    def _line_text(self, line):
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self._text)
        text = self._text[start:end]
        return text[:-1] if text.endswith('\r') else text

    def lineAt(self, line):
        line = line.line if isinstance(line, Position) else line
        if not 0 <= line < len(self._starts):
            raise IndexError(f'Illegal value for `line`: {line}')
        return _DocLine(self._line_text(line), line)

    def offsetAt(self, position):
        line = min(max(position.line, 0), len(self._starts) - 1)
        return self._starts[line] + min(max(position.character, 0), len(self._line_text(line)))

    def positionAt(self, offset):
        offset = min(max(offset, 0), len(self._text))
        line = max(index for index, start in enumerate(self._starts) if start <= offset)
        return Position(line, min(offset - self._starts[line], len(self._line_text(line))))

    def getText(self, range=None):
        if range is None:
            return self._text
        return self._text[self.offsetAt(range.start):self.offsetAt(range.end)]

    def _apply(self, edits):
        spans = sorted(((self.offsetAt(edit.range.start), self.offsetAt(edit.range.end), edit.newText)
                        for edit in edits), key=lambda span: span[0], reverse=True)
        text = self._text
        for start, end, new_text in spans:
            text = text[:start] + new_text + text[end:]
        self._set(text)
        self.isDirty = True
        self.version += 1

    def save(self):
        if workspace.save_answer is False:
            return _resolved(False)
        with open(self.uri.fsPath, 'w', newline='') as handle:
            handle.write(self._text)
        self.isDirty = False
        self.saves += 1
        return _resolved(True)

    def _reload_from_disk(self):
        """What VS Code does when a file changes on disk and its document has no unsaved changes."""
        if not self.isDirty and os.path.isfile(self.uri.fsPath):
            with open(self.uri.fsPath, newline='') as handle:
                self._set(handle.read())
            self.version += 1


class _TextEdit(JsObject):
    def __init__(self, range, newText):
        self.range, self.newText = range, newText


class WorkspaceEdit(JsObject):  # text edits and file operations
    def __init__(self):
        self._entries = []
        self.operations = []  # ('text', uri, [edits]) | ('create', uri, options) | ('delete', uri, options)

    def replace(self, uri, range, newText, metadata=None):
        for entry_uri, edits in self._entries:
            if entry_uri == uri:
                edits.append(_TextEdit(range, newText))
                return
        edits = [_TextEdit(range, newText)]
        self._entries.append((uri, edits))
        self.operations.append(('text', uri, edits))

    js_replace = replace

    def insert(self, uri, position, newText, metadata=None):
        self.replace(uri, Range(position, position), newText)

    def delete(self, uri, range, metadata=None):
        self.replace(uri, range, '')

    def createFile(self, uri, options=None, metadata=None):
        self.operations.append(('create', uri, dict(options or {})))

    def deleteFile(self, uri, options=None, metadata=None):
        self.operations.append(('delete', uri, dict(options or {})))

    def entries(self):
        return [[uri, list(edits)] for uri, edits in self._entries]

    @property
    def size(self):
        return len(self._entries)


def _find_document(uri):
    for document in workspace.textDocuments:
        if document.uri == uri:
            return document
    return None


def _load_document(uri):
    uri = Uri.file(uri) if isinstance(uri, str) else uri
    document = _find_document(uri)
    if document is not None:
        return document
    if not os.path.isfile(uri.fsPath):
        raise FileSystemError(f'cannot open {uri.toString()}. Detail: Unable to read file (FileNotFound)',
                              'FileNotFound')
    with open(uri.fsPath, newline='') as handle:
        document = _Document(uri, handle.read())
    workspace.textDocuments.append(document)
    return document


def _reload_documents(path):
    for document in workspace.textDocuments:
        if document.uri.fsPath == path or document.uri.fsPath.startswith(path + os.sep):
            document._reload_from_disk()


def _apply_workspace_edit(edit, metadata=None):
    if workspace.apply_edit_answer is False:
        return _resolved(False)
    for operation in getattr(edit, 'operations', None) or [('text', uri, edits) for uri, edits in edit.entries()]:
        kind, uri = operation[0], operation[1]
        if kind == 'text':
            _load_document(uri)._apply(operation[2])
        elif kind == 'create':
            options = operation[2]
            if os.path.exists(uri.fsPath) and not options.get('overwrite'):
                if options.get('ignoreIfExists'):
                    continue
                return _resolved(False)
            os.makedirs(os.path.dirname(uri.fsPath), exist_ok=True)
            with open(uri.fsPath, 'wb') as handle:
                handle.write(bytes(options.get('contents') or b''))
            _reload_documents(uri.fsPath)
        elif kind == 'delete':
            if not os.path.lexists(uri.fsPath):
                if operation[2].get('ignoreIfNotExists'):
                    continue
                return _resolved(False)
            workspace.fs._remove(uri.fsPath)
    workspace.applied_edits.append(edit)
    return _resolved(True)


class _FileStat(JsObject):
    def __init__(self, kind, size, mtime):
        self.type, self.size, self.mtime, self.ctime = kind, size, mtime, mtime


def _file_type(path):
    kind = FileType.SymbolicLink if os.path.islink(path) else 0
    if os.path.isdir(path):
        kind |= FileType.Directory
    elif os.path.isfile(path):
        kind |= FileType.File
    return kind


class _FileSystem:
    """vscode.workspace.fs over the real disk. `supports_trash = False` imitates code-server, whose
    file system refuses `useTrash` deletes."""

    def __init__(self):
        self.supports_trash = True
        self.trashed = []

    @staticmethod
    def _missing(uri):
        return FileSystemError(f'Unable to resolve nonexistent file \'{uri.fsPath}\' (FileNotFound)', 'FileNotFound')

    def stat(self, uri):
        if not os.path.lexists(uri.fsPath):
            raise self._missing(uri)
        info = os.stat(uri.fsPath) if os.path.exists(uri.fsPath) else os.lstat(uri.fsPath)
        return _resolved(_FileStat(_file_type(uri.fsPath), info.st_size, info.st_mtime * 1000))

    def readFile(self, uri):
        if not os.path.isfile(uri.fsPath):
            raise self._missing(uri)
        with open(uri.fsPath, 'rb') as handle:
            return _resolved(handle.read())

    def writeFile(self, uri, content):
        with open(uri.fsPath, 'wb') as handle:
            handle.write(bytes(content))
        _reload_documents(uri.fsPath)
        return _resolved(None)

    def createDirectory(self, uri):
        os.makedirs(uri.fsPath, exist_ok=True)
        return _resolved(None)

    def readDirectory(self, uri):
        if not os.path.isdir(uri.fsPath):
            raise self._missing(uri)
        return _resolved([[name, _file_type(os.path.join(uri.fsPath, name))]
                          for name in sorted(os.listdir(uri.fsPath))])

    def delete(self, uri, options=None):
        options = options or {}
        path = uri.fsPath
        if not os.path.lexists(path):
            raise self._missing(uri)
        if options.get('useTrash') and not self.supports_trash:
            raise FileSystemError(f"Unable to delete file '{path}' via trash because provider does not support it.",
                                  'Unknown')
        if os.path.isdir(path) and not os.path.islink(path) and os.listdir(path) and not options.get('recursive'):
            raise FileSystemError(f"Unable to delete non-empty folder '{path}'.", 'Unknown')
        if options.get('useTrash'):
            self.trashed.append(path)
        self._remove(path)
        return _resolved(None)

    @staticmethod
    def _remove(path):
        if os.path.isdir(path) and not os.path.islink(path):
            _shutil.rmtree(path)
        else:
            os.remove(path)


def _glob_regex(pattern):
    """An independent, small translation of VS Code globs for the shim's findFiles."""
    out, index = '', 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith('**/', index):
            out, index = out + '(?:.*/)?', index + 3
            continue
        if pattern.startswith('**', index):
            out, index = out + '.*', index + 2
            continue
        if char == '*':
            out += '[^/]*'
        elif char == '?':
            out += '[^/]'
        elif char == '{':
            close = pattern.index('}', index)
            out += '(?:' + '|'.join(_glob_regex(part)[1:-1] for part in pattern[index + 1:close].split(',')) + ')'
            index = close
        else:
            out += _re.escape(char)
        index += 1
    return '^' + out + '$'


def _matches(pattern, relative):
    return _re.match(_glob_regex(pattern), relative) is not None


def _find_files(include, exclude=None, max_results=None, token=None):
    workspace.find_files_calls.append((include, exclude, max_results))
    if isinstance(include, RelativePattern):
        roots, pattern = [include.base], include.pattern
    else:
        roots, pattern = [folder.uri.fsPath for folder in (workspace.workspaceFolders or [])], include
    excludes = [key for key, value in (workspace.settings.get('files.exclude') or {}).items() if value is True]
    if exclude is not None:
        excludes.append(exclude)
    found = []
    for root in roots:
        for folder, folder_names, file_names in os.walk(root):
            folder_names.sort()  # a stable order, like a real traversal's
            for name in sorted(file_names):
                relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                if not _matches(pattern, relative) or any(_matches(item, relative) or
                                                          _matches(item + '/**', relative) for item in excludes):
                    continue
                found.append(Uri.file(os.path.join(folder, name)))
                if max_results is not None and len(found) >= max_results:
                    return _resolved(found)
    return _resolved(found)


class _InspectableConfiguration(Configuration):
    """getConfiguration() with defaults, sections, inspect() and update() per target."""

    def __init__(self, section=None):
        super().__init__(workspace.settings, section)

    def get(self, key, default=None):
        full = self._key(key)
        if full in self._store:
            return self._store[full]
        if full in workspace.setting_defaults:
            return workspace.setting_defaults[full]
        section = {}
        for name, value in list(workspace.setting_defaults.items()) + list(self._store.items()):
            if name.startswith(full + '.'):
                section[name[len(full) + 1:]] = value
        return section if section else default

    js_get = get

    def inspect(self, key):
        full = self._key(key)
        if full not in self._store and full not in workspace.setting_defaults:
            return None
        targets = workspace.settings_by_target

        def at(target):
            return targets.get(target, {}).get(full)
        # A value a test put straight into workspace.settings (no target) counts as the user's own.
        targeted = any(full in level for level in targets.values())
        user_value = at(ConfigurationTarget.Global) if targeted else self._store.get(full)
        return JsObjectDict(key=full, defaultValue=workspace.setting_defaults.get(full),
                            globalValue=user_value, workspaceValue=at(ConfigurationTarget.Workspace),
                            workspaceFolderValue=at(ConfigurationTarget.WorkspaceFolder))

    def update(self, key, value, target=None):
        full = self._key(key)
        known = workspace.known_settings
        if known is not None and full not in known:
            raise Exception(f'Unable to write to Workspace Settings because {full} is not a registered configuration.')
        level = workspace.settings_by_target.setdefault(target or ConfigurationTarget.Global, {})
        if value is None:
            level.pop(full, None)
            workspace.settings.pop(full, None)
            workspace._config_changed.fire(ConfigurationChangeEvent([full]))
        else:
            level[full] = value
            workspace.set_setting(full, value)
        workspace.config_updates.append((full, value, target))
        return _resolved(None)

    js_update = update


class JsObjectDict(JsObject):
    def __init__(self, **fields):
        self.__dict__.update(fields)


class _Languages:
    def __init__(self):
        self.diagnostics = {}  # Uri → [Diagnostic]
        self._changed = EventEmitter()
        self.onDidChangeDiagnostics = self._changed.event

    def getDiagnostics(self, uri=None):
        if uri is not None:
            return list(self.diagnostics.get(uri, []))
        return [[key, list(value)] for key, value in self.diagnostics.items()]

    def set_diagnostics(self, uri, diagnostics):
        """Test helper: a language service reports."""
        self.diagnostics[uri] = list(diagnostics)
        self._changed.fire(JsObjectDict(uris=[uri]))


class _Task(JsObject):
    """A task that "runs" for `duration` seconds and exits with `exit_code` (None: runs until terminated)."""

    def __init__(self, name, source='Workspace', exit_code=0, duration=0.01, task_type='shell', group=None):
        self.name, self.source, self.exit_code, self.duration = name, source, exit_code, duration
        self.definition = {'type': task_type}
        self.group = None if group is None else JsObjectDict(id=group)
        self.detail = None


class _TaskExecution(JsObject):
    def __init__(self, task, owner):
        self.task, self._owner, self.ended = task, owner, False

    def terminate(self):
        self._owner._end(self, None)


class _Tasks:
    def __init__(self):
        self.available = []
        self.executed = []
        self._process_ended = EventEmitter()
        self._ended = EventEmitter()
        self.onDidEndTaskProcess = self._process_ended.event
        self.onDidEndTask = self._ended.event

    def fetchTasks(self, task_filter=None):
        return _resolved(list(self.available))

    def executeTask(self, task):
        execution = _TaskExecution(task, self)
        self.executed.append(execution)
        if task.exit_code is not None:
            asyncio.get_running_loop().call_later(task.duration, self._end, execution, task.exit_code)
        return _resolved(execution)

    def _end(self, execution, exit_code):
        if execution.ended:
            return
        execution.ended = True
        self._process_ended.fire(JsObjectDict(execution=execution, exitCode=exit_code))
        self._ended.fire(JsObjectDict(execution=execution))


class _Editor(JsObject):
    def __init__(self, document, view_column=1):
        self.document = document
        self.viewColumn = view_column
        self.selections = [Selection(0, 0, 0, 0)]
        self.revealed = []

    @property
    def selection(self):
        return self.selections[0]

    @selection.setter
    def selection(self, value):
        self.selections = [value]

    def revealRange(self, range, reveal_type=None):
        self.revealed.append((range, reveal_type))


class _TabInput:
    def __init__(self, uri=None, original=None, modified=None):
        self.uri, self.original, self.modified = uri, original, modified


class _EditorTabGroups(TabGroups):
    """tabGroups with close(), activeTabGroup and onDidChangeTabs (tests may still assign `all`)."""

    def __init__(self):
        super().__init__()
        self._changed = EventEmitter()
        self.onDidChangeTabs = self._changed.event

    @property
    def activeTabGroup(self):
        return next((group for group in self.all if group.isActive), self.all[0] if self.all else None)

    def _group(self):
        if not self.all:
            self.all.append(TabGroup(1, []))
        return self.activeTabGroup

    def _open(self, tab):
        group = self._group()
        for other in group.tabs:
            other.isActive = False
        group.tabs.append(tab)
        tab.isActive = True
        group.activeTab = tab
        self._changed.fire(JsObjectDict(opened=[tab], closed=[], changed=[]))

    def close(self, tabs, preserve_focus=False):
        tabs = tabs if isinstance(tabs, list) else [tabs]
        for group in self.all:
            group.tabs = [tab for tab in group.tabs if tab not in tabs]
        for tab in tabs:
            uri = tab.input.uri if tab.input is not None else None
            if uri is not None and window.activeTextEditor is not None and window.activeTextEditor.document.uri == uri:
                window.activeTextEditor = None
            window.visibleTextEditors = [editor for editor in window.visibleTextEditors if editor.document.uri != uri]
        window.closed_tabs.extend(tabs)
        self._changed.fire(JsObjectDict(opened=[], closed=tabs, changed=[]))
        return _resolved(True)


def _show_text_document(document_or_uri, options=None):
    document = _load_document(document_or_uri) if isinstance(document_or_uri, Uri) else document_or_uri
    options = options or {}
    editor = next((item for item in window.visibleTextEditors if item.document is document), None)
    if editor is None:
        editor = _Editor(document)
        window.visibleTextEditors.append(editor)
        tab = Tab(os.path.basename(document.uri.fsPath), document.uri, preview=bool(options.get('preview')))
        tab.input = _TabInput(uri=document.uri)
        window.tabGroups._open(tab)
    selection = options.get('selection')
    if selection is not None:
        editor.selection = Selection(selection.start.line, selection.start.character, selection.end.line,
                                     selection.end.character)
    window.activeTextEditor = editor
    window.shown_documents.append((document, dict(options)))
    return _resolved(editor)


def _with_progress(options, task):
    source = CancellationTokenSource()
    window.progress.append((options, source))
    reports = []
    progress = JsObjectDict(report=lambda value: reports.append(value))
    return task(progress, source.token)


def _open_diff(left, right, title=None, options=None):
    provider = workspace.content_providers.get(right.scheme)
    text = provider['provideTextDocumentContent'](right) if provider is not None else None
    tab = Tab(title or 'diff', None)
    tab.input = _TabInput(original=left, modified=right)
    window.diffs.append(JsObjectDict(left=left, right=right, title=title, text=text, tab=tab))
    window.tabGroups._open(tab)
    return _resolved(None)


def _register_content_provider(scheme, provider):
    workspace.content_providers[scheme] = provider
    return Disposable(lambda: workspace.content_providers.pop(scheme, None))


_BUILTIN_COMMANDS = {
    'vscode.diff': _open_diff,
    'setContext': lambda key, value: commands.context_keys.__setitem__(key, value),
}


def _install_builtin_commands(registry):
    registry.context_keys = {}
    registered = registry.executeCommand
    listed = registry.getCommands

    def execute(command_id, *args):
        if command_id in _BUILTIN_COMMANDS and command_id not in registry.handlers:
            registry.executed.append((command_id, args))
            return _BUILTIN_COMMANDS[command_id](*args)
        result = registered(command_id, *args)
        # VS Code always answers with a Thenable, whatever the handler returned
        return result if asyncio.isfuture(result) or asyncio.iscoroutine(result) else _resolved(result)

    def get_commands(filter_internal=False):
        return _resolved(sorted(set(registry.handlers) | set(_BUILTIN_COMMANDS)))
    registry.executeCommand = execute
    registry.getCommands = get_commands
    return listed


def _reset_editor_tools():
    global languages, tasks
    workspace.textDocuments = []
    workspace.shim_documents = workspace.textDocuments  # the section above keeps its documents here
    workspace.openTextDocument = lambda uri: _resolved(_load_document(uri))
    workspace.applyEdit = _apply_workspace_edit
    workspace.applied_edits = []
    workspace.apply_edit_answer = True
    workspace.save_answer = True
    workspace.fs = _FileSystem()
    workspace.findFiles = _find_files
    workspace.find_files_calls = []
    workspace.content_providers = {}
    workspace.registerTextDocumentContentProvider = _register_content_provider
    workspace.setting_defaults = {}
    workspace.settings_by_target = {}
    workspace.known_settings = None  # a set: update() refuses other keys, as VS Code does for unknown ones
    workspace.config_updates = []
    workspace.getConfiguration = lambda section=None, scope=None: _InspectableConfiguration(section)
    window.tabGroups = _EditorTabGroups()
    window.visibleTextEditors = []
    window.activeTextEditor = None
    window.shown_documents = []
    window.closed_tabs = []
    window.showTextDocument = _show_text_document
    window.progress = []
    window.withProgress = _with_progress
    window.diffs = []
    env.appRoot = None
    _install_builtin_commands(commands)
    languages = _Languages()
    tasks = _Tasks()


languages = tasks = None


# ==================================================================================================
# Native chat (the @hermes participant, the Hermes language model, language-model tools).
# A section of its own: new classes, and a reset() that extends the ones above.

class LanguageModelTextPart(_Undefined):
    def __init__(self, value):
        self.value = value


class LanguageModelToolCallPart(_Undefined):
    def __init__(self, callId, name, input):
        self.callId, self.name, self.input = callId, name, input


class LanguageModelToolResultPart(_Undefined):
    def __init__(self, callId, content):
        self.callId, self.content = callId, content


class LanguageModelToolResult(_Undefined):
    def __init__(self, content):
        self.content = content


class LanguageModelDataPart(_Undefined):
    def __init__(self, data, mimeType):
        self.data, self.mimeType = data, mimeType


class LanguageModelChatMessageRole:
    User = 1
    Assistant = 2


class LanguageModelChatToolMode:
    Auto = 1
    Required = 2


class LanguageModelChatMessage(_Undefined):
    def __init__(self, role, content, name=None):
        self.role = role
        self.content = [LanguageModelTextPart(content)] if isinstance(content, str) else list(content)
        self.name = name

    @staticmethod
    def User(content, name=None):
        return LanguageModelChatMessage(1, content, name)

    @staticmethod
    def Assistant(content, name=None):
        return LanguageModelChatMessage(2, content, name)


class ChatResponseMarkdownPart(_Undefined):
    def __init__(self, value):
        self.value = MarkdownString(value) if isinstance(value, str) else value


class ChatResponseProgressPart(_Undefined):
    def __init__(self, value):
        self.value = value


class ChatRequestTurn(_Undefined):
    def __init__(self, prompt, command=None, references=None, participant='hermes.agent', tool_references=None,
                 *rest):
        self.prompt, self.command, self.references, self.participant = prompt, command, references or [], participant
        self.toolReferences = tool_references or []


class ChatResponseTurn(_Undefined):
    def __init__(self, response, result=None, participant='hermes.agent', command=None):
        self.response, self.result, self.participant, self.command = response, result or {}, participant, command


ChatRequestTurn2 = ChatRequestTurn  # VS Code exports one class under both names
ChatResponseTurn2 = ChatResponseTurn


class ChatResponseReferencePart(_Undefined):
    def __init__(self, value, icon=None):
        self.value = value


class ThemeIcon(_Undefined):
    def __init__(self, icon_id, color=None):
        self.id, self.color = icon_id, color


class ChatSessionChangedFile(_Undefined):
    def __init__(self, modified_uri, insertions, deletions, original_uri=None):
        self.modifiedUri, self.insertions, self.deletions, self.originalUri = modified_uri, insertions, deletions, original_uri


class ChatSessionStatus:
    Failed, Completed, InProgress, NeedsInput = 0, 1, 2, 3


class ChatResponseStream:
    """What a participant writes to: every call recorded in `parts` as (kind, value)."""

    def __init__(self):
        self.parts = []

    def markdown(self, value):
        self.parts.append(('markdown', value.value if isinstance(value, MarkdownString) else value))

    def progress(self, value):
        self.parts.append(('progress', value))

    def reference(self, value, icon=None):
        self.parts.append(('reference', value))

    def anchor(self, value, title=None):
        self.parts.append(('anchor', value))

    def text(self):
        return ''.join(value for kind, value in self.parts if kind == 'markdown')

    def of(self, kind):
        return [value for part_kind, value in self.parts if part_kind == kind]


class ChatParticipant(_Undefined):
    def __init__(self, participant_id, handler, registry):
        self.id, self.requestHandler = participant_id, handler
        self.iconPath = self.followupProvider = None
        self._registry = registry

    def dispose(self):
        self._registry.pop(self.id, None)


class ChatSessionItem(_Undefined):
    def __init__(self, resource, label, on_change):
        self.resource, self.label = resource, label
        self.description = self.status = self.tooltip = self.timing = self.changes = self.iconPath = None
        self.archived = None


class ChatSessionItemCollection:
    def __init__(self):
        self.by_resource = {}

    @property
    def size(self):
        return len(self.by_resource)

    def replace(self, items):
        self.by_resource = {item.resource.toString(): item for item in items}

    js_replace = replace  # the name Transcrypt code uses

    def add(self, item):
        self.by_resource[item.resource.toString()] = item

    def delete(self, resource):
        self.by_resource.pop(resource.toString(), None)

    def get(self, resource):
        return self.by_resource.get(resource.toString())

    def forEach(self, callback):
        for item in list(self.by_resource.values()):
            callback(item, self)

    def all(self):
        return list(self.by_resource.values())


class ChatSessionItemController(_Undefined):
    """The chatSessionsProvider proposal's controller (version 3)."""

    def __init__(self, session_type, refresh_handler, registry):
        self.id, self.refreshHandler, self._registry = session_type, refresh_handler, registry
        self.items = ChatSessionItemCollection()
        self.newChatSessionItemHandler = None
        self._state = EventEmitter()
        self.onDidChangeChatSessionItemState = self._state.event

    def createChatSessionItem(self, resource, label):
        return ChatSessionItem(resource, label, None)

    def set_archived(self, item, archived):
        """What the Agent Sessions view does when the user archives an item."""
        item.archived = archived
        self._state.fire(item)

    def dispose(self):
        self._registry.pop(self.id, None)


class _Chat:
    """vscode.chat. The chatSessionsProvider proposal is off (its functions throw, as in VS Code stable)
    until a test calls `enable_chat_sessions()`."""

    def __init__(self):
        self.participants = {}
        self.session_controllers = {}
        self.session_content_providers = {}
        self.sessions_enabled = False

    def enable_chat_sessions(self):
        self.sessions_enabled = True

    def _check_proposal(self):
        if not self.sessions_enabled:
            raise RuntimeError("Extension 'hermes-agent.hermes-agent' CANNOT use API proposal: chatSessionsProvider.")

    def createChatSessionItemController(self, session_type, refresh_handler):
        self._check_proposal()
        controller = ChatSessionItemController(session_type, refresh_handler, self.session_controllers)
        self.session_controllers[session_type] = controller
        return controller

    def registerChatSessionContentProvider(self, scheme, provider, participant, capabilities=None):
        self._check_proposal()
        self.session_content_providers[scheme] = (provider, participant)
        return Disposable(lambda: self.session_content_providers.pop(scheme, None))

    def createChatParticipant(self, participant_id, handler):
        if participant_id in self.participants:
            raise ValueError(f'participant {participant_id} already exists')
        participant = ChatParticipant(participant_id, handler, self.participants)
        self.participants[participant_id] = participant
        return participant


class CancellationError(Exception):
    pass


def _install_native_chat(lm_namespace):
    """vscode.lm's tool and chat-provider API, as VS Code behaves: invokeTool calls prepareInvocation,
    has the user confirm when it returns confirmationMessages (answers from `confirm_answers`, default
    yes; a no raises CancellationError), then invoke."""
    lm_namespace.registered_tools = {}
    lm_namespace.chat_providers = {}
    lm_namespace.confirm_answers = []
    lm_namespace.confirmations = []

    def register_tool(name, implementation):
        if name in lm_namespace.registered_tools:
            raise ValueError(f'tool {name} is already registered')
        declared = getattr(lm_namespace, 'declared_tools', None)
        if declared is not None and name not in declared:
            raise ValueError(f'Tool "{name}" was not contributed.')
        lm_namespace.registered_tools[name] = implementation
        return Disposable(lambda: lm_namespace.registered_tools.pop(name, None))

    async def invoke_tool(name, options, token=None):
        implementation = lm_namespace.registered_tools[name]
        prepared = implementation['prepareInvocation'](options, token)
        if asyncio.iscoroutine(prepared) or isinstance(prepared, asyncio.Future):
            prepared = await prepared
        messages = (prepared or {}).get('confirmationMessages')
        if messages:
            lm_namespace.confirmations.append(messages)
            if not (lm_namespace.confirm_answers.pop(0) if lm_namespace.confirm_answers else True):
                raise CancellationError('declined')
        return await implementation['invoke'](options, token or CancellationTokenSource().token)

    def register_provider(vendor, provider):
        lm_namespace.chat_providers[vendor] = provider
        return Disposable(lambda: lm_namespace.chat_providers.pop(vendor, None))

    lm_namespace.registerTool = register_tool
    lm_namespace.invokeTool = invoke_tool
    lm_namespace.registerLanguageModelChatProvider = register_provider


def _reset_native_chat():
    global chat
    chat = _Chat()
    _install_native_chat(lm)


chat = None


# ==================================================================================================
# Editor events (the MCP resources' change notifications). `select(editor, selection)` and
# `type_text(editor, text)` are the user acting in the editor.

def _emitter(owner, attribute, event_name):
    emitter = EventEmitter()
    setattr(owner, attribute, emitter)
    setattr(owner, event_name, emitter.event)


def _select(editor, *selections):
    editor.selections = list(selections)
    window._selection_changed.fire(JsObjectDict(textEditor=editor, selections=list(selections)))


def _make_active(editor):
    window.activeTextEditor = editor
    window._active_changed.fire(editor)


_Editor.visibleRanges = property(lambda self: [Range(0, 0, max(self.document.lineCount - 1, 0), 0)])


def _reset_editor_events():
    _emitter(window, '_active_changed', 'onDidChangeActiveTextEditor')
    _emitter(window, '_selection_changed', 'onDidChangeTextEditorSelection')
    _emitter(window, '_visible_ranges_changed', 'onDidChangeTextEditorVisibleRanges')
    _emitter(workspace, '_document_changed', 'onDidChangeTextDocument')
    _emitter(workspace, '_document_saved', 'onDidSaveTextDocument')
    _emitter(workspace, '_folders_changed', 'onDidChangeWorkspaceFolders')
    _emitter(window.tabGroups, '_groups_changed', 'onDidChangeTabGroups')
    window.select = _select
    window.make_active = _make_active


def reset():
    """A fresh VS Code for every test (conftest calls it): each section above sets up its own namespaces,
    in order (later sections extend what earlier ones made)."""
    _reset_base()
    _reset_tool_suite()
    _reset_editor_tools()
    _reset_native_chat()
    _reset_editor_events()


reset()
