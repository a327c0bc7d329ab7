"""CPython stand-ins for the JS timer globals hermes/js/timers.py uses (never transpiled): asyncio's
`call_later` on the running loop."""
import asyncio
# __pragma__('skip')
from typing import Any, Callable, Optional, cast
from hermes.contracts.node import TimerHandle
# __pragma__('noskip')


def setTimeout(callback: Callable[..., Any], delay_ms: float, *args: Any) -> asyncio.TimerHandle:
    loop = asyncio.get_event_loop()
    return loop.call_later(delay_ms / 1000.0, callback, *args)


def clearTimeout(handle: Optional[TimerHandle]) -> None:
    if handle is not None:
        cast(asyncio.TimerHandle, handle).cancel()  # (every handle here came from setTimeout above)


setInterval = setTimeout
clearInterval = clearTimeout
