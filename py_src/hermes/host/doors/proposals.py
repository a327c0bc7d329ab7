"""A terminal CLI's proposed edit (its door's `openDiff`: host/doors/tools.py), reviewed by Hermes hunk by hunk.

A proposal is the whole new text of one file. It goes into the file's own editor as one unsaved edit — the disk is not
written during the review: the CLI checks a file was not changed since it read it, and writes the answer itself — and
into the change log as the CLI's pending change ({'client': 'Claude Code', 'session': <connection>, 'turn':
<proposal>}), so the editor's Keep/Undo marks, the Changes view, `changes_list` and `hermes://changes` show it like any
agent's change. The user keeps or undoes hunks, types in the buffer, then:
- **Accept** (the lens at the top of the file, the editor title, the palette): the answer is whatever the buffer
  holds; hunks not decided yet stay the CLI's pending changes once it has written the file;
- **Reject**, or closing the file's editor, or the CLI closing its tab (Claude Code's `close_tab`, when the user
  answered in its terminal instead): the proposal's hunks are undone, the buffer is the text before;
- when every hunk of the proposal has been kept or undone, it ends by itself: accepted if anything differs from the
  text before, rejected otherwise;
- the CLI cancelling the call or going away (`cancel_where`), or the window closing: cancelled, as rejected.
After an answer the buffer is made clean again: at once after a rejection; after an acceptance once the CLI has written
the accepted text (up to WRITE_WAIT_MS), by reloading the editor from the disk, which then holds the same text.

A new file or a deletion has no hunks worth reviewing one by one: it is shown whole in VS Code's diff editor
(host/doors/diff_review.py) and, accepted, recorded as the CLI's change once the CLI has written it. A second proposal for a
file whose review is still open replaces it (the first ends rejected).
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import node, vscode
from hermes.js.promises import make_promise, sleep_ms, spawn
from hermes.core.changes.hunks import changed_span
from hermes.core.tools import ToolError
from hermes.host.changes.files import EditorFiles
from hermes.host.changes.log import in_workspace_strictly
from hermes.core.changes.model import matches
from hermes.host.documents import open_document_for, load_document, replace_text
from hermes.host.files import read_text, stat
from hermes.host.paths import display_path
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.log import ChangeLog
from hermes.host.doors.diff_review import Cancellable, DiffReviews
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext, TextDocument
# __pragma__('noskip')

WRITE_WAIT_MS = 10000  # how long an accepted proposal waits for the CLI to write the file before the editor reloads
WRITE_POLL_MS = 100
WHOLE_FILE_TIMEOUT_MS = 3600000  # a new file's or a deletion's review waits for the user as long as the CLI does
PENDING_CONTEXT = 'hermes.proposalInEditor'


class _NoCancellation:
    def on_cancel(self, callback: 'Callable[[], Any]') -> 'Callable[[], None]':
        return lambda: None


class Proposals:
    """See the module's docstring. `changes`: the change log; `files`: host/changes/files.py EditorFiles;
    `reviews`: host/doors/diff_review.py DiffReviews (whole files); `log`: the window's log."""

    def __init__(self, changes: 'ChangeLog', files: 'EditorFiles', reviews: 'DiffReviews',
                 log: 'Optional[Log]' = None) -> None:
        self.changes = changes
        self.files = files
        self.reviews = reviews
        self.log = log
        # the proposals under review in an editor: {'path', 'title', 'author', 'before', 'resolve', ...}
        self.open = []  # type: List[JsonObject]
        # called when proposals open or end (the lenses, the editor title's context)
        self.listeners = []  # type: List[Callable[[], Any]]
        self._unsubscribe = None if changes is None else \
            changes.on_change(lambda paths: self._log_changed(paths))  # type: Any

    # --------------------------------------------------------------------------------- the door's side

    async def propose(self, path: str, text: 'Optional[str]', author: 'JsonObject', title: str,
                      cancellation: 'Optional[Cancellable]' = None) -> 'JsonObject':
        if not in_workspace_strictly(path):
            raise ToolError('Hermes refused this change: "' + path + '" is outside the workspace of this VS Code '
                            'window. Only files inside its folders can be changed through the IDE.')
        found = await stat(path)
        if found is not None and found['kind'] != 'file':
            raise ToolError('Hermes refused this change: "' + display_path(path) + '" is not a file.')
        cancellation = _NoCancellation() if cancellation is None else cancellation
        for other in self.open[:]:  # first: the text before is the file's, not the earlier proposal in its buffer
            if other['path'] == path:
                await self._end(other, 'rejected')
        before = await self.files.read(path)
        disk_before = await _disk_text(path)  # what the CLI read: the disk must hold it again when it gets the answer
        if before is None or text is None:
            return await self._whole_file(path, before, text, author, title, cancellation)
        if before == text:
            return {'outcome': 'accepted', 'text': text}
        return await self._in_editor(path, before, disk_before, text, author, title, cancellation)

    def close(self, path: 'Optional[str]' = None, title: 'Optional[str]' = None,
              outcome: str = 'rejected') -> 'Optional[str]':
        """The CLI closed the review (`close_tab` by its title, `closeDiff` by path): it ends, writing nothing.
        Returns the text the buffer held (Gemini CLI's `closeDiff` answers it), or None."""
        held = None  # type: Optional[str]
        for entry in self.open[:]:
            if (path is not None and entry['path'] == path) or (title is not None and entry['title'] == title):
                document = open_document_for(entry['path'])
                held = None if document is None else document.getText()
                spawn(self._end(entry, outcome))
        return held

    def cancel_where(self, wanted: 'JsonObject', outcome: str = 'cancelled') -> int:
        """Every open proposal of `wanted` ({'client'?, 'session'?}) ends; returns how many."""
        ended = 0
        for entry in self.open[:]:
            if matches(entry['author'], wanted):
                spawn(self._end(entry, outcome))
                ended += 1
        return ended

    def pending(self) -> 'List[JsonObject]':
        return [{'path': entry['path'], 'title': entry['title'], 'author': entry['author']} for entry in self.open]

    # --------------------------------------------------------------------------------- the user's side

    def find(self, path: str) -> 'Optional[JsonObject]':
        for entry in self.open:
            if entry['path'] == path:
                return entry
        return None

    async def accept(self, path: str) -> bool:
        entry = self.find(path)
        if entry is None:
            return False
        await self._end(entry, 'accepted')
        return True

    async def reject(self, path: str) -> bool:
        entry = self.find(path)
        if entry is None:
            return False
        await self._end(entry, 'rejected')
        return True

    def editor_closed(self, path: str) -> None:
        """The user closed the last editor of a file under review: rejected."""
        entry = self.find(path)
        if entry is not None:
            spawn(self._end(entry, 'rejected'))

    def on_change(self, listener: 'Callable[[], Any]') -> None:
        self.listeners.append(listener)

    def dispose(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe.dispose()
            self._unsubscribe = None
        for entry in self.open[:]:
            spawn(self._end(entry, 'cancelled'))

    # --------------------------------------------------------------------------------- in the file's editor

    async def _in_editor(self, path: str, before: str, disk_before: 'Optional[str]', text: str, author: 'JsonObject',
                         title: str, cancellation: 'Cancellable') -> 'JsonObject':
        shown = display_path(path)
        document = await load_document(path, shown)
        await vscode.window.showTextDocument(document, {'preview': False})
        was_dirty = document.isDirty
        await replace_text(document, [changed_span(document.getText(), text)], shown)
        self.changes.record(path, before, text, author)
        entry = {'path': path, 'title': title, 'author': author, 'before': before, 'disk_before': disk_before,
                 'was_dirty': was_dirty,
                 'resolve': None, 'ended': False, 'unsubscribe': None}  # type: JsonObject
        decision = make_promise(lambda resolve, reject: self._hold(entry, resolve))
        entry['unsubscribe'] = cancellation.on_cancel(lambda *ignored: spawn(self._end(entry, 'cancelled')))
        self._changed()
        return await decision

    def _hold(self, entry: 'JsonObject', resolve: 'Callable[[JsonObject], None]') -> None:
        entry['resolve'] = resolve
        self.open.append(entry)

    def _log_changed(self, paths: 'List[str]') -> None:
        """Every hunk of a proposal kept or undone: it ends by itself."""
        for entry in self.open[:]:
            if entry['path'] in paths and not entry['ended'] and not self._has_hunks(entry):
                document = open_document_for(entry['path'])
                changed = document is not None and document.getText() != entry['before']
                spawn(self._end(entry, 'accepted' if changed else 'rejected'))

    def _has_hunks(self, entry: 'JsonObject') -> bool:
        found = self.changes.entry(entry['path'])
        if found is None:
            return False
        for hunk in found['hunks']:
            if matches(hunk['author'], entry['author']):
                return True
        return False

    async def _end(self, entry: 'JsonObject', outcome: str) -> None:
        if entry['ended']:
            return
        entry['ended'] = True
        self.open = [other for other in self.open if other is not entry]
        if entry['unsubscribe'] is not None:
            entry['unsubscribe']()
        path = entry['path']
        document = open_document_for(path)
        answer = {'outcome': outcome}  # type: JsonObject
        try:
            if outcome == 'accepted':
                answer['text'] = entry['before'] if document is None else document.getText()
                await self._hand_over(path, entry['disk_before'])
            else:
                await self.changes.undo_all(entry['author'], True)
                spawn(self._clean_when_disk_holds(path, entry['before'], 0, entry['was_dirty']))
        except JsError as error:
            self._warn('ending the review of ' + display_path(path) + ': ' + error_message(error))
        self._changed()
        entry['resolve'](answer)
        if outcome == 'accepted' and not entry['was_dirty']:
            spawn(self._clean_when_disk_holds(path, answer['text'], WRITE_WAIT_MS, False))

    async def _hand_over(self, path: str, disk_before: 'Optional[str]') -> None:
        """VS Code saves a changed buffer a second later by default (`files.autoSave: afterDelay`), so the review's
        state may be on the disk already. The CLI checks the file still holds what it read before it writes the answer
        (Claude Code 2.1.328 refused an accepted proposal otherwise: "File content has changed since it was last
        read"): the disk gets that text back first, and the change log does not take the passing states for the
        user's edits."""
        if disk_before is None or await _disk_text(path) == disk_before:
            return
        self.changes.hold_sync(path, WRITE_WAIT_MS)
        node('fs').writeFileSync(path, disk_before, 'utf8')  # the disk only: the editor follows it as VS Code reloads

    async def _clean_when_disk_holds(self, path: str, text: 'Optional[str]', wait_ms: float, was_dirty: bool) -> None:
        """Reload the file's editor from the disk once the disk holds the editor's `text`: clean, same text."""
        if was_dirty:
            return  # the user's unsaved edits from before the proposal stay theirs
        waited = 0
        while True:
            document = open_document_for(path)
            if document is None or not document.isDirty or document.getText() != text:
                return
            disk = await _disk_text(path)
            if disk == text:
                await _revert(document)
                return
            if waited >= wait_ms:
                self._warn(display_path(path) + ': the CLI did not write the accepted text within ' +
                           str(round(wait_ms / 1000)) + ' s; it stays unsaved in the editor')
                return
            await sleep_ms(WRITE_POLL_MS)
            waited += WRITE_POLL_MS

    # --------------------------------------------------------------------------------- a whole file

    async def _whole_file(self, path: str, before: 'Optional[str]', text: 'Optional[str]', author: 'JsonObject',
                          title: str, cancellation: 'Cancellable') -> 'JsonObject':
        exists = before is not None
        decision = await self.reviews.review(path, exists, '' if text is None else text,
                                             title + (' (delete the file)' if text is None else ''),
                                             WHOLE_FILE_TIMEOUT_MS, cancellation)
        if decision != 'accepted':
            return {'outcome': 'cancelled' if decision == 'cancelled' else 'rejected'}
        spawn(self._record_when_written(path, before, text, author))
        return {'outcome': 'accepted', 'text': '' if text is None else text}

    async def _record_when_written(self, path: str, before: 'Optional[str]', text: 'Optional[str]',
                                   author: 'JsonObject') -> None:
        waited = 0
        while waited < WRITE_WAIT_MS:
            if await _disk_text(path) == text:
                self.changes.record(path, before, text, author)
                return
            await sleep_ms(WRITE_POLL_MS)
            waited += WRITE_POLL_MS

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def _warn(self, text: str) -> None:
        if self.log is not None:
            self.log.warn('Proposals: ' + text)


async def _disk_text(path: str) -> 'Optional[str]':
    """The file's text on disk (None: no file)."""
    found = await stat(path)
    if found is None or found['kind'] != 'file':
        return None
    try:
        read = await read_text(path)
    except JsError:
        return None  # too large or binary: never the text a proposal holds
    return read['text']


async def _revert(document: 'TextDocument') -> None:
    """Reload `document` from the disk (VS Code's "Revert File" for that file)."""
    try:
        await vscode.window.showTextDocument(document, {'preview': False, 'preserveFocus': True})
        await vscode.commands.executeCommand('workbench.action.files.revert', document.uri)
    except JsError:
        return


def register_proposals(context: 'ExtensionContext', log: 'Log', changes: 'ChangeLog',
                       reviews: 'DiffReviews') -> 'Proposals':
    """The window's review of proposals (a door's `openDiff`), ended with the window."""
    proposals = Proposals(changes, EditorFiles(), reviews, log)
    context.subscriptions.push(proposals)
    return proposals
