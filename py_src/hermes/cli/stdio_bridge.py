"""`stdio`: MCP's stdio transport (one JSON-RPC message per line on stdin/stdout) bridged to the
window's Streamable HTTP endpoint, for clients that can only start stdio servers.

Every line read is POSTed; every message that comes back (a response, or the notifications that
stream before it) is written out as one line. The client is never left waiting: a request whose
POST fails gets a JSON-RPC error (-32000) with its id and a message saying why; a line that is not
JSON gets -32700 with id null. Notifications, responses and `initialize` are forwarded in order,
one after another; other requests run concurrently (a slow tool call must not hold up a ping).
After the handshake a GET stream carries server-initiated notifications (tools/list_changed).
A 2026-07-28 request (its `_meta` names the version) has no session: when the client cancels it with
`notifications/cancelled`, the bridge aborts that request's HTTP POST — closing it is how that revision
cancels — and sends the client nothing more for it; the notification itself goes nowhere (there is no
session to send it to). A 2025 client's cancellation is forwarded to its session as it is.
Only protocol messages go to stdout; diagnostics go to `log` (stderr).

The bridge finds its window lazily (`connect()` runs on each initialize), so a client started
before VS Code gets a clear error for its first handshake and connects on the next one."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json
from hermes.js.fetch import abort_controller
from hermes.js.promises import spawn, wait_all
from hermes.core.mcp.headers import mirrored_headers
from hermes.core.values import get_key, is_object, has_key
from hermes.net.mcp.client import McpHttpClient
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')

HTTP_ERROR = -32000
PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class StdioBridge:
    def __init__(self, connect: 'Callable[[], McpHttpClient]', write: 'Callable[[str], None]',
                 log: 'Callable[[str], None]') -> None:
        """connect() → an McpHttpClient for the selected window (raises with a message when there
        is none); write(text) puts text on stdout; log(text) reports on stderr."""
        self.connect = connect
        self.write = write
        self.log = log
        self.client = None  # type: Optional[McpHttpClient]
        self.queue = []  # type: List[str]
        self.pumping = False
        self.pump_task = None  # type: Optional[Awaitable[None]]
        self.in_flight = {}  # type: Dict[str, Awaitable[None]]
        # 'id:' + the JSON of a 2026-07-28 request's id → the AbortController of its POST
        self.abortable = {}  # type: Dict[str, Any]
        self.next_key = 1
        self.listening = False
        self.closed = False

    # ------------------------------------------------------------------------- input

    def receive(self, line: str) -> None:
        """One line from stdin (without its line break)."""
        if self.closed:
            return
        self.queue.append(line)
        if not self.pumping:
            self.pumping = True
            self.pump_task = spawn(self._pump())

    async def finish(self) -> None:
        """stdin ended: let queued and running messages finish, then end the session."""
        if self.pumping and self.pump_task is not None:
            await self.pump_task
        running = [self.in_flight[key] for key in self.in_flight.keys()]
        if len(running) > 0:
            await wait_all(running)
        await self.close()

    async def close(self) -> None:
        self.closed = True
        if self.client is not None:
            client = self.client
            self.client = None
            await client.close()

    async def _pump(self) -> None:
        try:
            while len(self.queue) > 0:
                await self._take(self.queue.pop(0))
        finally:
            self.pumping = False

    async def _take(self, line: str) -> None:
        if line.strip() == '':
            return
        try:
            message = parse_json(line)
        except ValueError as error:
            self._send(error_reply(None, PARSE_ERROR, 'Parse error: ' + error_message(error)))
            return
        if not is_object(message) and not isinstance(message, list):
            self._send(error_reply(None, INVALID_REQUEST, 'Invalid Request: expected a JSON object'))
            return
        if self._cancelled_here(message):
            return
        if must_wait(message):
            await self._forward(message)
        else:
            key = str(self.next_key)
            self.next_key += 1
            # Abortable from this line on: the client may cancel before the POST has even started.
            abort = self._abortable(message)
            self.in_flight[key] = spawn(self._forward_tracked(key, message, abort))

    async def _forward_tracked(self, key: str, message: 'Json', abort: 'Any') -> None:
        try:
            await self._forward(message, abort)
        finally:
            if key in self.in_flight:
                del self.in_flight[key]

    # ------------------------------------------------------------------------- forwarding

    def _cancelled_here(self, message: 'Json') -> bool:
        """True for a `notifications/cancelled` that is the bridge's to carry out: it names a 2026-07-28 request
        in flight (its POST is aborted), or there is no session that could hear it."""
        if not is_cancellation(message):
            return False
        slot = 'id:' + dump_json(get_key(get_key(message, 'params'), 'requestId'))
        if slot in self.abortable:
            self.abortable[slot].abort()
            return True
        return self.client is None or self.client.session_id is None

    def _abortable(self, message: 'Json') -> 'Any':
        """An AbortController for a lone 2026-07-28 request, kept under its id until its POST ends; else None."""
        if not is_request(message) or mirrored_headers(message) is None:
            return None
        abort = abort_controller()
        self.abortable['id:' + dump_json(message['id'])] = abort
        return abort

    async def _forward(self, message: 'Json', abort: 'Any' = None) -> None:
        pending = request_ids(message)
        answered = []  # type: List[str]

        def deliver(reply: 'Json') -> None:
            for item in (reply if isinstance(reply, list) else [reply]):
                if is_object(item) and has_key(item, 'id') and not has_key(item, 'method'):
                    answered.append(dump_json(item['id']))
            self._send(reply)

        try:
            client = self.client
            if is_initialize(message) or client is None:
                client = self._reconnect()
            await client.post(message, deliver, abort)
        except JsError as error:
            if abort is not None and abort.signal.aborted:
                self.log(describe(message) + ' ' + dump_json(pending[0]) + ': cancelled by the client')
                return  # a cancelled request is not answered
            text = error_message(error)
            unanswered = [request_id for request_id in pending if dump_json(request_id) not in answered]
            for request_id in unanswered:
                self._send(error_reply(request_id, HTTP_ERROR, text))
            if len(unanswered) == 0:
                self.log(describe(message) + ' failed: ' + text)
            return
        finally:
            slot = 'id:' + dump_json(get_key(message, 'id'))
            if abort is not None and slot in self.abortable and self.abortable[slot] is abort:
                del self.abortable[slot]
        if is_initialized_notification(message):
            self._start_listening()

    def _reconnect(self) -> 'McpHttpClient':
        if self.client is not None:
            old = self.client
            self.client = None
            self.listening = False
            spawn(old.close())
        self.client = self.connect()
        return self.client

    def _start_listening(self) -> None:
        if self.listening or self.client is None or self.client.session_id is None:
            return
        self.listening = True
        spawn(self._listen(self.client))

    async def _listen(self, client: 'McpHttpClient') -> None:
        try:
            await client.listen(self._send)
        except JsError as error:
            if not self.closed and client is self.client:
                self.log('server notifications stream: ' + error_message(error))
        if client is self.client:
            self.listening = False

    def _send(self, message: 'Json') -> None:
        self.write(dump_json(message) + '\n')  # one line: JSON text never holds a raw line break


# ----------------------------------------------------------------------------- pure helpers


def error_reply(request_id: 'Json', code: int, message: str) -> 'JsonObject':
    return {'jsonrpc': '2.0', 'id': request_id, 'error': {'code': code, 'message': message}}


def items_of(message: 'Json') -> 'List[Json]':
    return message if isinstance(message, list) else [message]


def is_request(item: 'Json') -> bool:
    return is_object(item) and isinstance(get_key(item, 'method'), str) and has_key(item, 'id') and \
        get_key(item, 'id') is not None


def request_ids(message: 'Json') -> 'List[Json]':
    return [item['id'] for item in items_of(message) if is_request(item)]


def is_initialize(message: 'Json') -> bool:
    for item in items_of(message):
        if is_object(item) and get_key(item, 'method') == 'initialize':
            return True
    return False


def is_cancellation(message: 'Json') -> bool:
    return is_object(message) and get_key(message, 'method') == 'notifications/cancelled'


def is_initialized_notification(message: 'Json') -> bool:
    return is_object(message) and get_key(message, 'method') == 'notifications/initialized'


def must_wait(message: 'Json') -> bool:
    """Forwarded in order (the next line waits): anything but a lone request other than initialize."""
    if isinstance(message, list):
        return True
    return not is_request(message) or is_initialize(message)


def describe(message: 'Json') -> str:
    if is_object(message) and isinstance(get_key(message, 'method'), str):
        return message['method']
    if is_object(message) and has_key(message, 'id'):
        return 'the response to request ' + dump_json(message['id'])
    return 'a message'
