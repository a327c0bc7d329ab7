"""Agents' pending changes marked in the editor: added lines highlighted, the removed text shown at the end of
the hunk's first line (all of it in the hover), and above each hunk a CodeLens with Keep and Undo (and who
made it). VS Code's API has no view zones, so removed lines cannot be drawn as lines of their own: the
after-text ghost and the hover's diff stand in for them, as in VS Code's own inline diffs' collapsed form.

It only draws: what to draw comes from core/changes/view.py over the change log's `pending()`, and the
buttons run the commands of ui/changes/commands.py, the same ones the Changes view and the chat use.
"""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import new, keys_of
from hermes.js.promises import spawn
from hermes.js.timers import set_timer, clear_timer
from hermes.core.values import json_type, get_key
from hermes.core.changes.view import changed_files, hunk_marks, hunk_hover, lens_title, next_line, KEEP, UNDO
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.log import ChangeLog
if TYPE_CHECKING:
    from vscode import CodeLens, ExtensionContext, TextDocument, TextDocumentChangeEvent, TextEditor, Uri
# __pragma__('noskip')

KEEP_COMMAND = 'hermes.changes.keep'
UNDO_COMMAND = 'hermes.changes.undo'
KEEP_FILE_COMMAND = 'hermes.changes.keepFile'
UNDO_FILE_COMMAND = 'hermes.changes.undoFile'
NEXT_COMMAND = 'hermes.changes.next'
PREVIOUS_COMMAND = 'hermes.changes.previous'
IN_EDITOR_CONTEXT = 'hermes.changes.inEditor'  # the active editor has pending hunks (keybindings, title bar)
CHANGED_PATHS_CONTEXT = 'hermes.changes.paths'  # uri.path of every file with pending hunks (`resourcePath in`)


def uri_key(uri: 'Uri') -> str:
    return 'u:' + uri.toString()


def entry_key(entry: 'JsonObject') -> str:
    """The key an editor's document finds its pending file by."""
    uri = entry['uri']
    if uri is not None:
        return 'u:' + (uri if json_type(uri) == 'string' else uri.toString())
    return 'u:' + vscode.Uri.file(entry['path']).toString()


class ChangeReview:
    """Draws the change log's pending hunks into visible editors and lists them as CodeLenses. `changes`:
    the change log (host/changes/log.py ChangeLog). Each refresh tells VS Code only what changed since the last one
    (marks of editors whose file has or had hunks, the lenses, the context keys): each push is work for the
    workbench, and an agent's next write waits behind it."""

    def __init__(self, changes: 'ChangeLog') -> None:
        self.changes = changes
        self.files = {}  # type: Dict[str, JsonObject]  # entry_key → changed_files() item
        # what VS Code was last told (JSON text)
        self.shown = {'files': None, 'paths': None, 'in_editor': None}  # type: Dict[str, Optional[str]]
        self.lens_changed = new(vscode.EventEmitter)  # type: Any
        self.added_type = vscode.window.createTextEditorDecorationType({
            'isWholeLine': True,
            'backgroundColor': new(vscode.ThemeColor, 'diffEditor.insertedLineBackground'),
            'overviewRulerColor': new(vscode.ThemeColor, 'editorOverviewRuler.addedForeground'),
            'overviewRulerLane': vscode.OverviewRulerLane.Left,
            'borderWidth': '0 0 0 3px', 'borderStyle': 'solid',
            'borderColor': new(vscode.ThemeColor, 'editorGutter.addedBackground'),
        })
        self.removed_type = vscode.window.createTextEditorDecorationType({
            'isWholeLine': True,
            'overviewRulerColor': new(vscode.ThemeColor, 'editorOverviewRuler.deletedForeground'),
            'overviewRulerLane': vscode.OverviewRulerLane.Left,
            'after': {'color': new(vscode.ThemeColor, 'editorGutter.deletedBackground'), 'fontStyle': 'italic',
                      'margin': '0 0 0 2em', 'textDecoration': 'line-through'},
        })

    def file_for(self, document: 'TextDocument') -> 'Optional[JsonObject]':
        key = uri_key(document.uri)
        return self.files[key] if key in self.files else None

    def refresh(self, *ignored: Any) -> None:
        """Called by the change log (its listener) and when the visible editors change."""
        previous = self.files
        self.files = {}
        paths = []  # type: List[str]
        items = changed_files(self.changes.pending())
        for item in items:
            self.files[entry_key(item)] = item
            paths.append(vscode.Uri.file(item['path']).path)
        for editor in vscode.window.visibleTextEditors:
            key = uri_key(editor.document.uri)
            if key in previous or key in self.files:  # an editor that never had marks has none to take away
                self.render(editor)
        if self._changed('files', items):
            self.lens_changed.fire(None)
        if self._changed('paths', paths):
            vscode.commands.executeCommand('setContext', CHANGED_PATHS_CONTEXT, paths)
        self.update_context()

    def update_context(self, *ignored: Any) -> None:
        editor = vscode.window.activeTextEditor
        has = editor is not None and self.file_for(editor.document) is not None
        if self._changed('in_editor', has):
            vscode.commands.executeCommand('setContext', IN_EDITOR_CONTEXT, has)

    def _changed(self, what: str, value: Any) -> bool:
        """Whether `value` differs from what VS Code was last told about `what` (then it is remembered)."""
        text = dump_json(value)
        if get_key(self.shown, what) == text:
            return False
        self.shown[what] = text
        return True

    def render(self, editor: 'TextEditor') -> None:
        item = self.file_for(editor.document)
        added = []  # type: List[Any]
        removed = []  # type: List[Any]
        if item is not None:
            line_count = editor.document.lineCount
            for mark in item['hunks']:
                drawn = hunk_marks(mark['hunk'], line_count)
                hover = new(vscode.MarkdownString, hunk_hover(mark['hunk'], mark['author']))
                if drawn['added'] is not None:
                    added.append({'range': new(vscode.Range, drawn['added'][0], 0, drawn['added'][1], 0),
                                  'hoverMessage': hover})
                if drawn['removed'] > 0:
                    removed.append({'range': new(vscode.Range, drawn['anchor'], 0, drawn['anchor'], 0),
                                    'hoverMessage': hover,
                                    'renderOptions': {'after': {'contentText': '\u2212 ' + drawn['preview']}}})
        editor.setDecorations(self.added_type, added)
        editor.setDecorations(self.removed_type, removed)

    def hunk_starts(self, document: 'TextDocument') -> 'List[int]':
        item = self.file_for(document)
        return [] if item is None else [mark['hunk']['start'] for mark in item['hunks']]

    def hunk_at(self, document: 'TextDocument', line: int) -> 'Optional[JsonObject]':
        """The pending hunk on `line` (or starting there, for a deletion): {'hunk', 'author', 'path'} or None."""
        item = self.file_for(document)
        if item is None:
            return None
        for mark in item['hunks']:
            start = mark['hunk']['start']
            end = start + len(mark['hunk']['after_lines']) - 1
            if start <= line and line <= (end if end >= start else start):
                return mark
        return None

    def provide_lenses(self, document: 'TextDocument', token: Any = None) -> 'List[CodeLens]':
        item = self.file_for(document)
        if item is None:
            return []
        lenses = []  # type: List[CodeLens]
        line_count = document.lineCount
        for mark in item['hunks']:
            hunk = mark['hunk']
            line = hunk_marks(hunk, line_count)['anchor']
            where = new(vscode.Range, line, 0, line, 0)
            arguments = [item['path'], hunk['id']]
            lenses.append(new(vscode.CodeLens, where, {'title': '$(check) ' + KEEP, 'command': KEEP_COMMAND,
                                                       'arguments': arguments,
                                                       'tooltip': 'Keep this change (' + lens_title(mark['author'], hunk) + ')'}))
            lenses.append(new(vscode.CodeLens, where, {'title': '$(discard) ' + UNDO, 'command': UNDO_COMMAND,
                                                       'arguments': arguments,
                                                       'tooltip': 'Undo this change: put back the lines it replaced'}))
            lenses.append(new(vscode.CodeLens, where, {'title': lens_title(mark['author'], hunk), 'command': '',
                                                       'tooltip': 'Changed by ' + mark['author']['client']}))
        return lenses

    def dispose(self) -> None:
        self.added_type.dispose()
        self.removed_type.dispose()
        self.lens_changed.dispose()


async def go_to_change(review: 'ChangeReview', forward: bool) -> 'Optional[int]':
    """Move the cursor to the next (or previous) pending hunk of the active editor, wrapping around."""
    editor = vscode.window.activeTextEditor
    if editor is None:
        return None
    target = next_line(review.hunk_starts(editor.document), editor.selection.active.line, forward)
    if target is None:
        vscode.window.setStatusBarMessage('Hermes: no pending changes in this file', 2000)
        return None
    position = new(vscode.Position, target, 0)
    editor.selection = new(vscode.Selection, position, position)
    editor.revealRange(new(vscode.Range, position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport)
    return target


SYNC_DELAY_MS = 400  # after the user's last keystroke in a changed file, the log follows the edit (sync)


class EditFollower:
    """When the user edits a file with pending changes, the change log rebases its hunks on the new text (`sync`)
    a moment after the last keystroke, so the marks move with the lines; one timer per file."""

    def __init__(self, changes: 'ChangeLog', review: 'ChangeReview') -> None:
        self.changes = changes
        self.review = review
        self.timers = {}  # type: Dict[str, Any]

    def changed(self, event: 'TextDocumentChangeEvent') -> None:
        document = event.document
        if document.uri.scheme != 'file' or self.review.file_for(document) is None:
            return
        key = uri_key(document.uri)
        waiting = self.timers[key] if key in self.timers else None
        if waiting is not None:
            clear_timer(waiting)
        path = document.uri.fsPath

        def sync() -> None:
            del self.timers[key]
            spawn(self.changes.sync(path))
        self.timers[key] = set_timer(sync, SYNC_DELAY_MS)

    def dispose(self) -> None:
        for timer in [get_key(self.timers, key) for key in keys_of(self.timers)]:
            clear_timer(timer)
        self.timers = {}


def register_change_review(context: 'ExtensionContext', changes: 'ChangeLog') -> 'ChangeReview':
    """The marks, the lenses and their refresh; returns the ChangeReview (the commands use it)."""
    review = ChangeReview(changes)
    context.subscriptions.push(review)
    context.subscriptions.push(changes.on_change(review.refresh))
    context.subscriptions.push(vscode.window.onDidChangeVisibleTextEditors(to_js_callback(review.refresh)))
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(to_js_callback(review.update_context)))
    provider = {'provideCodeLenses': to_js_callback(review.provide_lenses),
                'onDidChangeCodeLenses': review.lens_changed.event}
    context.subscriptions.push(vscode.languages.registerCodeLensProvider({'scheme': 'file'}, provider))
    follower = EditFollower(changes, review)
    context.subscriptions.push(follower)
    context.subscriptions.push(vscode.workspace.onDidChangeTextDocument(to_js_callback(follower.changed)))
    review.refresh()
    return review
