"""Which workspace files the user had in the editor lately, most recent first (completions rank
paths by it). Fed by active-editor changes; files outside the workspace are not kept."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.host.paths import is_confined
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
if TYPE_CHECKING:  # the type checker's vscode (typings/vscode.pyi); the test shim has no such names
    from vscode import Disposable, TextEditor
# __pragma__('noskip')

MAX_RECENT = 100


class RecentFiles:
    def __init__(self) -> None:
        self.paths = []  # type: List[str]

    def used(self, path: str) -> None:
        if not is_confined(path):
            return
        kept = [path]
        for other in self.paths:
            if other != path and len(kept) < MAX_RECENT:
                kept.append(other)
        self.paths = kept

    def editor_shown(self, editor: 'Optional[TextEditor]') -> None:
        if editor is not None and editor.document is not None and editor.document.uri.scheme == 'file':
            self.used(editor.document.uri.fsPath)

    def listen(self) -> 'Disposable':
        """Start with the visible editors (the active one most recent); returns the disposable."""
        visible = vscode.window.visibleTextEditors
        for editor in visible if visible is not None else []:
            self.editor_shown(editor)
        self.editor_shown(vscode.window.activeTextEditor)
        return vscode.window.onDidChangeActiveTextEditor(to_js_callback(self.editor_shown))
