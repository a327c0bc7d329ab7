"""`hermes.changes.autoKeep`: 'nextTurn' keeps a client's and session's earlier turns when a new one starts,
'afterDelay' keeps hunks older than `hermes.changes.autoKeepSeconds` on a timer. The change log (host/changes/log.py)
calls it; it keeps through the log's `keep_where`, so the kept hunks are journaled and announced like any other."""
# __pragma__('tconv')
from hermes.core.changes.model import ChangeModel, matches
# __pragma__('skip')
from typing import Any, Callable
from hermes.contracts.changes import ChangeHunk
from hermes.contracts.loop import ChangeAuthor
from hermes.contracts.settings import SettingReader
# __pragma__('noskip')

AUTO_KEEP_NEXT_TURN = 'nextTurn'
AUTO_KEEP_AFTER_DELAY = 'afterDelay'


class AutoKeep:
    """`keep_where(chosen_if, action)` keeps the pending hunks `chosen_if` accepts and returns how many (the log's);
    `model` is read for the files pending and the earlier turns; `settings`, `timers`, `clock` as the log's."""

    def __init__(self, model: 'ChangeModel', settings: 'SettingReader', timers: Any, clock: 'Callable[[], float]',
                 keep_where: 'Callable[[Callable[[ChangeHunk], bool], str], int]') -> None:
        self._model = model
        self._settings = settings
        self._timers = timers
        self._clock = clock
        self._keep_where = keep_where
        self._timer = None  # type: Any

    def for_author(self, author: 'ChangeAuthor') -> None:
        """With 'nextTurn': keep the pending changes of the author's client and session from turns before theirs."""
        if self._settings('changes.autoKeep') != AUTO_KEEP_NEXT_TURN or author['turn'] is None:
            return
        for turn in self._model.earlier_turns(author):
            wanted = {'client': author['client'], 'session': author['session'], 'turn': turn}
            self._keep_where(_by(wanted), 'auto-kept')

    def keep_expired(self) -> int:
        """With 'afterDelay': keep every hunk older than `hermes.changes.autoKeepSeconds`; the number kept."""
        if self._settings('changes.autoKeep') != AUTO_KEEP_AFTER_DELAY:
            return 0
        limit = self._clock() - self._settings('changes.autoKeepSeconds') * 1000
        return self._keep_where(lambda hunk: hunk['time'] <= limit, 'auto-kept')

    def schedule(self) -> None:
        """With 'afterDelay' and changes pending: a timer keeps the expired ones (unless one is already set)."""
        if self._timer is not None or self._settings('changes.autoKeep') != AUTO_KEEP_AFTER_DELAY:
            return
        if len(self._model.order) == 0:
            return

        def fire() -> None:
            self._timer = None
            self.keep_expired()
            self.schedule()
        self._timer = self._timers.after(fire, max(1000, self._settings('changes.autoKeepSeconds') * 1000))

    def dispose(self) -> None:
        if self._timer is not None:  # (ours: None or the timer's handle)
            self._timers.cancel(self._timer)
            self._timer = None


def _by(wanted: 'Any') -> 'Callable[[ChangeHunk], bool]':
    return lambda hunk: matches(hunk['author'], wanted)
