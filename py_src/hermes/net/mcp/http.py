"""MCP over HTTP on 127.0.0.1: Streamable HTTP on /mcp, legacy HTTP+SSE on /sse + /messages.

The transport only moves messages: it checks who is asking (net/guard.py), picks the protocol era of
each POST (`is_modern_request`), and routes what the protocol sends back to the right HTTP response
or SSE stream. 2026-07-28 requests go to one stateless core (core/mcp/stateless.py) and are answered
on their own response (JSON, or SSE once the request has something to say before its result);
handshake-era clients get one protocol session (core/mcp/protocol.py, net/mcp/sessions.py) each. Every
refusal gets the status the spec names and a JSON-RPC error body saying why (net/mcp/replies.py).
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.modules import node
from hermes.js.objects import is_array
from hermes.js.promises import make_promise, sleep_ms
from hermes.net.guard import no_browser_refusal, host_refusal, origin_refusal, auth_refusal, split_target
from hermes.net.mcp.bodies import MAX_BODY_BYTES, PostedBody, read_message
from hermes.net.mcp.replies import refuse, send_empty, send_error, send_json, send_method_not_allowed, send_text
from hermes.net.mcp.sessions import HttpSessions, LazyStream
from hermes.net.sse import SseStream, MAX_UNSENT_BYTES, sse_headers
from hermes.core.mcp.protocol import SUPPORTED_PROTOCOL_VERSIONS
from hermes.core.mcp.stateless import MODERN_PROTOCOL_VERSIONS, http_status_of, modern_version
from hermes.core.cancellation import Cancellation
from hermes.core.values import get_key
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.net.mcp.sessions import ProtocolFactory
from hermes.core.mcp.stateless import McpStatelessServer
# __pragma__('noskip')

HEADERS_TIMEOUT_MS = 10000  # a client that never finishes its headers (slow loris) is cut
REQUEST_TIMEOUT_MS = 30000  # ... or never finishes its body
# How long an idle keep-alive connection is kept (and announced: `Keep-Alive: timeout=120`). The side that closes an
# idle connection should be the client: a server closing one races the client sending on it, and the client sees
# ECONNRESET or "socket hang up" (with Node's 5 s default, `inv soak` saw 11-26 per run on connections idle 5.9-6.1 s).
# Longer than common clients keep idle connections (httpx 5 s, undici by this header, Go 90 s, curl 118 s); Node's
# Agent without a `timeout` keeps them for ever and can still meet the close, after 2 minutes idle. Idle connections
# cost a socket each; the header and body limits above still cut connections that never finish a request.
KEEP_ALIVE_TIMEOUT_MS = 120000
PORT_ATTEMPTS = 20
# A window reload starts the new extension host while the old one still holds the port (it lets go in its
# deactivate): the port this window served on before is waited for, this long, before the next one is taken.
# Clients configured with the port (Hermes Agent's config.yaml) then find the window where it was.
RECLAIM_MS = 20000
RECLAIM_POLL_MS = 200
MCP_PATH = '/mcp'
LEGACY_SSE_PATH = '/sse'
LEGACY_MESSAGES_PATH = '/messages'


class McpHttpServer:
    """`create_protocol(send)` makes a core McpSession; `stateless` is the McpStatelessServer for
    2026-07-28 requests (None: handshake-era only); `health()` returns the /health body.

    Over ~250 lines on purpose: it is the router of three transports (Streamable HTTP, 2026-07-28, legacy
    HTTP+SSE) over one port, guard and session table, and each route is a few lines of the spec's status codes
    read best beside the others. What is not routing lives beside it: bodies (net/mcp/bodies.py), answers
    (net/mcp/replies.py), sessions and their streams (net/mcp/sessions.py)."""

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
        self.sessions = HttpSessions(create_protocol)  # the handshake-era sessions (2026-07-28 has none)
        self._accept_seen = [None, False]  # type: List[Any]  # [Accept header, lists both media types] (_accepts_json_and_sse)
        self._host_accepted = None  # type: Optional[str]  # the last Host header host_refusal accepted (for this port)
        self.server = None  # type: Any
        self.port = None  # type: Optional[int]
        self.forwarded_hosts = []  # type: List[str]  # authorities VS Code forwards here (host/mcp/service.py)

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
        self.sessions.end_all()
        if self.stateless is not None:
            self.stateless.close()  # open subscriptions/listen streams end with their final response
        if self.server is None:
            return
        server = self.server
        self.server = None
        await close_server(server)

    def session_count(self) -> int:
        return self.sessions.size()

    # ------------------------------------------------------------------------- routing

    async def _on_request(self, request: 'Any', response: 'Any') -> None:
        debug = self.log is not None and self.log.debug_enabled()  # the line below costs nothing when off
        started = now_ms() if debug else 0
        try:
            await self._route(request, response)
        except JsError as error:
            self._log_error(request.method + ' ' + request.url + ' failed', error)
            if not response.headersSent:
                send_error(response, 500, 'Internal error: ' + error_message(error), -32603)
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
        known = host is not None and host == self._host_accepted
        refusal = None if known else host_refusal(host, self.port, self.forwarded_hosts)
        if refusal is None:
            self._host_accepted = host  # a client sends the same Host every time: checked once
            refusal = origin_refusal(headers['origin']) if self.browsers else no_browser_refusal(headers['origin'])
        if refusal:
            return refuse(response, refusal)
        # HEAD is answered like the GET it stands for (status and headers), without opening a stream or a
        # session: clients such as Hermes Agent probe the URL with HEAD before they connect.
        method = 'GET' if request.method == 'HEAD' else request.method
        if path == '/health':
            if method != 'GET':
                return send_method_not_allowed(response, 'GET, HEAD')
            return send_json(response, 200, self.health())
        if path not in [MCP_PATH, LEGACY_SSE_PATH, LEGACY_MESSAGES_PATH]:
            return send_error(response, 404, 'Not Found: MCP lives at ' + MCP_PATH + ' (legacy SSE at ' +
                                    LEGACY_SSE_PATH + ')')
        refusal = auth_refusal(headers['authorization'], self.token)
        if refusal:
            return refuse(response, refusal)
        if path == LEGACY_SSE_PATH:
            if method != 'GET':
                return send_method_not_allowed(response, 'GET, HEAD')
            return self._open_legacy_stream(request, response)
        if path == LEGACY_MESSAGES_PATH:
            if method != 'POST':
                return send_method_not_allowed(response, 'POST')
            return await self._post_legacy(request, response, query['sessionId'])
        if method == 'POST':
            return await self._post_streamable(request, response)
        if self._speaks_modern(headers['mcp-protocol-version']):
            # 2026-07-28 has no GET stream (subscriptions/listen replaces it) and no session to DELETE.
            return send_method_not_allowed(response, 'POST')
        if method == 'GET':
            # Only a client that names the event stream is a 2024-11-05 client on /mcp: a probe with `*/*`
            # gets a prompt answer instead of a stream that never ends.
            if headers['mcp-session-id'] is None and accepts(headers['accept'], 'text/event-stream', False):
                return self._open_legacy_stream(request, response)
            return self._open_session_stream(request, response)
        if method == 'DELETE':
            return self._delete_session(request, response)
        return send_method_not_allowed(response, 'GET, HEAD, POST, DELETE')

    # ------------------------------------------------------------------------- Streamable HTTP

    async def _post_streamable(self, request: 'Any', response: 'Any') -> None:
        headers = request.headers
        if not self._accepts_json_and_sse(headers['accept']):
            return send_error(response, 406, 'Not Acceptable: the Accept header must list both '
                                                   'application/json and text/event-stream')
        body = await read_message(request, response, self.max_body_bytes)
        if not body[0]:
            return None
        message = body[1]
        session_id = headers['mcp-session-id']
        posted = PostedBody(message)
        if self.stateless is not None and is_modern_request(headers['mcp-protocol-version'], session_id, message):
            return await self._post_stateless(self.stateless, request, response, message, posted.kind)
        if session_id is None:
            if not posted.initialize:
                return send_error(response, 400, 'Bad Request: Mcp-Session-Id header is required '
                                                       '(send initialize first to get one)')
            session = self.sessions.open('streamable')
        else:
            found = self.sessions.find(session_id, 'streamable')
            if found is None:
                return send_error(response, 404, 'Session not found: ' + session_id +
                                        ' (it ended or never existed; initialize a new one)')
            session = found
            version = headers['mcp-protocol-version']
            if version is not None and version not in SUPPORTED_PROTOCOL_VERSIONS:
                return send_error(response, 400, 'Bad Request: unsupported MCP-Protocol-Version ' + version +
                                        ' (supported: ' + ', '.join(SUPPORTED_PROTOCOL_VERSIONS) + ')')
        session.last_used = now_ms()
        session_header = session.headers
        if not posted.needs_reply:
            send_empty(response, 202, session_header)
            await session.protocol.handle(message, posted.kind)
            return None
        if posted.wants_stream:
            # Inline rather than a method of its own: one promise less for every tools/call.
            stream = LazyStream(response, session_header, True)
            keys = session.own_request_streams(posted.request_ids, stream)
            try:
                reply = await session.protocol.handle(message, posted.kind)
            finally:
                session.release_request_streams(keys, stream)
            return self._finish_on_stream(stream, reply, response, session_header)
        reply = await session.protocol.handle(message, posted.kind)
        if posted.initialize and is_error_reply(reply):
            self.sessions.end(session.id)  # a failed handshake leaves no session behind
            return send_json(response, 200, reply)
        if reply is None:
            return send_empty(response, 202, session_header)
        return send_json(response, 200, reply, session_header)

    def _finish_on_stream(self, stream: 'LazyStream', reply: 'Json', response: 'Any',
                          session_header: 'Dict[str, str]') -> None:
        """Requests that may report progress or logs get SSE from their first notification on, the
        result last; one that sent nothing first is answered as plain JSON (no stream, no keep-alive
        timer)."""
        if reply is None:
            stream.close()  # cancelled: an empty stream, as before any notification
        elif stream.opened():
            stream.finish(reply)
        else:
            send_json(response, 200, reply, session_header)

    # ------------------------------------------------------------------------- 2026-07-28 (stateless)

    def _speaks_modern(self, version_header: 'Optional[str]') -> bool:
        return self.stateless is not None and version_header in MODERN_PROTOCOL_VERSIONS

    async def _post_stateless(self, stateless: 'McpStatelessServer', request: 'Any', response: 'Any', message: 'Json',
                              kind: 'Optional[str]') -> None:
        """One request, one response: JSON unless the request sends something before its result
        (progress, log lines, a subscription's notifications), then SSE from that first message on.
        A client that closes the connection first cancels the request."""
        if kind != 'request':
            reply = await stateless.handle(message, None, None, None, kind)
            if reply is None:
                return send_empty(response, 202)  # a notification: nothing to answer
            return send_json(response, 400, reply)
        cancellation = Cancellation()
        response.on('close', lambda: _cancel_unless_answered(response, cancellation))
        stream = LazyStream(response)
        reply = await stateless.handle(message, stream.send, cancellation, request.headers, kind)
        if stream.opened():
            stream.finish(reply)
        elif reply is None:
            if not response.writableEnded:
                response.end()  # cancelled: the client is gone, nothing is owed
        else:
            send_json(response, http_status_of(reply), reply)
        return None

    def _open_session_stream(self, request: 'Any', response: 'Any') -> None:
        """GET /mcp with a session: the stream for server→client messages not tied to a request."""
        headers = request.headers
        session_id = headers['mcp-session-id']
        if session_id is None:
            return send_error(response, 400, 'Bad Request: GET ' + MCP_PATH + ' needs an Mcp-Session-Id header '
                                    '(Streamable HTTP: POST initialize first), or Accept: text/event-stream for '
                                    'the legacy HTTP+SSE transport (also at ' + LEGACY_SSE_PATH + ')')
        session = self.sessions.find(session_id, 'streamable')
        if session is None:
            return send_error(response, 404, 'Session not found: ' + session_id)
        if not accepts(headers['accept'], 'text/event-stream'):
            return send_error(response, 406, 'Not Acceptable: GET needs Accept: text/event-stream')
        if session.stream is not None and session.stream.open:
            return send_error(response, 409, 'Conflict: this session already has an open SSE stream')
        if request.method == 'HEAD':
            return send_empty(response, 200, sse_headers())
        session.last_used = now_ms()
        session.stream = SseStream(response, {'Mcp-Session-Id': session.id})
        session.stream.on_dropped = self._dropped_reporter('the GET stream of session ' + session.id)
        return None

    def _delete_session(self, request: 'Any', response: 'Any') -> None:
        session_id = request.headers['mcp-session-id']
        if session_id is None:
            return send_error(response, 400, 'Bad Request: Mcp-Session-Id header is required')
        if self.sessions.find(session_id, 'streamable') is None:
            return send_error(response, 404, 'Session not found: ' + session_id)
        self.sessions.end(session_id)
        return send_empty(response, 200)

    # ------------------------------------------------------------------------- legacy HTTP+SSE (2024-11-05)

    def _open_legacy_stream(self, request: 'Any', response: 'Any') -> None:
        if request.method == 'HEAD':
            return send_empty(response, 200, sse_headers())
        session = self.sessions.open('legacy')
        session_id = session.id
        session.stream = SseStream(response, {}, lambda: self.sessions.end(session_id))
        session.stream.on_dropped = self._dropped_reporter('the event stream of legacy session ' + session_id)
        session.stream.send(LEGACY_MESSAGES_PATH + '?sessionId=' + session.id, 'endpoint')
        return None

    async def _post_legacy(self, request: 'Any', response: 'Any', session_id: 'Optional[str]') -> None:
        if session_id is None:
            return send_error(response, 400, 'Bad Request: the sessionId query parameter is required')
        session = self.sessions.find(session_id, 'legacy')
        if session is None:
            return send_error(response, 404, 'Session not found: ' + session_id +
                                    ' (open ' + LEGACY_SSE_PATH + ' again)')
        body = await read_message(request, response, self.max_body_bytes)
        if not body[0]:
            return None
        message = body[1]
        session.last_used = now_ms()
        send_text(response, 202, 'Accepted')
        reply = await session.protocol.handle(message)
        if reply is not None:
            session.route(reply)
        return None

    # ------------------------------------------------------------------------- bodies and replies

    def _accepts_json_and_sse(self, accept_header: 'Optional[str]') -> bool:
        """Does Accept list both application/json and text/event-stream? A client sends the same header
        on every POST, so the answer for the last one is kept."""
        if accept_header != self._accept_seen[0]:
            self._accept_seen = [accept_header, accepts(accept_header, 'application/json') and
                                 accepts(accept_header, 'text/event-stream')]
        return self._accept_seen[1]

    def _dropped_reporter(self, what: str) -> 'Callable[[int], None]':
        def report(unsent: int) -> None:
            if self.log is not None:
                self.log.warn('MCP: closed ' + what + ': its client stopped reading (' + str(unsent) +
                              ' bytes unsent, the limit is ' + str(MAX_UNSENT_BYTES) + ')')
        return report

    def _log_error(self, message: str, error: 'Any') -> None:
        if self.log is not None:
            self.log.error(message, error)


# ----------------------------------------------------------------------------- helpers


def accepts(accept_header: 'Optional[str]', media_type: str, wildcards: bool = True) -> bool:
    """Does an Accept header admit `media_type` (exactly, or with `wildcards` by type/* or */*)?"""
    if accept_header is None:
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
    if session_id is not None or version_header in SUPPORTED_PROTOCOL_VERSIONS:
        return False
    if is_array(message) or is_initialize(message):
        return False
    if version_header is not None:
        return True
    return modern_version(message) is not None


def _cancel_unless_answered(response: 'Any', cancellation: Cancellation) -> None:
    if not response.writableEnded:
        cancellation.cancel('the client closed the connection')


def is_initialize(message: 'Json') -> bool:
    for item in (message if is_array(message) else [message]):
        if get_key(item, 'method') == 'initialize':
            return True
    return False


def is_error_reply(reply: 'Json') -> bool:
    return isinstance(reply, dict) and 'error' in reply


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


