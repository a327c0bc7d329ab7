"""Which workspace files the user had in the editor lately, most recent first (completions rank
paths by it). Fed by active-editor changes; files outside the workspace are not kept."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none
from hermes.host.paths import is_confined

MAX_RECENT = 100


class RecentFiles:
    def __init__(self):
        self.paths = []

    def used(self, path):
        if not is_confined(path):
            return
        kept = [path]
        for other in self.paths:
            if other != path and len(kept) < MAX_RECENT:
                kept.append(other)
        self.paths = kept

    def editor_shown(self, editor):
        if not is_none(editor) and not is_none(editor.document) and editor.document.uri.scheme == 'file':
            self.used(editor.document.uri.fsPath)

    def listen(self):
        """Start with the visible editors (the active one most recent); returns the disposable."""
        visible = vscode.window.visibleTextEditors
        for editor in visible if not is_none(visible) else []:
            self.editor_shown(editor)
        self.editor_shown(vscode.window.activeTextEditor)
        return vscode.window.onDidChangeActiveTextEditor(to_js_callback(self.editor_shown))
