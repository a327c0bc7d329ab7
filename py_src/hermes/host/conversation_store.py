"""The conversation store on disk: one JSON file per workspace (`conversations.json` in the
workspace's extension storage; without a folder, in the global storage), read once at activation and
written after every change (a turn's start, a confirmation, its end: a few writes per turn).

A file that cannot be read as a store is moved aside (`conversations.corrupt-<time>.json`) with a
warning, and a fresh store starts: activation never fails because of it.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.js.objects import is_none
from hermes.core.conversations import ConversationStore

FILE_NAME = 'conversations.json'
NO_FOLDER_FILE_NAME = 'conversations-no-folder.json'


def store_path(context):
    """Where this workspace's conversations live."""
    path = node('path')
    folder = context.storageUri
    if not is_none(folder):
        return path.join(folder.fsPath, FILE_NAME)
    return path.join(context.globalStorageUri.fsPath, NO_FOLDER_FILE_NAME)


def new_conversation_id():
    return node('crypto').randomUUID()


def load_store(file_path, log):
    """The store in `file_path` (a fresh one when there is none, or it is corrupt: moved aside)."""
    fs = node('fs')
    data = None
    try:
        if fs.existsSync(file_path):
            data = parse_json(fs.readFileSync(file_path, 'utf8'))
        return ConversationStore.restore(data, new_conversation_id, now_ms)
    except JsError as error:  # unreadable, not JSON, or StoreCorrupt
        aside = file_path[:len(file_path) - len('.json')] + '.corrupt-' + str(now_ms()) + '.json'
        try:
            fs.renameSync(file_path, aside)
            where = 'moved it to ' + aside
        except JsError as rename_error:
            where = 'could not move it aside (' + error_message(rename_error) + ')'
        log.warn('Conversations: the stored conversations in ' + file_path + ' could not be read (' +
                 error_message(error) + '); ' + where + ' and started a fresh store.')
        return ConversationStore(new_conversation_id, now_ms)


def save_store(store, file_path, log):
    """Write the store: a temporary file renamed over the old one, so a crash never leaves half a file."""
    fs = node('fs')
    try:
        fs.mkdirSync(node('path').dirname(file_path), {'recursive': True})
        temporary = file_path + '.tmp'
        fs.writeFileSync(temporary, dump_json(store.to_data()), 'utf8')
        fs.renameSync(temporary, file_path)
        return True
    except JsError as error:
        log.warn('Conversations: could not save to ' + file_path + ': ' + error_message(error))
        return False


def register_conversation_store(context, log):
    """The workspace's store, saved after every change."""
    file_path = store_path(context)
    store = load_store(file_path, log)
    store.on_change(lambda conversation, origin: save_store(store, file_path, log))
    return store

