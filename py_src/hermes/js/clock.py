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


# `Date.toLocaleString()` builds an ICU formatter at every call (~0.4 ms in Node 22, measured for issue 34: the chat
# sessions list formats each conversation's time at every refresh, 50 of them ~20 ms of the extension host's thread).
# One formatter made on first use with toLocaleString's own defaults (these six fields, numeric, the default locale:
# ECMA-402 ToDateTimeOptions "any"/"all") writes the same text in ~2 µs.
_LOCAL = {'formatter': None}  # type: Dict[str, Any]
_LOCAL_TIME_FIELDS = {'year': 'numeric', 'month': 'numeric', 'day': 'numeric', 'hour': 'numeric', 'minute': 'numeric',
                      'second': 'numeric'}


def local_time_text(ms: float) -> str:
    """A time (epoch milliseconds) as the user's locale writes it (what `Date.toLocaleString()` gives)."""
    formatter = _LOCAL['formatter']
    if not formatter:
        formatter = new(Intl.DateTimeFormat, [], _LOCAL_TIME_FIELDS)
        _LOCAL['formatter'] = formatter
    return formatter.format(new(Date, ms))


# __pragma__('skip')
from typing import Any, Dict, Optional
from hermes.js.clock_cpython import Date, monotonic_ms, parse_http_date, local_time_text
# __pragma__('noskip')
