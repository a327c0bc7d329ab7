"""The texts of the workspace's small text files as they were when a span of disk changes began
(host/changes/disk_changes.py): the before-text of a file a writer we do not see changed — above all a shell command an
ACP agent ran itself (Hermes Agent runs its terminal tool without us), which names no file before it writes.

One per window (inside its host/changes/workspace_index.py WorkspaceIndex), kept between spans: the index's full
walk (its warm-up, or a span's start that finds it unwalked) hands it each file it finds (`restart`, `take`,
`settle`; `refresh(listing)` does the three for a listing), which stats the file and reads it only when it is new or
its size or modification time changed since the last walk; afterwards `update(path)` brings one file up to date (the
index calls it for each file its watcher reported), so a span's start costs a stat per file changed since the last. What it keeps is bounded (MAX_FILES files of at most MAX_FILE_BYTES, MAX_TOTAL_BYTES
together, text only: a file with a NUL character is binary and left out); a file past the bounds has no known
before-text here and, unless another source knows it, is listed but not recorded. Nothing leaves the extension
host's memory: the texts are the workspace's own files (the listing never leaves the workspace folders), and only
the change log's own confinement decides what is stored.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node

# __pragma__('skip')
from typing import Any, Callable, Dict, Optional, TypedDict


class Stat(TypedDict):
    size: int
    mtime: float
    ctime: float
    file: bool


class Entry(TypedDict):
    size: int
    mtime: float
    ctime: float
    text: str
# __pragma__('noskip')

MAX_FILES = 2000
MAX_FILE_BYTES = 262144
MAX_TOTAL_BYTES = 8000000


def _stat_of(path: str) -> 'Optional[Stat]':
    """{'size', 'mtime', 'ctime', 'file': bool} or None when the path cannot be stat'ed. A symbolic link is no
    file here (lstat): its target may lie outside the workspace, whose text is none of the span's business."""
    try:
        found = node('fs').lstatSync(path)
    except JsError:
        return None
    return {'size': found.size, 'mtime': found.mtimeMs, 'ctime': found.ctimeMs, 'file': found.isFile()}


def _read(path: str) -> str:
    return node('fs').readFileSync(path, 'utf8')


def unchanged(entry: 'Entry', found: 'Stat') -> bool:
    """Whether the file of stat `found` is still the one `entry` was read from (same size and times)."""
    return entry['size'] == found['size'] and entry['mtime'] == found['mtime'] and entry['ctime'] == found['ctime']


class WorkspaceTexts:
    """See the module's docstring. `stat(path)` and `read(path)` are the disk (tests hand fakes)."""

    def __init__(self, stat: 'Optional[Callable[[str], Optional[Stat]]]' = None,
                 read: 'Optional[Callable[[str], str]]' = None) -> None:
        self.stat = _stat_of if stat is None else stat
        self.read = _read if read is None else read
        self.entries = {}  # type: Dict[str, Entry]  # 'k:' + path → its entry (never changed once made)
        self.total = 0
        self.count = 0  # len(entries), kept: Transcrypt's len of a dict counts its keys
        self.kept = {}  # type: Dict[str, Entry]  # during a walk: the entries before it (restart)

    def refresh(self, listing: 'Dict[str, Any]') -> 'Dict[str, Entry]':
        """Bring the texts up to date with the files of `listing` (host/changes/workspace_listing.py
        list_workspace_files) and return them: a dict 'k:' + path → entry that later refreshes leave unchanged (a
        span keeps it). The same as a walk's `restart`, `take` for each file, `settle`."""
        self.restart()
        for key in listing['paths'].keys():
            if self.count >= MAX_FILES:
                break
            self.take(key[2:])
        self.settle()
        return self.entries

    def restart(self) -> None:
        """A walk of the workspace begins (the index's, host/changes/workspace_index.py): `entries` start again empty
        (a new dict: one a span holds is never changed), the old ones kept aside until `settle`, so `take` re-reads
        only the files that are new or changed."""
        self.kept = self.entries
        self.entries = {}
        self.total = 0
        self.count = 0

    def take(self, path: str) -> None:
        """The walk found the file `path`: its text joins `entries` (within the bounds)."""
        if self.count >= MAX_FILES:
            return
        found = self.stat(path)
        if found is None or not self._fits(found):
            return
        key = 'k:' + path
        entry = self.kept[key] if key in self.kept else None
        if entry is None or not unchanged(entry, found):
            entry = self._read_entry(path, found)
            if entry is None:
                return
        self._keep(key, entry)

    def settle(self) -> None:
        """The walk is over: what it did not take again is forgotten."""
        self.kept = {}

    def update(self, path: str) -> 'Optional[Entry]':
        """Bring `path`'s text up to date in place (`entries` changes: the index saves what its live spans need first)
        and return its entry now, None when it has none (gone, no file, binary, past the bounds)."""
        key = 'k:' + path
        entry = self.entries[key] if key in self.entries else None
        found = self.stat(path)
        if entry is not None and found is not None and found['file'] and unchanged(entry, found):
            return entry
        self.drop(path)
        if found is None or not self._fits(found):
            return None
        entry = self._read_entry(path, found)
        if entry is not None:
            self._keep(key, entry)
        return entry

    def _fits(self, found: 'Stat') -> bool:
        """Whether a file of this stat is one whose text is kept, with what is kept already."""
        return found['file'] and found['size'] <= MAX_FILE_BYTES and \
            self.total + found['size'] <= MAX_TOTAL_BYTES and self.count < MAX_FILES

    def _read_entry(self, path: str, found: 'Stat') -> 'Optional[Entry]':
        """`path`'s text read now as an entry with its stat, or None (unreadable; binary: the change log keeps texts)."""
        try:
            text = self.read(path)
        except JsError:
            return None
        if '\u0000' in text:
            return None
        return {'size': found['size'], 'mtime': found['mtime'], 'ctime': found['ctime'], 'text': text}

    def _keep(self, key: str, entry: 'Entry') -> None:
        self.entries[key] = entry
        self.total += entry['size']
        self.count += 1

    def drop(self, path: str) -> None:
        """Forget `path`'s text (its file is gone or changed)."""
        key = 'k:' + path
        if key in self.entries:
            self.total -= self.entries[key]['size']
            self.count -= 1
            del self.entries[key]
