"""What a connected CLI hears of the editor without asking: Claude Code the user's selection (`selection_changed`)
and the "send to agent" mention (`at_mentioned`), Gemini CLI the recent files, cursor and selected text
(`ide/contextUpdate`, by its IDE companion spec). Sent once the editor is quiet for CONTEXT_QUIET_MS, and only about
files of the workspace (host/confinement.py: a selection in an outside file is nobody's business)."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.host.confinement import shows
from hermes.host.doors.tools import selection_of
# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import TextEditor
# __pragma__('noskip')

CONTEXT_QUIET_MS = 100
MAX_RECENT_FILES = 10
MAX_SELECTED_CHARS = 16384


def mention_of(editor: 'Optional[TextEditor]') -> 'Optional[JsonObject]':
    """`at_mentioned` for the editor's selection (0-based lines), or None."""
    found = selection_of(editor)
    if found is None:
        return None
    selection = found['selection']
    return {'filePath': found['filePath'], 'lineStart': selection['start']['line'],
            'lineEnd': selection['end']['line']}


class EditorContext:
    """The latest selection (for getLatestSelection), and the recently focused files for Gemini CLI's context."""

    def __init__(self, clock: 'Callable[[], float]') -> None:
        self.clock = clock
        self.latest = None  # type: Optional[JsonObject]
        # Claude Code's shape of the last non-empty selection in a workspace file
        self.recent = []  # type: List[JsonObject]
        # [{'path', 'timestamp'}], the most recently focused last

    def editor_changed(self, editor: 'Optional[TextEditor]') -> 'Optional[JsonObject]':
        """Remember what the user looks at and has selected; returns the current selection (Claude's shape) or None."""
        found = selection_of(editor)
        if found is None:
            return None
        path = found['filePath']
        recent = [item for item in self.recent if item['path'] != path]
        recent.append({'path': path, 'timestamp': self.clock()})
        self.recent = recent
        if len(self.recent) > MAX_RECENT_FILES:
            self.recent = self.recent[len(self.recent) - MAX_RECENT_FILES:]
        if not found['selection']['isEmpty']:
            self.latest = found
        return found

    def gemini_context(self, editor: 'Optional[TextEditor]') -> 'JsonObject':
        """Gemini CLI's IdeContext: `{workspaceState: {openFiles: [...], isTrusted}}` (cursor 1-based)."""
        open_paths = []  # type: List[str]
        for document in vscode.workspace.textDocuments:
            if document.uri.scheme == 'file' and shows(document.uri):
                open_paths.append(document.uri.fsPath)
        active = selection_of(editor)
        files = []  # type: List[JsonObject]
        for item in self.recent:
            if item['path'] not in open_paths:
                continue
            entry = {'path': item['path'], 'timestamp': item['timestamp']}
            if active is not None and editor is not None and active['filePath'] == item['path']:
                entry['isActive'] = True
                entry['cursor'] = {'line': editor.selection.active.line + 1,
                                   'character': editor.selection.active.character + 1}
                if active['text'] != '':
                    entry['selectedText'] = active['text'][:MAX_SELECTED_CHARS]
            files.append(entry)
        files.reverse()  # the newest first, as the spec orders them
        return {'workspaceState': {'openFiles': files, 'isTrusted': vscode.workspace.isTrusted != False}}
