"""What the change log's listeners hear (host/changes/log.py `on_change`): the paths a burst of changes touched, once,
when the changes pause (`quiet_ms`, at least every ANNOUNCE_LONGEST_MS while they keep coming) — or at once when the log
was built without a quiet time (tests, tools that build a log of their own)."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.core.quiet_timer import QuietTimer
# __pragma__('skip')
from typing import Any, Callable, List, Optional
# __pragma__('noskip')

ANNOUNCE_LONGEST_MS = 1000


class Subscription:
    def __init__(self, on_dispose: 'Optional[Callable[[], None]]') -> None:
        self._on_dispose = on_dispose

    def dispose(self) -> None:
        if self._on_dispose is not None:  # (ours: None or a function)
            self._on_dispose()
            self._on_dispose = None


class ChangeAnnouncer:
    """The listeners and the paths they have not heard of yet. `timers` and `clock` as the log's; `quiet_ms` None:
    each change is told at once."""

    def __init__(self, timers: Any, clock: 'Callable[[], float]', quiet_ms: 'Optional[float]') -> None:
        self._listeners = []  # type: List[Callable[[List[str]], Any]]
        self._unannounced = []  # type: List[str]  # paths changed since the listeners last heard, first change first
        self._timer = None if quiet_ms is None else \
            QuietTimer(timers, clock, quiet_ms, ANNOUNCE_LONGEST_MS, self.announce_now)

    def listen(self, listener: 'Callable[[List[str]], Any]') -> 'Subscription':
        self._listeners.append(listener)

        def remove() -> None:
            self._listeners = [item for item in self._listeners if item is not listener]
        return Subscription(remove)

    def changed(self, paths: 'List[str]') -> None:
        """These paths changed (after the journal has them): told now, or when the changes pause."""
        for path in paths:
            if path not in self._unannounced:
                self._unannounced.append(path)
        if self._timer is None:  # (ours)
            self.announce_now()
        else:
            self._timer.poke()

    def announce_now(self) -> None:
        """Tell the listeners now of the changes they have not heard of (their paths, each once)."""
        if self._timer is not None:
            self._timer.cancel()
        paths = self._unannounced
        self._unannounced = []
        if len(paths) == 0:
            return
        for listener in self._listeners[:]:
            try:
                listener(paths)
            except JsError:
                pass

    def dispose(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._listeners = []
