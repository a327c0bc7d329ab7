"""At most one call per key per interval, and the last poke of a burst is never lost.

The first poke of a quiet key fires at once (a single change reaches the client without delay);
pokes within `interval_ms` of the last fire are folded into one trailing fire at the end of the
interval. So a burst of 100 changes gives a handful of calls, and the last one comes after the last
change: a client that reads then sees the final state. `fire(key, at)` gets the clock's time of the call:
two calls for one key are at least `interval_ms` apart by these times, whatever the machine's load (a timer
that comes early by the clock's rounding waits for the rest).

The clock is a parameter so tests can drive time by hand (`FakeClock` in the tests), and the bundle
uses JS timers through the seam.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict, Optional, Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def set_timer(self, callback: 'Callable[[], None]', delay_ms: float) -> Any: ...

    def clear_timer(self, handle: Any) -> None: ...


# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.timers import clear_timer, set_timer


class SystemClock:
    def now(self) -> float:
        return now_ms()

    def set_timer(self, callback: 'Callable[[], None]', delay_ms: float) -> 'Any':
        return set_timer(callback, delay_ms)

    def clear_timer(self, handle: 'Any') -> None:
        clear_timer(handle)


class KeyedThrottle:
    """`fire(key)` at most once per `interval_ms` for each key (a string)."""

    def __init__(self, interval_ms: float, fire: 'Callable[[str, float], None]', clock: 'Optional[Clock]' = None) -> None:
        self.interval_ms = interval_ms
        self._fire_callback = fire
        self._clock = SystemClock() if clock is None else clock
        # Keys come from clients (resource URIs): prefixed, so no key can be a dict's own member.
        self._last_fired = {}  # type: Dict[str, float]
        self._pending = {}  # type: Dict[str, Any]

    def poke(self, key: str) -> None:
        slot = 'k:' + key
        if slot in self._pending:
            return  # the trailing fire is scheduled already and will report this change too
        now = self._clock.now()
        last = self._last_fired[slot] if slot in self._last_fired else None
        if last is None or now - last >= self.interval_ms:
            self._fire(key)
            return
        self._pending[slot] = self._clock.set_timer(lambda: self._trailing(key), last + self.interval_ms - now)

    def forget(self, key: str) -> None:
        """Drop the key's pending fire and its history (nobody listens to it any more)."""
        slot = 'k:' + key
        if slot in self._pending:
            self._clock.clear_timer(self._pending[slot])
            del self._pending[slot]
        if slot in self._last_fired:
            del self._last_fired[slot]

    def dispose(self) -> None:
        for slot in list(self._pending.keys()):
            self._clock.clear_timer(self._pending[slot])
        self._pending = {}
        self._last_fired = {}

    def _trailing(self, key: str) -> None:
        slot = 'k:' + key
        if slot in self._pending:
            del self._pending[slot]
        last = self._last_fired[slot] if slot in self._last_fired else None
        early = 0 if last is None else last + self.interval_ms - self._clock.now()
        if early > 0:  # a timer may fire a millisecond early by Date.now(): the interval is a promise
            self._pending[slot] = self._clock.set_timer(lambda: self._trailing(key), early)
            return
        self._fire(key)

    def _fire(self, key: str) -> None:
        at = self._clock.now()
        self._last_fired['k:' + key] = at
        self._fire_callback(key, at)
