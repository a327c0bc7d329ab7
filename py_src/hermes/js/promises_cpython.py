"""CPython twins of hermes/js/promises.py (never transpiled): asyncio futures and tasks."""
import asyncio
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, cast
from hermes.contracts.node import Deferred
T = TypeVar('T')
# __pragma__('noskip')


def make_promise(executor: Callable[[Callable[..., None], Callable[..., None]], Any]) -> Awaitable[Any]:
    """`new Promise(executor)` as an asyncio future; resolve/reject may be called from any thread."""
    loop = asyncio.get_event_loop()
    future = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value if isinstance(value, BaseException) else Exception(str(value)))

    def resolve(value: Any = None) -> None:
        loop.call_soon_threadsafe(settle, True, value) if loop.is_running() else settle(True, value)

    def reject(error: Any = None) -> None:
        loop.call_soon_threadsafe(settle, False, error) if loop.is_running() else settle(False, error)

    executor(resolve, reject)
    return future


def sleep_ms(delay_ms: float) -> Awaitable[None]:
    return asyncio.sleep(delay_ms / 1000.0)


def next_turn() -> Awaitable[None]:
    return asyncio.sleep(0)


class _Deferred(Dict[str, Any]):
    """The seam's deferred(): the future is made on first use, inside the running event loop."""

    def __init__(self) -> None:
        super().__init__()
        self._future = None  # type: Optional[asyncio.Future[Any]]
        self._settled = None  # type: Optional[Tuple[bool, Any]]

    def _get_future(self) -> 'asyncio.Future[Any]':
        if self._future is None:
            self._future = asyncio.get_event_loop().create_future()
            if self._settled is not None:
                self._settle(*self._settled)
        return self._future

    def _settle(self, ok: bool, value: Any) -> None:
        if self._future is None:
            self._settled = (ok, value)
        elif not self._future.done():
            if ok:
                self._future.set_result(value)
            else:
                self._future.set_exception(value if isinstance(value, BaseException) else Exception(value))

    def __getitem__(self, key: str) -> Any:
        if key == 'promise':
            return self._get_future()
        if key == 'resolve':
            return lambda value=None: self._settle(True, value)
        if key == 'reject':
            return lambda error=None: self._settle(False, error)
        raise KeyError(key)


def deferred() -> Deferred:
    return cast(Deferred, _Deferred())  # its three keys are made when read (the future inside the running loop)


async def first_of(awaitables: List[Awaitable[Any]]) -> Any:
    futures = [asyncio.ensure_future(item) for item in awaitables]
    done, _pending = await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
    for future in futures:  # the earliest in the list wins a tie, as near as CPython can tell
        if future in done:
            return future.result()


async def wait_all(awaitables: Sequence[Awaitable[Any]]) -> List[Any]:
    return list(await asyncio.gather(*awaitables))


def spawn(awaitable: Awaitable[T]) -> Awaitable[T]:  # (a Future: but JS gives a Promise, so callers see an awaitable)
    return asyncio.ensure_future(awaitable)


def for_each_async(iterable: Any, callback: Callable[[Any], Any], on_end: Callable[[Any], Any]) -> None:
    async def consume() -> None:
        try:
            async for item in iterable:
                callback(item)
        except Exception as error:  # mirrors JS: any failure ends the stream
            on_end(error)
            return
        on_end(None)
    asyncio.ensure_future(consume())
