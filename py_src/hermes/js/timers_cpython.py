"""CPython stand-ins for the JS timer globals hermes/js/timers.py uses (never transpiled): asyncio's
`call_later` on the running loop."""
import asyncio


def setTimeout(callback, delay_ms, *args):
    loop = asyncio.get_event_loop()
    return loop.call_later(delay_ms / 1000.0, callback, *args)


def clearTimeout(handle):
    if handle is not None:
        handle.cancel()


setInterval = setTimeout
clearInterval = clearTimeout
