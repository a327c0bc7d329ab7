"""Timers: run a callback once after a delay, or repeatedly."""
# __pragma__('tconv')


def set_timer(callback, delay_ms):
    return setTimeout(callback, delay_ms)


def clear_timer(handle):
    clearTimeout(handle)


def set_repeating(callback, interval_ms):
    return setInterval(callback, interval_ms)


def clear_repeating(handle):
    clearInterval(handle)


# __pragma__('skip')
from hermes.js.timers_cpython import setTimeout, clearTimeout, setInterval, clearInterval
# __pragma__('noskip')
