"""Where the change log lives on disk: `changes.json` in the workspace's extension storage
(`context.storageUri`, a folder VS Code gives each workspace on this machine).

Why a file there, not `workspaceState`: the log holds file texts (up to MAX_STORED_CHARS), and a Memento is kept
in VS Code's state database, loaded whole into memory at startup and written back as one value; it is meant for
small values. A file in the workspace's storage folder is per workspace as well, is written only by us, and can be
replaced atomically. Without a folder open (`storageUri` undefined) there is no workspace to keep changes for:
the log then lives in memory only (`ChangeStore(None, …)`).

Writes are safe against a crash of the extension host: the JSON goes to `changes.json.tmp`, is flushed to the disk
(fsync), and renamed over the old file, so the file is always either the old log or the new one. A file that is not
a change log (unreadable, not JSON, the wrong shape) is moved aside as `changes.corrupt-<time>.json` and reported
once through the log; the log starts empty.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.js.objects import is_none
from hermes.core.values import is_object, get_key, json_type

FILE_NAME = 'changes.json'
FORMAT = 1


def change_store_path(context):
    """This workspace's `changes.json`, or None without a workspace (nothing is stored then)."""
    folder = context.storageUri
    if is_none(folder):
        return None
    return node('path').join(folder.fsPath, FILE_NAME)


class ChangeStore:
    """Load once, save whole. `report(text)` is told about a corrupt file (once) and failed saves."""

    def __init__(self, file_path, report):
        self.file_path = file_path
        self._report = report
        self._saving = None  # the save in flight (a promise), so saves never interleave
        self._again = False

    def load(self):
        """The stored {'files': [...]}, or None (nothing stored, or a corrupt file moved aside)."""
        if is_none(self.file_path):
            return None
        fs = node('fs')
        try:
            if not fs.existsSync(self.file_path):
                return None
            data = parse_json(fs.readFileSync(self.file_path, 'utf8'))
            problem = _shape_problem(data)
            if is_none(problem):
                return data
        except JsError as error:
            problem = error_message(error)
        self._move_aside(problem)
        return None

    def _move_aside(self, problem):
        path = self.file_path
        aside = path[:len(path) - len('.json')] + '.corrupt-' + str(now_ms()) + '.json'
        try:
            node('fs').renameSync(path, aside)
            where = 'moved it to ' + aside
        except JsError as error:
            where = 'could not move it aside (' + error_message(error) + ')'
        self._report('Changes: the stored change log ' + path + ' could not be read (' + problem + '); ' + where +
                     ' and started an empty log. Pending changes from before are no longer listed.')

    def save_now(self, data):
        """Write `data` synchronously and safely (temporary file, fsync, rename); True when it was written."""
        if is_none(self.file_path):
            return True
        fs = node('fs')
        temporary = self.file_path + '.tmp'
        try:
            fs.mkdirSync(node('path').dirname(self.file_path), {'recursive': True})
            handle = fs.openSync(temporary, 'w', 384)  # 0600: the log holds file texts
            try:
                fs.writeSync(handle, dump_json(data))
                fs.fsyncSync(handle)
            finally:
                fs.closeSync(handle)
            fs.renameSync(temporary, self.file_path)
            return True
        except JsError as error:
            self._report('Changes: could not save the change log to ' + self.file_path + ': ' + error_message(error))
            return False


def _shape_problem(data):
    """Why `data` is not a stored change log, or None."""
    if not is_object(data):
        return 'not a JSON object'
    if get_key(data, 'format') != FORMAT:
        return 'unknown format ' + str(get_key(data, 'format'))
    files = get_key(data, 'files')
    if json_type(files) != 'array':
        return '"files" is not a list'
    for entry in files:
        if not is_object(entry) or json_type(get_key(entry, 'path')) != 'string' or \
                json_type(get_key(entry, 'hunks')) != 'array':
            return 'a file entry without a path or hunks'
    return None
