"""What a span of disk changes (host/changes/disk_changes.py) sees of the workspace's file names: the one walk of the
workspace's folders (`walk_folders`: the folders spans leave alone skipped, a slice at a time if need be), the
listing made with it, and `WorkspaceStart`, the names and small texts as they were when one span began. A span walks
with these alone (made without the window's index: tests), or takes its start from the window's index
(host/changes/workspace_index.py, a part loaded on first use), which keeps them across spans."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from hermes.host.changes.workspace_texts import Entry
    from hermes.host.changes.workspace_index import WorkspaceIndex
# __pragma__('noskip')

IGNORED_DIRS = ['.git', 'node_modules', '__pycache__']
IGNORED_PARTS = ['/.git/', '/node_modules/', '/__pycache__/']
MAX_LISTED = 50000  # names listed; past it, a "created" file is not known to be new


def ignored(path: str) -> bool:
    """Whether `path` lies in a folder spans leave alone (IGNORED_DIRS)."""
    for part in IGNORED_PARTS:
        if part in path:
            return True
    return False


def walk_folders(pending: 'List[str]', on_file: 'Callable[[str], bool]', budget: int = 0) -> bool:
    """The one walk of the workspace's folders (the listing, the index's warm-up and its verification after a span):
    reads folders off `pending` (a stack the walk changes in place: what is left to read), IGNORED_DIRS skipped and
    symlinked folders not followed, and calls `on_file(path)` for each file, until `pending` is empty or, given a
    `budget`, once it has looked at that many directory entries (a folder is read whole: a slice of a walk that goes
    on at a later tick). Returns False when `on_file` said stop (returned False), else True."""
    fs = node('fs')
    path_module = node('path')
    looked = 0
    while len(pending) > 0 and (budget <= 0 or looked < budget):
        folder = pending.pop()
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
                    pending.append(full)
                continue
            if not on_file(full):
                return False
    return True


def list_workspace_files(folders: 'List[str]', limit: 'Optional[int]' = None) -> 'JsonObject':
    """{'paths': {'p:' + path: True}, 'folders': [...], 'complete': bool, 'count'}: the names of the files under
    `folders` (walk_folders), at most `limit`."""
    most = MAX_LISTED if limit is None else limit
    listed = {}  # type: Dict[str, bool]
    listing = {'paths': listed, 'folders': folders, 'complete': True, 'count': 0}  # type: JsonObject

    def take(path: str) -> bool:
        if listing['count'] >= most:
            return False
        listed['p:' + path] = True
        listing['count'] += 1
        return True
    listing['complete'] = walk_folders(folders[:], take)
    return listing


class WorkspaceStart:
    """What one span sees of the workspace as it was when it began: `names` ('p:' + path → True) and `entries`
    ('k:' + path → a WorkspaceTexts entry) as the index holds them, except `saved` ('k:' + path → {'listed',
    'entry'}), the old state of each path the index changed since."""

    def __init__(self, names: 'Dict[str, bool]', entries: 'Dict[str, Any]', complete: bool,
                 folders: 'List[str]', index: 'Optional[WorkspaceIndex]' = None) -> None:
        self.names = names
        self.entries = entries
        self.complete = complete
        self.folders = folders
        self.index = index
        self.saved = {}  # type: Dict[str, JsonObject]

    def listed(self, path: str) -> bool:
        key = 'k:' + path
        if key in self.saved:
            return self.saved[key]['listed']
        return ('p:' + path) in self.names

    def entry(self, path: str) -> 'Optional[Entry]':
        key = 'k:' + path
        if key in self.saved:
            return self.saved[key]['entry']
        return self.entries[key] if key in self.entries else None

    def save(self, path: str) -> None:
        """The index is about to change `path`: keep what it was, once."""
        key = 'k:' + path
        if not (key in self.saved):
            self.saved[key] = {'listed': ('p:' + path) in self.names,
                               'entry': self.entries[key] if key in self.entries else None}

    def close(self, seen: 'Optional[List[str]]' = None) -> None:
        """The span ended: the index stops saving for it; `seen` (what the span's watcher reported) is checked at the
        next start, in case the index's own watcher missed it."""
        if self.index is not None:
            self.index.closed(self, seen or [])
            self.index = None
