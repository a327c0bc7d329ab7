"""A clock for code that takes one (core/throttle.py): time moves only when the test says."""


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
