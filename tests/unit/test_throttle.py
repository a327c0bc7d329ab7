"""The per-resource throttle behind change notifications, on a clock the test drives by hand."""
from hermes.core.throttle import KeyedThrottle

from fake_clock import FakeClock


def make(interval=200):
    clock = FakeClock()
    fired = []
    def fire(key, at):
        assert at == clock.time  # the time of the call, on the throttle's clock
        fired.append((key, at))
    throttle = KeyedThrottle(interval, fire, clock)
    return clock, fired, throttle


def test_a_single_change_fires_at_once():
    clock, fired, throttle = make()
    throttle.poke('a')
    assert fired == [('a', 1000)]
    clock.advance(1000)
    assert fired == [('a', 1000)] and clock.timers == []


def test_a_burst_fires_once_per_interval_and_last_after_the_last_change():
    clock, fired, throttle = make()
    for _ in range(100):  # 100 changes 5 ms apart: 495 ms
        throttle.poke('a')
        clock.advance(5)
    last_change = clock.time - 5
    clock.advance(1000)
    times = [time for key, time in fired]
    assert times == [1000, 1200, 1400, 1600]
    assert times[-1] >= last_change  # the final state is reported after the last change
    assert all(later - earlier >= 200 for earlier, later in zip(times, times[1:]))


def test_keys_are_throttled_independently():
    clock, fired, throttle = make()
    throttle.poke('a')
    throttle.poke('b')
    throttle.poke('a')
    assert fired == [('a', 1000), ('b', 1000)]
    clock.advance(200)
    assert fired == [('a', 1000), ('b', 1000), ('a', 1200)]


def test_a_change_after_a_quiet_interval_fires_at_once_again():
    clock, fired, throttle = make()
    throttle.poke('a')
    clock.advance(250)
    throttle.poke('a')
    assert fired == [('a', 1000), ('a', 1250)]


def test_forget_and_dispose_drop_pending_fires():
    clock, fired, throttle = make()
    throttle.poke('a')
    throttle.poke('a')
    throttle.poke('__class__')
    throttle.poke('__class__')
    throttle.forget('a')
    throttle.dispose()
    clock.advance(1000)
    assert fired == [('a', 1000), ('__class__', 1000)]


class EarlyClock(FakeClock):
    """Timers that fire a millisecond early, as Node's may by Date.now() (libuv rounds its own clock)."""

    def set_timer(self, callback, delay_ms):
        return super().set_timer(callback, delay_ms - 1 if delay_ms > 1 else delay_ms)


def test_a_timer_that_fires_early_does_not_break_the_interval():
    clock = EarlyClock()
    fired = []
    throttle = KeyedThrottle(200, lambda key, at: fired.append(at), clock)
    for _ in range(100):
        throttle.poke('a')
        clock.advance(5)
    clock.advance(1000)
    assert fired[0] == 1000 and len(fired) >= 2
    assert all(later - earlier >= 200 for earlier, later in zip(fired, fired[1:])), fired
    assert fired[-1] >= 1000 + 99 * 5  # and the last change still comes through
