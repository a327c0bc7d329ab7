"""core/quiet_timer.py: one call once pokes pause, at the latest `longest_ms` after a burst's first poke."""
from hermes.core.quiet_timer import QuietTimer


class Timers:
    def __init__(self):
        self.pending = []

    def after(self, callback, delay_ms):
        handle = [callback, delay_ms]
        self.pending.append(handle)
        return handle

    def cancel(self, handle):
        self.pending.remove(handle)

    def fire(self):
        [handle] = self.pending
        self.pending.remove(handle)
        handle[0]()


def make(calls, now):
    return QuietTimer(Timers(), lambda: now[0], 200, 1000, lambda: calls.append(now[0]))


def test_pokes_wait_for_a_pause_then_one_call():
    calls, now = [], [0]
    timer = make(calls, now)
    timer.poke()
    now[0] = 100
    timer.poke()
    assert [handle[1] for handle in timer._timers.pending] == [200], 'one timer, moved on'
    now[0] = 300
    timer._timers.fire()
    assert calls == [300] and not timer.waiting


def test_a_stream_that_never_pauses_is_called_at_the_longest_wait():
    calls, now = [], [0]
    timer = make(calls, now)
    for step in range(10):
        now[0] = step * 110
        timer.poke()
    assert [handle[1] for handle in timer._timers.pending] == [10]  # 990 ms after the first poke
    timer._timers.fire()
    now[0] = 1000
    timer.poke()
    assert [handle[1] for handle in timer._timers.pending] == [200], 'the next burst starts its own wait'


def test_cancel_calls_nothing_and_fire_now_calls_at_once():
    calls, now = [], [0]
    timer = make(calls, now)
    timer.poke()
    timer.cancel()
    assert timer._timers.pending == [] and calls == [] and not timer.waiting
    timer.poke()
    timer.fire_now()
    assert calls == [0] and timer._timers.pending == []
