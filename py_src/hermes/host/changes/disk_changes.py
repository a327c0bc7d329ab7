"""Files changed on disk behind the editor's back during a span of time, for the change log: an ACP agent's turn
(Hermes Agent writes the disk itself), a command an agent runs in a terminal (`terminal_run`). One mechanism for
every writer whose writes Hermes does not make itself:

    span = DiskChangeSpan(log)            # before the writer starts
    span.note(path)                       # optional: the writer named a file it is about to change
    paths = span.end(named)               # when it is done: the changed files
    span.record(change_log, paths, author)

What it knows, and from where (each source is exact; none copies the workspace):
- **Which files changed**: VS Code's file watcher over the workspace folders while the span runs. The watcher
  reports a write a moment after it happened, so after `end` it listens LATE_EVENTS_MS longer: a file reported
  then is recorded too (and `on_late` hears of it).
- **Which files existed when the span began**: a listing of the workspace folders' file names (names only,
  MAX_LISTED at most, without IGNORED_DIRS; host/changes/workspace_listing.py). A file the watcher reports created is
  new only if the listing proves it absent: `sed -i`, formatters and atomic writers rename a new file over the old
  one, which the watcher may report as a creation; recorded as "created", Undo would delete the user's file.
  A span given the window's WorkspaceIndex (an ACP turn, a door's watch, `terminal_run`: one index per window,
  host/changes/window_index.py) takes the index's listing, kept up to date between spans by a watcher of its own,
  so its start costs a stat per file reported since the last start, not a walk of the workspace (the index's first
  walk runs in the background, and its users await it before they begin a span); one without (made without the
  window's index: tests) walks the workspace at its start.
- **Each file's text before the span**, from the first of:
  1. the text of the file's open editor, when it had no unsaved changes at the start (VS Code holds that text
     already: the span keeps a reference, not a copy);
  2. the window's WorkspaceIndex, when the span was given it: the small text files of the workspace as they were
     at the start (host/changes/workspace_texts.py, bounded), re-read only where the watcher reported a change —
     what a shell command changed, which names no file before it writes;
  3. what the writer said before writing: `note(path, before, known=True)` (an ACP permission diff's oldText), or
     `note(path)`, which reads the file the moment the writer names it (Hermes announces a tool call before it
     runs it);
  4. none: the listing proves the file new.
  A changed file with no known before-text is listed (`end` returns it) but not recorded: there is nothing exact
  to undo it to.
- Files saved through the editor during the span are skipped: their writer (a tool through the editor, or the
  user) went through VS Code, and tools record their own writes. So are files last modified before the span
  began (their mtime), which the watcher reported late: another writer's, just before.
- Limit: another program writing a workspace file while the span runs is counted as the span's writer.
- Limit of the index (its docstring says when; docs/SECURITY.md): a change between spans whose watcher event never
  came (files.watcherExclude, events dropped under load) leaves that file's name or text stale until a span sees
  it change; a deletion just before a span, reported after its start, counts as the span's.

Bounds: at most MAX_CHANGED files a span (a build that rewrites thousands of files is not reviewable hunk by
hunk: the rest are counted in `overflow`), files up to MAX_SNAPSHOT_BYTES. Confinement is the change log's (it
records nothing outside the workspace folders, by real path); the watcher watches the workspace folders only.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.host.paths import folder_paths
from hermes.core.changes.authors import author_of
from hermes.core.changes.notes import TOO_MANY, UNKNOWN_BEFORE
from hermes.host.changes.workspace_listing import ignored, list_workspace_files, WorkspaceStart
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import TextDocument, Uri
    from hermes.host.changes.workspace_index import WorkspaceIndex
# __pragma__('noskip')

MAX_SNAPSHOT_BYTES = 1000000  # larger files are listed, not recorded (the change log keeps texts up to ~1 MB)
MAX_CHANGED = 500
LATE_EVENTS_MS = 1500
MTIME_SLACK_MS = 50  # the kernel stamps files from a coarse clock (a tick late): a write just after the start may
# carry a time a few ms before it


def read_text_or_none(path: str) -> 'Optional[str]':
    """The file's text, None when it does not exist; raises for a file too large or unreadable."""
    fs = node('fs')
    if not fs.existsSync(path):
        return None
    if fs.statSync(path).size > MAX_SNAPSHOT_BYTES:
        raise ValueError('too large')
    return fs.readFileSync(path, 'utf8')


def open_texts() -> 'Dict[str, str]':
    """'k:' + path → the text of each file open in an editor without unsaved changes (the disk's text)."""
    texts = {}  # type: Dict[str, str]
    for document in vscode.workspace.textDocuments:
        if document.uri.scheme == 'file' and not document.isDirty:
            texts['k:' + document.uri.fsPath] = document.getText()
    return texts


class DiskChangeSpan:
    """See the module's docstring. `log`: where problems are told (warn); `read(path)`: a file's text or None
    (tests hand a fake); `timers`: after/cancel (host/changes/log.py SEAM_TIMERS); `index`: the window's
    WorkspaceIndex (host/changes/workspace_index.py: the listing and the texts, kept between spans) or None (the
    span walks the workspace for its listing and knows no texts)."""

    def __init__(self, log: 'Optional[Log]' = None, read: 'Optional[Callable[[str], Optional[str]]]' = None,
                 timers: Any = None, folders: 'Optional[List[str]]' = None,
                 index: 'Optional[WorkspaceIndex]' = None) -> None:
        self.log = log
        self.read = read_text_or_none if read is None else read  # type: Callable[[str], Optional[str]]
        self.timers = timers
        self.paths = []  # type: List[str]
        self.overflow = 0
        # 'k:' + path → the text before the span (None: the file did not exist)
        self.before = {}  # type: Dict[str, Optional[str]]
        self.saved = {}  # type: Dict[str, bool]  # 'k:' + path → True: saved through the editor during the span
        # called with [path] when a late event's file was recorded
        self.on_late = None  # type: Optional[Callable[[List[str]], Any]]
        # called with each changed path as the watcher reports it (a door's watch: host/doors/watch.py)
        self.on_seen = None  # type: Optional[Callable[[str], Any]]
        self.watcher = None  # type: Any
        self.subscriptions = []  # type: List[Any]
        self._late_timer = None  # type: Any
        # (change_log, author) once `record` ran: late files are recorded the same way
        self._recording = None  # type: Optional[List[Any]]
        # A door's watch (host/doors/watch.py) sets this: a *new* file reported late is recorded when the late window
        # closes, if it is still there. A CLI's next edit can come within the window, and its atomic write's
        # temporary file (Claude Code: `<name>.tmp.<pid>.<hex>`, renamed over the file at once) is new and gone by
        # then; recorded at once, it became a file the CLI created. (The next span sees the real file's change.)
        self.new_files_late_at_close = False
        self._late_new = []  # type: List[str]
        self.started = now_ms()
        self.known = open_texts()
        folders = folder_paths() if folders is None else folders
        if index is None:
            listing = list_workspace_files(folders)
            self.start = WorkspaceStart(listing['paths'], {}, listing['complete'], folders)
        else:
            self.start = index.begin(folders)  # what existed and the texts at the start, kept by the index
        try:
            self.watcher = vscode.workspace.createFileSystemWatcher('**/*')
        except JsError as error:
            self._warn('cannot watch the workspace for changed files: ' + error_message(error))
            return
        self.subscriptions = [self.watcher.onDidCreate(to_js_callback(self._seen)),
                              self.watcher.onDidChange(to_js_callback(self._seen)),
                              self.watcher.onDidDelete(to_js_callback(self._seen)),
                              vscode.workspace.onDidSaveTextDocument(to_js_callback(self._saved))]

    # ------------------------------------------------------------------------------ while the span runs

    def note(self, path: str, before: 'Optional[str]' = None, known: bool = False) -> None:
        """The writer named `path` as a file it changes: remember its text now (or `before`, when `known`)."""
        key = 'k:' + path
        if key in self.before:
            return
        if known:
            self.before[key] = before
            return
        try:
            self.before[key] = self.read(path)
        except JsError:
            return  # unreadable or too large: listed, not recorded

    def _saved(self, document: 'TextDocument') -> None:
        if document.uri.scheme == 'file':
            self.saved['k:' + document.uri.fsPath] = True

    def _seen(self, uri: 'Uri') -> None:
        if uri.scheme != 'file':
            return
        path = uri.fsPath
        if ignored(path) or path in self.paths:
            return
        if len(self.paths) >= MAX_CHANGED:
            self.overflow += 1
            return
        self.paths.append(path)
        if self.on_seen is not None:
            self.on_seen(path)
        if self._recording is not None:  # a late event: the span has ended and recorded already
            if self.new_files_late_at_close and self._is_new(path):
                self._late_new.append(path)
                return
            if self._record_one(self._recording[0], path, self._recording[1]) and self.on_late is not None:
                self.on_late([path])

    # ------------------------------------------------------------------------------------- the end

    def end(self, named: 'Optional[List[str]]' = None) -> 'List[str]':
        """The changed paths (those the watcher saw, then those the writer named). The watcher goes on
        listening LATE_EVENTS_MS for writes it reports late (`record` records them as they come)."""
        paths = self.paths[:]
        for path in named or []:
            if not (path in paths):
                paths.append(path)
        if self.watcher is None:
            self.start.close(paths)
            return paths
        if self._late_timer is not None:
            return paths
        if self.timers is None:
            self.stop()
        else:
            self._late_timer = self.timers.after(self.stop, LATE_EVENTS_MS)
        return paths

    def stop(self) -> None:
        """Stop watching (at once; `end` calls it LATE_EVENTS_MS later)."""
        if self._late_timer is not None and self.timers is not None:
            self.timers.cancel(self._late_timer)
        self._late_timer = None
        self._record_late_new()
        self.start.close(self.paths)  # the index checks what this span saw at its next start
        for subscription in self.subscriptions:
            subscription.dispose()
        self.subscriptions = []
        if self.watcher is not None:
            self.watcher.dispose()
            self.watcher = None

    def record(self, change_log: Any, paths: 'List[str]', author: Any,
               recorded: 'Optional[List[str]]' = None) -> int:
        """Each changed file whose before-text is known goes to the change log as `author`'s; returns how many
        (and appends their paths to the list `recorded`, when given). Files the watcher reports later (within
        LATE_EVENTS_MS of `end`) are recorded the same way."""
        if change_log is None:
            return 0
        self._recording = [change_log, author]
        count = 0
        for path in paths:
            if self._record_one(change_log, path, author):
                count += 1
                if recorded is not None:
                    recorded.append(path)
        notes = getattr(change_log, 'notes', None)
        if self.overflow > 0 and len(paths) > 0 and notes is not None:
            notes.add(TOO_MANY, paths[len(paths) - 1], author_of(author)['client'], str(self.overflow))
        return count

    def before_of(self, path: str) -> 'JsonObject':
        """{'known': bool, 'text': the text before the span (None: the file did not exist)}."""
        key = 'k:' + path
        # What was captured at the start first: a note is taken while the writer runs (a tool call is announced as
        # it starts, so the read may already see its write; a diff's oldText is the text before that one edit).
        if key in self.known:
            return {'known': True, 'text': self.known[key]}
        entry = self.start.entry(path)
        if entry is not None:
            return {'known': True, 'text': entry['text']}
        if key in self.before:
            return {'known': True, 'text': self.before[key]}
        if self._listed_absent(path):
            return {'known': True, 'text': None}
        return {'known': False, 'text': None}

    def _listed_absent(self, path: str) -> bool:
        """Whether the start's listing proves `path` did not exist then."""
        if not self.start.complete or self.start.listed(path):
            return False
        separator = node('path').sep
        for folder in self.start.folders:
            if path.startswith(folder + separator):
                return True
        return False

    def _is_new(self, path: str) -> bool:
        before = self.before_of(path)
        return before['known'] and before['text'] is None

    def _record_late_new(self) -> None:
        """The new files reported late that are still there (`new_files_late_at_close`)."""
        paths = self._late_new
        self._late_new = []
        if self._recording is None:
            return
        recorded = [path for path in paths if node('fs').existsSync(path) and
                    self._record_one(self._recording[0], path, self._recording[1])]
        if len(recorded) > 0 and self.on_late is not None:
            self.on_late(recorded)

    def _record_one(self, change_log: Any, path: str, author: Any) -> bool:
        key = 'k:' + path
        if key in self.saved:
            return False  # went through the editor: its writer records it (a tool) or it is the user's
        before = self.before_of(path)
        if not before['known']:
            notes = getattr(change_log, 'notes', None)
            if notes is not None:
                notes.add(UNKNOWN_BEFORE, path, author_of(author)['client'])
            return False
        try:
            fs = node('fs')
            if fs.existsSync(path) and fs.statSync(path).mtimeMs < self.started - MTIME_SLACK_MS:
                return False  # changed before the span began, reported late: not the span's writer
            after = self.read(path)
            entry = change_log.entry(path) if hasattr(change_log, 'entry') else None
            if entry is not None and entry['text'] == after:
                return False  # recorded already (the writer went through a tool)
            return change_log.record(path, before['text'], after, author) is not None
        except JsError as error:
            self._warn('could not record the change of ' + path + ': ' + error_message(error))
            return False

    def _warn(self, text: str) -> None:
        if self.log is not None:
            self.log.warn('Changes: ' + text)
