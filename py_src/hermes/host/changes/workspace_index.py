"""The window's index of the workspace for spans of disk changes (host/changes/disk_changes.py): which files exist
(names) and the small files' texts (host/changes/workspace_texts.py), kept up to date across spans by a file watcher
of its own, so that a span's start costs a stat (and a read) per file changed since the last start, not a walk of
the workspace and a stat of every file (58–74 ms a turn with 10,000 files, docs/DEVELOPING.md). One per window,
shared by every span (host/changes/window_index.py WindowIndex makes it on first use: an ACP turn, a door's watch, a
`terminal_run` command); this module is a part loaded then (hermes/lazy_parts.py).

    index.warm(folders)               # a user appeared: walk in the background, a slice a tick
    waiting = index.ready(folders)    # None, or a promise: await it, then begin (the host is held a slice at a time)
    start = index.begin(folders)      # a span's start: what it sees of the workspace as it was then
    start.listed(path), start.entry(path), start.complete
    start.close(paths)                # the span's end: the files it saw change are checked at the next start

How it stays exact:
- The first walk (and a walk for other workspace folders) is a warm-up in the background when a user of the index
  appears (`warm`): slices of VERIFY_SLICE directory entries for up to WARM_SLICE_MS a tick of the event loop
  through the timers (a timer's tick costs a millisecond or more: a start may be waiting), the watcher made
  before it. A start waits for it (`ready`); a start that does not wait, or comes before it ends, finishes the walk
  at once. What changes during the warm-up is reported after the walk read it or before: either way the watcher
  marks it dirty and the next start takes it in, as between starts (the walk starts with nothing dirty). Without
  timers or when no watcher could be made, every start walks the workspace as a span always did.
- Between starts the watcher only marks paths dirty (no disk access in its event); the next start stats each
  dirty path and updates the names and texts in place. A directory reported created is walked; one reported
  deleted takes the names under it.
- A span sees the live state, except the paths the index changed while it ran (another span began — spans of
  different users overlap: a `terminal_run` command during an ACP turn, a door's watch): before it changes a path,
  the index saves its old state (listed, entry) into every open start that has not saved it yet. A new walk makes
  new dicts, which the open starts' old ones are not.
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
from hermes.js.promises import deferred
from hermes.host.changes.workspace_listing import MAX_LISTED, WorkspaceStart, ignored, list_workspace_files, \
    walk_folders
from hermes.host.changes.workspace_texts import WorkspaceTexts, unchanged
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Dict, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import Uri
# __pragma__('noskip')

VERIFY_SLICE = 500  # directory entries a walk in the background (warm-up, verification) looks at per tick
WARM_SLICE_MS = 8  # the warm-up goes on to the next slice of VERIFY_SLICE entries in the same tick until then
VERIFY_EVERY_MS = 10000  # at most one verification this often: a door's watch closes a span every second or two


class WorkspaceIndex:
    """See the module's docstring. `texts`: the window's WorkspaceTexts (tests hand one with a fake disk); `timers`:
    after/cancel, for the walks in the background. Longer than most classes: the walks (all at once, warming, the
    verification), the updates at a start and the open starts' saved states all change the same names and texts, in
    an order the exactness rules depend on; split, each part would reach into the others' state."""

    def __init__(self, texts: 'Optional[WorkspaceTexts]' = None, timers: Any = None) -> None:
        self.texts = WorkspaceTexts() if texts is None else texts
        self.timers = timers  # after/cancel (host/changes/log.py SEAM_TIMERS); None: no walk in the background
        self.slice_ms = WARM_SLICE_MS  # (tests take a slice a tick: 0)
        self._verifying = None  # type: Optional[JsonObject]  # {'pending': [folder…], 'seen': {…}, 'timer'}
        self._verified_at = None  # type: Optional[float]  # when the last verification began
        # the walk in the background before the first start (`warm`): {'folders', 'pending', 'timer', 'waiting'}
        self._warming = None  # type: Optional[JsonObject]
        self.names = {}  # type: Dict[str, bool]
        self.listed_count = 0
        self.complete = False
        self.folders = None  # type: Optional[List[str]]  # of the last walk; None: never walked
        self.dirty = {}  # type: Dict[str, bool]  # 'k:' + path → True: reported since the last start
        self.starts = []  # type: List[WorkspaceStart]  # open spans' starts
        self.watcher = None  # type: Any
        self.subscriptions = []  # type: List[Any]
        self.walks = 0  # how many full walks (the tests read it)
        self.disposed = False  # the window closed: no watcher any more (a start still waiting walks)

    def warm(self, folders: 'List[str]') -> None:
        """A user of the index appeared (an ACP session, a door's CLI, a `terminal_run`): walk the workspace now in the
        background, a slice a tick (WARM_SLICE_MS), so the first start finds it walked. Nothing when it is walked for
        `folders` already, or warming for them, or cannot warm (no timers, no watcher: each start walks)."""
        if self.timers is None or self._walked(folders) or \
                (self._warming is not None and _same(self._warming['folders'], folders)):
            return  # (a walk for other folders, the workspace's before they changed, gives way to this one)
        if self.watcher is None:
            self._watch()
            if self.watcher is None:
                return
        state = self._restart(folders)
        state['timer'] = self.timers.after(self._warm_slice, 0)

    def ready(self, folders: 'List[str]') -> 'Optional[Awaitable[None]]':
        """None when a start for `folders` would not walk; else a promise settled once the walk in the background
        (begun now if need be) is over — a start that waits for it holds the extension host a slice at a time, not
        a whole walk. Without a background walk (`warm` could not), None: the start walks."""
        self.warm(folders)
        if self._warming is None:
            return None
        waiting = deferred()
        self._warming['waiting'].append(waiting)
        return waiting['promise']

    def begin(self, folders: 'List[str]') -> 'WorkspaceStart':
        if self._warming is not None and _same(self._warming['folders'], folders):
            self._warm_slice(0)  # the start came before the warm-up ended: the rest of the walk now (exact first)
        if not self._walked(folders):
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
        self.disposed = True
        self._stop_warming()
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

    def _walked(self, folders: 'List[str]') -> bool:
        return self.folders is not None and _same(self.folders, folders) and self.watcher is not None

    def _walk(self, folders: 'List[str]') -> None:
        """The whole walk at once (a start that found the index unwalked, or walked for other folders)."""
        if self.watcher is None:
            self._watch()  # first: what changes while the index walks is reported (and marked dirty)
        self._restart(folders)
        self._warm_slice(0)

    def _restart(self, folders: 'List[str]') -> 'JsonObject':
        """A walk of the workspace begins: new names and texts (a span's start keeps the old dicts, which no one
        changes any more), nothing dirty (the walk sees the disk as it is from now on; an event from now on is marked
        dirty and taken in at the next start, as between starts)."""
        self._stop_warming()
        self.walks += 1
        self.starts = []
        self.names = {}
        self.listed_count = 0
        self.complete = True
        self.folders = None  # not walked until the walk ends
        self.dirty = {}
        self.texts.restart()
        state = {'folders': folders, 'pending': folders[:], 'timer': None, 'waiting': []}  # type: JsonObject
        self._warming = state
        return state

    def _warm_slice(self, budget: int = -1) -> None:
        """Slices of VERIFY_SLICE directory entries of the walk for up to WARM_SLICE_MS (`budget` 0: the rest of the
        walk), then the next at the next tick, or the walk's end: the index is walked; the starts waiting for it go
        on."""
        state = self._warming
        if state is None:
            return
        began = now_ms()
        try:
            while len(state['pending']) > 0:
                if not walk_folders(state['pending'], self._take, VERIFY_SLICE if budget < 0 else budget):
                    self.complete = False  # MAX_LISTED names: a "created" file is not known to be new
                    state['pending'] = []
                if budget < 0 and now_ms() - began >= self.slice_ms:
                    break
        except JsError as error:  # (the disk's errors are caught where they happen: this is a fault of ours)
            self._stop_warming()  # whoever waits goes on, and the next start walks at once: no turn waits for ever
            raise error
        if len(state['pending']) > 0:
            state['timer'] = self.timers.after(self._warm_slice, 0)
            return
        if state['timer'] is not None:
            self.timers.cancel(state['timer'])
        self._warming = None
        self.folders = state['folders']
        self.texts.settle()
        for waiting in state['waiting']:
            waiting['resolve'](None)

    def _take(self, path: str) -> bool:
        """The walk found the file `path`."""
        if self.listed_count >= MAX_LISTED:
            return False
        self.names['p:' + path] = True
        self.listed_count += 1
        self.texts.take(path)
        return True

    def _stop_warming(self) -> None:
        """A walk in the background ends unfinished (the index is disposed, or walks other folders): whoever waits
        for it goes on (a start then walks)."""
        state = self._warming
        if state is None:
            return
        self._warming = None
        if state['timer'] is not None:
            self.timers.cancel(state['timer'])
        for waiting in state['waiting']:
            waiting['resolve'](None)

    def _watch(self) -> None:
        if self.disposed:
            return
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
        if self.timers is None or self._verifying is not None or self._warming is not None or self.watcher is None \
                or not self.complete:
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
        seen = state['seen']

        def look(path: str) -> bool:
            seen['p:' + path] = True
            if not (('p:' + path) in self.names) or self._text_stale(path):
                self.dirty['k:' + path] = True
            return True
        walk_folders(state['pending'], look, VERIFY_SLICE)
        if len(state['pending']) > 0:
            state['timer'] = self.timers.after(self._verify_slice, 0)
            return
        for key in self.names.keys():  # listed, not found: gone without a word
            if not (key in seen):
                self.dirty['k:' + key[2:]] = True
        self._verifying = None

    def _text_stale(self, path: str) -> bool:
        key = 'k:' + path
        if not (key in self.texts.entries):
            return False  # no text kept: its name is all the index knows, and the walk found it
        entry = self.texts.entries[key]
        found = self.texts.stat(path)
        return found is None or not unchanged(entry, found)


def _same(folders: 'List[str]', others: 'List[str]') -> bool:
    return '\n'.join(folders) == '\n'.join(others)
