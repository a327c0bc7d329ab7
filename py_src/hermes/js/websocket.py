"""WebSockets, from the npm package `ws`: the framing, masking, ping/pong and close handshake are its work, never ours.
The one door that speaks WebSocket is Claude Code's (net/doors/ide_socket.py), and it asks for a server only when its first
CLI connects: `ws` is a file of its own beside the bundle (esbuild.js VENDOR_WS), so a window nobody connects to never
loads it (49 kB minified, every window's start-up otherwise)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List
from hermes.js.websocket_cpython import require
# __pragma__('noskip')
from hermes.js.objects import new

# A proposed file travels inside one message (openDiff's new_file_contents): room for the change log's largest file
# (host/changes/log.py MAX_FILE_CHARS, 1,000,000 characters, up to 4 bytes each in UTF-8) and its JSON escaping.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


def websocket_server(choose_protocol: 'Callable[[List[str]], Any]') -> 'Any':
    """A `ws` WebSocketServer that owns no port (`noServer`): the caller's HTTP server hands it the upgrades it
    accepted (`server.handleUpgrade(request, socket, head, on_connection)`). `choose_protocol(offered)` picks the
    subprotocol to answer with, or False."""
    def handle_protocols(offered: 'Any', request: 'Any') -> 'Any':  # a JS array of names; an http.IncomingMessage
        return choose_protocol(Array.js_from(offered))
    return new(require('./vendor/ws.js').WebSocketServer, {'noServer': True, 'maxPayload': MAX_MESSAGE_BYTES,
                                               'clientTracking': False, 'perMessageDeflate': False,
                                               'handleProtocols': handle_protocols})
