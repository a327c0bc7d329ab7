"""The handshake-era MCP sessions over HTTP (Streamable HTTP with `Mcp-Session-Id`, legacy HTTP+SSE), and the SSE
streams their messages travel on: each session's own stream, and the stream of each POST that is still answering.
net/mcp/http.py routes requests to them; 2026-07-28 requests have no session (core/mcp/stateless.py)."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.json import dump_json
from hermes.js.modules import node
from hermes.net.sse import SseStream, KEEPALIVE_MS
from hermes.core.values import json_type
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json
from hermes.core.mcp.protocol import McpSession

Route = Callable[..., bool]  # HttpSession.route(message, related_request_id=None): where a server→client message goes
ProtocolFactory = Callable[[Route], McpSession]
# __pragma__('noskip')

MAX_SESSIONS = 100


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
        if related_request_id is not None:
            key = stream_key(related_request_id)
            if key in self.request_streams and self.request_streams[key].send_text(text):
                return True
        if self.stream is not None and self.stream.open:
            return self.stream.send(text)
        return False

    def own_request_streams(self, request_ids: 'List[Json]', stream: 'LazyStream') -> 'List[str]':
        """Route what the session sends for these requests to `stream`; returns the keys taken."""
        keys = []  # type: List[str]
        for request_id in request_ids:
            key = stream_key(request_id)
            self.request_streams[key] = stream
            keys.append(key)
        return keys

    def release_request_streams(self, keys: 'List[str]', stream: 'LazyStream') -> None:
        for key in keys:
            if key in self.request_streams and self.request_streams[key] is stream:
                del self.request_streams[key]

    def close(self) -> None:
        self.protocol.close()
        if self.stream is not None:
            self.stream.close()
        for key in self.request_streams.keys():
            self.request_streams[key].close()
        self.request_streams = {}


class HttpSessions:
    """The sessions of one server by id, at most MAX_SESSIONS (the least recently used idle one makes room).
    `on_changed(count)`: called whenever the number changes (the status bar's client count)."""

    def __init__(self, create_protocol: 'ProtocolFactory') -> None:
        self.create_protocol = create_protocol
        self.by_id = {}  # type: Dict[str, HttpSession]
        self.on_changed = None  # type: Optional[Callable[[int], None]]

    def size(self) -> int:
        return len(self.by_id.keys())

    def open(self, kind: str) -> HttpSession:
        if self.size() >= MAX_SESSIONS:
            self._evict_idle()
        session = HttpSession(node('crypto').randomUUID(), kind, self.create_protocol)
        self.by_id[session.id] = session
        self._changed()
        return session

    def find(self, session_id: str, kind: str) -> 'Optional[HttpSession]':
        """The session `session_id` if it is of this transport (a legacy id does not open a Streamable session)."""
        session = self.by_id[session_id] if session_id in self.by_id else None
        return session if session is not None and session.kind == kind else None

    def end(self, session_id: str) -> None:
        if session_id in self.by_id:
            session = self.by_id[session_id]
            del self.by_id[session_id]
            session.close()
            self._changed()

    def end_all(self) -> None:
        for session_id in list(self.by_id.keys()):
            self.end(session_id)

    def _evict_idle(self) -> None:
        """At the cap, the least recently used session without an open stream makes room."""
        oldest = None  # type: Optional[HttpSession]
        for session_id in self.by_id.keys():
            session = self.by_id[session_id]
            idle = session.stream is None or not session.stream.open
            if idle and (oldest is None or session.last_used < oldest.last_used):
                oldest = session
        if oldest is not None:
            self.end(oldest.id)

    def _changed(self) -> None:
        if self.on_changed is not None:
            self.on_changed(self.size())


class LazyStream:
    """The SSE response of one request, opened by its first notification: a request that sends nothing
    before its result is answered as plain JSON instead. `numbered`: event ids (2026-07-28 streams have
    none: that revision has no resumption)."""

    def __init__(self, response: 'Any', headers: 'Optional[Dict[str, str]]' = None, numbered: bool = False) -> None:
        self.response = response
        self.headers = {} if headers is None else headers
        self.numbered = numbered
        self.stream = None  # type: Optional[SseStream]

    def opened(self) -> bool:
        return self.stream is not None

    def send(self, message: 'Json') -> None:
        self.send_text(dump_json(message))

    def send_text(self, text: str) -> bool:
        """One event (JSON text); False when the client has gone."""
        return self._open().send(text)

    def close(self) -> None:
        """The session ends first: the response ends as an empty stream, the late reply goes nowhere."""
        if not self.response.headersSent:
            self._open()
        if self.stream is not None:
            self.stream.close()

    def _open(self) -> 'SseStream':
        stream = self.stream
        if stream is None:
            stream = SseStream(self.response, self.headers, None, KEEPALIVE_MS, False, self.numbered)
            self.stream = stream
        return stream

    def finish(self, reply: 'Json') -> None:
        if reply is None:
            self._open().close()
        else:
            self._open().finish(dump_json(reply))


def stream_key(request_id: 'Json') -> str:
    """The key of a request's stream in HttpSession.request_streams: ids 1 and '1' differ."""
    return ('s:' if json_type(request_id) == 'string' else 'n:') + str(request_id)
