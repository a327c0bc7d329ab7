"""Time: the wall clock, a monotonic clock, HTTP dates and the user's local time format."""
# __pragma__('tconv')
from hermes.js.objects import new


def now_ms() -> float:
    return Date.now()


def monotonic_ms() -> float:
    """A clock for measuring durations, with sub-millisecond resolution."""
    return performance.now()


def parse_http_date(text: str) -> 'Optional[float]':
    """An HTTP date (a Retry-After value) as epoch milliseconds, or None."""
    value = Date.parse(text)
    return None if value != value else value  # NaN (a bare `isNaN` compiles to `py_isNaN`)


def local_day_text(ms: float) -> str:
    """The user's local date of a time (epoch milliseconds) as YYYY-MM-DD."""
    date = new(Date, ms)
    month = date.getMonth() + 1
    day = date.getDate()
    return str(date.getFullYear()) + '-' + ('0' if month < 10 else '') + str(month) + '-' + \
        ('0' if day < 10 else '') + str(day)


def local_time_text(ms: float) -> str:
    """A time (epoch milliseconds) as the user's locale writes it."""
    return new(Date, ms).toLocaleString()


# __pragma__('skip')
from typing import Optional
from hermes.js.clock_cpython import Date, monotonic_ms, parse_http_date, local_time_text
# __pragma__('noskip')
