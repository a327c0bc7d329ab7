"""MCP over HTTP on 127.0.0.1: Streamable HTTP on /mcp, legacy HTTP+SSE on /sse + /messages.

The transport only moves messages: it checks who is asking (net/guard.py), picks the protocol era of
each POST (`is_modern_request`), and routes what the protocol sends back to the right HTTP response
or SSE stream. 2026-07-28 requests go to one stateless core (core/mcp/stateless.py) and are answered
on their own response (JSON, or SSE once the request has something to say before its result);
handshake-era clients get one protocol session (core/mcp/protocol.py) each. Every refusal gets the
status the spec names and a JSON-RPC error body saying why.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json, parse_json_plain
from hermes.js.modules import node
from hermes.js.objects import is_none, is_array
from hermes.js.promises import make_promise, sleep_ms
from hermes.js.text import utf8_text
from hermes.js.timers import clear_timer, set_timer
from hermes.net.guard import no_browser_refusal, host_refusal, origin_refusal, auth_refusal, split_target, Refusal
from hermes.net.sse import SseStream, KEEPALIVE_MS, MAX_UNSENT_BYTES, sse_headers
from hermes.core.mcp.protocol import SUPPORTED_PROTOCOL_VERSIONS
from hermes.core.mcp.stateless import MODERN_PROTOCOL_VERSIONS, http_status_of, modern_version
from hermes.core.cancellation import Cancellation
from hermes.core.jsonrpc import classify
from hermes.core.values import json_type, get_key
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, TypedDict
from hermes.contracts.json import Json, JsonObject
from hermes.core.mcp.protocol import McpSession
from hermes.core.mcp.stateless import McpStatelessServer

Route = Callable[..., bool]  # HttpSession.route(message, related_request_id=None): where a server→client message goes
ProtocolFactory = Callable[[Route], McpSession]


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
HEADERS_TIMEOUT_MS = 10000  # a client that never finishes its headers (slow loris) is cut
REQUEST_TIMEOUT_MS = 30000  # ... or never finishes its body
# How long an idle keep-alive connection is kept (and announced: `Keep-Alive: timeout=120`). The side that closes an
# idle connection should be the client: a server closing one races the client sending on it, and the client sees
# ECONNRESET or "socket hang up" (with Node's 5 s default, `inv soak` saw 11-26 per run on connections idle 5.9-6.1 s).
# Longer than common clients keep idle connections (httpx 5 s, undici by this header, Go 90 s, curl 118 s); Node's
# Agent without a `timeout` keeps them for ever and can still meet the close, after 2 minutes idle. Idle connections
# cost a socket each; the header and body limits above still cut connections that never finish a request.
KEEP_ALIVE_TIMEOUT_MS = 120000
MAX_SESSIONS = 100
PORT_ATTEMPTS = 20
# A window reload starts the new extension host while the old one still holds the port (it lets go in its
# deactivate): the port this window served on before is waited for, this long, before the next one is taken.
# Clients configured with the port (Hermes Agent's config.yaml) then find the window where it was.
RECLAIM_MS = 20000
RECLAIM_POLL_MS = 200
MCP_PATH = '/mcp'
LEGACY_SSE_PATH = '/sse'
LEGACY_MESSAGES_PATH = '/messages'
HTTP_ERROR = -32000  # the code the official SDKs use for transport-level refusals


class HttpSession:
    """One client: its protocol session plus the HTTP streams its messages travel on."""

    def __init__(self, session_id: str, kind: str, protocol_factory: 'ProtocolFactory') -> None:
        self.id = session_id
        self.kind = kind  # 'streamable' or 'legacy'
        self.stream = None  # type: Optional[SseStream]  # the GET stream (streamable) or the event stream (legacy)
        self.request_streams = {}  # type: Dict[str, LazyStream]  # stream_key of a request id → the LazyStream answering that POST
        self.headers = {'Mcp-Session-Id': session_id}  # sent with every answer (made once, only read)
        self.last_used = now_ms()
        self.protocol = protocol_factory(self.route)

    def route(self, message: 'Json', related_request_id: 'Json' = None) -> bool:
        """Where a server→client message goes: its request's stream, else the session's stream."""
        text = dump_json(message)
        if not is_none(related_request_id):
            key = stream_key(related_request_id)
            if key in self.request_streams and self.request_streams[key].send_text(text):
                return True
        if not is_none(self.stream) and self.stream.open:
            return self.stream.send(text)
        return False

    def close(self) -> None:
        self.protocol.close()
        if not is_none(self.stream):
            self.stream.close()
        for key in self.request_streams.keys():
            self.request_streams[key].close()
        self.request_streams = {}


class McpHttpServer:
    """`create_protocol(send)` makes a core McpSession; `stateless` is the McpStatelessServer for
    2026-07-28 requests (None: handshake-era only); `health()` returns the /health body."""

    def __init__(self, create_protocol: 'ProtocolFactory', health: 'Callable[[], JsonObject]',
                 token: 'Optional[str]' = None, log: 'Any' = None, max_body_bytes: int = MAX_BODY_BYTES,
                 headers_timeout_ms: int = HEADERS_TIMEOUT_MS, request_timeout_ms: int = REQUEST_TIMEOUT_MS,
                 stateless: 'Optional[McpStatelessServer]' = None, browsers: bool = True) -> None:
        self.create_protocol = create_protocol
        # False: any request with an Origin is refused (a door that only CLIs use: net/doors/ide_socket.py's rule too)
        self.browsers = browsers
        self.stateless = stateless
        self.headers_timeout_ms = headers_timeout_ms
        self.request_timeout_ms = request_timeout_ms
        self.health = health
        self.token = token
        self.log = log
        self.max_body_bytes = max_body_bytes
        self.sessions = {}  # type: Dict[str, HttpSession]
        self._accept_seen = [None, False]  # type: List[Any]  # [Accept header, lists both media types] (_accepts_json_and_sse)
        self._host_accepted = None  # type: Optional[str]  # the last Host header host_refusal accepted (for this port)
        self.server = None  # type: Any
        self.port = None  # type: Optional[int]
        self.forwarded_hosts = []  # type: List[str]  # authorities VS Code forwards here (host/mcp/service.py)
        self.on_sessions_changed = None  # type: Optional[Callable[[int], None]]  # called with the session count whenever it changes

    # ------------------------------------------------------------------------- lifecycle

    async def start(self, preferred_port: int, reclaim_port: 'Optional[int]' = None) -> int:
        """Listen on 127.0.0.1, on `preferred_port` or the next free one (several windows). `reclaim_port`: the port
        this window served on before a reload; while taken (by the extension host going away) it is waited for
        up to RECLAIM_MS before the scan moves on."""
        http = node('http')
        # Node checks the two timeouts every `connectionsCheckingInterval` ms (default 30 s): check often
        # enough that a connection sending nothing, or headers/body byte by byte, is cut on time.
        self.server = http.createServer({'headersTimeout': self.headers_timeout_ms,
                                         'requestTimeout': self.request_timeout_ms,
                                         'connectionsCheckingInterval': min(1000, self.headers_timeout_ms),
                                         'keepAliveTimeout': KEEP_ALIVE_TIMEOUT_MS}, self._on_request)
        last_error = None
        attempts = 1 if preferred_port == 0 else PORT_ATTEMPTS
        for attempt in range(attempts):
            port = preferred_port + attempt
            try:
                self.port = await self._listen_or_reclaim(port, port == reclaim_port)
                return self.port
            except JsError as error:
                if error.code != 'EADDRINUSE':
                    raise error
                last_error = error
        raise Exception('Ports ' + str(preferred_port) + '-' + str(preferred_port + attempts - 1) +
                        ' on 127.0.0.1 are all in use (' + error_message(last_error) + ')')

    async def _listen_or_reclaim(self, port: int, reclaim: bool) -> int:
        waited = 0
        while True:
            try:
                return await listen(self.server, port)
            except JsError as error:
                if error.code != 'EADDRINUSE' or not reclaim or waited >= RECLAIM_MS:
                    raise error
            await sleep_ms(RECLAIM_POLL_MS)
            waited += RECLAIM_POLL_MS

    async def stop(self) -> None:
        for session_id in list(self.sessions.keys()):
            self._end_session(session_id)
        if not is_none(self.stateless):
            self.stateless.close()  # open subscriptions/listen streams end with their final response
        if is_none(self.server):
            return
        server = self.server
        self.server = None
        await close_server(server)

    def session_count(self) -> int:
        return len(self.sessions.keys())

    # ------------------------------------------------------------------------- routing

    async def _on_request(self, request: 'Any', response: 'Any') -> None:
        debug = not is_none(self.log) and self.log.debug_enabled()  # the line below costs nothing when off
        started = now_ms() if debug else 0
        try:
            await self._route(request, response)
        except JsError as error:
            self._log_error(request.method + ' ' + request.url + ' failed', error)
            if not response.headersSent:
                self._send_error(response, 500, 'Internal error: ' + error_message(error), -32603)
            elif not response.writableEnded:
                response.end()
        if debug and request.url != '/health':
            self.log.debug(request.method + ' ' + request.url.split('?')[0] + ' → ' + str(response.statusCode) +
                           ' (' + str(round(now_ms() - started)) + ' ms)')

    async def _route(self, request: 'Any', response: 'Any') -> None:
        headers = request.headers
        target = split_target(request.url)
        path = target[0]
        query = target[1]
        host = headers['host']
        known = not is_none(host) and host == self._host_accepted
        refusal = None if known else host_refusal(host, self.port, self.forwarded_hosts)
        if is_none(refusal):
            self._host_accepted = host  # a client sends the same Host every time: checked once
            refusal = origin_refusal(headers['origin']) if self.browsers else no_browser_refusal(headers['origin'])
        if refusal:
            return self._refuse(response, refusal)
        # HEAD is answered like the GET it stands for (status and headers), without opening a stream or a
        # session: clients such as Hermes Agent probe the URL with HEAD before they connect.
        method = 'GET' if request.method == 'HEAD' else request.method
        if path == '/health':
            if method != 'GET':
                return self._send_method_not_allowed(response, 'GET, HEAD')
            return self._send_json(response, 200, self.health())
        if path not in [MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]:
            return self._send_error(response, 404, 'Not Found: MCP lives at ' + MCP_PATH + ' (legacy SSE at ' +
                                    LEGACY_SSE_PATH + ')')
        refusal = auth_refusal(headers['authorization'], self.token)
        if refusal:
            return self._refuse(response, refusal)
        if path == LEGACY_SSE_PATH:
            if method != 'GET':
                return self._send_method_not_allowed(response, 'GET, HEAD')
            return self._open_legacy_stream(request, response)
        if path == LEGACY_MESSAGES_PATH:
            if method != 'POST':
                return self._send_method_not_allowed(response, 'POST')
            return await self._post_legacy(request, response, query['sessionId'])
        if method == 'POST':
            return await self._post_streamable(request, response)
        if self._speaks_modern(headers['mcp-protocol-version']):
            # 2026-07-28 has no GET stream (subscriptions/listen replaces it) and no session to DELETE.
            return self._send_method_not_allowed(response, 'POST')
        if method == 'GET':
            # Only a client that names the event stream is a 2024-11-05 client on /mcp: a probe with `*/*`
            # gets a prompt answer instead of a stream that never ends.
            if is_none(headers['mcp-session-id']) and accepts(headers['accept'], 'text/event-stream', False):
                return self._open_legacy_stream(request, response)
            return self._open_session_stream(request, response)
        if method == 'DELETE':
            return self._delete_session(request, response)
        return self._send_method_not_allowed(response, 'GET, HEAD, POST, DELETE')

    # ------------------------------------------------------------------------- Streamable HTTP

    async def _post_streamable(self, request: 'Any', response: 'Any') -> None:
        headers = request.headers
        if not self._accepts_json_and_sse(headers['accept']):
            return self._send_error(response, 406, 'Not Acceptable: the Accept header must list both '
                                                   'application/json and text/event-stream')
        body = await self._read_message(request, response)
        if not body[0]:
            return None
        message = body[1]
        session_id = headers['mcp-session-id']
        posted = PostedBody(message)
        if not is_none(self.stateless) and is_modern_request(headers['mcp-protocol-version'], session_id, message):
            return await self._post_stateless(self.stateless, request, response, message, posted.kind)
        if is_none(session_id):
            if not posted.initialize:
                return self._send_error(response, 400, 'Bad Request: Mcp-Session-Id header is required '
                                                       '(send initialize first to get one)')
            session = self._new_session('streamable')
        else:
            found = self.sessions[session_id] if session_id in self.sessions else None
            if is_none(found) or found.kind != 'streamable':
                return self._send_error(response, 404, 'Session not found: ' + session_id +
                                        ' (it ended or never existed; initialize a new one)')
            session = found
            version = headers['mcp-protocol-version']
            if not is_none(version) and version not in SUPPORTED_PROTOCOL_VERSIONS:
                return self._send_error(response, 400, 'Bad Request: unsupported MCP-Protocol-Version ' + version +
                                        ' (supported: ' + ', '.join(SUPPORTED_PROTOCOL_VERSIONS) + ')')
        session.last_used = now_ms()
        session_header = session.headers
        if not posted.needs_reply:
            self._send_empty(response, 202, session_header)
            await session.protocol.handle(message, posted.kind)
            return None
        if posted.wants_stream:
            # Inline rather than a method of its own: one promise less for every tools/call.
            stream = LazyStream(response, session_header, True)
            keys = _own_request_streams(session, posted.request_ids, stream)
            try:
                reply = await session.protocol.handle(message, posted.kind)
            finally:
                _release_request_streams(session, keys, stream)
            return self._finish_on_stream(stream, reply, response, session_header)
        reply = await session.protocol.handle(message, posted.kind)
        if posted.initialize and is_error_reply(reply):
            self._end_session(session.id)  # a failed handshake leaves no session behind
            return self._send_json(response, 200, reply)
        if is_none(reply):
            return self._send_empty(response, 202, session_header)
        return self._send_json(response, 200, reply, session_header)

    def _finish_on_stream(self, stream: 'LazyStream', reply: 'Json', response: 'Any',
                          session_header: 'Dict[str, str]') -> None:
        """Requests that may report progress or logs get SSE from their first notification on, the
        result last; one that sent nothing first is answered as plain JSON (no stream, no keep-alive
        timer)."""
        if is_none(reply):
            stream.close()  # cancelled: an empty stream, as before any notification
        elif stream.opened():
            stream.finish(reply)
        else:
            self._send_json(response, 200, reply, session_header)

    # ------------------------------------------------------------------------- 2026-07-28 (stateless)

    def _speaks_modern(self, version_header: 'Optional[str]') -> bool:
        return not is_none(self.stateless) and version_header in MODERN_PROTOCOL_VERSIONS

    async def _post_stateless(self, stateless: 'McpStatelessServer', request: 'Any', response: 'Any', message: 'Json',
                              kind: 'Optional[str]') -> None:
        """One request, one response: JSON unless the request sends something before its result
        (progress, log lines, a subscription's notifications), then SSE from that first message on.
        A client that closes the connection first cancels the request."""
        if kind != 'request':
            reply = await stateless.handle(message, None, None, None, kind)
            if is_none(reply):
                return self._send_empty(response, 202)  # a notification: nothing to answer
            return self._send_json(response, 400, reply)
        cancellation = Cancellation()
        response.on('close', lambda: _cancel_unless_answered(response, cancellation))
        stream = LazyStream(response)
        reply = await stateless.handle(message, stream.send, cancellation, request.headers, kind)
        if stream.opened():
            stream.finish(reply)
        elif is_none(reply):
            if not response.writableEnded:
                response.end()  # cancelled: the client is gone, nothing is owed
        else:
            self._send_json(response, http_status_of(reply), reply)
        return None

    def _open_session_stream(self, request: 'Any', response: 'Any') -> None:
        """GET /mcp with a session: the stream for server→client messages not tied to a request."""
        headers = request.headers
        session_id = headers['mcp-session-id']
        if is_none(session_id):
            return self._send_error(response, 400, 'Bad Request: GET ' + MCP_PATH + ' needs an Mcp-Session-Id header '
                                    '(Streamable HTTP: POST initialize first), or Accept: text/event-stream for '
                                    'the legacy HTTP+SSE transport (also at ' + LEGACY_SSE_PATH + ')')
        session = self.sessions[session_id] if session_id in self.sessions else None
        if is_none(session) or session.kind != 'streamable':
            return self._send_error(response, 404, 'Session not found: ' + session_id)
        if not accepts(headers['accept'], 'text/event-stream'):
            return self._send_error(response, 406, 'Not Acceptable: GET needs Accept: text/event-stream')
        if not is_none(session.stream) and session.stream.open:
            return self._send_error(response, 409, 'Conflict: this session already has an open SSE stream')
        if request.method == 'HEAD':
            return self._send_empty(response, 200, sse_headers())
        session.last_used = now_ms()
        session.stream = SseStream(response, {'Mcp-Session-Id': session.id})
        session.stream.on_dropped = self._dropped_reporter('the GET stream of session ' + session.id)
        return None

    def _delete_session(self, request: 'Any', response: 'Any') -> None:
        session_id = request.headers['mcp-session-id']
        if is_none(session_id):
            return self._send_error(response, 400, 'Bad Request: Mcp-Session-Id header is required')
        if session_id not in self.sessions or self.sessions[session_id].kind != 'streamable':
            return self._send_error(response, 404, 'Session not found: ' + session_id)
        self._end_session(session_id)
        return self._send_empty(response, 200)

    # ------------------------------------------------------------------------- legacy HTTP+SSE (2024-11-05)

    def _open_legacy_stream(self, request: 'Any', response: 'Any') -> None:
        if request.method == 'HEAD':
            return self._send_empty(response, 200, sse_headers())
        session = self._new_session('legacy')
        session_id = session.id
        session.stream = SseStream(response, {}, lambda: self._end_session(session_id))
        session.stream.on_dropped = self._dropped_reporter('the event stream of legacy session ' + session_id)
        session.stream.send(LEGACY_MESSAGES_PATH + '?sessionId=' + session.id, 'endpoint')
        return None

    async def _post_legacy(self, request: 'Any', response: 'Any', session_id: 'Optional[str]') -> None:
        if is_none(session_id):
            return self._send_error(response, 400, 'Bad Request: the sessionId query parameter is required')
        session = self.sessions[session_id] if session_id in self.sessions else None
        if is_none(session) or session.kind != 'legacy':
            return self._send_error(response, 404, 'Session not found: ' + session_id +
                                    ' (open ' + LEGACY_SSE_PATH + ' again)')
        body = await self._read_message(request, response)
        if not body[0]:
            return None
        message = body[1]
        session.last_used = now_ms()
        self._send_text(response, 202, 'Accepted')
        reply = await session.protocol.handle(message)
        if not is_none(reply):
            session.route(reply)
        return None

    # ------------------------------------------------------------------------- sessions

    def _new_session(self, kind: str) -> HttpSession:
        if len(self.sessions.keys()) >= MAX_SESSIONS:
            self._evict_idle_session()
        session = HttpSession(node('crypto').randomUUID(), kind, self.create_protocol)
        self.sessions[session.id] = session
        self._sessions_changed()
        return session

    def _evict_idle_session(self) -> None:
        """At the cap, the least recently used session without an open stream makes room."""
        oldest = None  # type: Optional[HttpSession]
        for session_id in self.sessions.keys():
            session = self.sessions[session_id]
            idle = is_none(session.stream) or not session.stream.open
            if idle and (is_none(oldest) or session.last_used < oldest.last_used):
                oldest = session
        if not is_none(oldest):
            self._end_session(oldest.id)

    def _end_session(self, session_id: str) -> None:
        if session_id in self.sessions:
            session = self.sessions[session_id]
            del self.sessions[session_id]
            session.close()
            self._sessions_changed()

    def _sessions_changed(self) -> None:
        if not is_none(self.on_sessions_changed):
            self.on_sessions_changed(self.session_count())

    # ------------------------------------------------------------------------- bodies and replies

    async def _read_message(self, request: 'Any', response: 'Any') -> 'List[Any]':
        """[True, parsed JSON body], or [False, None] after answering 413/415/400 for a body we won't take.
        The body's objects stay plain JS objects (no dict wrapping per object, on every request): the
        protocol reads messages through core/values.py, and a tool gets its arguments copied into a dict
        (core/tools.py with_defaults)."""
        content_type = request.headers['content-type']
        if is_none(content_type) or not content_type.lower().startswith('application/json'):
            self._send_error(response, 415, 'Unsupported Media Type: Content-Type must be application/json')
            request.resume()
            return [False, None]
        declared = request.headers['content-length']
        if not is_none(declared) and int(declared) > self.max_body_bytes:  # transcrypt-ok[int-text]: Node's parser checks it
            refuse_body(request, response, self.max_body_bytes)
            return [False, None]
        text = await read_body(request, self.max_body_bytes)
        if is_none(text):
            if not response.headersSent:
                refuse_body(request, response, self.max_body_bytes)
            return [False, None]
        try:
            return [True, parse_json_plain(text)]
        except ValueError as error:
            self._send_error(response, 400, 'Parse error: ' + error_message(error), -32700)
            return [False, None]

    def _refuse(self, response: 'Any', refusal: Refusal) -> None:
        self._send_error(response, refusal.status, refusal.message, HTTP_ERROR, False, refusal.headers)

    def _send_method_not_allowed(self, response: 'Any', allowed: str) -> None:
        self._send_error(response, 405, 'Method Not Allowed (allowed: ' + allowed + ')', HTTP_ERROR, False,
                         {'Allow': allowed})

    def _send_error(self, response: 'Any', status: int, message: str, code: int = HTTP_ERROR, close: bool = False,
                    headers: 'Optional[Dict[str, str]]' = None) -> None:
        body = {'jsonrpc': '2.0', 'id': None, 'error': {'code': code, 'message': message}}
        extra = {} if is_none(headers) else headers
        if close:
            extra['Connection'] = 'close'
        self._send_json(response, status, body, extra)

    def _accepts_json_and_sse(self, accept_header: 'Optional[str]') -> bool:
        """Does Accept list both application/json and text/event-stream? A client sends the same header
        on every POST, so the answer for the last one is kept."""
        if accept_header != self._accept_seen[0]:
            self._accept_seen = [accept_header, accepts(accept_header, 'application/json') and
                                 accepts(accept_header, 'text/event-stream')]
        return self._accept_seen[1]

    def _send_json(self, response: 'Any', status: int, body: 'Json', headers: 'Optional[Dict[str, str]]' = None) -> None:
        """The body with its length (not chunked: one write, no terminating chunk)."""
        text = dump_json(body)
        # A flat [name, value, ...] list, which Node takes as it is (a dict would be built, then walked).
        all_headers = ['Content-Type', 'application/json', 'Cache-Control', 'no-store',
                       'Content-Length', str(node('buffer').Buffer.byteLength(text))]
        if not is_none(headers):
            for key in headers.keys():
                all_headers.append(key)
                all_headers.append(headers[key])
        response.writeHead(status, all_headers)
        response.end(text)

    def _send_text(self, response: 'Any', status: int, text: str) -> None:
        response.writeHead(status, {'Content-Type': 'text/plain; charset=utf-8'})
        response.end(text)

    def _send_empty(self, response: 'Any', status: int, headers: 'Optional[Dict[str, str]]' = None) -> None:
        response.writeHead(status, {} if is_none(headers) else headers)
        response.end()

    def _dropped_reporter(self, what: str) -> 'Callable[[int], None]':
        def report(unsent: int) -> None:
            if not is_none(self.log):
                self.log.warn('MCP: closed ' + what + ': its client stopped reading (' + str(unsent) +
                              ' bytes unsent, the limit is ' + str(MAX_UNSENT_BYTES) + ')')
        return report

    def _log_error(self, message: str, error: 'Any') -> None:
        if not is_none(self.log):
            self.log.error(message, error)


# ----------------------------------------------------------------------------- helpers


def accepts(accept_header: 'Optional[str]', media_type: str, wildcards: bool = True) -> bool:
    """Does an Accept header admit `media_type` (exactly, or with `wildcards` by type/* or */*)?"""
    if is_none(accept_header):
        return False
    family = media_type.split('/')[0] + '/*'
    for part in accept_header.lower().split(','):
        value = part.split(';')[0].strip()
        if value == media_type or (wildcards and (value == family or value == '*/*')):
            return True
    return False


def is_modern_request(version_header: 'Optional[str]', session_id: 'Optional[str]', message: 'Json') -> bool:
    """Does this POST speak 2026-07-28? Its MCP-Protocol-Version header says so, or, without one,
    its `_meta`. A session id, a handshake-era version, a batch or `initialize` mean the old way.
    An unknown version (no session) goes the modern way too: that path names the versions we speak."""
    if version_header in MODERN_PROTOCOL_VERSIONS:
        return True
    if not is_none(session_id) or version_header in SUPPORTED_PROTOCOL_VERSIONS:
        return False
    if is_array(message) or is_initialize(message):
        return False
    if not is_none(version_header):
        return True
    return not is_none(modern_version(message))


def _own_request_streams(session: HttpSession, request_ids: 'List[Json]', stream: 'LazyStream') -> 'List[str]':
    """Route what the session sends for these requests to `stream`; returns the keys taken."""
    keys = []  # type: List[str]
    for request_id in request_ids:
        key = stream_key(request_id)
        session.request_streams[key] = stream
        keys.append(key)
    return keys


def _release_request_streams(session: HttpSession, keys: 'List[str]', stream: 'LazyStream') -> None:
    for key in keys:
        if key in session.request_streams and session.request_streams[key] is stream:
            del session.request_streams[key]


def _cancel_unless_answered(response: 'Any', cancellation: Cancellation) -> None:
    if not response.writableEnded:
        cancellation.cancel('the client closed the connection')


class LazyStream:
    """The SSE response of one request, opened by its first notification: a request that sends nothing
    before its result is answered as plain JSON instead. `numbered`: event ids (2026-07-28 streams have
    none: that revision has no resumption)."""

    def __init__(self, response: 'Any', headers: 'Optional[Dict[str, str]]' = None, numbered: bool = False) -> None:
        self.response = response
        self.headers = {} if is_none(headers) else headers
        self.numbered = numbered
        self.stream = None  # type: Optional[SseStream]

    def opened(self) -> bool:
        return not is_none(self.stream)

    def send(self, message: 'Json') -> None:
        self.send_text(dump_json(message))

    def send_text(self, text: str) -> bool:
        """One event (JSON text); False when the client has gone."""
        return self._open().send(text)

    def close(self) -> None:
        """The session ends first: the response ends as an empty stream, the late reply goes nowhere."""
        if not self.response.headersSent:
            self._open()
        if not is_none(self.stream):
            self.stream.close()

    def _open(self) -> 'SseStream':
        stream = self.stream
        if is_none(stream):
            stream = SseStream(self.response, self.headers, None, KEEPALIVE_MS, False, self.numbered)
            self.stream = stream
        return stream

    def finish(self, reply: 'Json') -> None:
        if is_none(reply):
            self._open().close()
        else:
            self._open().finish(dump_json(reply))


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


def stream_key(request_id: 'Json') -> str:
    """The key of a request's stream in HttpSession.request_streams: ids 1 and '1' differ."""
    return ('s:' if json_type(request_id) == 'string' else 'n:') + str(request_id)


def is_initialize(message: 'Json') -> bool:
    for item in (message if is_array(message) else [message]):
        if get_key(item, 'method') == 'initialize':
            return True
    return False


def is_error_reply(reply: 'Json') -> bool:
    return isinstance(reply, dict) and 'error' in reply


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


def listen(server: 'Any', port: int) -> 'Awaitable[int]':
    """server.listen as a promise: resolves with the bound port, rejects with the listen error."""
    def executor(resolve: 'Callable[..., None]', reject: 'Callable[..., None]') -> None:
        def on_error(error: 'Any') -> None:
            server.removeListener('listening', on_listening)
            reject(error)

        def on_listening() -> None:
            server.removeListener('error', on_error)
            resolve(server.address().port)

        server.once('error', on_error)
        server.once('listening', on_listening)
        server.listen(port, '127.0.0.1')
    return make_promise(executor)


def close_server(server: 'Any') -> 'Awaitable[Any]':
    def executor(resolve: 'Callable[..., None]', reject: 'Callable[..., None]') -> None:
        server.close(lambda error: resolve(None))
        server.closeAllConnections()
    return make_promise(executor)


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
