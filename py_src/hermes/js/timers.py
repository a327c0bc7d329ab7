"""Timers: run a callback once after a delay, or repeatedly."""
# __pragma__('tconv')


def set_timer(callback: 'Callable[[], Any]', delay_ms: float) -> 'Any':
    return setTimeout(callback, delay_ms)


def clear_timer(handle: 'Any') -> None:
    clearTimeout(handle)


def set_repeating(callback: 'Callable[[], Any]', interval_ms: float) -> 'Any':
    return setInterval(callback, interval_ms)


def clear_repeating(handle: 'Any') -> None:
    clearInterval(handle)


# __pragma__('skip')
from typing import Any, Callable
from hermes.js.timers_cpython import setTimeout, clearTimeout, setInterval, clearInterval
# __pragma__('noskip')
