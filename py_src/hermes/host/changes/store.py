"""Where the change log lives on disk: `changes.json` and `changes.journal` in the workspace's extension storage
(`context.storageUri`, a folder VS Code gives each workspace on this machine).

Why files there, not `workspaceState`: the log holds file texts (up to MAX_STORED_CHARS), and a Memento is kept
in VS Code's state database, loaded whole into memory at startup and written back as one value; it is meant for
small values. A file in the workspace's storage folder is per workspace as well, is written only by us, and can be
replaced atomically. Without a folder open (`storageUri` undefined) there is no workspace to keep changes for:
the log then lives in memory only (`ChangeStore(None, …)`).

Two files, so that a change is kept the moment it is recorded, at a cost that does not grow with the log:
- **the journal** (`changes.journal`): every change of the log appends one line — the entries of the files it
  touched (without what can be taken back from the line before: `slim_entry`), the list of files in order, the
  decisions made since the last line — written before the change is
  announced to anyone (the tool's result, the views). A write the kernel accepted survives the extension host
  being killed (SIGKILL) the next moment; it is not flushed to the disk each time (a power cut may lose the last
  lines: docs/RELIABILITY.md). A line cut short by a kill is the last one, and was never announced: loading ignores
  it, and compacts the journal away at once so the next lines never follow a torn one.
- **the snapshot** (`changes.json`): the whole log, written a moment after a burst of changes (and at once on
  deactivate) through host/safe_write.py (temporary file, fsync, rename: always the old snapshot or the new one);
  it records the last journal line it includes (`journal_seq`), and the journal is then removed. Loading reads
  the snapshot and replays the journal lines after it (a line it already includes is skipped).

A snapshot or journal that is not a change log (unreadable, not JSON, the wrong shape) is moved aside as
`changes.corrupt-<time>.json` / `changes.journal.corrupt-<time>.json` and reported once through the log; what
could be read is kept.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.core.values import is_object, get_key, json_type
from hermes.core.changes.hunks import split_lines
from hermes.host.safe_write import move_aside, remove_leftover_temporaries, write_file_atomically, PRIVATE_MODE
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Union
from hermes.contracts.json import JsonObject
from hermes.contracts.changes import ChangeLogData, JournalLine
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

FILE_NAME = 'changes.json'
JOURNAL_SUFFIX = '.journal'
FORMAT = 1


def change_store_path(context: 'ExtensionContext') -> 'Optional[str]':
    """This workspace's `changes.json`, or None without a workspace (nothing is stored then)."""
    folder = context.storageUri
    if folder is None:
        return None
    return node('path').join(folder.fsPath, FILE_NAME)


class ChangeStore:
    """`load()` once, `append(line)` at every change, `save_now(data)` now and then. `report(text)` is told about
    a corrupt file and about failed writes (once, until writing works again)."""

    def __init__(self, file_path: 'Optional[str]', report: 'Callable[[str], Any]') -> None:
        self.file_path = file_path
        self.journal_path = None if file_path is None else _journal_of(file_path)
        self._report = report
        self.failing = False  # the last write failed: the next must be the whole log (a journal line was lost)
        # ' ' + path → the base its last journal line carried (a later line may leave it out)
        self._bases = {}  # type: Dict[str, Optional[str]]

    def load(self) -> 'Optional[JsonObject]':
        """The stored {'format', 'files', 'history', 'journal_seq'} with the journal replayed, or None (nothing
        stored, or a corrupt snapshot moved aside and no journal)."""
        if self.file_path is None:
            return None
        fs = node('fs')
        remove_leftover_temporaries(self.file_path)  # a snapshot cut short by a kill: the file itself is whole
        # The journal first, then the snapshot: in a window reload the old extension host may still be saving
        # (snapshot written, then the journal removed). Read the other way round, the old snapshot and no journal
        # were read in between, and a change was lost (seen in code-server, test_change_log_in_vscode). This way
        # a journal read is replayed onto either snapshot (lines it includes are skipped by journal_seq), and a
        # journal already gone means the snapshot read after it includes it.
        lines = self._journal_lines()
        data = None
        try:
            if fs.existsSync(self.file_path):
                data = parse_json(fs.readFileSync(self.file_path, 'utf8'))
                problem = _shape_problem(data)
                if problem is not None:
                    self._corrupt(self.file_path, problem)
                    data = None
        except JsError as error:
            self._corrupt(self.file_path, error_message(error))
            data = None
        if lines is None:
            return data
        merged = replay(data, lines)
        self.save_now(merged)  # compact now: the next line must not follow a torn one
        return merged

    def _journal_lines(self) -> 'Optional[List[JsonObject]]':
        """The journal's lines (None: no journal). A torn last line (a kill in the middle of an append) is dropped
        silently; a bad line elsewhere moves the journal aside, keeping the lines before it."""
        journal_path = self.journal_path
        if journal_path is None:  # (no store file, no journal: load() does not ask then)
            return None
        fs = node('fs')
        if not fs.existsSync(journal_path):
            return None
        try:
            text = fs.readFileSync(journal_path, 'utf8')
        except JsError as error:
            self._corrupt(journal_path, error_message(error))
            return []
        parts = text.split('\n')
        lines = []  # type: List[JsonObject]
        for index in range(len(parts)):
            part = parts[index]
            if part.strip() == '':
                continue
            last = index == len(parts) - 1  # no newline after it: the append did not finish
            try:
                line = parse_json(part)
                problem = _line_problem(line)
            except JsError as error:
                problem = error_message(error)
            if problem is None and not last:
                lines.append(line)
                continue
            if not last:
                self._corrupt(journal_path, 'line ' + str(index + 1) + ': ' + (problem or 'cut short'))
            break
        return lines

    def _corrupt(self, path: str, problem: str) -> None:
        if path == self.journal_path:
            self._report('Changes: the change log\'s journal ' + path + ' could not be read (' + problem + '); ' +
                         move_aside(path) + ' and kept the changes before that point. Later pending changes are no '
                         'longer listed.')
            return
        self._report('Changes: the stored change log ' + path + ' could not be read (' + problem + '); ' +
                     move_aside(path) + ' and started an empty log. Pending changes from before are no longer '
                     'listed.')

    def append(self, line: 'JournalLine') -> bool:
        """Add one change to the journal (before it is announced). True when the kernel has it. After a failed
        write (`failing`) call save_now instead: a journal line is lost and the lines after it would not be whole."""
        if self.file_path is None:
            return True
        fs = node('fs')
        slim = []  # type: List[JsonObject]
        for entry in line['files']:
            key = ' ' + entry['path']
            slim.append(slim_entry(entry, key in self._bases and self._bases[key] == entry['base']))
        try:
            fs.mkdirSync(node('path').dirname(self.journal_path), {'recursive': True})
            fs.appendFileSync(self.journal_path, dump_json({'seq': line['seq'], 'order': line['order'], 'files': slim,
                                                          'history': line['history']}) + '\n',
                              {'mode': PRIVATE_MODE})
        except JsError as error:
            self._bases = {}
            self._failed(error)
            return False
        for entry in line['files']:
            self._bases[' ' + entry['path']] = entry['base']
        self._worked()
        return True

    def save_now(self, data: 'Union[ChangeLogData, JsonObject]') -> bool:
        """Write the whole log safely (host/safe_write.py), then drop the journal lines it includes; True when
        it was written."""
        if self.file_path is None:
            return True
        try:
            write_file_atomically(self.file_path, dump_json(data))
        except JsError as error:
            self._failed(error)
            return False
        self._bases = {}  # the next lines start from this snapshot: each carries its file's base again
        try:
            node('fs').unlinkSync(self.journal_path)
        except JsError:
            pass  # no journal, or it stays: its lines are skipped by journal_seq
        self._worked()
        return True

    def _failed(self, error: Any) -> None:
        if not self.failing:
            self.failing = True
            self._report('Changes: could not save the change log to ' + str(self.file_path) + ': ' +
                         error_message(error) + '. Pending changes are kept for this window; what was saved before is '
                         'unchanged.')

    def _worked(self) -> None:
        self.failing = False


def _journal_of(file_path: str) -> str:
    return file_path[:len(file_path) - len('.json')] + JOURNAL_SUFFIX if file_path.endswith('.json') else \
        file_path + JOURNAL_SUFFIX


def replay(data: 'Optional[JsonObject]', lines: 'List[JsonObject]') -> 'JsonObject':
    """The snapshot `data` (None: none) with the journal `lines` after its `journal_seq` applied: each line
    replaces the entries it carries, sets the order of the files (dropping those no longer in it) and adds its
    decisions to the history."""
    entries = {}  # type: Dict[str, JsonObject]
    order = []  # type: List[str]
    history = []  # type: List[JsonObject]
    last = 0
    if data is not None:
        for entry in data['files']:
            entries[' ' + entry['path']] = entry
            order.append(entry['path'])
        if json_type(get_key(data, 'history')) == 'array':
            history = data['history'][:]
        last = get_key(data, 'journal_seq', 0)
    for line in lines:
        if line['seq'] <= last:
            continue  # already in the snapshot (a kill between its rename and the journal's removal)
        for entry in line['files']:
            key = ' ' + entry['path']
            entries[key] = full_entry(entry, entries[key] if key in entries else None)
        order = line['order']
        history.extend(line['history'])
        last = line['seq']
    files = [entries[' ' + path] for path in order if (' ' + path) in entries]
    return {'format': FORMAT, 'files': files, 'history': history, 'journal_seq': last}


def slim_entry(entry: 'Mapping[str, Any]', same_base: bool) -> 'JsonObject':
    """An entry as a journal line carries it, at about half the size: a hunk's lines are left out (they are the
    base's and the text's lines at its place: `full_entry` takes them back from there), and so is the base when
    the file's previous line carried the same one (a file edited again and again)."""
    slim = {}  # type: JsonObject
    for key in entry.keys():
        if key != 'hunks' and not (key == 'base' and same_base):
            slim[key] = entry[key]
    if same_base:
        slim['same_base'] = True
    slim['hunks'] = []
    for hunk in entry['hunks']:
        short = {}  # type: JsonObject
        for key in hunk.keys():
            if key != 'before' and key != 'after':
                short[key] = hunk[key]
        short['removed'] = len(hunk['before'])
        short['added'] = len(hunk['after'])
        slim['hunks'].append(short)
    return slim


def full_entry(slim: 'JsonObject', previous: 'Optional[JsonObject]') -> 'JsonObject':
    """The entry a journal line's `slim_entry` stands for; `previous`: the file's entry before that line (its base,
    when the line left it out)."""
    entry = {}  # type: JsonObject
    for key in slim.keys():
        if key != 'same_base' and key != 'hunks':
            entry[key] = slim[key]
    if get_key(slim, 'same_base') is True:
        entry['base'] = None if previous is None else previous['base']
    base_lines = split_lines('' if entry['base'] is None else entry['base'])
    text_lines = split_lines('' if entry['text'] is None else entry['text'])
    entry['hunks'] = []
    for short in slim['hunks']:
        hunk = {}  # type: JsonObject
        for key in short.keys():
            if key != 'removed' and key != 'added':
                hunk[key] = short[key]
        hunk['before'] = base_lines[short['base_start']:short['base_start'] + short['removed']]
        hunk['after'] = text_lines[short['start']:short['start'] + short['added']]
        entry['hunks'].append(hunk)
    return entry


def _entry_problem(entry: Any) -> 'Optional[str]':
    if not is_object(entry) or json_type(get_key(entry, 'path')) != 'string' or \
            json_type(get_key(entry, 'hunks')) != 'array':
        return 'a file entry without a path or hunks'
    return None


def _shape_problem(data: Any) -> 'Optional[str]':
    """Why `data` is not a stored change log, or None."""
    if not is_object(data):
        return 'not a JSON object'
    if get_key(data, 'format') != FORMAT:
        return 'unknown format ' + str(get_key(data, 'format'))
    files = get_key(data, 'files')
    if json_type(files) != 'array':
        return '"files" is not a list'
    for entry in files:
        problem = _entry_problem(entry)
        if problem is not None:
            return problem
    return None


def _line_problem(line: Any) -> 'Optional[str]':
    """Why `line` is not a journal line, or None."""
    if not is_object(line) or json_type(get_key(line, 'seq')) != 'integer':
        return 'not a journal line'
    order = get_key(line, 'order')
    if json_type(order) != 'array' or len([path for path in order if json_type(path) != 'string']) > 0:
        return '"order" is not a list of paths'
    if json_type(get_key(line, 'files')) != 'array' or json_type(get_key(line, 'history')) != 'array':
        return '"files" or "history" is not a list'
    for entry in line['files']:
        problem = _entry_problem(entry)
        if problem is not None:
            return problem
    return None
