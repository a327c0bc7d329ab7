"""core/quiet_timer.py: one call once pokes pause, at the latest `longest_ms` after a burst's first poke."""
from fake_clock import FakeClock
from hermes.core.quiet_timer import QuietTimer


def make(calls):
    """A QuietTimer (200 ms quiet, at most 1 s) on a FakeClock's time and timers; each call notes the time."""
    clock = FakeClock()
    return QuietTimer(clock, clock.now, 200, 1000, lambda: calls.append(clock.now())), clock


def test_pokes_wait_for_a_pause_then_one_call():
    calls = []
    timer, clock = make(calls)
    start = clock.now()
    timer.poke()
    clock.advance(100)
    timer.poke()
    assert clock.delays() == [200], 'one timer, moved on'
    clock.advance(200)
    assert calls == [start + 300] and not timer.waiting


def test_a_stream_that_never_pauses_is_called_at_the_longest_wait():
    calls = []
    timer, clock = make(calls)
    for step in range(10):
        if step:
            clock.advance(110)
        timer.poke()
    assert clock.delays() == [10]  # 990 ms after the first poke
    clock.advance(10)
    timer.poke()
    assert clock.delays() == [200], 'the next burst starts its own wait'


def test_cancel_calls_nothing_and_fire_now_calls_at_once():
    calls = []
    timer, clock = make(calls)
    start = clock.now()
    timer.poke()
    timer.cancel()
    assert clock.delays() == [] and calls == [] and not timer.waiting
    timer.poke()
    timer.fire_now()
    assert calls == [start] and clock.delays() == []
