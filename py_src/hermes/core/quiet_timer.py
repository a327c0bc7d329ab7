"""One call after a burst of pokes: once the pokes stop for `quiet_ms`, and at the latest `longest_ms` after the
first poke of the burst while they keep coming (a stream that never pauses still gets its call now and then).

The change log uses two: its listeners (the review UI, sessions, the panel, hermes://changes) hear a burst of
changes once the agent pauses, and its snapshot (the whole log, fsynced) is written when nothing else happens —
neither lands in the middle of the agent's next write (host/changes/log.py).

`timers` (`after(callback, delay_ms)` → handle, `cancel(handle)`) and `clock()` (milliseconds) are parameters, so
tests drive time by hand and the bundle uses JS timers through the seam.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable
# __pragma__('noskip')


class QuietTimer:
    def __init__(self, timers: 'Any', clock: 'Callable[[], float]', quiet_ms: float, longest_ms: float,
                 action: 'Callable[[], object]') -> None:
        self._timers = timers
        self._clock = clock
        self.quiet_ms = quiet_ms
        self.longest_ms = longest_ms
        self._action = action
        self._handle = None  # type: Any
        self._since = None  # type: Any  # the clock's time of the burst's first poke

    @property
    def waiting(self) -> bool:
        return self._handle is not None

    def poke(self) -> None:
        """Something happened: the call waits for a quiet moment again (but not past the burst's longest wait)."""
        now = self._clock()
        if self._since is None:
            self._since = now
        delay = max(0, min(self.quiet_ms, self._since + self.longest_ms - now))
        if self._handle is not None:
            self._timers.cancel(self._handle)
        self._handle = self._timers.after(self._fire, delay)

    def cancel(self) -> None:
        """Nothing is called for the pokes so far."""
        if self._handle is not None:
            self._timers.cancel(self._handle)
        self._handle = None
        self._since = None

    def fire_now(self) -> None:
        """Call now (if a call is waiting or not): the pokes so far are answered."""
        self.cancel()
        self._action()

    def _fire(self) -> None:
        self._handle = None
        self._since = None
        self._action()
