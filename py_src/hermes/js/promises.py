"""Promises and async streams: making, waiting for, racing and running them on their own."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.objects import new


def make_promise(executor: 'Callable[[Callable[..., Any], Callable[..., Any]], Any]') -> 'Awaitable[Any]':
    """`new Promise(executor)`; executor(resolve, reject)."""
    return new(Promise, executor)


def sleep_ms(delay_ms: float) -> 'Awaitable[Any]':
    """An awaitable that resolves after `delay_ms`."""
    return make_promise(lambda resolve, reject: setTimeout(resolve, delay_ms))


def next_turn() -> 'Awaitable[Any]':
    """An awaitable that resolves on the event loop's next turn, after the I/O already waiting (`setImmediate`):
    no timer's 1 ms minimum."""
    return make_promise(lambda resolve, reject: setImmediate(resolve))


def deferred() -> 'Deferred':
    """{'promise', 'resolve', 'reject'}: a promise settled from outside."""
    holder = {}  # type: Dict[str, Any]  # (the promise needs its executor run first: filled in two steps)

    def executor(resolve: 'Callable[..., None]', reject: 'Callable[..., None]') -> None:
        holder['resolve'] = resolve
        holder['reject'] = reject
    holder['promise'] = make_promise(executor)
    return holder  # type: ignore[return-value]  # now the three keys a Deferred has


def first_of(awaitables: 'List[Awaitable[Any]]') -> 'Awaitable[Any]':
    """Whichever awaitable settles first (`Promise.race`); the others keep running."""
    return Promise.race(awaitables)


def wait_all(awaitables: 'Sequence[Awaitable[Any]]') -> 'Awaitable[List[Any]]':
    return Promise.all(awaitables)


def spawn(awaitable: 'Awaitable[T]') -> 'Awaitable[T]':
    """Let a coroutine run on its own (it must handle its own errors; leftovers go to stderr)."""
    awaitable.then(None, _report_background_error)
    return awaitable


def _report_background_error(error: 'Any') -> None:
    process.stderr.write('hermes: ' + error_message(error) + '\n')


def for_each_async(iterable: 'Any', callback: 'Callable[[Any], Any]', on_end: 'Callable[[Any], Any]') -> None:
    """Consume an AsyncIterable (a terminal execution's `read()`) on its own: `callback(item)` for each
    item, then `on_end(error)` once (None when the stream simply ended). It starts at once.
    (`async for` does not exist in Transcrypt.)"""
    __pragma__('js', '{}', """(async () => {
        try { for await (const item of iterable) { callback(item); } }
        catch (error) { on_end(error); return; }
        on_end(null);
    })();""")


# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Sequence, TypeVar
from hermes.contracts.node import Deferred
T = TypeVar('T')
from hermes.js.promises_cpython import (
    make_promise, sleep_ms, next_turn, deferred, first_of, wait_all, spawn, for_each_async,
)
# __pragma__('noskip')
