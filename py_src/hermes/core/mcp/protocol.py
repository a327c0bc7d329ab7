"""The MCP lifecycle and methods for one client session, independent of any transport.

A transport parses JSON, hands the value to `McpSession.handle`, and writes back what it returns
(a response, a list of responses for a batch, or None). Messages the server originates (progress,
log lines, tools/list_changed) go through the `send(message, related_request_id)` callback, so
Streamable HTTP can put them on the stream of the request they belong to.

Batches are accepted only once protocol version 2025-03-26 has been negotiated: that revision
alone allows them, and it forbids putting `initialize` in a batch, so a batch that arrives before
initialize is rejected. Batch entries are handled one after another.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor
from hermes.contracts.jsonrpc import JsonRpcError, JsonRpcNotification, JsonRpcResponse, RequestId
from hermes.core.method_table import Handler
from hermes.core.tools import ToolRegistry
Reporter = Callable[[float, Optional[float], Optional[str]], None]
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.core.values import json_type, is_object, get_key
from hermes.core.jsonrpc import (
    INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR,
    classify, invalid_reason, request_id_of, result_response, error_response, notification,
)
from hermes.core.tools import ToolCall
from hermes.core.method_table import MethodTable
from hermes.core.ignored_arguments import IgnoredArguments

SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']
LATEST_PROTOCOL_VERSION = '2025-11-25'
BATCH_PROTOCOL_VERSION = '2025-03-26'

# RFC 5424 severities, least severe first (MCP's logging levels).
LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
DEFAULT_LOG_LEVEL = 'info'

# Methods that may come before the initialize handshake.
PRE_INITIALIZE_METHODS = ['initialize', 'ping']


class ProtocolError(Exception):
    """A JSON-RPC error to answer a request with (as opposed to a tool failure, which is a result)."""

    def __init__(self, code: int, message: str, data: 'Json' = None) -> None:
        super().__init__(message)
        self.code = code
        self.text = message
        self.data = data


def _params_error(message: str) -> 'ProtocolError':
    return ProtocolError(INVALID_PARAMS, message)


class McpSession:
    """One client's view of the server: negotiated version, log level, in-flight tool calls.

    Kept whole past ~250 lines on purpose: it is one session's state machine (the handshake, the methods that read and
    change that state, the in-flight calls that cancel and close share) on the MCP request path, where a split would
    put calls between a message and its handler (docs/DEVELOPING.md); what needs no state is already the plain
    functions below (progress_reporter, log_message, log_outcome, describe, mcp_author), the optional methods features
    (core/mcp/resources.py)."""

    def __init__(self, server_info: 'JsonObject', registry: 'ToolRegistry',
                 send: 'Optional[Callable[[JsonObject, RequestId], Any]]' = None, log: 'Any' = None,
                 instructions: 'Optional[str]' = None, ignored: 'Optional[IgnoredArguments]' = None) -> None:
        self.server_info = server_info
        self.registry = registry
        self.instructions = instructions
        self._send = send
        self._log = log
        # Shared by the window's sessions (host/mcp/service.py), so each client's extra arguments are logged once.
        self._ignored = IgnoredArguments(log) if ignored is None else ignored
        self.negotiated_version = None  # type: Optional[str]
        self.initialized = False  # the initialize request was answered: other requests may follow
        self.ready = False  # the client confirmed with notifications/initialized
        self.client_info = None  # type: Json
        self.client_capabilities = None  # type: Json
        self.log_level = DEFAULT_LOG_LEVEL
        self.closed = False
        self.on_ready = None  # type: Optional[Callable[[], None]]  # called once the client confirmed initialize
        # 'string:<id>' / 'number:<id>' → ToolCall; ids 1 and '1' differ
        self._in_flight = {}  # type: Dict[str, ToolCall]
        self._unsubscribe = None  # type: Optional[Callable[[], None]]
        self._features = []  # type: List[Any]
        self._methods = MethodTable({'initialize': self._initialize, 'ping': self._ping,
                                     'tools/list': self._tools_list, 'tools/call': self._tools_call,
                                     'logging/setLevel': self._set_level})

    def add_feature(self, feature: 'Any') -> None:
        """Plug in an optional part of MCP (resources, prompts, completions: see core/mcp/resources.py).
        A feature has `capabilities()` (a dict merged into the server capabilities), `handler(method)`
        (an async `handler(request_id, params)` or None when the method is not its own) and `close()`.
        It sends notifications through `session.notify`."""
        self._features.append(feature)

    def notify(self, method: str, params: 'Optional[JsonObject]' = None) -> None:
        """Send the client a notification that belongs to no request (it travels on the session stream)."""
        self._emit(notification(method, params), None)

    # ------------------------------------------------------------------------------ entry point

    def handle(self, message: 'Json', kind: 'Optional[str]' = None) -> 'Awaitable[Any]':
        """One parsed JSON value in; (an awaitable of) a response, a list of responses, or None out.
        `kind`: what jsonrpc.classify says of a single message, when the transport has already asked.
        (Not itself async: it hands back the awaitable of the part that answers, one promise less.)"""
        if kind is None and json_type(message) == 'array':
            return self._handle_batch(message)
        return self._handle_message(message, kind)

    async def _handle_batch(self, batch: 'List[Json]') -> 'Any':
        if self.negotiated_version is None:
            return error_response(None, INVALID_REQUEST, 'Batches are not supported before initialize')
        if self.negotiated_version != BATCH_PROTOCOL_VERSION:
            return error_response(None, INVALID_REQUEST,
                                  'Batches are not supported in protocol version ' + self.negotiated_version)
        if len(batch) == 0:
            return error_response(None, INVALID_REQUEST, 'Invalid Request: empty batch')
        responses = []  # type: List[Any]
        for message in batch:
            # A batch inside a batch is just one more invalid entry.
            response = await self._handle_message(message) if is_object(message) else self._invalid(message)
            if response is not None:
                responses.append(response)
        return responses if len(responses) > 0 else None

    def _handle_message(self, message: 'Json', kind: 'Optional[str]' = None) -> 'Awaitable[Optional[JsonRpcResponse]]':
        """An awaitable of the answer to one message (a request's own coroutine: no layer between)."""
        kind = classify(message) if kind is None else kind
        if kind == 'invalid':
            return _answered(self._invalid(message))
        if kind == 'notification':
            self._handle_notification(message['method'], get_key(message, 'params'))
            return _answered(None)
        if kind == 'response':
            return _answered(None)  # this server sends clients no requests, so there is nothing to match
        if self.closed:
            # A request racing the end of the session (DELETE, window closing) must not run a tool.
            return _answered(error_response(message['id'], INVALID_REQUEST, 'Session closed'))
        return self._handle_request(message)

    def _invalid(self, message: 'Json') -> 'JsonRpcError':
        reason = invalid_reason(message) or 'not a JSON-RPC 2.0 message'
        self._warn('invalid message: ' + reason)
        return error_response(request_id_of(message), INVALID_REQUEST, 'Invalid Request: ' + reason)

    # ------------------------------------------------------------------------------ requests

    async def _handle_request(self, message: 'JsonObject') -> 'Optional[JsonRpcResponse]':
        method, request_id = message['method'], message['id']
        params = get_key(message, 'params')
        started = now_ms()
        try:
            handler = self._handler_for(method)
            result = await handler(request_id, params)
            response = result_response(request_id, result)  # type: JsonRpcResponse
        except _Cancelled:
            self._info(describe(method, params) + ': cancelled after ' + elapsed(started))
            return None
        except ProtocolError as error:
            response = error_response(request_id, error.code, error.text, error.data)
        except JsError as error:
            response = error_response(request_id, INTERNAL_ERROR, 'Internal error: ' + error_message(error))
        self._log_outcome(method, params, response, started)
        return response

    def _handler_for(self, method: str) -> 'Handler':
        """The async handler(request_id, params) of `method`; ProtocolError when there is none yet."""
        handler = self._route(method)
        if handler is None:
            raise ProtocolError(METHOD_NOT_FOUND, _not_found_message(method))
        if not self.initialized and method not in PRE_INITIALIZE_METHODS:
            raise ProtocolError(INVALID_REQUEST, 'Server not initialized: send initialize first')
        return handler

    def _route(self, method: str) -> 'Optional[Handler]':
        handler = self._methods.get(method)
        if handler is not None:
            return handler
        for feature in self._features:
            handler = feature.handler(method)
            if handler is not None:
                return handler
        return None

    async def _initialize(self, request_id: 'RequestId', params: 'Json') -> 'JsonObject':
        if self.initialized:
            raise ProtocolError(INVALID_REQUEST, 'Session already initialized: initialize may be sent only once')
        requested = get_key(params, 'protocolVersion')
        if json_type(requested) != 'string':
            raise _params_error('initialize: params.protocolVersion must be a string, such as "'
                                + LATEST_PROTOCOL_VERSION + '"')
        supported = requested in SUPPORTED_PROTOCOL_VERSIONS
        self.negotiated_version = requested if supported else LATEST_PROTOCOL_VERSION
        self.client_info = get_key(params, 'clientInfo')
        self.client_capabilities = get_key(params, 'capabilities')
        self.initialized = True
        self._unsubscribe = self.registry.on_change(self._tools_changed)
        self._info('initialize: ' + client_name(self.client_info) + ' asked for ' + requested
                   + ', speaking ' + self.negotiated_version)
        result = {  # type: JsonObject
            'protocolVersion': self.negotiated_version,
            'capabilities': self.capabilities(),
            'serverInfo': self.server_info,
        }
        if self.instructions is not None:
            result['instructions'] = self.instructions
        return result

    def capabilities(self) -> 'JsonObject':
        capabilities = {'tools': {'listChanged': True}, 'logging': {}}  # type: JsonObject
        for feature in self._features:
            offered = feature.capabilities()
            for key in offered.keys():
                capabilities[key] = offered[key]
        return capabilities

    async def _ping(self, request_id: 'RequestId', params: 'Json') -> 'JsonObject':
        return {}

    async def _tools_list(self, request_id: 'RequestId', params: 'Json') -> 'JsonObject':
        # `cursor` is accepted and ignored: one page holds every tool, so there is no nextCursor.
        return {'tools': [tool.to_mcp() for tool in self.registry.list()]}

    async def _tools_call(self, request_id: 'RequestId', params: 'Json') -> 'Json':
        name = get_key(params, 'name')
        if json_type(name) != 'string':
            raise _params_error('tools/call: params.name must be a string (the tool name)')
        call = ToolCall(self._progress_reporter(request_id, params), self._tool_logger(name, request_id))
        call.author = mcp_author(self.client_info)
        key = _id_key(request_id)
        self._in_flight[key] = call
        try:
            result = await self.registry.call(name, get_key(params, 'arguments'), call)
        finally:
            if get_key(self._in_flight, key) is call:  # a reused id may have replaced it
                self._in_flight.pop(key)
        self._ignored.note(client_name(self.client_info), name, call.ignored)
        if call.cancelled:
            raise _Cancelled()  # the client stopped waiting: the spec says send no response
        return result

    def _progress_reporter(self, request_id: 'RequestId', params: 'Json') -> 'Optional[Reporter]':
        return progress_reporter(params, lambda message: self._emit(message, request_id))

    def _tool_logger(self, tool_name: str, request_id: 'RequestId') -> 'Callable[[str, str], None]':
        def log(level: str, message: str) -> None:
            self.log_to_client(level, message, tool_name, request_id)
        return log

    async def _set_level(self, request_id: 'RequestId', params: 'Json') -> 'JsonObject':
        level = get_key(params, 'level')
        if level not in LOG_LEVELS:
            raise _params_error('logging/setLevel: params.level must be one of ' + ', '.join(LOG_LEVELS))
        self.log_level = level
        return {}

    # ------------------------------------------------------------------------------ notifications

    def _handle_notification(self, method: str, params: 'Json') -> None:
        if method == 'notifications/initialized':
            self.ready = True
            if self.on_ready is not None:
                self.on_ready()
        elif method == 'notifications/cancelled':
            self._cancel(get_key(params, 'requestId'), get_key(params, 'reason'))
        # Anything else (roots/list_changed, progress for requests we never sent) needs no action.

    def _cancel(self, request_id: 'Json', reason: 'Json') -> None:
        # Unknown or finished ids are normal: the cancel raced the response.
        if json_type(request_id) == 'null' or json_type(request_id) == 'boolean':
            return
        call = get_key(self._in_flight, _id_key(request_id))
        if call is not None:
            because = ': ' + reason if json_type(reason) == 'string' else ''
            self._info('cancelling request ' + str(request_id) + because)
            call.cancel(reason)

    # ------------------------------------------------------------------------------ server → client

    def log_to_client(self, level: str, data: 'Json', logger: str = 'hermes',
                      related_request_id: 'RequestId' = None) -> None:
        """Send a `notifications/message` log line if `level` is at or above the client's level."""
        message = log_message(level, data, logger, self.log_level)
        if message is not None:
            self._emit(message, related_request_id)

    def _tools_changed(self) -> None:
        self._emit(notification('notifications/tools/list_changed'), None)

    def _emit(self, message: 'Any', related_request_id: 'RequestId') -> None:
        if self._send is None or self.closed:
            return
        try:
            self._send(message, related_request_id)
        except JsError as error:
            # A dead stream must not fail the tool call that produced the notification.
            self._warn('could not send ' + message['method'] + ': ' + error_message(error))

    # ------------------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """End the session: cancel in-flight calls (their responses are dropped) and stop
        listening to the registry."""
        if self.closed:
            return
        self.closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for feature in self._features:
            feature.close()
        for key in list(self._in_flight.keys()):
            self._in_flight[key].cancel('session closed')

    # ------------------------------------------------------------------------------ own log

    def _log_outcome(self, method: str, params: 'Json', response: 'Any', started: float) -> None:
        log_outcome(self._log, describe(method, params), method, response, started)


    def _info(self, text: str) -> None:
        if self._log is not None:
            self._log.info('mcp: ' + text)

    def _warn(self, text: str) -> None:
        if self._log is not None:
            self._log.warn('mcp: ' + text)


async def _answered(response: 'Optional[JsonRpcResponse]') -> 'Optional[JsonRpcResponse]':
    return response


class _Cancelled(Exception):
    """Unwinds a cancelled request to `_handle_request`, which then answers nothing."""


def _not_found_message(method: 'Json') -> str:
    text = 'Method not found: ' + str(method)
    if method == 'server/discover':
        # The 2026-07-28 probe inside a handshake session: say where it is answered.
        text += (' (this is an initialize session, protocol versions ' + ', '.join(SUPPORTED_PROTOCOL_VERSIONS)
                 + '; 2026-07-28 requests are sent without Mcp-Session-Id, with MCP-Protocol-Version: 2026-07-28)')
    return text


def _id_key(request_id: 'Json') -> str:
    kind = 'string' if json_type(request_id) == 'string' else 'number'
    return kind + ':' + str(request_id)


# ---------------------------------------------------------------------------- shared by both eras
# (core/mcp/stateless.py serves 2026-07-28 with the same tool calls, progress, logs and own log)


def progress_reporter(params: 'Json', emit: 'Callable[[JsonRpcNotification], None]') -> 'Optional[Reporter]':
    """`report(progress, total, message)` sending notifications/progress through `emit(message)`,
    or None when the request carries no progress token."""
    token = get_key(get_key(params, '_meta'), 'progressToken')
    if json_type(token) not in ['string', 'integer', 'number']:
        return None  # the client did not ask for progress

    def report(progress: float, total: 'Optional[float]' = None, message: 'Optional[str]' = None) -> None:
        update = {'progressToken': token, 'progress': progress}  # type: JsonObject
        if total is not None:
            update['total'] = total
        if message is not None:
            update['message'] = message
        emit(notification('notifications/progress', update))
    return report


def log_message(level: str, data: 'Json', logger: str, threshold: str) -> 'Optional[JsonRpcNotification]':
    """The notifications/message for a log line at `level`, or None when it is below `threshold`."""
    if _severity(level) < _severity(threshold):
        return None
    level = level if level in LOG_LEVELS else DEFAULT_LOG_LEVEL
    return notification('notifications/message', {'level': level, 'logger': logger, 'data': data})


def log_outcome(log: 'Any', what: str, method: str, response: 'Any', started: float) -> None:
    """One line in our own log per answered request (errors and tool errors as warnings)."""
    if log is None:
        return
    if is_object(get_key(response, 'error')):
        error = response['error']
        outcome = 'error ' + str(error['code']) + ' ' + error['message']
        log.warn('mcp: ' + what + ': ' + outcome + ' (' + elapsed(started) + ')')
    elif method == 'tools/call' and get_key(response['result'], 'isError') is True:
        log.warn('mcp: ' + what + ': tool error (' + elapsed(started) + ')')
    else:
        log.info('mcp: ' + what + ': ok (' + elapsed(started) + ')')


def describe(method: 'Json', params: 'Json') -> str:
    name = get_key(params, 'name')
    if method == 'tools/call' and json_type(name) == 'string':
        return 'tools/call ' + name
    return str(method)


def mcp_author(client_info: 'Json') -> 'ChangeAuthor':
    """The change log's author of an MCP client's writes: the name its clientInfo gives (else 'an MCP client'),
    marked external (hermes.changes.trackExternal decides whether they are recorded)."""
    name = get_key(client_info, 'name')
    if json_type(name) != 'string' or name == '':
        name = get_key(client_info, 'title')
    if json_type(name) != 'string' or name == '':
        name = 'an MCP client'
    return {'client': name, 'session': None, 'turn': None, 'external': True}


def client_name(client_info: 'Json') -> str:
    name = get_key(client_info, 'name')
    if json_type(name) != 'string':
        return 'a client'
    version = get_key(client_info, 'version')
    return name + (' ' + version if json_type(version) == 'string' else '')


def _severity(level: 'Json') -> int:
    """The rank of `level` in LOG_LEVELS; unknown levels count as the default."""
    if level in LOG_LEVELS:
        return LOG_LEVELS.index(level)
    return LOG_LEVELS.index(DEFAULT_LOG_LEVEL)


def elapsed(started: float) -> str:
    return str(round(now_ms() - started)) + ' ms'

