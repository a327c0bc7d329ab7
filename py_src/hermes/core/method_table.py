"""Which handler answers which JSON-RPC method: one table for the session, one for each MCP feature.

A method name comes straight from the wire, so it is never a key of its own: in the bundle a dict is a JS
object that also owns `__contains__`, `py_keys`, … and inherits `__proto__` and `constructor`; a lookup of
such a name would find that machinery instead of "method not found". Every key gets a prefix no such name has.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, Optional
Handler = Callable[..., Awaitable[Any]]  # async handler(request_id, params) → result
# __pragma__('noskip')


class MethodTable:
    def __init__(self, handlers: 'Optional[Dict[str, Handler]]' = None) -> None:
        """`handlers`: {method: async handler(request_id, params)}."""
        self._slots = {}  # type: Dict[str, Handler]
        if handlers is not None:
            for method in handlers.keys():
                self.add(method, handlers[method])

    def add(self, method: str, handler: 'Handler') -> None:
        self._slots['m:' + method] = handler

    def get(self, method: str) -> 'Optional[Handler]':
        """The handler of `method`, or None when the method is not in the table."""
        slot = 'm:' + method
        return self._slots[slot] if slot in self._slots else None
