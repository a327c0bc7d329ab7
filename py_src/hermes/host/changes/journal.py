"""The change log kept in the store (host/changes/store.py): each change goes to its journal before anyone hears of it
(so a change a tool reported, or a view showed, survives the extension host being killed), the whole log (a snapshot)
once changes pause and on dispose. Without a store (tests, tools that build a log of their own) it keeps nothing."""
# __pragma__('tconv')
from hermes.core.changes.model import ChangeModel
from hermes.core.quiet_timer import QuietTimer
from hermes.host.changes.store import FORMAT
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional
from hermes.contracts.changes import ChangeLogData
if TYPE_CHECKING:
    from hermes.host.changes.store import ChangeStore
# __pragma__('noskip')

# The snapshot (the whole log, fsynced: host/changes/store.py) is compaction, not durability — the journal line written
# before a change is announced is what survives a kill. So it waits for a quiet moment instead of landing in the middle
# of an agent's next write: SNAPSHOT_QUIET_MS after the last change, or SNAPSHOT_MAX_WAIT_MS after the first one not
# yet in a snapshot while changes keep coming (measured in code-server: a snapshot took 2-35 ms of the extension host's
# thread, and one every 300 ms fell inside ~40% of an agent's writes).
SNAPSHOT_QUIET_MS = 1000
SNAPSHOT_MAX_WAIT_MS = 5000


class ChangeJournal:
    """Keeps `model` (the log's ChangeModel) in `store`; `timers` and `clock` as the log's."""

    def __init__(self, store: 'Optional[ChangeStore]', model: 'ChangeModel', timers: Any,
                 clock: 'Callable[[], float]') -> None:
        self._store = store
        self._model = model
        self._saver = QuietTimer(timers, clock, SNAPSHOT_QUIET_MS, SNAPSHOT_MAX_WAIT_MS, self.snapshot)

    def restore(self, confined: 'Callable[[str], bool]') -> None:
        """Load the stored log into the model (entries whose files are no longer confined are dropped)."""
        if self._store is None:
            return
        data = self._store.load()
        if data is None:
            return
        if self._model.restore(data, confined):
            self.snapshot()  # the stored copy of those texts goes at once

    def to_data(self) -> 'ChangeLogData':
        return self._model.to_data(FORMAT)

    def changed(self, paths: 'List[str]') -> None:
        """The store's journal gets this change before anyone hears of it: the entries of `paths` (those still in the
        log), the files in order, the decisions since the last line; a snapshot follows when changes pause."""
        if self._store is None:
            return
        line = self._model.journal_line(paths)
        if self._store.failing:  # a line was lost: only the whole log is whole again
            self.snapshot()
        elif self._store.append(line):
            self._model.journaled()
        self._saver.poke()

    def snapshot(self) -> None:
        if self._store is None:
            return
        if self._store.save_now(self.to_data()):
            self._model.journaled()  # in the snapshot now

    def flush(self) -> None:
        """Save now (deactivate, tests)."""
        self._saver.cancel()
        self.snapshot()
