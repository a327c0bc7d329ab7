"""CPython twins of hermes/js/fetch.py (never transpiled): tests hand in the responses."""
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.node import AbortController as Controller, AbortSignal as Signal, FetchResponse  # (`as`: JS globals' names)
# __pragma__('noskip')


FETCH = None  # type: Optional[Callable[[str, Dict[str, Any]], Awaitable[FetchResponse]]]
"""Stand-in for the global `fetch`: tests set it to `async def fake(url, options) -> FakeResponse`."""


def fetch_url(url: str, options: Dict[str, Any]) -> Awaitable[FetchResponse]:
    if FETCH is None:
        raise RuntimeError('no fetch stand-in: set hermes.js.fetch_cpython.FETCH in the test')
    return FETCH(url, options)


class _AbortSignal:
    def __init__(self) -> None:
        self.aborted = False
        self._listeners = []  # type: List[Callable[[], None]]

    def addEventListener(self, kind: str, listener: Callable[[], None]) -> None:
        """Streaming test fetches (tests/llm_server/cpython_fetch.py) listen for 'abort'."""
        if kind == 'abort':
            self._listeners.append(listener)


class _AbortController:
    def __init__(self) -> None:
        self.signal = _AbortSignal()

    def abort(self) -> None:
        if self.signal.aborted:
            return
        self.signal.aborted = True
        for listener in list(self.signal._listeners):
            listener()


def timeout_signal(delay_ms: float) -> Signal:
    return _AbortSignal()


def abort_controller() -> Controller:
    return _AbortController()


def either_signal(first: Signal, second: Signal) -> Signal:
    either = _AbortController()
    for signal in (first, second):
        if signal.aborted:
            either.abort()
        signal.addEventListener('abort', either.abort)
    return either.signal


def response_header(response: FetchResponse, header_name: str) -> Optional[str]:
    for key, value in response.headers.items():
        if key.lower() == header_name.lower():
            return value
    return None


def body_reader(response: FetchResponse) -> Dict[str, Any]:
    """Fake responses carry `chunks`: strings, or exceptions to raise at that point of the body.
    A streaming response instead offers `async read_chunk()` (None at the end) and `cancel()`."""
    return {'chunks': list(getattr(response, 'chunks', [])), 'cancelled': False,
            'read_chunk': getattr(response, 'read_chunk', None), 'cancel': getattr(response, 'cancel', None)}


async def read_text_chunk(reader: Dict[str, Any]) -> Optional[str]:
    if reader.get('read_chunk') is not None and not reader['cancelled']:
        return await reader['read_chunk']()
    if reader['cancelled'] or not reader['chunks']:
        return None
    chunk = reader['chunks'].pop(0)
    if isinstance(chunk, BaseException):
        raise chunk
    return chunk


def cancel_body(reader: Dict[str, Any]) -> None:
    reader['cancelled'] = True
    if reader.get('cancel') is not None:
        reader['cancel']()


def network_error_code(error: Any) -> Optional[str]:
    for candidate in [getattr(error, '__cause__', None), error]:
        code = getattr(candidate, 'code', None)
        if isinstance(code, str):
            return code
    return None


def network_error_detail(error: Any) -> str:
    cause = getattr(error, '__cause__', None)
    return str(cause) if cause is not None else str(error)
