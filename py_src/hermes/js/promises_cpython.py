"""CPython twins of hermes/js/promises.py (never transpiled): asyncio futures and tasks."""
import asyncio


def make_promise(executor):
    """`new Promise(executor)` as an asyncio future; resolve/reject may be called from any thread."""
    loop = asyncio.get_event_loop()
    future = loop.create_future()

    def settle(ok, value):
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value if isinstance(value, BaseException) else Exception(str(value)))

    def resolve(value=None):
        loop.call_soon_threadsafe(settle, True, value) if loop.is_running() else settle(True, value)

    def reject(error=None):
        loop.call_soon_threadsafe(settle, False, error) if loop.is_running() else settle(False, error)

    executor(resolve, reject)
    return future


def sleep_ms(delay_ms):
    return asyncio.sleep(delay_ms / 1000.0)


def next_turn():
    return asyncio.sleep(0)


class _Deferred(dict):
    """The seam's deferred(): the future is made on first use, inside the running event loop."""

    def __init__(self):
        super().__init__()
        self._future = None
        self._settled = None

    def _get_future(self):
        if self._future is None:
            self._future = asyncio.get_event_loop().create_future()
            if self._settled is not None:
                self._settle(*self._settled)
        return self._future

    def _settle(self, ok, value):
        if self._future is None:
            self._settled = (ok, value)
        elif not self._future.done():
            if ok:
                self._future.set_result(value)
            else:
                self._future.set_exception(value if isinstance(value, BaseException) else Exception(value))

    def __getitem__(self, key):
        if key == 'promise':
            return self._get_future()
        if key == 'resolve':
            return lambda value=None: self._settle(True, value)
        if key == 'reject':
            return lambda error=None: self._settle(False, error)
        raise KeyError(key)


def deferred():
    return _Deferred()


async def first_of(awaitables):
    futures = [asyncio.ensure_future(item) for item in awaitables]
    done, _pending = await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
    for future in futures:  # the earliest in the list wins a tie, as near as CPython can tell
        if future in done:
            return future.result()


async def wait_all(awaitables):
    return list(await asyncio.gather(*awaitables))


def spawn(awaitable):
    return asyncio.ensure_future(awaitable)


def for_each_async(iterable, callback, on_end):
    async def consume():
        try:
            async for item in iterable:
                callback(item)
        except Exception as error:  # mirrors JS: any failure ends the stream
            on_end(error)
            return
        on_end(None)
    asyncio.ensure_future(consume())
