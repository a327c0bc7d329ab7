"""A clock for code that takes one (core/throttle.py), and timers for code that takes those (`after`/`cancel`:
core/quiet_timer.py): time moves only when the test says."""


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
