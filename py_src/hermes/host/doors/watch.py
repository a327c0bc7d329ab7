"""Edits a terminal CLI makes without asking — in auto-accept mode, or through its shell commands — reach the disk
directly, never a door. While a CLI is connected through a door, a file that changes on disk behind the editor becomes
that CLI's pending change in the change log, whenever its text before is known (host/changes/disk_changes.py: an open
document, the window's WorkspaceTexts, the start's listing for a new file). What cannot be reviewed exactly is said in
the Changes view (core/changes/notes.py): a file whose before-text is unknown (too large, not a text file: the span
notes it), a change listed under one of several CLIs connected at once (noted here).

One span at a time: it runs while any CLI is connected, and is recorded and begun anew once the disk is quiet for
QUIET_MS (at the latest LONGEST_MS after the first change), or at once when the CLI says its write is done. Claude
Code (2.1.328, traced) asks for a file's diagnostics (`getDiagnostics {uri}`, its baseline) just *before* it writes
the file — atomically, through `<name>.tmp.<pid>.<hex>` renamed over it — and for every file's (`getDiagnostics {}`)
right after: the first names the file (`about_to_write`: its text now is its before-text, and it is recorded even
if the watcher reports it late), the second ends the span (`writes_done`). Ending the span at the first, before the
write, recorded the temporary file as a file the CLI created. A file saved through the editor in the meantime is
the user's (or a tool's, which records its own writes): skipped.

Who wrote it: with several CLIs connected, the one that connected or called a tool last (a guess: the disk does not
say; docs/DOORS.md).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError
from hermes.js.promises import spawn
from hermes.core.changes.notes import GUESSED
from hermes.core.quiet_timer import QuietTimer
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.disk_changes import DiskChangeSpan
from hermes.host.log import Log
# __pragma__('noskip')

QUIET_MS = 1000
LONGEST_MS = 3000


class DoorWatch:
    """`make_span()` starts a DiskChangeSpan (host/changes/disk_changes.py); `change_log` records; `timers`: after/cancel;
    `ready()`: None, or what to await before a span starts (host/changes/window_index.py `ready`: the workspace's
    index walked in the background, a slice a tick — the CLI just connected; if it names a file it is about to write
    before the walk ended, the span starts at once and finishes the walk)."""

    def __init__(self, change_log: Any, make_span: 'Callable[[], DiskChangeSpan]', timers: Any,
                 clock: 'Optional[Callable[[], float]]' = None, log: 'Optional[Log]' = None,
                 ready: 'Optional[Callable[[], Any]]' = None) -> None:
        self.change_log = change_log
        self.make_span = make_span
        self.ready = ready
        self._waiting = None  # type: Any  # what the next span waits for (ready), while a CLI is connected
        self.timers = timers
        self.log = log
        self.authors = []  # type: List[JsonObject]  # the connected CLIs' authors, the latest active last
        self.recorded = 0
        self.named = []  # type: List[str]  # files a CLI said it is about to write, since the span began
        # 'k:' + path → the text a CLI will write because the user accepted it in the review
        self.expected = {}  # type: Dict[str, str]
        self._span = None  # type: Optional[DiskChangeSpan]
        self._timer = QuietTimer(timers, now_ms if clock is None else clock, QUIET_MS, LONGEST_MS, self.flush)

    def attach(self, author: 'JsonObject') -> None:
        """A CLI connected (or called a tool): it is now the likeliest writer."""
        authors = [known for known in self.authors if known['session'] != author['session']]
        authors.append(author)
        self.authors = authors
        if self._span is None and self._waiting is None:
            self._begin()

    def detach(self, author: 'JsonObject') -> None:
        self.flush()
        self.authors = [known for known in self.authors if known['session'] != author['session']]
        if len(self.authors) == 0:
            self._end_span()

    def about_to_write(self, path: str) -> None:
        """A CLI names `path` as a file it is about to write: remember its text now (unless the span knows it from
        its start) and record the file at the next flush even if the watcher has not reported it yet."""
        if self._waiting is not None:
            self._begin_now()  # before the index's walk ended: the rest of it now, exact first
        if self._span is None:
            return
        self._span.note(path)
        if not (path in self.named):
            self.named.append(path)

    def expect(self, path: str, text: str) -> None:
        """The user accepted `text` for `path` in Hermes' review and the CLI will write it: that write is reviewed
        already, not a change made without asking (its undecided hunks stay in the change log as they are)."""
        self.expected['k:' + path] = text

    def _written_as_accepted(self, span: 'DiskChangeSpan', path: str) -> bool:
        key = 'k:' + path
        if not (key in self.expected):
            return False
        try:
            written = span.read(path) == self.expected[key]
        except JsError:
            return False
        if written:
            del self.expected[key]
        return written

    def writes_done(self) -> None:
        """A CLI says the writes it announced are done: record them now rather than after the quiet wait."""
        if self._span is not None and len(self.named) > 0:
            self.flush()

    def flush(self) -> int:
        span = self._span
        if span is None or len(self.authors) == 0:
            return 0
        if len(self.named) == 0 and _all_saved_in_the_editor(span):
            # only the user's (or a tool's) saves: nothing to record, and no new span (a new one lists the workspace
            # again, which an editor that saves often would pay for every few seconds)
            span.paths = []
            span.saved = {}
            return 0
        paths = [path for path in span.end(self.named) if not self._written_as_accepted(span, path)]
        self.named = []
        writer = self.authors[len(self.authors) - 1]
        recorded = []  # type: List[str]
        count = span.record(self.change_log, paths, writer, recorded)
        self.recorded += count
        if len(self.authors) > 1 and count > 0:
            self._note_guess(recorded, writer)
        self._begin()
        return count

    def _note_guess(self, recorded: 'List[str]', writer: 'JsonObject') -> None:
        """Several CLIs are connected: the changes `recorded` were listed as the last active one's, which the disk
        cannot confirm — say so in the Changes view."""
        notes = getattr(self.change_log, 'notes', None)
        if notes is None:
            return
        others = []  # type: List[str]
        for author in self.authors:
            if author['client'] != writer['client'] and not (author['client'] in others):
                others.append(author['client'])
        if len(others) == 0:
            return  # two terminals of the same CLI: the name listed is right either way
        for path in recorded:
            notes.add(GUESSED, path, writer['client'], ' and '.join(others))

    def dispose(self) -> None:
        self.authors = []
        self._end_span()

    def _begin(self) -> None:
        waiting = None if self.ready is None else self.ready()
        if waiting is None:
            self._begin_now()
            return
        self._waiting = waiting
        spawn(self._begin_when_ready(waiting))

    async def _begin_when_ready(self, waiting: Any) -> None:
        await waiting
        if self._waiting is waiting:
            self._begin_now()

    def _begin_now(self) -> None:
        self._waiting = None
        if len(self.authors) == 0:
            return  # the CLIs left while the walk went on
        span = self.make_span()
        span.new_files_late_at_close = True  # a CLI's atomic-write temporary is no file it created (host/changes/disk_changes.py)
        span.on_seen = lambda path: self._timer.poke()
        self._span = span

    def _end_span(self) -> None:
        self._waiting = None
        if self._span is not None:
            self._span.stop()
            self._span = None


def _all_saved_in_the_editor(span: 'DiskChangeSpan') -> bool:
    for path in span.paths:
        if not (('k:' + path) in span.saved):
            return False
    return True
