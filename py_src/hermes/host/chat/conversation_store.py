"""The conversation store on disk: one JSON file per workspace (`conversations.json` in the
workspace's extension storage; without a folder, in the global storage), read once at activation and
written behind the changes (a turn's start, a confirmation, its end): SAVE_QUIET_MS after the last change, or
SAVE_LONGEST_MS after the first one not yet written while changes keep coming, and at once on dispose
(deactivate, a reload of the window); a save of what the file already holds is skipped.

Durability, decided (docs/DEVELOPING.md, ACP sessions): a change is on disk at most SAVE_QUIET_MS after the
store stops changing (SAVE_LONGEST_MS while it keeps changing), and before the window closes or reloads. The
extension host killed (or crashing) inside that window loses the changes since the last write — typically the end
of the turn that just finished — and nothing else: the file holds the last store written, whole. VS Code keeps its
own state storage (globalState, workspaceState, the workbench's) the same way: in memory, flushed 100 ms after a
change (`Storage.DEFAULT_FLUSH_DELAY`) and at shutdown. A synchronous, fsynced write at every change cost ~1.8 ms of
each turn (two writes; issue 34); behind the turn it costs the same once per pause, when nobody waits.

A file that cannot be read as a store is moved aside (`conversations.corrupt-<time>.json`) with a
warning, and a fresh store starts: activation never fails because of it.

Writes go through host/safe_write.py: the extension host killed in the middle of one leaves the last saved
store whole. They are synchronous, so two can never interleave: each writes the whole store as it is then, and a
change made while one runs waits for the next. A write that fails (a full disk, a read-only folder) leaves the
file as it was; the user is told once (and again only after a save has worked in between), and the conversations
go on in memory (the next write tries again with all of them).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node, vscode
from hermes.js.objects import new
from hermes.core.chat.conversations import ConversationStore
from hermes.core.quiet_timer import QuietTimer
from hermes.host.changes.log import SEAM_TIMERS
from hermes.host.safe_write import move_aside, remove_leftover_temporaries, write_file_atomically
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Optional
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

FILE_NAME = 'conversations.json'
NO_FOLDER_FILE_NAME = 'conversations-no-folder.json'
# Written behind the changes (the module's docstring): once the store has been quiet this long (VS Code's own
# storage waits 100 ms too), and at the latest this long after the first unwritten change while changes keep coming.
SAVE_QUIET_MS = 100
SAVE_LONGEST_MS = 1000


def store_path(context: 'ExtensionContext') -> str:
    """Where this workspace's conversations live."""
    path = node('path')
    folder = context.storageUri
    if folder is not None:
        return path.join(folder.fsPath, FILE_NAME)
    return path.join(context.globalStorageUri.fsPath, NO_FOLDER_FILE_NAME)


def new_conversation_id() -> str:
    return node('crypto').randomUUID()


def load_store(file_path: str, log: 'Log') -> 'ConversationStore':
    """The store in `file_path` (a fresh one when there is none, or it is corrupt: moved aside)."""
    fs = node('fs')
    data = None  # type: Any
    remove_leftover_temporaries(file_path)  # a write cut short by a crash: the file itself is whole
    try:
        if fs.existsSync(file_path):
            data = parse_json(fs.readFileSync(file_path, 'utf8'))
        return ConversationStore.restore(data, new_conversation_id, now_ms)
    except JsError as error:  # unreadable, not JSON, or StoreCorrupt
        where = move_aside(file_path)
        log.warn('Conversations: the stored conversations in ' + file_path + ' could not be read (' +
                 error_message(error) + '); ' + where + ' and started a fresh store.')
        return ConversationStore(new_conversation_id, now_ms)


def save_store(store: 'ConversationStore', file_path: str, log: 'Log') -> bool:
    """Write the store (host/safe_write.py: a crash never leaves half a file). False when it failed: logged,
    and the file on disk is the last store saved."""
    return StoreFile(file_path, log).save(store)


class StoreFile:
    """The store's file as this window last wrote it. A save whose text is what the file already holds is not
    written again: a turn saves the conversation at its start, before the prompt goes to the agent and at its end,
    and often nothing changed in between — each write is an fsync of the folder and the file, milliseconds of a
    turn (docs/DEVELOPING.md, ACP sessions). A failed write keeps nothing, so the next save writes."""

    def __init__(self, file_path: str, log: 'Log') -> None:
        self.file_path = file_path
        self.log = log
        self.written = None  # type: Optional[str]

    def save(self, store: 'ConversationStore') -> bool:
        text = dump_json(store.to_data())
        if text == self.written:
            return True
        try:
            write_file_atomically(self.file_path, text)
        except JsError as error:
            self.written = None
            self.log.warn('Conversations: could not save to ' + self.file_path + ': ' + error_message(error))
            return False
        self.written = text
        return True


class SaveReporter:
    """Tells the user once that conversations cannot be saved (not at every keystroke of a streaming
    reply), and again only if saving fails anew after it had worked."""

    def __init__(self, file_path: str, log: 'Log') -> None:
        self.file_path = file_path
        self.log = log
        self.failing = False

    def saved(self, ok: bool) -> None:
        if ok and self.failing:
            self.failing = False
            self.log.info('Conversations: saving to ' + self.file_path + ' works again.')
        elif not ok and not self.failing:
            self.failing = True
            vscode.window.showErrorMessage(
                'Hermes cannot save conversations to ' + self.file_path + ' (the disk is full or the folder is '
                'read-only; see the Hermes log). They are kept for this window; what was saved before is '
                'unchanged, and saving resumes once the folder is writable.')


class WriteBehind:
    """Saves the store behind its changes (the module's docstring): `changed()` at every change arms a quiet
    timer (core/quiet_timer.py), whose call writes the whole store as it then is (StoreFile: skipped when the
    file already holds it) and reports the outcome (SaveReporter: a failure told once). `flush()` writes now;
    `dispose()` flushes and from then on writes each change at once (a change during deactivation — a turn
    stopped by the window closing — has no timer to wait for). `timers`/`clock` are the seam tests drive."""

    def __init__(self, store: 'ConversationStore', written: 'StoreFile', reporter: 'SaveReporter',
                 timers: 'Any' = None, clock: 'Optional[Callable[[], float]]' = None) -> None:
        self._store = store
        self._written = written
        self._reporter = reporter
        self._timer = QuietTimer(timers or SEAM_TIMERS, clock or now_ms,
                                 SAVE_QUIET_MS, SAVE_LONGEST_MS, self._write)
        self._disposed = False

    def changed(self) -> None:
        if self._disposed:
            self._write()
        else:
            self._timer.poke()

    def flush(self) -> None:
        """Write now what is waiting (nothing when nothing is)."""
        if self._timer.waiting:
            self._timer.fire_now()

    def dispose(self) -> None:
        self.flush()
        self._disposed = True

    def _write(self) -> None:
        self._reporter.saved(self._written.save(self._store))


def register_conversation_store(context: 'ExtensionContext', log: 'Log', timers: 'Any' = None,
                                clock: 'Optional[Callable[[], float]]' = None) -> 'ConversationStore':
    """The workspace's store, saved behind its changes (WriteBehind) and flushed when `context`'s subscriptions
    are disposed (deactivation, a reload). `timers`/`clock`: WriteBehind's seam (tests)."""
    file_path = store_path(context)
    store = load_store(file_path, log)
    writer = WriteBehind(store, StoreFile(file_path, log), SaveReporter(file_path, log), timers, clock)
    store.on_change(lambda conversation, origin: writer.changed())
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(writer.dispose)))
    return store
