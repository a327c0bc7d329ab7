"""The MCP transport's plain HTTP answers: JSON with its length, text, empty, and a JSON-RPC error body saying why a
request was refused, with the status the spec names (net/mcp/http.py)."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.js.modules import node
from hermes.net.guard import Refusal
# __pragma__('skip')
from typing import Any, Dict, Optional
from hermes.contracts.json import Json
# __pragma__('noskip')

HTTP_ERROR = -32000  # the code the official SDKs use for transport-level refusals


def send_json(response: 'Any', status: int, body: 'Json', headers: 'Optional[Dict[str, str]]' = None) -> None:
    """The body with its length (not chunked: one write, no terminating chunk)."""
    text = dump_json(body)
    # A flat [name, value, ...] list, which Node takes as it is (a dict would be built, then walked).
    all_headers = ['Content-Type', 'application/json', 'Cache-Control', 'no-store',
                   'Content-Length', str(node('buffer').Buffer.byteLength(text))]
    if headers is not None:
        for key in headers.keys():
            all_headers.append(key)
            all_headers.append(headers[key])
    response.writeHead(status, all_headers)
    response.end(text)


def send_error(response: 'Any', status: int, message: str, code: int = HTTP_ERROR, close: bool = False,
               headers: 'Optional[Dict[str, str]]' = None) -> None:
    body = {'jsonrpc': '2.0', 'id': None, 'error': {'code': code, 'message': message}}
    extra = {} if headers is None else headers
    if close:
        extra['Connection'] = 'close'
    send_json(response, status, body, extra)


def refuse(response: 'Any', refusal: Refusal) -> None:
    send_error(response, refusal.status, refusal.message, HTTP_ERROR, False, refusal.headers)


def send_method_not_allowed(response: 'Any', allowed: str) -> None:
    send_error(response, 405, 'Method Not Allowed (allowed: ' + allowed + ')', HTTP_ERROR, False, {'Allow': allowed})


def send_text(response: 'Any', status: int, text: str) -> None:
    response.writeHead(status, {'Content-Type': 'text/plain; charset=utf-8'})
    response.end(text)


def send_empty(response: 'Any', status: int, headers: 'Optional[Dict[str, str]]' = None) -> None:
    response.writeHead(status, {} if headers is None else headers)
    response.end()
