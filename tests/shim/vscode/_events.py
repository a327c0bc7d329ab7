"""Events, disposables, cancellation, and when listeners and Thenables run (as VS Code schedules them)."""
import asyncio


def run_listener(result):
    """An async listener's coroutine runs as a JS promise would: scheduled on the running loop, or
    (with no loop running) to completion right away."""
    if asyncio.iscoroutine(result):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(result)
            return
        asyncio.ensure_future(result)


def resolved(value):
    """What an awaited Thenable gives: a finished future when a loop runs, else the value itself."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return value
    future = loop.create_future()
    future.set_result(value)
    return future


def soon(callback, *args):
    """Run `callback` on the next loop turn (VS Code fires most events asynchronously)."""
    try:
        asyncio.get_running_loop().call_soon(callback, *args)
    except RuntimeError:
        callback(*args)


class Disposable:
    def __init__(self, on_dispose=None):
        self._on_dispose = on_dispose
        self.disposed = False

    def dispose(self):
        if not self.disposed:
            self.disposed = True
            if self._on_dispose:
                self._on_dispose()

    @staticmethod
    def from_(*disposables):
        return Disposable(lambda: [d.dispose() for d in disposables])


class EventEmitter:
    def __init__(self):
        self._listeners = []

    def event(self, listener, this_arg=None, disposables=None):
        self._listeners.append(listener)
        disposable = Disposable(lambda: self._listeners.remove(listener))
        if disposables is not None:
            disposables.append(disposable)
        return disposable

    def fire(self, data=None):
        for listener in list(self._listeners):
            run_listener(listener(data))

    def dispose(self):
        self._listeners.clear()


class CancellationTokenSource:
    def __init__(self):
        self._emitter = EventEmitter()
        self.token = type('CancellationToken', (), {})()
        self.token.isCancellationRequested = False
        self.token.onCancellationRequested = self._emitter.event

    def cancel(self):
        if not self.token.isCancellationRequested:
            self.token.isCancellationRequested = True
            self._emitter.fire(None)

    def dispose(self):
        self._emitter.dispose()


class CancellationError(Exception):
    pass


def add_event(owner, attribute, event_name):
    """`owner.<event_name>` is an event tests fire with `owner.<attribute>.fire(...)`."""
    emitter = EventEmitter()
    setattr(owner, attribute, emitter)
    setattr(owner, event_name, emitter.event)
