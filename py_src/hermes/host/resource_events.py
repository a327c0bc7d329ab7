"""VS Code's events → the resource hub's change events (core/mcp/resources.py `ResourceHub`).

The listeners only tell the hub which resource changed; the hub does nothing for resources nobody
subscribed to and throttles the rest, so a keystroke costs a few function calls here, whatever the
number of clients."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.core.mcp.resources import (ACTIVE_EDITOR, SELECTION, TABS, DIAGNOSTICS, WORKSPACE, terminal_uri,
                                       file_key, Disposable, ResourceHub)
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List
from hermes.host.terminals import TerminalService
if TYPE_CHECKING:
    from vscode import TextDocument, TextDocumentChangeEvent
# __pragma__('noskip')


def _is_active_document(document: 'TextDocument') -> bool:
    editor = vscode.window.activeTextEditor
    return editor is not None and editor.document is document


class ResourceEvents:
    def __init__(self, hub: 'ResourceHub', terminals: 'TerminalService') -> None:
        self.hub = hub
        self.terminals = terminals  # the window's TerminalService: its opens, closes and output

    def editor_changed(self, event: 'Any' = None) -> None:
        self.hub.changed(ACTIVE_EDITOR)
        self.hub.changed(SELECTION)

    def view_changed(self, event: 'Any' = None) -> None:
        self.hub.changed(ACTIVE_EDITOR)

    def document_changed(self, event: 'TextDocumentChangeEvent') -> None:
        # Typing moves the cursor (a selection event) too; this covers edits inside a selection
        # that leave it where it is, and the dirty flag.
        if _is_active_document(event.document):
            self.editor_changed()

    def document_saved(self, document: 'TextDocument') -> None:
        if _is_active_document(document):
            self.hub.changed(ACTIVE_EDITOR)
        if document.uri.scheme == 'file':
            self.hub.changed(file_key(document.uri.fsPath))

    def tabs_changed(self, event: 'Any' = None) -> None:
        self.hub.changed(TABS)

    def diagnostics_changed(self, event: 'Any' = None) -> None:
        self.hub.changed(DIAGNOSTICS)

    def folders_changed(self, event: 'Any' = None) -> None:
        self.hub.changed(WORKSPACE)

    def terminal_changed(self, record: 'Any', what: str) -> None:
        if what == 'output':
            self.hub.changed(terminal_uri(record.id))
        else:
            self.hub.list_changed()

    def listen(self) -> 'List[Any]':
        """Subscribe to VS Code; returns the disposables."""
        window = vscode.window
        workspace = vscode.workspace
        disposables = []  # type: List[Any]  # VS Code's Disposables and the terminals' (core/mcp/resources.py)
        disposables.extend([
            window.onDidChangeActiveTextEditor(to_js_callback(self.editor_changed)),
            window.onDidChangeTextEditorSelection(to_js_callback(self.editor_changed)),
            window.onDidChangeTextEditorVisibleRanges(to_js_callback(self.view_changed)),
            workspace.onDidChangeTextDocument(to_js_callback(self.document_changed)),
            workspace.onDidSaveTextDocument(to_js_callback(self.document_saved)),
            window.tabGroups.onDidChangeTabs(to_js_callback(self.tabs_changed)),
            window.tabGroups.onDidChangeTabGroups(to_js_callback(self.tabs_changed)),
            vscode.languages.onDidChangeDiagnostics(to_js_callback(self.diagnostics_changed)),
            workspace.onDidChangeWorkspaceFolders(to_js_callback(self.folders_changed)),
        ])
        unsubscribe = self.terminals.on_change(self.terminal_changed)
        disposables.append(Disposable(unsubscribe))
        return disposables
