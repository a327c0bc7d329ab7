"""VS Code's own chat editing (the Keep/Undo Copilot's edits get) for the writes of Hermes' chat turns: the @hermes
participant, Hermes sessions and ACP sessions. While such a turn runs, its front end opens an edit scope
(core/changes/edit_scopes.py) for the turn's change-log author; each file a tool writes for that author is written inside
`ChatResponseStream.externalEdit(uris, callback)` (proposal chatParticipantAdditions), which VS Code snapshots
before and after: the file joins the chat's editing session with its inline diff, Keep/Undo per hunk and per file,
and the "files changed" list above the chat input. Writes from elsewhere (MCP clients, the side panel) have no scope
and keep Hermes' own review only. The change log records every write either way: it stays the one source of the
Changes view, the status bar, sessions' changed files and checkpoints.

Kept in step both ways:
- VS Code → Hermes: an Undo in VS Code writes the old lines back, and the change log follows the text (
  ui/changes/review.py EditFollower → `sync`): the hunk is no longer pending. A Keep only tells the participant
  (`onDidPerformAction`): a file kept whole (or its last hunk) keeps that file's pending hunks of the turns VS Code
  tracks; one hunk kept is matched to the pending hunk with the same line counts, when only one has them.
- Hermes → VS Code: once a file VS Code tracks has no pending hunks of those turns left in the change log (kept or
  undone in Hermes' marks or the Changes view, restored from a checkpoint, auto-kept), the file is kept in VS Code's
  editing session too (`chatEditing.acceptFile`): an undo already put its text back, so nothing is left to show;
  a created file Hermes undid (deleted) is undone there instead (`chatEditing.discardFile`), as VS Code's Keep
  would save the file back.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.promises import spawn, deferred, first_of, sleep_ms
from hermes.core.values import json_type, get_key
from hermes.core.chat.messages import prop
from hermes.core.changes.edit_scopes import scope_key
from hermes.host.files import stat
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.loop import ChangeAuthor
from hermes.contracts.services import FileStat
from hermes.core.changes.edit_scopes import Write
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

SESSION_ACTION = 'chatEditingSessionAction'  # a whole file kept or undone in VS Code's editing session
HUNK_ACTION = 'chatEditingHunkAction'  # one hunk kept or undone
ACCEPTED = 1  # ChatEditingSessionActionOutcome.Accepted
REJECTED = 2
ACCEPT_FILE_COMMAND = 'chatEditing.acceptFile'
DISCARD_FILE_COMMAND = 'chatEditing.discardFile'
REVERT_WAIT_MS = 5000  # how long a whole-file Undo in VS Code may take to reach this extension host's document


def can_edit_natively(stream: Any) -> bool:
    """Whether VS Code lets this response stream carry external edits (chatParticipantAdditions enabled)."""
    return json_type(prop(stream, 'externalEdit')) == 'function'


class NativeEdits:
    """The turns whose writes VS Code's chat editing tracks, and the files it tracks for them. `changes`: the change
    log (host/changes/log.py); `run_command(id, *args)`: VS Code's executeCommand (a test hands a recorder)."""

    def __init__(self, changes: 'ChangeLog', log: 'Optional[Log]' = None,
                 run_command: 'Optional[Callable[..., Any]]' = None) -> None:
        self.changes = changes
        self.log = log
        self.run_command = run_command
        # 'p:' + path → {'path', 'authors': [author]}: files VS Code tracks, and whose turns
        self.files = {}  # type: Dict[str, JsonObject]
        # Whether a participant hears VS Code's Keep (onDidPerformAction, set by follow_actions). Without it a Keep
        # in VS Code's bar would stay pending in Hermes and Hermes' Undo All would later revert the kept edit, so
        # no turn's writes join VS Code's editing session: Hermes' own review alone has them.
        self.hears_keep = False

    def open(self, stream: Any, author: 'ChangeAuthor') -> 'Callable[[], None]':
        """Open `author`'s turn for `stream` (a no-op without externalEdit, or when no participant hears VS Code's
        Keep); returns a function that closes it."""
        if self.changes is None or not self.hears_keep or not can_edit_natively(stream):
            return lambda: None

        async def run(paths: 'List[str]', write: 'Write') -> Any:
            return await self._write(stream, author, paths, write)
        return self.changes.edit_scopes.open(author, run)

    async def _write(self, stream: Any, author: 'ChangeAuthor', paths: 'List[str]', write: 'Write') -> Any:
        """`write()` inside stream.externalEdit: VS Code snapshots `paths` before and after it. A file the write
        creates is left to Hermes' review alone: VS Code 1.139 neither Keeps nor Undoes an externally created file
        cleanly once it is gone (its Keep saves the file back, its Undo leaves it empty)."""
        for path in paths:
            if (await _stat_or_none(path)) is None:
                return await write()
        for path in paths:
            self._note(path, author)
        outcome = {'ran': False, 'value': None, 'error': None}  # type: Dict[str, Any]

        async def inside() -> None:
            outcome['ran'] = True
            try:
                outcome['value'] = await write()
            except JsError as error:  # handed back below as it is (a ToolError stays a ToolError)
                outcome['error'] = error
        try:
            await stream.externalEdit([vscode.Uri.file(path) for path in paths], to_js_callback(inside))
        except JsError as error:
            if outcome['ran']:
                self._warn('VS Code could not finish tracking an edit: ' + error_message(error))
            else:  # the response has ended, or VS Code refused: the write still happens, reviewed by Hermes alone
                self._warn('VS Code did not track an edit in its chat (' + error_message(error) + '); Hermes\' '
                           'own review has it')
                return await write()
        if outcome['error'] is not None:
            raise outcome['error']
        return outcome['value']

    def _note(self, path: str, author: 'ChangeAuthor') -> None:
        key = 'p:' + path
        if not (key in self.files):
            self.files[key] = {'path': path, 'authors': []}
        known = self.files[key]['authors']
        if len([item for item in known if scope_key(item) == scope_key(author)]) == 0:
            known.append(author)

    def tracked(self, path: str) -> 'List[JsonObject]':
        """The turns VS Code tracks `path` for ([] when it tracks none)."""
        key = 'p:' + path
        return self.files[key]['authors'] if key in self.files else []

    def pending_hunks(self, path: str) -> 'List[JsonObject]':
        """The change log's pending hunks of `path` by the tracked turns: [{'id', 'added', 'removed'}]."""
        keys = [scope_key(author) for author in self.tracked(path)]
        found = []  # type: List[JsonObject]
        for item in self.changes.pending():
            if item['path'] == path and scope_key(item['author']) in keys:
                for hunk in item['hunks']:
                    found.append({'id': hunk['id'], 'added': hunk['added'], 'removed': hunk['removed']})
        return found

    # ------------------------------------------------------------------------------------ VS Code → Hermes

    async def on_action(self, event: Any) -> 'Optional[int]':
        """A participant's onDidPerformAction: Keep/Undo in VS Code's editing session."""
        action = prop(event, 'action')
        kind = prop(action, 'kind')
        if kind != SESSION_ACTION and kind != HUNK_ACTION:
            return None
        uri = prop(action, 'uri')
        if uri is None or uri.scheme != 'file':
            return None
        path = uri.fsPath
        if len(self.tracked(path)) == 0:
            return None
        outcome = prop(action, 'outcome')
        if kind == HUNK_ACTION:
            if outcome == ACCEPTED:
                return self._keep_matching(path, prop(action, 'linesAdded'), prop(action, 'linesRemoved'),
                                           prop(action, 'hasRemainingEdits') is True)
            return None  # an Undo wrote the old lines back: the change log follows the text (EditFollower)
        if outcome == REJECTED:
            await self._until_reverted(path)
        await self.changes.sync(path)  # hunks undone in VS Code leave the log; the rest were kept there
        return self._keep_left(path)

    def _keep_matching(self, path: str, added: Any, removed: Any, more_left: bool) -> int:
        if not more_left:
            return self._keep_left(path)
        same = [hunk for hunk in self.pending_hunks(path) if hunk['added'] == added and hunk['removed'] == removed]
        if len(same) != 1:
            return 0  # no way to tell which: it stays pending here until the file is reviewed whole
        self.changes.keep(path, same[0]['id'])
        return 1

    def _keep_left(self, path: str) -> int:
        hunks = self.pending_hunks(path)
        for hunk in hunks:
            self.changes.keep(path, hunk['id'])
        return len(hunks)

    async def _until_reverted(self, path: str) -> None:
        """VS Code tells of a whole-file Undo before it writes the text back: wait until this extension host's
        document no longer holds the agent's text (or REVERT_WAIT_MS)."""
        entry = self.changes.entry(path)
        if entry is None or _current_text(path) != entry['text']:
            return
        changed = deferred()

        def on_change(event: Any) -> None:
            if event.document.uri.scheme == 'file' and event.document.uri.fsPath == path:
                changed['resolve'](True)
        subscription = vscode.workspace.onDidChangeTextDocument(to_js_callback(on_change))
        try:
            await first_of([changed['promise'], sleep_ms(REVERT_WAIT_MS)])
        finally:
            subscription.dispose()

    # ------------------------------------------------------------------------------------ Hermes → VS Code

    def log_changed(self, paths: 'Optional[List[str]]') -> None:
        """The change log's listener: a tracked file with no pending hunk of its turns left is kept in VS Code."""
        for path in paths or []:
            if len(self.tracked(path)) == 0 or len(self.pending_hunks(path)) > 0:
                continue
            del self.files['p:' + path]
            spawn(self._accept_natively(path))

    async def _accept_natively(self, path: str) -> None:
        """Close the file's review in VS Code: Keep when the file is there (the change log kept it, or an undo
        already put its text back), Undo when it is gone (an undone creation: VS Code's Keep would save its model
        and bring the file back)."""
        try:
            command = ACCEPT_FILE_COMMAND if (await _stat_or_none(path)) is not None else DISCARD_FILE_COMMAND
            if self.run_command is None:
                await vscode.commands.executeCommand(command, vscode.Uri.file(path))
            else:
                await self.run_command(command, vscode.Uri.file(path))
        except JsError as error:
            self._warn('VS Code\'s chat did not take the review of ' + path + ': ' + error_message(error))

    def _warn(self, text: str) -> None:
        if self.log is not None:
            self.log.warn('Native edits: ' + text)


async def _stat_or_none(path: str) -> 'Optional[FileStat]':
    try:
        return await stat(path)
    except JsError:
        return None


def _current_text(path: str) -> 'Optional[str]':
    for document in vscode.workspace.textDocuments:
        if document.uri.scheme == 'file' and document.uri.fsPath == path:
            return document.getText()
    return None


def register_native_edits(context: 'ExtensionContext', changes: 'Optional[ChangeLog]',
                          log: 'Log') -> 'Optional[NativeEdits]':
    """The native edits of the change log's turns (None without a change log): it follows the log; each chat
    participant whose turns it tracks is handed to `follow_actions`."""
    if changes is None:
        return None
    native = NativeEdits(changes, log)
    context.subscriptions.push(changes.on_change(native.log_changed))
    return native


def follow_actions(context: 'ExtensionContext', native: 'Optional[NativeEdits]', participant: Any) -> None:
    """Keep/Undo in VS Code's editing session reach `native` through the participant's onDidPerformAction
    (absent where chatParticipantAdditions is off: then `native` never opens a turn in VS Code's editing session,
    as a Keep there would go unheard)."""
    if native is None or participant is None:
        return

    async def on_action(event: Any) -> None:
        try:
            await native.on_action(event)
        except JsError as error:
            native._warn('following a Keep/Undo failed: ' + error_message(error))
    try:
        event = participant.onDidPerformAction
    except JsError:  # the proposal's getter throws where it is not enabled
        return
    if json_type(event) == 'function':
        context.subscriptions.push(event(to_js_callback(on_action)))
        native.hears_keep = True


def open_turn(native: 'Optional[NativeEdits]', stream: Any, author: 'ChangeAuthor') -> 'Callable[[], None]':
    """The front ends' one call: open `author`'s turn on `stream` when there is a NativeEdits; returns the closer."""
    if native is None:
        return lambda: None
    return native.open(stream, author)
