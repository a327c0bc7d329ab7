"""A POST body of the MCP transport: read up to its limit, parsed plain, or refused with the status the spec names —
415 for a body that is not JSON, 413 for one over the limit (answered while the client still sends: the rest is
drained, within bounds, so the client reads the answer instead of a reset), 400 for JSON that does not parse."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.json import dump_json, parse_json_plain
from hermes.js.modules import node
from hermes.js.objects import is_array
from hermes.js.promises import make_promise
from hermes.js.text import utf8_text
from hermes.js.timers import clear_timer, set_timer
from hermes.net.mcp.replies import HTTP_ERROR, send_error
from hermes.core.jsonrpc import classify
from hermes.core.values import get_key
# __pragma__('skip')
from typing import Any, Awaitable, Callable, List, Optional, TypedDict
from hermes.contracts.json import Json


class _DrainState(TypedDict):
    drained: int
    timer: Any


class _BodyState(TypedDict):
    chunks: List[Any]
    size: int
    done: bool
# __pragma__('noskip')

MAX_BODY_BYTES = 4 * 1024 * 1024
# After a 413 the rest of the body is read and dropped (so the client, still sending, can read the answer
# instead of a connection reset), but only this much and for this long; then the connection is cut.
DRAIN_LIMIT_BYTES = 64 * 1024 * 1024
DRAIN_TIMEOUT_MS = 10000


async def read_message(request: 'Any', response: 'Any', limit: int) -> 'List[Any]':
    """[True, parsed JSON body], or [False, None] after answering 413/415/400 for a body we won't take.
    The body's objects stay plain JS objects (no dict wrapping per object, on every request): the
    protocol reads messages through core/values.py, and a tool gets its arguments copied into a dict
    (core/tools.py with_defaults)."""
    content_type = request.headers['content-type']
    if content_type is None or not content_type.lower().startswith('application/json'):
        send_error(response, 415, 'Unsupported Media Type: Content-Type must be application/json')
        request.resume()
        return [False, None]
    declared = request.headers['content-length']
    if declared is not None and int(declared) > limit:  # transcrypt-ok[int-text]: Node's parser checks it
        refuse_body(request, response, limit)
        return [False, None]
    text = await read_body(request, limit)
    if text is None:
        if not response.headersSent:
            refuse_body(request, response, limit)
        return [False, None]
    try:
        return [True, parse_json_plain(text)]
    except ValueError as error:
        send_error(response, 400, 'Parse error: ' + error_message(error), -32700)
        return [False, None]


def body_too_large(limit: int) -> str:
    return 'Payload Too Large: request bodies are limited to ' + str(limit) + ' bytes'


def refuse_body(request: 'Any', response: 'Any', limit: int) -> None:
    """413 for a body over `limit`, sent at once (complete, with its length) while the client may still
    be sending. Closing now would reset the connection and the client would lose the answer, so the rest
    of the body is read and dropped — at most DRAIN_LIMIT_BYTES for DRAIN_TIMEOUT_MS — and the response
    ends (closing the connection) once the body has ended; past either bound the socket is cut."""
    text = dump_json({'jsonrpc': '2.0', 'id': None, 'error': {'code': HTTP_ERROR, 'message': body_too_large(limit)}})
    response.writeHead(413, {'Content-Type': 'application/json', 'Cache-Control': 'no-store',
                             'Connection': 'close', 'Content-Length': node('buffer').Buffer.byteLength(text)})
    response.write(text)
    if request.complete:
        response.end()
        return
    state = {'drained': 0, 'timer': None}  # type: _DrainState

    def cut() -> None:
        request.socket.destroy()

    def on_data(chunk: 'Any') -> None:
        state['drained'] = state['drained'] + chunk.length
        if state['drained'] > DRAIN_LIMIT_BYTES:
            cut()

    def on_end() -> None:
        response.end()

    def on_close() -> None:
        clear_timer(state['timer'])

    state['timer'] = set_timer(cut, DRAIN_TIMEOUT_MS)
    request.on('data', on_data)
    request.on('end', on_end)
    request.socket.on('close', on_close)
    request.resume()


def read_body(request: 'Any', limit: int) -> 'Awaitable[Optional[str]]':
    """The request body as text; None once it passes `limit` bytes (the rest is drained unkept) or the
    request fails. (Closures, not a class: this runs for every POST, and each method call of a
    transpiled object goes through a binding wrapper.)"""
    def executor(resolve: 'Callable[..., None]', reject: 'Callable[..., None]') -> None:
        state = {'chunks': [], 'size': 0, 'done': False}  # type: _BodyState

        def finish(value: 'Optional[str]') -> None:
            if not state['done']:
                state['done'] = True
                state['chunks'] = []
                resolve(value)

        def on_data(chunk: 'Any') -> None:
            if state['done']:
                return
            state['size'] = state['size'] + chunk.length
            if state['size'] > limit:
                finish(None)
                request.resume()  # drain the rest without keeping it
                return
            state['chunks'].append(chunk)

        request.on('data', on_data)
        request.on('end', lambda: finish(utf8_text(state['chunks'])))
        request.on('error', lambda error: finish(None))
    return make_promise(executor)


class PostedBody:
    """What the transport needs to know of a POST body, read once (each message classified once):
    - `kind`: classify() of a single message, None for a batch (the protocol reuses it);
    - `request_ids`: the ids of its requests (their notifications go to this POST's stream);
    - `needs_reply`: False only for bodies made entirely of notifications and responses (a bare 202);
    - `wants_stream`: a tools/call request, which may send progress and logs before its result;
    - `initialize`: an `initialize` message is among them."""

    def __init__(self, message: 'Json') -> None:
        self.request_ids = []  # type: List[Json]
        self.needs_reply = False
        self.wants_stream = False
        self.initialize = False
        batch = is_array(message)
        self.kind = None if batch else self._read(message)
        if batch:
            self.needs_reply = len(message) == 0  # an empty batch is answered with an error
            for item in message:
                self._read(item)

    def _read(self, item: 'Json') -> str:
        kind = classify(item)
        method = get_key(item, 'method')
        if kind == 'request' or kind == 'invalid':
            self.needs_reply = True
        if kind == 'request':
            self.request_ids.append(item['id'])
            if method == 'tools/call':
                self.wants_stream = True
        if method == 'initialize':
            self.initialize = True
        return kind
