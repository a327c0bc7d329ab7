"""The body of an LLM server's answer (net/llm_client.py LlmClient opens the request): a chat answer's SSE stream parsed
incrementally (core/sse_parser.py) and folded into one turn (core/llm_wire.py), each text piece passed on as it arrives,
then the rest of the body drained so the connection is reused; or the whole body as text. Every piece must arrive
within the idle timeout; a stream that breaks raises an `LlmError` carrying what arrived in `error.partial`."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.fetch import (body_reader, cancel_body, network_error_code, network_error_detail, read_text_chunk,
                             response_header)
from hermes.js.json import parse_json
from hermes.js.timers import clear_timer, set_timer
from hermes.core.sse_parser import SseParser
from hermes.core.llm_wire import LlmError, StreamAccumulator
from hermes.core.cancellation import Cancellation
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional, TypedDict
from hermes.contracts.chat import LlmTurn
from hermes.contracts.mcp import SseEvent

OnDelta = Callable[[str], None]


class AbortState(TypedDict):
    reason: Optional[str]  # why the request was aborted: 'cancelled', 'timeout', 'idle', 'drain'


class LlmRequest(TypedDict):
    """An open request (net/llm_client.py LlmClient._open)."""
    response: Any
    abort: Callable[[str], None]
    state: AbortState
    finish: Callable[[], None]
# __pragma__('noskip')

REASONS = {
    'ECONNREFUSED': 'connection refused', 'ECONNRESET': 'connection reset', 'EPIPE': 'connection reset',
    'UND_ERR_SOCKET': 'the server closed the connection', 'ENOTFOUND': 'host not found',
    'EAI_AGAIN': 'host not found', 'EHOSTUNREACH': 'host unreachable', 'ENETUNREACH': 'network unreachable',
    'ETIMEDOUT': 'timed out', 'UND_ERR_CONNECT_TIMEOUT': 'timed out', 'ECONNABORTED': 'connection aborted',
    'CERT_HAS_EXPIRED': 'its TLS certificate has expired', 'DEPTH_ZERO_SELF_SIGNED_CERT': 'self-signed TLS certificate',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE': 'its TLS certificate cannot be verified',
}


def seconds_text(ms: float) -> str:
    """'60', '1.5', '0.2': the same text in both worlds (CPython would print 2.0 where JS says 2)."""
    tenths = round(ms / 100)
    if tenths % 10 == 0 or tenths >= 100:
        return str(round(tenths / 10))
    return str(tenths // 10) + '.' + str(tenths % 10)


async def read_stream(request: 'LlmRequest', on_delta: 'Optional[OnDelta]', cancellation: Cancellation, endpoint: str,
                      options: 'Dict[str, Any]') -> 'LlmTurn':
    """The answer of a successful chat request: an SSE stream folded into one turn (each text piece to `on_delta` as it
    arrives), or the one JSON answer of a server that ignored `stream: true`. `options`: the client's."""
    response = request['response']
    content_type = (response_header(response, 'content-type') or '').lower()
    if not content_type.startswith('text/event-stream'):
        return await _read_whole(request, on_delta, cancellation, content_type, endpoint, options)
    reader = body_reader(response)
    parser = SseParser()
    accumulator = StreamAccumulator()
    try:
        while True:
            chunk = await _next_chunk(request, reader, accumulator, endpoint, options['idle_timeout_ms'])
            if chunk is None:
                break
            events = parser.feed(chunk)
            if _deliver(events, accumulator, on_delta, reader, endpoint):
                await _drain(request, reader, options['drain_ms'], options['drain_max_chars'])
                break
            if cancellation.cancelled:
                cancel_body(reader)
                raise LlmError('Cancelled.', 'cancelled', None, accumulator.turn())
        if not accumulator.done:
            leftover = parser.pending()
            if leftover is not None:
                _deliver([leftover], accumulator, on_delta, reader, endpoint)
    finally:
        request['finish']()
    if not accumulator.done and accumulator.finish_reason is None:
        raise LlmError('The connection to the LLM at ' + endpoint + ' closed in the middle of the answer; '
                       'what arrived is kept.', 'stream_cut', None, accumulator.turn())
    return accumulator.turn()

def _deliver(events: 'List[SseEvent]', accumulator: StreamAccumulator, on_delta: 'Optional[OnDelta]',
             reader: 'Dict[str, Any]', endpoint: str) -> bool:
    """Feed parsed events; True once the stream said [DONE]."""
    for event in events:
        try:
            delta = accumulator.feed_data(event['data'], event['event'])
        except LlmError as error:
            cancel_body(reader)
            error.partial = accumulator.turn()
            raise error
        if accumulator.error is not None:
            cancel_body(reader)
            raise LlmError('The LLM at ' + endpoint + ' reported an error in the middle of the answer: ' +
                           accumulator.error, 'server', None, accumulator.turn())
        if delta != '' and on_delta is not None:
            on_delta(delta)
        if accumulator.done:
            return True
    return False

async def _drain(request: 'LlmRequest', reader: 'Dict[str, Any]', drain_ms: int, drain_max_chars: int) -> None:
    """After [DONE], the body up to its end (a server that follows the OpenAI wire format ends it right
    there): Node's fetch keeps a connection for the next request only when the body was read to its end, and
    closes it when the body is cancelled, which made every request of a run pay a new connection (and a TLS
    handshake). A server that holds the stream open or keeps sending is cut off after `drain_ms` or
    `drain_max_chars`; a cancel by the user aborts the read at once. The turn is whole either way."""
    timer = set_timer(lambda: request['abort']('drain'), drain_ms)
    left = drain_max_chars
    try:
        while left >= 0:
            chunk = await read_text_chunk(reader)
            if chunk is None:
                return
            left -= len(chunk)
        cancel_body(reader)
    except JsError:
        pass  # aborted (the user, or the grace ran out) or broken after the answer: nothing is lost
    finally:
        clear_timer(timer)

async def _next_chunk(request: 'LlmRequest', reader: 'Dict[str, Any]', accumulator: StreamAccumulator, endpoint: str,
                      idle_timeout_ms: int) -> 'Optional[str]':
    """The next piece of the body, within the idle timeout; LlmError when the stream breaks."""
    timer = set_timer(lambda: request['abort']('idle'), idle_timeout_ms)
    try:
        chunk = await read_text_chunk(reader)
    except JsError as error:
        clear_timer(timer)
        reason = request['state']['reason']
        if reason == 'cancelled':
            raise LlmError('Cancelled.', 'cancelled', None, accumulator.turn())
        if reason == 'idle':
            raise LlmError('The LLM at ' + endpoint + ' stopped sending for ' +
                           seconds_text(idle_timeout_ms) + ' s in the middle of the answer; what '
                           'arrived is kept.', 'stream_cut', None, accumulator.turn())
        code = network_error_code(error)
        why = REASONS[code] if code is not None and code in REASONS else network_error_detail(error)
        raise LlmError('The connection to the LLM at ' + endpoint + ' broke in the middle of the answer (' +
                       why + '); what arrived is kept.', 'stream_cut', None, accumulator.turn())
    clear_timer(timer)
    return chunk

async def _read_whole(request: 'LlmRequest', on_delta: 'Optional[OnDelta]', cancellation: Cancellation,
                      content_type: str, endpoint: str, options: 'Dict[str, Any]') -> 'LlmTurn':
    """A server that ignored `stream: true` and sent one JSON chat.completion."""
    text = await read_text(request, cancellation, endpoint, options['idle_timeout_ms'])
    try:
        value = parse_json(text)
    except ValueError:
        raise LlmError('The LLM at ' + endpoint + ' answered with ' + (content_type or 'no content type') +
                       ' instead of an event stream: ' + text[:200], 'protocol')
    accumulator = StreamAccumulator()
    delta = accumulator.feed_chunk(value)
    if accumulator.error is not None:
        raise LlmError('The LLM at ' + endpoint + ' reported an error: ' + accumulator.error, 'server')
    if delta != '' and on_delta is not None:
        on_delta(delta)
    return accumulator.turn()

async def read_text(request: 'LlmRequest', cancellation: Cancellation, endpoint: str, idle_timeout_ms: int) -> str:
    """The whole body as text (an error's, the models', a non-streamed answer), within the idle timeout."""
    reader = body_reader(request['response'])
    accumulator = StreamAccumulator()
    parts = []  # type: List[str]
    try:
        while True:
            chunk = await _next_chunk(request, reader, accumulator, endpoint, idle_timeout_ms)
            if chunk is None:
                break
            parts.append(chunk)
    finally:
        request['finish']()
    return ''.join(parts)
