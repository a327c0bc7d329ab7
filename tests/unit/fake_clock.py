"""A clock for code that takes one (core/throttle.py), and timers for code that takes those (`after`/`cancel`:
core/quiet_timer.py): time moves only when the test says. The one fake of time and timers for the unit tests:
`FakeClock` when timers should fire as time passes, `HeldTimers` when a test looks at each timer's delay as it was
set and chooses which one fires, whatever the time."""


class FakeClock:
    """Time stands still until `advance`; timers due by then fire in order."""

    def __init__(self):
        self.time = 1000
        self.timers = []  # [due, sequence, callback]
        self.sequence = 0

    def now(self):
        return self.time

    def set_timer(self, callback, delay_ms):
        self.sequence += 1
        timer = [self.time + delay_ms, self.sequence, callback]
        self.timers.append(timer)
        return timer

    def clear_timer(self, handle):
        self.timers = [timer for timer in self.timers if timer is not handle]

    after = set_timer  # the timers interface of core/quiet_timer.py
    cancel = clear_timer

    @property
    def waiting(self):
        return len(self.timers)

    def delays(self):
        """How long each waiting timer has yet to wait, in the order they were set."""
        return [timer[0] - self.time for timer in self.timers]

    def advance(self, ms):
        end = self.time + ms
        while True:
            due = sorted([timer for timer in self.timers if timer[0] <= end], key=lambda timer: timer[:2])
            if not due:
                break
            timer = due[0]
            self.timers.remove(timer)
            self.time = timer[0]
            timer[2]()
        self.time = end


class HeldTimers:
    """Timers (`after`/`cancel`) that wait until the test fires them: `pending` holds [callback, delay_ms] in the
    order set. The code under test may take its time from a FakeClock moved by hand (`clock.time += ms`): no timer
    fires by itself."""

    def __init__(self):
        self.pending = []

    def after(self, callback, delay_ms):
        handle = [callback, delay_ms]
        self.pending.append(handle)
        return handle

    def cancel(self, handle):
        if handle in self.pending:
            self.pending.remove(handle)

    def fire(self, handle=None):
        """Fire `handle`, or the one timer waiting (an error if there is not exactly one)."""
        if handle is None:
            [handle] = self.pending
        self.pending.remove(handle)
        handle[0]()

    def fire_all(self):
        """Fire every timer waiting now (not those they set)."""
        fired, self.pending = self.pending, []
        for callback, _ in fired:
            callback()
