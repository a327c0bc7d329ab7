"""Claude Code's door: MCP (JSON-RPC 2.0) over a WebSocket on 127.0.0.1, the transport Claude Code's IDE integration
dials (`ws://127.0.0.1:<port>/`, subprotocol `mcp`, the lock file's token in `x-claude-code-ide-authorization`).

The framing is the npm package `ws` (js/websocket.py); the MCP lifecycle and methods are core/mcp/protocol.py's, as
for every other transport: a connection is one `McpSession` made by `create_protocol(send, connection)`.

Who may connect (`upgrade_refusal`, decided before `ws` sees the socket, so a refused client costs no work):
- the Host names loopback (DNS rebinding), and no `Origin` at all: a CLI sends none, every browser does. An open
  socket like this one, reachable by any web page, was CVE-2025-52882;
- the token, compared in constant time (net/guard.py same_secret);
- the path `/`. Plain HTTP requests get 426 (Upgrade Required) and nothing else.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import node
from hermes.js.websocket import websocket_server
from hermes.core.jsonrpc import PARSE_ERROR, error_response
from hermes.core.values import get_key
from hermes.net.guard import Refusal, host_refusal, no_browser_refusal, same_secret
from hermes.net.mcp.http import listen, close_server
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional, Union
from hermes.contracts.json import Json
# __pragma__('noskip')

TOKEN_HEADER = 'x-claude-code-ide-authorization'
SUBPROTOCOL = 'mcp'
REASONS = {'s400': 'Bad Request', 's401': 'Unauthorized', 's403': 'Forbidden', 's404': 'Not Found'}


def upgrade_refusal(path: str, headers: 'Any', port: 'Optional[int]', token: str) -> 'Optional[Refusal]':
    """Why a WebSocket upgrade is refused (a Refusal), or None to accept it. `headers`: Node's, lower-case names."""
    refusal = host_refusal(headers['host'], port)
    if refusal is not None:
        return refusal
    refusal = no_browser_refusal(headers['origin'])
    if refusal is not None:
        return refusal
    if path.split('?')[0] != '/':
        return Refusal(404, 'Not Found: the IDE socket lives at /')
    given = headers[TOKEN_HEADER]
    if given is None or not same_secret(given, token):
        return Refusal(401, 'Unauthorized: send the lock file\'s authToken in ' + TOKEN_HEADER)
    return None


def choose_subprotocol(offered: 'List[str]') -> 'Union[str, bool]':
    """Answer `mcp` when the client offers it; a client that offers none is served too (False: no header)."""
    return SUBPROTOCOL if SUBPROTOCOL in offered else False


class SocketConnection:
    """One connected CLI: its id (the change log's session), what it says it is, and how to reach it."""

    def __init__(self, number: int, user_agent: str, socket: 'Any') -> None:
        self.id = 'ws-' + str(number)
        self.user_agent = user_agent
        self._socket = socket
        self.protocol = None  # type: Any  # the McpSession create_protocol made for it
        self.open = True

    def send(self, message: 'Json') -> None:
        if self.open:
            self._socket.send(dump_json(message))

    def close(self, code: int = 1000, reason: str = '') -> None:
        if self.open:
            self._socket.close(code, reason)


class IdeSocketServer:
    """`create_protocol(send, connection)` makes the connection's McpSession; `on_change(connections)` hears of every
    connection that opens or closes."""

    def __init__(self, create_protocol: 'Callable[[Callable[..., None], SocketConnection], Any]', token: str,
                 log: 'Any' = None, on_change: 'Optional[Callable[[List[SocketConnection]], None]]' = None) -> None:
        self.create_protocol = create_protocol
        self.token = token
        self.log = log
        self.on_change = on_change
        self.connections = []  # type: List[SocketConnection]
        self.port = None  # type: Optional[int]
        self._server = None  # type: Any
        self._sockets = None  # type: Any
        self._count = 0

    async def start(self, port: int = 0) -> int:
        self._server = node('http').createServer(to_js_callback(self._on_request))
        self._server.on('upgrade', to_js_callback(self._on_upgrade))
        self.port = await listen(self._server, port)
        return self.port

    async def stop(self) -> None:
        for connection in self.connections[:]:
            connection.close(1001, 'VS Code window closing')
            self._closed(connection)
        if self._server is None:
            return
        server = self._server
        self._server = None
        server.closeAllConnections()
        await close_server(server)

    def _on_request(self, request: 'Any', response: 'Any') -> None:
        response.writeHead(426, {'Content-Type': 'text/plain', 'Connection': 'close', 'Upgrade': 'websocket'})
        response.end('Upgrade Required: this is a WebSocket endpoint for Claude Code\n')

    def _on_upgrade(self, request: 'Any', socket: 'Any', head: 'Any') -> None:
        refusal = upgrade_refusal(request.url, request.headers, self.port, self.token)
        if refusal is not None:
            self._warn('refused a connection: ' + refusal.message)
            socket.on('error', lambda error: None)
            socket.end('HTTP/1.1 ' + str(refusal.status) + ' ' + get_key(REASONS, 's' + str(refusal.status), 'Refused') +
                       '\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ' +
                       str(len(refusal.message)) + '\r\n\r\n' + refusal.message)
            return
        if self._sockets is None:  # the first CLI that gets in loads `ws` (js/websocket.py)
            self._sockets = websocket_server(choose_subprotocol)
        self._sockets.handleUpgrade(request, socket, head,
                                    to_js_callback(lambda ws: self._on_connection(ws, request)))

    def _on_connection(self, ws: 'Any', request: 'Any') -> None:
        self._count += 1
        agent = request.headers['user-agent']
        connection = SocketConnection(self._count, '' if agent is None else agent, ws)
        connection.protocol = self.create_protocol(lambda message, related=None: connection.send(message),
                                                   connection)
        self.connections.append(connection)
        ws.on('message', to_js_callback(lambda data, binary: self._on_message(connection, data)))
        ws.on('close', to_js_callback(lambda code, reason: self._closed(connection)))
        ws.on('error', to_js_callback(lambda error: self._warn('connection error: ' + error_message(error))))
        self._changed()

    async def _on_message(self, connection: SocketConnection, data: 'Any') -> None:
        """Each message is handled at once, not after the previous one: openDiff waits for the user, and the CLI
        goes on calling other tools (close_tab, getDiagnostics) meanwhile."""
        try:
            message = parse_json(data.toString('utf8'))
        except ValueError:
            connection.send(error_response(None, PARSE_ERROR, 'Parse error: not JSON'))
            return
        try:
            reply = await connection.protocol.handle(message)
        except JsError as error:
            self._warn('a message failed: ' + error_message(error))
            return
        if reply is not None:
            connection.send(reply)

    def _closed(self, connection: SocketConnection) -> None:
        if not connection.open:
            return
        connection.open = False
        self.connections = [other for other in self.connections if other is not connection]
        connection.protocol.close()
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.connections[:])

    def _warn(self, text: str) -> None:
        if self.log is not None:
            self.log.warn('Claude Code door: ' + text)
