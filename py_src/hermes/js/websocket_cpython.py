"""CPython twin of hermes/js/websocket.py (never transpiled): unit tests exercise the door's decisions and the
protocol over a fake connection; the WebSocket itself is proven on the bundle with the real `ws` (tests/node)."""
# __pragma__('skip')
from typing import Any
# __pragma__('noskip')


def require(name: str) -> 'Any':
    raise NotImplementedError('the ws package exists in the bundle only (tests/node run it)')
