"""The conversation store on disk: one JSON file per workspace (`conversations.json` in the
workspace's extension storage; without a folder, in the global storage), read once at activation and
written after every change (a turn's start, a confirmation, its end: a few writes per turn; a save of what the
file already holds is skipped).

A file that cannot be read as a store is moved aside (`conversations.corrupt-<time>.json`) with a
warning, and a fresh store starts: activation never fails because of it.

Writes go through host/safe_write.py: the extension host killed in the middle of one leaves the last saved
store whole. A write that fails (a full disk, a read-only folder) leaves the file as it was; the user is told
once (and again only after a save has worked in between), and the conversations go on in memory.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node, vscode
from hermes.js.objects import is_none
from hermes.core.chat.conversations import ConversationStore
from hermes.host.safe_write import move_aside, remove_leftover_temporaries, write_file_atomically
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Optional
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

FILE_NAME = 'conversations.json'
NO_FOLDER_FILE_NAME = 'conversations-no-folder.json'


def store_path(context: 'ExtensionContext') -> str:
    """Where this workspace's conversations live."""
    path = node('path')
    folder = context.storageUri
    if not is_none(folder):
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


def register_conversation_store(context: 'ExtensionContext', log: 'Log') -> 'ConversationStore':
    """The workspace's store, saved after every change."""
    file_path = store_path(context)
    store = load_store(file_path, log)
    reporter = SaveReporter(file_path, log)
    written = StoreFile(file_path, log)
    store.on_change(lambda conversation, origin: reporter.saved(written.save(store)))
    return store

