"""A minimal MCP client for Streamable HTTP, over Node's global fetch (used by dist/mcp-server.js).

`post(message)` sends one JSON-RPC message (or a batch) and returns every message the server sent
back, whether as an `application/json` body or as a `text/event-stream` (core/sse_parser.py). The
session id from the initialize response, and the negotiated protocol version, go with every later
request. Every failure is an `McpClientError` whose text says what went wrong in words a user can act on:
an HTTP status with the server's own explanation, or a server that cannot be reached.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.fetch import (
    abort_controller, body_reader, cancel_body, either_signal, fetch_url, network_error_code, network_error_detail,
    read_text_chunk, response_header, timeout_signal,
)
from hermes.js.json import dump_json, parse_json
from hermes.core.sse_parser import SseParser
from hermes.core.mcp.headers import mirrored_headers
from hermes.core.values import get_key, is_object
from hermes.version import VERSION
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject

Deliver = Callable[[Json], None]
# __pragma__('noskip')

LATEST_PROTOCOL_VERSION = '2025-11-25'
CLIENT_INFO = {'name': 'hermes-mcp-cli', 'version': VERSION}
ACCEPT_BOTH = 'application/json, text/event-stream'

REASONS = {
    'ECONNREFUSED': 'connection refused',
    'ECONNRESET': 'connection reset',
    'EPIPE': 'connection reset',
    'UND_ERR_SOCKET': 'connection closed',
    'ENOTFOUND': 'host not found',
    'EAI_AGAIN': 'host not found',
    'EHOSTUNREACH': 'host unreachable',
    'ENETUNREACH': 'network unreachable',
    'ETIMEDOUT': 'timed out',
    'UND_ERR_CONNECT_TIMEOUT': 'timed out',
    'UND_ERR_HEADERS_TIMEOUT': 'timed out',
    'UND_ERR_BODY_TIMEOUT': 'timed out',
    'TimeoutError': 'timed out',
    'AbortError': 'aborted',
}

STATUS_TEXTS = {  # transcrypt-ok[dict-number-key]: only looked up by a number status, never iterated
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    406: 'Not Acceptable', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type',
    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
}


class McpClientError(Exception):
    """`kind`: 'network' (no answer), 'http' (an error status), 'protocol' (an answer we can't use) or
    'rpc' (a JSON-RPC error response; `code` is its code)."""

    def __init__(self, text: str, kind: str = 'http', status: 'Optional[int]' = None, code: 'Json' = None) -> None:
        super().__init__(text)
        self.text = text
        self.kind = kind
        self.status = status
        self.code = code

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------------------------ pure helpers


def base_url_of(url: str) -> str:
    """'http://127.0.0.1:19999/mcp' → 'http://127.0.0.1:19999' (where /health lives)."""
    scheme_end = url.find('://')
    start = 0 if scheme_end < 0 else scheme_end + 3
    path_start = url.find('/', start)
    return url if path_start < 0 else url[:path_start]


def port_of(url: str) -> 'Optional[int]':
    """The port named in an http URL (80 when none is given); None when it is not a number."""
    authority = base_url_of(url)
    scheme_end = authority.find('://')
    if scheme_end >= 0:
        authority = authority[scheme_end + 3:]
    if authority.startswith('['):  # [::1]:8080
        close = authority.find(']')
        authority = authority[close + 1:] if close >= 0 else ''
        colon = 0 if authority.startswith(':') else -1
    else:
        colon = authority.rfind(':')
    if colon < 0:
        return 443 if url.startswith('https:') else 80
    digits = authority[colon + 1:]
    if len(digits) == 0 or len(digits) > 5 or not digits.isdigit():
        return None
    return int(digits)


def unreachable_message(url: str, code: 'Optional[str]', detail: 'Optional[str]' = None,
                        timeout_ms: 'Optional[int]' = None) -> str:
    """The words for a fetch that got no HTTP answer at all."""
    if code == 'TimeoutError' and timeout_ms is not None:
        return ('The Hermes MCP server at ' + url + ' did not answer within ' + str(timeout_ms) +
                ' ms. Is the VS Code window busy or paused in a debugger?')
    reason = REASONS[code] if code is not None and code in REASONS else None
    if reason is None:
        reason = detail if detail is not None and detail != '' else 'no answer'
    return "Can't reach the Hermes MCP server at " + url + ' (' + reason + '). Is VS Code open with Hermes running?'


def http_error_message(status: int, status_text: 'Optional[str]', body_text: 'Optional[str]') -> str:
    """'401 Unauthorized: the bearer token is wrong', from the status and the server's JSON-RPC error."""
    if status_text is None or status_text == '':
        status_text = STATUS_TEXTS[status] if status in STATUS_TEXTS else 'HTTP error'
    heading = str(status) + ' ' + status_text
    explanation = server_explanation(body_text)
    if explanation is None or explanation == '':
        return heading
    prefix = status_text + ': '
    if explanation.startswith(prefix):  # the server already named the status: don't say it twice
        explanation = explanation[len(prefix):]
    elif explanation == status_text:
        return heading
    return heading + ': ' + explanation


def server_explanation(body_text: 'Optional[str]') -> 'Optional[str]':
    """The message in a JSON-RPC error body, else the (short) body text itself, else None."""
    if body_text is None:
        return None
    text = body_text.strip()
    if text == '':
        return None
    try:
        body = parse_json(text)
    except ValueError:
        body = None
    if is_object(body):
        error = get_key(body, 'error')
        message = get_key(error, 'message') if is_object(error) else None
        if isinstance(message, str) and message != '':
            return message
        if isinstance(error, str) and error != '':
            return error
    return text if len(text) <= 300 else text[:300] + '…'


def rpc_error_of(body_text: str) -> 'Optional[JsonObject]':
    """The JSON-RPC error response in a refusal's body when it answers a request (it has an id), else None."""
    try:
        body = parse_json(body_text)
    except JsError:
        return None
    if is_object(body) and is_object(get_key(body, 'error')) and get_key(body, 'id') is not None:
        return body
    return None


def is_initialize(message: 'Json') -> bool:
    for item in (message if isinstance(message, list) else [message]):
        if is_object(item) and get_key(item, 'method') == 'initialize':
            return True
    return False


def as_messages(value: 'Json') -> 'List[Json]':
    return value if isinstance(value, list) else [value]


# ------------------------------------------------------------------------------------ the client


class McpHttpClient:
    def __init__(self, url: str, token: 'Optional[str]' = None, timeout_ms: 'Optional[int]' = None) -> None:
        self.url = url
        self.token = None if token is None or token == '' else token
        self.timeout_ms = timeout_ms  # per request, including reading the reply; None: no limit
        self.session_id = None  # type: Optional[str]
        self.protocol_version = None  # type: Optional[str]
        self.server_info = None  # type: Json
        self.next_id = 1
        self._listener = None  # type: Any  # the AbortController of the GET stream

    def headers(self, accept: str) -> 'Dict[str, str]':
        headers = {'Accept': accept}
        if self.token is not None:
            headers['Authorization'] = 'Bearer ' + self.token
        if self.session_id is not None:
            headers['Mcp-Session-Id'] = self.session_id
        if self.protocol_version is not None:
            headers['MCP-Protocol-Version'] = self.protocol_version
        return headers

    async def post(self, message: 'Json', on_message: 'Optional[Deliver]' = None, abort: 'Any' = None) -> 'List[Json]':
        """POST one message (or batch); the messages that came back, each also passed to
        `on_message` as soon as it arrives (progress notifications stream before the result).
        `abort` (an AbortController) ends the request and the reading of its reply when aborted."""
        initializing = is_initialize(message)
        if initializing:  # a new handshake starts a new session
            self.session_id = None
            self.protocol_version = None
        headers = self.headers(ACCEPT_BOTH)
        headers['Content-Type'] = 'application/json'
        mirrored = mirrored_headers(message)  # a 2026-07-28 request: no session, its metadata in headers
        if mirrored is not None:
            for key in mirrored.keys():
                headers[key] = mirrored[key]
        response = await self._fetch('POST', headers, dump_json(message), abort)
        received = []  # type: List[Json]

        def deliver(item: 'Json') -> None:
            received.append(item)
            if initializing:
                self._note_initialize_result(item)
            if on_message is not None:
                on_message(item)

        if response.status < 200 or response.status >= 300:
            text = await self._read_all(response)
            refusal = rpc_error_of(text)
            if refusal is not None:
                deliver(refusal)  # 2026-07-28 answers a refused request with 4xx and its JSON-RPC error
                return received
            raise McpClientError(http_error_message(response.status, response.statusText, text), 'http',
                                 response.status)
        if initializing:
            session_id = response_header(response, 'mcp-session-id')
            if session_id is not None:
                self.session_id = session_id
        await self._read_messages(response, deliver)
        return received

    async def request(self, method: str, params: 'Json' = None) -> 'Json':
        """Send a request and return its result; an error response raises McpClientError('rpc')."""
        request_id = self.next_id
        self.next_id += 1
        message = {'jsonrpc': '2.0', 'id': request_id, 'method': method}  # type: JsonObject
        if params is not None:
            message['params'] = params
        for reply in await self.post(message):
            if is_object(reply) and get_key(reply, 'id') == request_id and not ('method' in reply):
                error = get_key(reply, 'error')
                if is_object(error):
                    raise McpClientError(method + ' failed: ' + str(get_key(error, 'message', 'unknown error')) +
                                         ' (' + str(get_key(error, 'code')) + ')', 'rpc', None,
                                         get_key(error, 'code'))
                return get_key(reply, 'result')
        raise McpClientError('The server sent no response to ' + method, 'protocol')

    async def notify(self, method: str, params: 'Json' = None) -> None:
        message = {'jsonrpc': '2.0', 'method': method}  # type: JsonObject
        if params is not None:
            message['params'] = params
        await self.post(message)

    async def initialize(self, client_info: 'Optional[JsonObject]' = None,
                         protocol_version: str = LATEST_PROTOCOL_VERSION) -> 'Json':
        """The handshake: initialize, then notifications/initialized. Returns the initialize result."""
        result = await self.request('initialize', {
            'protocolVersion': protocol_version,
            'capabilities': {},
            'clientInfo': CLIENT_INFO if client_info is None else client_info,
        })
        await self.notify('notifications/initialized')
        return result

    async def listen(self, on_message: 'Deliver') -> None:
        """The GET stream for server-initiated messages, until it ends or `close()`; raises
        McpClientError when the server refuses it (405: it has none)."""
        if self.session_id is None:
            raise McpClientError('No session to listen on: initialize first', 'protocol')
        controller = abort_controller()
        self._listener = controller
        try:
            try:
                response = await fetch_url(self.url, {'method': 'GET', 'headers': self.headers('text/event-stream'),
                                                      'signal': controller.signal})
            except JsError as error:
                if controller.signal.aborted:
                    return
                raise McpClientError(unreachable_message(self.url, network_error_code(error),
                                                         network_error_detail(error)), 'network')
            if response.status != 200:
                raise McpClientError(http_error_message(response.status, response.statusText,
                                                        await self._read_all(response)), 'http', response.status)
            try:
                await self._read_messages(response, on_message)
            except McpClientError as error:
                if not controller.signal.aborted:
                    raise error
        finally:
            if self._listener is controller:
                self._listener = None

    async def close(self) -> None:
        """End the session (DELETE) and any GET stream. Never raises: the server may be gone."""
        if self._listener is not None:
            self._listener.abort()
            self._listener = None
        if self.session_id is None:
            return
        headers = self.headers('application/json')
        self.session_id = None
        try:
            response = await fetch_url(self.url, {'method': 'DELETE', 'headers': headers,
                                                  'signal': timeout_signal(2000)})
            await self._read_all(response)
        except JsError:
            pass

    # ------------------------------------------------------------------------------- internals

    async def _fetch(self, method: str, headers: 'Dict[str, str]', body: str, abort: 'Any' = None) -> 'Any':
        options = {'method': method, 'headers': headers, 'body': body}  # type: Dict[str, Any]
        if self.timeout_ms is not None:
            options['signal'] = timeout_signal(self.timeout_ms)
        if abort is not None:
            options['signal'] = abort.signal if self.timeout_ms is None else either_signal(options['signal'],
                                                                                          abort.signal)
        try:
            return await fetch_url(self.url, options)
        except JsError as error:
            raise McpClientError(unreachable_message(self.url, network_error_code(error), network_error_detail(error),
                                                     self.timeout_ms), 'network')

    async def _read_all(self, response: 'Any') -> str:
        reader = body_reader(response)
        parts = []  # type: List[str]
        try:
            while True:
                chunk = await read_text_chunk(reader)
                if chunk is None:
                    break
                parts.append(chunk)
        except JsError as error:
            raise self._broken(error)
        return ''.join(parts)

    async def _read_messages(self, response: 'Any', deliver: 'Deliver') -> None:
        """Every JSON-RPC message in a response body, JSON or SSE, in order."""
        if response.status == 202 or response.status == 204:
            await self._read_all(response)
            return
        content_type = response_header(response, 'content-type')
        content_type = '' if content_type is None else content_type.lower()
        if content_type.startswith('text/event-stream'):
            await self._read_events(response, deliver)
            return
        text = await self._read_all(response)
        if text.strip() == '':
            return
        if not content_type.startswith('application/json'):
            raise McpClientError('The server answered with ' + (content_type or 'no content type') +
                                 ' instead of JSON or an event stream: ' + text[:200], 'protocol')
        try:
            value = parse_json(text)
        except ValueError as error:
            raise McpClientError('The server sent invalid JSON (' + error_message(error) + ')', 'protocol')
        for item in as_messages(value):
            deliver(item)

    async def _read_events(self, response: 'Any', deliver: 'Deliver') -> None:
        reader = body_reader(response)
        parser = SseParser()
        while True:
            try:
                chunk = await read_text_chunk(reader)
            except JsError as error:
                raise self._broken(error)
            if chunk is None:
                break
            for event in parser.feed(chunk):
                if event['event'] != 'message' or event['data'].strip() == '':
                    continue
                try:
                    value = parse_json(event['data'])
                except ValueError as error:
                    cancel_body(reader)
                    raise McpClientError('The server sent an event with invalid JSON (' + error_message(error) + ')',
                                         'protocol')
                for item in as_messages(value):
                    deliver(item)
        parser.finish()

    def _broken(self, error: 'Any') -> McpClientError:
        code = network_error_code(error)
        if code == 'TimeoutError' and self.timeout_ms is not None:
            return McpClientError(unreachable_message(self.url, code, None, self.timeout_ms), 'network')
        reason = REASONS[code] if code is not None and code in REASONS else network_error_detail(error)
        return McpClientError('The connection to the Hermes MCP server at ' + self.url + ' broke (' + reason +
                              '). Did the VS Code window close or reload?', 'network')

    def _note_initialize_result(self, item: 'Json') -> None:
        result = get_key(item, 'result')
        if is_object(result):
            version = get_key(result, 'protocolVersion')
            if isinstance(version, str):
                self.protocol_version = version
            self.server_info = get_key(result, 'serverInfo')


async def get_health(base_url: str, timeout_ms: int = 5000) -> 'JsonObject':
    """GET <base>/health: the server's status dict (no secrets; no token needed)."""
    url = base_url + '/health'
    try:
        response = await fetch_url(url, {'method': 'GET', 'headers': {'Accept': 'application/json'},
                                         'signal': timeout_signal(timeout_ms)})
    except JsError as error:
        raise McpClientError(unreachable_message(url, network_error_code(error), network_error_detail(error),
                                                 timeout_ms), 'network')
    client = McpHttpClient(url)
    text = await client._read_all(response)
    if response.status != 200:
        raise McpClientError(http_error_message(response.status, response.statusText, text), 'http', response.status)
    try:
        body = parse_json(text)
    except ValueError as error:
        raise McpClientError(url + ' did not return JSON (' + error_message(error) + ')', 'protocol')
    if not is_object(body):
        raise McpClientError(url + ' returned ' + text[:100] + ' instead of a status object', 'protocol')
    return body
