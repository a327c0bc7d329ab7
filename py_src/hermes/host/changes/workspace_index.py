"""The window's index of the workspace for spans of disk changes (host/changes/disk_changes.py): which files exist
(names) and the small files' texts (host/changes/workspace_texts.py), kept up to date across spans by a file watcher
of its own, so that a span's start costs a stat (and a read) per file changed since the last start, not a walk of
the workspace and a stat of every file (58–74 ms a turn with 10,000 files, docs/DEVELOPING.md).

    start = index.begin(folders)      # a span's start: what it sees of the workspace as it was then
    start.listed(path), start.entry(path), start.complete
    start.close(paths)                # the span's end: the files it saw change are checked at the next start

How it stays exact:
- The first start (and a start with other workspace folders, or when no watcher could be made) walks the
  workspace as a span always did (list_workspace_files, WorkspaceTexts.refresh).
- Between starts the watcher only marks paths dirty (no disk access in its event); the next start stats each
  dirty path and updates the names and texts in place. A directory reported created is walked; one reported
  deleted takes the names under it.
- A span sees the live state, except the paths the index changed while it ran (another span began): before it
  changes a path, the index saves its old state (listed, entry) into every open start that has not saved it yet.
- The end-of-span check: the paths a span's own watcher reported are marked dirty at its close, so a change the
  index's watcher missed but the span's saw is taken in at the next start.
- The fallback for events nobody reported: after a span closes (given `timers`; at most every VERIFY_EVERY_MS), the
  index walks the workspace again in the background, VERIFY_SLICE directory entries per tick (the host is never
  held long), and marks dirty
  every file it finds unlisted, listed but gone, or whose size or times differ from its kept text. The next start
  takes them in: a missed event is caught within one such walk after the span that followed it.

What the watcher's limits can cost (docs/SECURITY.md, known limits): a change made outside any span whose event
never reaches the index (files.watcherExclude, the watcher dropping events under load) leaves that file's name or
text as it was until a span sees it change or the verification after a span finds it. If an agent then changes
that file during a span, its before-text is the older one: the review shows the other writer's change as the
agent's too, and Undo would take it back with the agent's. The same holds, for the watcher's latency (well under a
second), for a change made just before a span and reported after its start, when the agent changes that file too
(a walk at the start read the other writer's text; alone, that late change is still skipped by its time). A
deletion before a span reported only after its start is counted as the span's (a deleted file has no time to
compare). A file created and never reported is not listed:
the review may then call the agent's later rewrite of it "created" (its Undo deletes it).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.host.changes.workspace_listing import IGNORED_DIRS, MAX_LISTED, WorkspaceStart, ignored, list_workspace_files
from hermes.host.changes.workspace_texts import WorkspaceTexts
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import Uri
# __pragma__('noskip')

VERIFY_SLICE = 500  # directory entries the verification after a span looks at per tick of the event loop
VERIFY_EVERY_MS = 10000  # at most one verification this often: a door's watch closes a span every second or two


class WorkspaceIndex:
    """See the module's docstring. `texts`: the window's WorkspaceTexts (tests hand one with a fake disk)."""

    def __init__(self, texts: 'Optional[WorkspaceTexts]' = None, timers: Any = None) -> None:
        self.texts = WorkspaceTexts() if texts is None else texts
        self.timers = timers  # after/cancel (host/changes/log.py SEAM_TIMERS); None: no verification after a span
        self._verifying = None  # type: Optional[JsonObject]  # {'pending': [folder…], 'seen': {…}, 'timer'}
        self._verified_at = None  # type: Optional[float]  # when the last verification began
        self.names = {}  # type: Dict[str, bool]
        self.listed_count = 0
        self.complete = False
        self.folders = None  # type: Optional[List[str]]  # of the last walk; None: never walked
        self.dirty = {}  # type: Dict[str, bool]  # 'k:' + path → True: reported since the last start
        self.starts = []  # type: List[WorkspaceStart]  # open spans' starts
        self.watcher = None  # type: Any
        self.subscriptions = []  # type: List[Any]
        self.walks = 0  # how many full walks (the tests read it)

    def begin(self, folders: 'List[str]') -> 'WorkspaceStart':
        if self.folders is None or '\n'.join(self.folders) != '\n'.join(folders) or self.watcher is None:
            self._walk(folders)
        else:
            dirty = self.dirty
            self.dirty = {}
            for key in dirty.keys():
                self._update(key[2:])
        start = WorkspaceStart(self.names, self.texts.entries, self.complete, folders, self)
        self.starts.append(start)
        return start

    def closed(self, start: 'WorkspaceStart', seen: 'List[str]') -> None:
        self.starts = [other for other in self.starts if other is not start]
        for path in seen:
            self.dirty['k:' + path] = True
        self._verify_soon()

    def dispose(self) -> None:
        if self._verifying is not None:
            self.timers.cancel(self._verifying['timer'])
            self._verifying = None
        for subscription in self.subscriptions:
            subscription.dispose()
        self.subscriptions = []
        if self.watcher is not None:
            self.watcher.dispose()
            self.watcher = None

    # -------------------------------------------------------------------------------------------- inside

    def _walk(self, folders: 'List[str]') -> None:
        self.walks += 1
        listing = list_workspace_files(folders)
        self.starts = []  # theirs are the old dicts, which the walk replaces and never changes
        self.names = listing['paths']
        self.listed_count = listing['count']
        self.complete = listing['complete']
        self.folders = folders
        self.dirty = {}
        self.texts.refresh(listing)
        if self.watcher is None:
            self._watch()

    def _watch(self) -> None:
        try:
            self.watcher = vscode.workspace.createFileSystemWatcher('**/*')
        except JsError:
            self.watcher = None  # every start walks, as without an index
            return
        self.subscriptions = [self.watcher.onDidCreate(to_js_callback(self._seen)),
                              self.watcher.onDidChange(to_js_callback(self._seen)),
                              self.watcher.onDidDelete(to_js_callback(self._seen))]

    def _seen(self, uri: 'Uri') -> None:
        if uri.scheme == 'file' and not ignored(uri.fsPath):
            self.dirty['k:' + uri.fsPath] = True

    def _inside(self, path: str) -> bool:
        separator = node('path').sep
        for folder in self.folders or []:
            if path.startswith(folder + separator):
                return True
        return False

    def _update(self, path: str) -> None:
        if not self._inside(path):
            return
        try:
            found = node('fs').lstatSync(path)
        except JsError:
            found = None
        if found is not None and found.isDirectory():
            if ignored(path + node('path').sep):
                return
            listing = list_workspace_files([path])  # moved or copied in whole: the watcher may name the folder alone
            for key in listing['paths'].keys():
                self._update(key[2:])
            return
        for start in self.starts:
            start.save(path)
        if found is None:
            self._unlist(path)
            self._unlist_under(path)
            return
        if not (('p:' + path) in self.names):
            if self.listed_count >= MAX_LISTED:
                self.complete = False
                return
            self.names['p:' + path] = True
            self.listed_count += 1
        self.texts.update(path)

    def _unlist(self, path: str) -> None:
        if ('p:' + path) in self.names:
            del self.names['p:' + path]
            self.listed_count -= 1
        self.texts.drop(path)

    def _unlist_under(self, path: str) -> None:
        """A folder's deletion (the watcher may name the folder alone): every name under it goes."""
        prefix = 'p:' + path + node('path').sep
        under = [key[2:] for key in self.names.keys() if key.startswith(prefix)]
        for inner in under:
            for start in self.starts:
                start.save(inner)
            self._unlist(inner)

    # ------------------------------------------------------------------------ the verification after a span

    def _verify_soon(self) -> None:
        if self.timers is None or self._verifying is not None or self.watcher is None or not self.complete:
            return
        if self._verified_at is not None and now_ms() - self._verified_at < VERIFY_EVERY_MS:
            return  # the next span's close after it runs one
        self._verified_at = now_ms()
        self._verifying = {'pending': (self.folders or [])[:], 'seen': {}, 'timer': None}
        self._verifying['timer'] = self.timers.after(self._verify_slice, 0)

    def _verify_slice(self) -> None:
        state = self._verifying
        if state is None:
            return
        fs = node('fs')
        path_module = node('path')
        looked = 0
        while len(state['pending']) > 0 and looked < VERIFY_SLICE:
            folder = state['pending'].pop()
            try:
                entries = fs.readdirSync(folder, {'withFileTypes': True})
            except JsError:
                continue
            for entry in entries:
                name = entry['name']  # subscript: `.name` would be renamed by Transcrypt
                full = path_module.join(folder, name)
                looked += 1
                if entry.isDirectory():
                    if not (name in IGNORED_DIRS):
                        state['pending'].append(full)
                    continue
                state['seen']['p:' + full] = True
                if not (('p:' + full) in self.names) or self._text_stale(full):
                    self.dirty['k:' + full] = True
        if len(state['pending']) > 0:
            state['timer'] = self.timers.after(self._verify_slice, 0)
            return
        for key in self.names.keys():  # listed, not found: gone without a word
            if not (key in state['seen']):
                self.dirty['k:' + key[2:]] = True
        self._verifying = None

    def _text_stale(self, path: str) -> bool:
        key = 'k:' + path
        if not (key in self.texts.entries):
            return False  # no text kept: its name is all the index knows, and the walk found it
        entry = self.texts.entries[key]
        found = self.texts.stat(path)
        return found is None or entry['size'] != found['size'] or entry['mtime'] != found['mtime'] or \
            entry['ctime'] != found['ctime']
