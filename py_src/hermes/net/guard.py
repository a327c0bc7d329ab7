"""Who may talk to the MCP server: pure decisions on Host, Origin and the bearer token.

Kept free of Node so pytest covers every branch. Threats: a web page using DNS
rebinding (evil Host), a web page posting cross-origin (non-loopback Origin), another local user or
process without the token. A request with no Origin comes from a non-browser client.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.text import decode_uri_component
# __pragma__('skip')
from typing import Dict, List, Optional, Tuple
# __pragma__('noskip')

LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]', '::1']
TRUSTED_ORIGIN_SCHEMES = ['vscode-webview', 'vscode-file', 'vscode']


class Refusal:
    """Why a request was refused: the HTTP status and a message for the client."""

    def __init__(self, status: int, message: str, headers: 'Optional[Dict[str, str]]' = None) -> None:
        self.status = status
        self.message = message
        self.headers = headers or {}


def split_host(value: str) -> 'Tuple[str, str]':
    """'127.0.0.1:19999' → ('127.0.0.1', '19999'); '[::1]:80' → ('[::1]', '80'); 'x' → ('x', '')."""
    value = value.strip().lower()
    if value.startswith('['):
        end = value.find(']')
        if end < 0:
            return value, ''
        rest = value[end + 1:]
        return value[:end + 1], rest[1:] if rest.startswith(':') else ''
    colon = value.rfind(':')
    if colon < 0 or value.find(':') != colon:  # several colons: a bare IPv6 address
        return value, ''
    return value[:colon], value[colon + 1:]


def host_refusal(host_header: 'Optional[str]', port: 'Optional[int]',
                 forwarded: 'Optional[List[str]]' = None) -> 'Optional[Refusal]':
    """DNS-rebinding defence: the Host must name loopback (and our port, when it names one), or be exactly one of
    the `forwarded` authorities (the address VS Code forwards to this server, when the user allowed it)."""
    if host_header is None or host_header == '':
        return Refusal(403, 'Forbidden: missing Host header')
    if forwarded is not None and host_header.strip().lower() in forwarded:
        return None
    name, host_port = split_host(host_header)
    if name not in LOOPBACK_NAMES or (host_port != '' and host_port != str(port)):
        return Refusal(403, 'Forbidden: Host ' + host_header + ' is not this local server')
    return None


def origin_refusal(origin_header: 'Optional[str]') -> 'Optional[Refusal]':
    """A browser page may only reach us from loopback or from VS Code itself."""
    if origin_header is None:
        return None
    origin = origin_header.strip().lower()
    scheme_end = origin.find('://')
    if scheme_end < 0:
        return Refusal(403, 'Forbidden: Origin ' + origin_header + ' is not allowed')
    scheme = origin[:scheme_end]
    if scheme in TRUSTED_ORIGIN_SCHEMES:
        return None
    name = split_host(origin[scheme_end + 3:].split('/')[0])[0]
    if scheme in ['http', 'https'] and name in LOOPBACK_NAMES:
        return None
    return Refusal(403, 'Forbidden: Origin ' + origin_header + ' is not allowed')


def no_browser_refusal(origin_header: 'Optional[str]') -> 'Optional[Refusal]':
    """A door only CLIs use (net/doors/ide_socket.py, the Gemini CLI door) refuses every request a browser sends."""
    if origin_header is None:
        return None
    return Refusal(403, 'Forbidden: browsers may not use this endpoint (Origin ' + origin_header + ')')


def same_secret(given: str, expected: str) -> bool:
    """Compare in time independent of where the strings differ (no early exit)."""
    if len(given) != len(expected):
        return False
    difference = 0
    for index in range(len(expected)):
        difference = difference | (ord(given[index]) ^ ord(expected[index]))
    return difference == 0


def auth_refusal(authorization_header: 'Optional[str]', token: 'Optional[str]') -> 'Optional[Refusal]':
    """With a token configured, every MCP route needs `Authorization: Bearer <token>`."""
    if token is None or token == '':
        return None
    challenge = {'WWW-Authenticate': 'Bearer realm="hermes-vscode"'}
    if authorization_header is None or not authorization_header.startswith('Bearer '):
        return Refusal(401, 'Unauthorized: send "Authorization: Bearer <token>" (the token is in '
                            '~/.hermes/ide/<port>.json, or run "Hermes: Copy MCP Config")', challenge)
    if not same_secret(authorization_header[len('Bearer '):].strip(), token):
        return Refusal(401, 'Unauthorized: the bearer token is wrong', challenge)
    return None


def split_target(target: str) -> 'Tuple[str, Dict[str, str]]':
    """'/mcp?sessionId=a%20b' → ('/mcp', {'sessionId': 'a b'}). Repeated keys: the first wins."""
    question = target.find('?')
    if question < 0:
        return target, {}
    query = {}  # type: Dict[str, str]
    for pair in target[question + 1:].split('&'):
        if pair == '':
            continue
        equals = pair.find('=')
        key = pair if equals < 0 else pair[:equals]
        value = '' if equals < 0 else pair[equals + 1:]
        key = _unescape(key)
        if key not in query:
            query[key] = _unescape(value)
    return target[:question], query


def _unescape(text: str) -> str:
    try:
        return decode_uri_component(text.replace('+', ' '))
    except JsError:  # a malformed escape (URIError in JS) is kept as typed
        return text
