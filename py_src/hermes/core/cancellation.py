"""A cancellation signal for one agent run: the front end cancels, the LLM client aborts its fetch,
running tools get `ToolCall.cancel()`, and anything awaited can be raced against `wait()`."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
# __pragma__('noskip')
from hermes.js.errors import JsError
from hermes.js.promises import deferred, first_of

CANCELLED = {'cancelled': True}  # type: Dict[str, Any]
"""What `race` returns when the cancellation won."""


class Cancellation:
    def __init__(self) -> None:
        self.cancelled = False
        self.reason = None  # type: Optional[str]
        self._listeners = []  # type: List[Callable[[], None]]
        self._deferred = None  # type: Any

    def cancel(self, reason: 'Optional[str]' = None) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        self.reason = reason
        if self._deferred is not None:
            self._deferred['resolve'](CANCELLED)
        listeners = self._listeners[:]
        self._listeners = []
        for listener in listeners:
            try:
                listener()
            except JsError:
                pass

    def on_cancel(self, callback: 'Callable[[], None]') -> 'Callable[[], None]':
        """Run `callback()` once on cancel (at once if already cancelled); returns an unsubscribe."""
        if self.cancelled:
            callback()
            return _nothing
        self._listeners.append(callback)

        def unsubscribe() -> None:
            self._listeners = [item for item in self._listeners if item is not callback]
        return unsubscribe

    def wait(self) -> 'Awaitable[Any]':
        """An awaitable that resolves to CANCELLED when (if ever) this is cancelled."""
        if self._deferred is None:
            self._deferred = deferred()
            if self.cancelled:
                self._deferred['resolve'](CANCELLED)
        return self._deferred['promise']

    async def race(self, awaitable: 'Awaitable[Any]') -> 'Any':
        """`await awaitable`, unless cancel comes first: then CANCELLED (the awaitable runs on)."""
        if self.cancelled:
            return CANCELLED
        return await first_of([awaitable, self.wait()])


def _nothing() -> None:
    return None
