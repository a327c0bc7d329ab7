"""Timers: run a callback once after a delay, or repeatedly."""
# __pragma__('tconv')


def set_timer(callback: 'Callable[[], Any]', delay_ms: float) -> 'TimerHandle':
    return setTimeout(callback, delay_ms)


def clear_timer(handle: 'Optional[TimerHandle]') -> None:
    clearTimeout(handle)


def set_repeating(callback: 'Callable[[], Any]', interval_ms: float) -> 'TimerHandle':
    return setInterval(callback, interval_ms)


def clear_repeating(handle: 'Optional[TimerHandle]') -> None:
    clearInterval(handle)


# __pragma__('skip')
from typing import Any, Callable, Optional
from hermes.contracts.node import TimerHandle
from hermes.js.timers_cpython import setTimeout, clearTimeout, setInterval, clearInterval
# __pragma__('noskip')
