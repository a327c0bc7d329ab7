"""CPython twins of hermes/js/clock.py (never transpiled)."""
import datetime
import email.utils
import time
# __pragma__('skip')
from typing import Optional
# __pragma__('noskip')


class Date:
    """JS's Date, as much of it as clock.py uses."""
    def __init__(self, ms: float = 0.0) -> None:
        self.ms = ms

    def _local(self) -> datetime.datetime:
        return datetime.datetime.fromtimestamp(self.ms / 1000.0)

    def getFullYear(self) -> int:
        return self._local().year

    def getMonth(self) -> int:  # 0-based, as in JS
        return self._local().month - 1

    def getDate(self) -> int:
        return self._local().day

    def toLocaleString(self) -> str:
        return time.strftime('%c', time.localtime(self.ms / 1000))

    @staticmethod
    def now() -> float:
        return time.time() * 1000.0


def monotonic_ms() -> float:
    return time.perf_counter() * 1000.0


def parse_http_date(text: str) -> Optional[float]:
    try:
        return email.utils.parsedate_to_datetime(text).timestamp() * 1000.0
    except (TypeError, ValueError, IndexError):
        return None


def local_time_text(ms: float) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000.0).strftime('%m/%d/%Y, %I:%M:%S %p')
