"""vscode.window: output channels, status bar, messages and quick picks, webview views, editors and tabs,
editor events (terminals: _terminals.py). `select(editor, selection)` and `make_active(editor)` are the user
acting in the editor."""
import os

from vscode._documents import _load_document
from vscode._events import CancellationTokenSource, Disposable, EventEmitter, add_event, resolved
from vscode._terminals import install_terminals
from vscode._types import JsObject, JsObjectDict, Range, Selection, Uri


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


class _TabInput:
    def __init__(self, uri=None, original=None, modified=None):
        self.uri, self.original, self.modified = uri, original, modified


class _EditorTabGroups(TabGroups):
    """tabGroups with close(), activeTabGroup and onDidChangeTabs (tests may still assign `all`)."""

    def __init__(self, window):
        super().__init__()
        self._window = window
        add_event(self, '_changed', 'onDidChangeTabs')
        add_event(self, '_groups_changed', 'onDidChangeTabGroups')

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
            window = self._window
            if uri is not None and window.activeTextEditor is not None and window.activeTextEditor.document.uri == uri:
                window.activeTextEditor = None
            window.visibleTextEditors = [editor for editor in window.visibleTextEditors if editor.document.uri != uri]
        self._window.closed_tabs.extend(tabs)
        self._changed.fire(JsObjectDict(opened=[], closed=tabs, changed=[]))
        return resolved(True)


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
        return resolved(True)

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
        return resolved(True)


class _Editor(JsObject):
    def __init__(self, document, view_column=1):
        self.document = document
        self.viewColumn = view_column
        self.selections = [Selection(0, 0, 0, 0)]
        self.revealed = []
        self.decorations = {}  # decoration type → the ranges or DecorationOptions last set

    def setDecorations(self, decoration_type, ranges_or_options):
        self.decorations[decoration_type] = list(ranges_or_options)

    @property
    def selection(self):
        return self.selections[0]

    @selection.setter
    def selection(self, value):
        self.selections = [value]

    def revealRange(self, range, reveal_type=None):
        self.revealed.append((range, reveal_type))

    @property
    def visibleRanges(self):
        return [Range(0, 0, max(self.document.lineCount - 1, 0), 0)]


class TextEditorDecorationType(JsObject):
    def __init__(self, options):
        self.options = options
        self.disposed = False

    def dispose(self):
        self.disposed = True


class TreeItemCollapsibleState:
    Collapsed = 1
    Expanded = 2


setattr(TreeItemCollapsibleState, 'None', 0)  # a keyword in Python: code writes 0


class TreeItem(JsObject):
    def __init__(self, label_or_uri, collapsible_state=0):
        if isinstance(label_or_uri, Uri):
            self.resourceUri, self.label = label_or_uri, None
        else:
            self.resourceUri, self.label = None, label_or_uri
        self.collapsibleState = collapsible_state
        self.description = self.tooltip = self.contextValue = self.command = self.iconPath = None


class TreeView(JsObject):
    def __init__(self, view_id, options):
        self.id, self.options = view_id, options
        self._badge = self.message = self.title = self.description = None
        self.disposed = False

    @property
    def badge(self):
        return self._badge

    @badge.setter
    def badge(self, value):
        # VS Code 1.139 reads `.value` of any badge but undefined: null throws there. Python code must hand it
        # `js_undefined` (None under CPython, `undefined` in the bundle), never a bare None from a conditional.
        if value is not None and not isinstance(value.get('value') if isinstance(value, dict) else None, int):
            raise TypeError('a view badge needs a numeric value')
        self._badge = value

    def dispose(self):
        self.disposed = True

    def items(self, element=None):
        """Test helper: the tree as VS Code would ask for it, [(TreeItem, element, children)]."""
        provider = self.options['treeDataProvider']
        return [(provider['getTreeItem'](child), child, self.items(child)) for child in provider['getChildren'](element)]


class _Window:
    def __init__(self):
        self.output_channels = []
        self.status_bar_items = []
        self.messages = []  # (level, text, items)
        self.message_answers = []  # queued answers for show*Message calls with items
        self.quick_picks = []
        self.quick_pick_answers = []  # functions choosing from the offered items
        self.input_boxes = []  # the options of every showInputBox
        self.input_box_answers = []  # what the user types in each (None: Escape)
        self.webview_view_providers = {}
        self.status_messages = []
        # editors and tabs
        self.tabGroups = _EditorTabGroups(self)
        self.activeTextEditor = None
        self.visibleTextEditors = []
        self.shown_documents = []
        self.closed_tabs = []
        self.progress = []
        self.diffs = []
        self.multi_diffs = []  # vscode.changes: the multi-file diff editor
        self.decoration_types = []
        self.tree_views = {}
        add_event(self, '_active_changed', 'onDidChangeActiveTextEditor')
        add_event(self, '_visible_changed', 'onDidChangeVisibleTextEditors')
        add_event(self, '_selection_changed', 'onDidChangeTextEditorSelection')
        add_event(self, '_visible_ranges_changed', 'onDidChangeTextEditorVisibleRanges')
        install_terminals(self)

    def createOutputChannel(self, name, options=None):
        channel = OutputChannel(name, options if isinstance(options, dict) else None)
        self.output_channels.append(channel)
        return channel

    def createTextEditorDecorationType(self, options):
        decoration_type = TextEditorDecorationType(options)
        self.decoration_types.append(decoration_type)
        return decoration_type

    def createTreeView(self, view_id, options):
        view = TreeView(view_id, options)
        self.tree_views[view_id] = view
        return view

    def createStatusBarItem(self, id, alignment=None, priority=None):
        item = StatusBarItem(id, alignment, priority)
        self.status_bar_items.append(item)
        return item

    def _message(self, level, text, items):
        self.messages.append((level, text, list(items)))
        return resolved(self.message_answers.pop(0) if self.message_answers else None)

    def showInformationMessage(self, text, *items):
        return self._message('info', text, items)

    def showWarningMessage(self, text, *items):
        return self._message('warning', text, items)

    def showErrorMessage(self, text, *items):
        return self._message('error', text, items)

    def showInputBox(self, options=None):
        self.input_boxes.append(options)
        return resolved(self.input_box_answers.pop(0) if self.input_box_answers else None)

    def showQuickPick(self, items, options=None):
        self.quick_picks.append(list(items))
        return resolved(self.quick_pick_answers.pop(0)(items) if self.quick_pick_answers else None)

    # webview views and the active editor (the side panel)
    def registerWebviewViewProvider(self, view_id, provider, options=None):
        if view_id in self.webview_view_providers:
            raise ValueError(f"a webview view provider for '{view_id}' is already registered")
        self.webview_view_providers[view_id] = (provider, options)
        return Disposable(lambda: self.webview_view_providers.pop(view_id, None))

    def setStatusBarMessage(self, text, timeout=None):
        self.status_messages.append(text)
        return Disposable()

    def showTextDocument(self, document_or_uri, options=None):
        document = _load_document(document_or_uri) if isinstance(document_or_uri, Uri) else document_or_uri
        options = options or {}
        editor = next((item for item in self.visibleTextEditors if item.document is document), None)
        if editor is None:
            editor = _Editor(document)
            self.visibleTextEditors.append(editor)
            tab = Tab(os.path.basename(document.uri.fsPath), document.uri, preview=bool(options.get('preview')))
            tab.input = _TabInput(uri=document.uri)
            self.tabGroups._open(tab)
        selection = options.get('selection')
        if selection is not None:
            editor.selection = Selection(selection.start.line, selection.start.character, selection.end.line,
                                         selection.end.character)
        self.activeTextEditor = editor
        self.shown_documents.append((document, dict(options)))
        return resolved(editor)

    def withProgress(self, options, task):
        source = CancellationTokenSource()
        self.progress.append((options, source))
        reports = []
        progress = JsObjectDict(report=lambda value: reports.append(value))
        return task(progress, source.token)

    def select(self, editor, *selections):
        """Test helper: the user selects in `editor`."""
        editor.selections = list(selections)
        self._selection_changed.fire(JsObjectDict(textEditor=editor, selections=list(selections)))

    def make_active(self, editor):
        """Test helper: the user switches to `editor`."""
        self.activeTextEditor = editor
        self._active_changed.fire(editor)
