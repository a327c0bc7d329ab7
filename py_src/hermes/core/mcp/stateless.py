"""MCP 2026-07-28: every request stands alone, independent of any transport.

There is no session and no handshake: each request carries its protocol version, client
capabilities (and optionally client info and a log level) in `params._meta`, and every result says
what it is (`resultType`) and who answered (`_meta` serverInfo). One `McpStatelessServer` serves
all clients; a transport calls `handle(message, send, cancellation, headers)` per request:
- `send(notification)` carries what belongs to this request (progress, log lines, and the
  notifications of a `subscriptions/listen` stream) before the response;
- `cancellation` (core/cancellation.py) is cancelled by the transport when the client gives up
  (on HTTP: closes the response stream); a cancelled request gets no response;
- `headers` are the request metadata mirrored into HTTP headers (core/mcp/headers.py), None on
  transports that mirror nothing.
Errors come back as JSON-RPC error responses; `http_status_of` says which status HTTP gives them.

Optional parts plug in as for `McpSession`: `add_feature(feature)` (`capabilities()`,
`handler(method)`, `close()`), and `add_event_source(source)` for `subscriptions/listen`: a source
has `on_list_changed(kind, callback)` (kind 'prompts' or 'resources') and
`on_resource_updated(uri, callback)`, each returning an unsubscribe function, or None when it has
no such events. The tool registry is the built-in source of tools/list_changed.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.jsonrpc import JsonRpcNotification, JsonRpcResponse, RequestId
from hermes.core.tools import Tool, ToolRegistry
from hermes.core.method_table import Handler
Emit = Callable[[JsonRpcNotification], None]
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.promises import deferred
from hermes.core.values import json_type, is_object, get_key, object_keys, copyable_keys
from hermes.core.jsonrpc import (
    INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR,
    classify, invalid_reason, request_id_of, result_response, error_response, notification,
)
from hermes.core.tools import ToolCall
from hermes.core.cancellation import Cancellation
from hermes.core.method_table import MethodTable
from hermes.core.mcp.headers import header_mismatch, mirrored_params
from hermes.core.mcp.protocol import (
    ProtocolError, LOG_LEVELS, SUPPORTED_PROTOCOL_VERSIONS,
    progress_reporter, log_message, log_outcome, describe, elapsed, client_name, mcp_author,
)
from hermes.core.ignored_arguments import IgnoredArguments, MAX_NOTES

MODERN_PROTOCOL_VERSIONS = ['2026-07-28']
ALL_PROTOCOL_VERSIONS = MODERN_PROTOCOL_VERSIONS[:]  # modern first: what a dual-era client should pick
ALL_PROTOCOL_VERSIONS.extend(SUPPORTED_PROTOCOL_VERSIONS)

HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022

PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion'
CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo'
CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities'
LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel'
SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo'
SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId'

# Handshake-era methods this revision removed: answered "Method not found" (404 on HTTP).
REMOVED_METHODS = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']

# Freshness hints (ttlMs) for cacheable results. The tool list changes only when settings or
# extensions change it, and listeners hear of that at once; editor-state resources change all the time.
DISCOVER_TTL_MS = 3600000
LIST_TTL_MS = 60000
READ_TTL_MS = 0


def cache_hints(method: 'Json') -> 'Optional[List[Any]]':
    """[ttlMs, cacheScope] for a cacheable method, else None. Lists are the same for every caller
    of this window ('public'); resource contents are the user's workspace ('private')."""
    if method == 'server/discover':
        return [DISCOVER_TTL_MS, 'public']
    if method == 'tools/list' or method == 'prompts/list':
        return [LIST_TTL_MS, 'public']
    if method == 'resources/list' or method == 'resources/templates/list':
        return [LIST_TTL_MS, 'private']
    if method == 'resources/read':
        return [READ_TTL_MS, 'private']
    return None


def http_status_of(response: 'Json') -> int:
    """The HTTP status a 2026-07-28 response travels with: 404 for an unknown method, 400 for a
    request the server refused to read, 200 otherwise (results, and errors of the work itself)."""
    error = get_key(response, 'error')
    if not is_object(error):
        return 200
    code = error['code']
    if code == METHOD_NOT_FOUND:
        return 404
    if code == INVALID_PARAMS or code == INVALID_REQUEST or code == HEADER_MISMATCH \
            or code == MISSING_REQUIRED_CLIENT_CAPABILITY or code == UNSUPPORTED_PROTOCOL_VERSION:
        return 400
    return 200


def modern_version(message: 'Json') -> 'Json':
    """The `_meta` protocol version of a single request, or None (batches, handshake-era messages)."""
    return get_key(get_key(get_key(message, 'params'), '_meta'), PROTOCOL_VERSION_KEY)


class RequestContext:
    """What one request's `_meta` says: who asks, with which capabilities, how much logging; and
    what the transport gave it: where its notifications go, when it is cancelled."""

    def __init__(self, version: str, capabilities: 'JsonObject', client_info: 'Json',
                 log_level: 'Optional[str]') -> None:
        self.version = version
        self.capabilities = capabilities
        self.client_info = client_info
        self.log_level = log_level  # None: the client wants no notifications/message
        self.send = None  # type: Optional[Callable[[JsonRpcNotification], None]]
        # set by `handle` before any method runs
        self.cancellation = None  # type: Any
        self.tool = None  # type: Optional[Tool]  # the registered tool a tools/call names, else None


class McpStatelessServer:
    def __init__(self, server_info: 'JsonObject', registry: 'ToolRegistry', log: 'Any' = None,
                 instructions: 'Optional[str]' = None, ignored: 'Optional[IgnoredArguments]' = None) -> None:
        self.server_info = server_info
        self.registry = registry
        self.instructions = instructions
        self._log = log
        self._ignored = IgnoredArguments(log) if ignored is None else ignored  # extra arguments, logged once
        # client name and version + revision → True: said once, as initialize says it for sessions
        self._greeted = {}  # type: Dict[str, bool]
        self._greeted_count = 0
        self._features = []  # type: List[Any]
        self._sources = []  # type: List[Any]
        self._shutdown = Cancellation()  # ends open subscriptions/listen streams
        # 't:' + tool name → [the Tool, its mirrored_params]: schemas are walked once
        self._mirrored = {}  # type: Dict[str, List[Any]]
        # The server's own methods: async handler(request_id, params, context). Features answer the rest.
        self._methods = MethodTable({'server/discover': self._discover, 'tools/list': self._tools_list,
                                     'tools/call': self._tools_call, 'subscriptions/listen': self._listen})

    def add_feature(self, feature: 'Any') -> None:
        self._features.append(feature)

    def add_event_source(self, source: 'Any') -> None:
        self._sources.append(source)

    def capabilities(self) -> 'JsonObject':
        capabilities = {'tools': {'listChanged': True}, 'logging': {}}  # type: JsonObject
        for feature in self._features:
            offered = feature.capabilities()
            for key in copyable_keys(offered):
                capabilities[key] = offered[key]
        return capabilities

    def close(self) -> None:
        """Server shutdown: open subscriptions end gracefully; features let go of their listeners."""
        self._shutdown.cancel('server stopping')
        for feature in self._features:
            feature.close()

    # ------------------------------------------------------------------------------ entry point

    async def handle(self, message: 'Json', send: 'Optional[Emit]' = None,
                     cancellation: 'Optional[Cancellation]' = None, headers: 'Json' = None,
                     kind: 'Optional[str]' = None) -> 'Optional[JsonRpcResponse]':
        """One parsed JSON-RPC message in; its response out, or None (a notification, a response,
        or a request the client cancelled). `kind`: what jsonrpc.classify says of it, when the
        transport has already asked."""
        kind = classify(message) if kind is None else kind
        if kind == 'invalid':
            reason = invalid_reason(message) or 'not a JSON-RPC 2.0 message'
            return error_response(request_id_of(message), INVALID_REQUEST, 'Invalid Request: ' + reason)
        if kind != 'request':
            # notifications/cancelled needs no handling on HTTP: closing the stream cancels.
            return None
        method, request_id = message['method'], message['id']
        params = get_key(message, 'params')
        started = now_ms()
        cancellation = Cancellation() if cancellation is None else cancellation
        try:
            tool = self._called_tool(method, params)
            context = self._read_meta(method, params, headers, tool)
            self._greet(context)
            context.send = send
            context.cancellation = cancellation
            context.tool = tool
            result = await self._dispatch(method, request_id, params, context)
            if cancellation.cancelled:
                self._info(describe(method, params) + ': cancelled after ' + elapsed(started))
                return None  # the client stopped waiting: nothing may be sent for this request
            response = result_response(request_id, self._complete(method, result))  # type: JsonRpcResponse
        except ProtocolError as error:
            response = error_response(request_id, error.code, error.text, error.data)
        except JsError as error:
            response = error_response(request_id, INTERNAL_ERROR, 'Internal error: ' + error_message(error))
        log_outcome(self._log, describe(method, params), method, response, started)
        return response

    def _read_meta(self, method: str, params: 'Json', headers: 'Json',
                   tool: 'Optional[Tool]' = None) -> 'RequestContext':
        if params is not None and not is_object(params):
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: params must be an object')
        meta = get_key(params, '_meta')
        if not is_object(meta):
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: a ' + MODERN_PROTOCOL_VERSIONS[0] + ' request needs '
                                'params._meta with "' + PROTOCOL_VERSION_KEY + '" and "' +
                                CLIENT_CAPABILITIES_KEY + '"')
        version = get_key(meta, PROTOCOL_VERSION_KEY)
        if json_type(version) != 'string':
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: _meta "' + PROTOCOL_VERSION_KEY +
                                '" must be a string, such as "' + MODERN_PROTOCOL_VERSIONS[0] + '"')
        capabilities = get_key(meta, CLIENT_CAPABILITIES_KEY)
        if not is_object(capabilities):
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: _meta "' + CLIENT_CAPABILITIES_KEY +
                                '" must be an object ({} when the client offers none)')
        log_level = get_key(meta, LOG_LEVEL_KEY)
        if log_level is not None and log_level not in LOG_LEVELS:
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: _meta "' + LOG_LEVEL_KEY + '" must be one of ' +
                                ', '.join(LOG_LEVELS))
        if headers is not None:
            mirrored = None if tool is None else self._mirrored_params(tool)
            mismatch = header_mismatch(headers, method, params, version, None, mirrored)
            if mismatch is not None:
                raise ProtocolError(HEADER_MISMATCH, mismatch)
        if version not in MODERN_PROTOCOL_VERSIONS:
            raise ProtocolError(UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version: ' + version +
                                ' (this server speaks ' + ', '.join(MODERN_PROTOCOL_VERSIONS) +
                                ' per request; ' + ', '.join(SUPPORTED_PROTOCOL_VERSIONS) +
                                ' after an initialize handshake)',
                                {'supported': ALL_PROTOCOL_VERSIONS, 'requested': version})
        return RequestContext(version, capabilities, get_key(meta, CLIENT_INFO_KEY), log_level)

    def _called_tool(self, method: str, params: 'Json') -> 'Optional[Tool]':
        """The registered tool a tools/call names (looked up once per request), else None."""
        if method != 'tools/call':
            return None
        name = get_key(params, 'name')
        return self.registry.get(name) if json_type(name) == 'string' else None

    def _mirrored_params(self, tool: 'Tool') -> 'List[Any]':
        key = 't:' + tool.name
        entry = self._mirrored[key] if key in self._mirrored else None
        if entry is None or entry[0] is not tool:  # a tool removed and added again is walked anew
            entry = [tool, mirrored_params(tool.input_schema)]
            self._mirrored[key] = entry
        return entry[1]

    async def _dispatch(self, method: str, request_id: 'RequestId', params: 'Json',
                        context: 'RequestContext') -> 'Json':
        own = self._methods.get(method)
        if own is not None:
            return await own(request_id, params, context)
        handler = None if method in REMOVED_METHODS else self._feature_handler(method)
        if handler is None:
            raise ProtocolError(METHOD_NOT_FOUND, _not_found_message(method))
        return await handler(request_id, params)

    def _feature_handler(self, method: str) -> 'Optional[Handler]':
        for feature in self._features:
            handler = feature.handler(method)
            if handler is not None:
                return handler
        return None

    def _complete(self, method: str, result: 'Json') -> 'Json':
        """Every result says it is complete and who answered; cacheable ones say for how long."""
        if not is_object(result):
            result = {}
        if get_key(result, 'resultType') is None:
            result['resultType'] = 'complete'
        meta = get_key(result, '_meta')
        meta = {} if not is_object(meta) else meta
        meta[SERVER_INFO_KEY] = self.server_info
        result['_meta'] = meta
        hints = cache_hints(method)
        if hints is not None and result['resultType'] == 'complete':
            if get_key(result, 'ttlMs') is None:
                result['ttlMs'] = hints[0]
            if get_key(result, 'cacheScope') is None:
                result['cacheScope'] = hints[1]
        return result

    # ------------------------------------------------------------------------------ methods

    async def _discover(self, request_id: 'RequestId', params: 'Json', context: 'RequestContext') -> 'JsonObject':
        result = {'supportedVersions': ALL_PROTOCOL_VERSIONS, 'capabilities': self.capabilities()}
        if self.instructions is not None:
            result['instructions'] = self.instructions
        return result

    async def _tools_list(self, request_id: 'RequestId', params: 'Json', context: 'RequestContext') -> 'JsonObject':
        # `cursor` is accepted and ignored: one page holds every tool, so there is no nextCursor.
        return {'tools': [tool.to_mcp() for tool in self.registry.list()]}

    async def _tools_call(self, request_id: 'RequestId', params: 'Json', context: 'RequestContext') -> 'Json':
        name = get_key(params, 'name')
        if json_type(name) != 'string':
            raise ProtocolError(INVALID_PARAMS, 'tools/call: params.name must be a string (the tool name)')
        if context.tool is not None:
            _check_capabilities(context.tool, context.capabilities)
        cancellation = context.cancellation
        emit = _emitter(context.send)
        call = ToolCall(progress_reporter(params, emit), _tool_logger(name, context.log_level, emit))
        call.author = mcp_author(context.client_info)
        stop_listening = cancellation.on_cancel(lambda: call.cancel(cancellation.reason))
        try:
            result = await self.registry.call(name, get_key(params, 'arguments'), call)
        finally:
            stop_listening()
        self._ignored.note(client_name(context.client_info), name, call.ignored)
        return result

    async def _listen(self, request_id: 'RequestId', params: 'Json', context: 'RequestContext') -> 'JsonObject':
        wanted = get_key(params, 'notifications')
        if not is_object(wanted):
            raise ProtocolError(INVALID_PARAMS, 'subscriptions/listen: params.notifications must be an object, '
                                'such as {"toolsListChanged": true}')
        cancellation = context.cancellation
        subscription = Subscription(request_id, _emitter(context.send))
        accepted = subscription.follow(wanted, self.registry, self._sources)
        subscription.deliver('notifications/subscriptions/acknowledged', {'notifications': accepted})
        ended = deferred()
        stop_cancel = cancellation.on_cancel(lambda: ended['resolve'](None))
        stop_shutdown = self._shutdown.on_cancel(lambda: ended['resolve'](None))
        try:
            await ended['promise']
        finally:
            stop_cancel()
            stop_shutdown()
            subscription.close()
        # A graceful end (server shutdown) is answered; a cancelled one is dropped by `handle`.
        return {'_meta': {SUBSCRIPTION_ID_KEY: request_id}}

    def _greet(self, context: 'RequestContext') -> None:
        """One info line the first time a client (name and version) speaks a revision here: without a handshake, the
        log would otherwise never say who connected with which protocol. Bounded like IgnoredArguments."""
        who = client_name(context.client_info)
        key = who + '\n' + context.version
        if key in self._greeted or self._greeted_count >= MAX_NOTES:
            return
        self._greeted[key] = True
        self._greeted_count += 1
        self._info(who + ' speaks ' + context.version + ' (no session: every request says who it is)')

    def _info(self, text: str) -> None:
        if self._log is not None:
            self._log.info('mcp: ' + text)


class Subscription:
    """One `subscriptions/listen` stream: the events it follows, each tagged with its id."""

    def __init__(self, request_id: 'RequestId', emit: 'Emit') -> None:
        self.request_id = request_id
        self._emit = emit
        self._unsubscribes = []  # type: List[Callable[[], None]]

    def follow(self, wanted: 'Json', registry: 'ToolRegistry', sources: 'List[Any]') -> 'JsonObject':
        """Start following what `wanted` asks for and this server offers; returns that subset."""
        accepted = {}  # type: JsonObject
        if get_key(wanted, 'toolsListChanged') is True:
            self._unsubscribes.append(registry.on_change(self._announcer('notifications/tools/list_changed')))
            accepted['toolsListChanged'] = True
        for kind in ['prompts', 'resources']:
            if get_key(wanted, kind + 'ListChanged') is True:
                if self._follow_all(sources, kind, None):
                    accepted[kind + 'ListChanged'] = True
        uris = get_key(wanted, 'resourceSubscriptions')
        if json_type(uris) == 'array':
            followed = [uri for uri in uris if json_type(uri) == 'string' and self._follow_all(sources, None, uri)]
            if len(followed) > 0:
                accepted['resourceSubscriptions'] = followed
        return accepted

    def _follow_all(self, sources: 'List[Any]', kind: 'Optional[str]', uri: 'Optional[str]') -> bool:
        followed = False
        for source in sources:
            if uri is None:  # then `kind` is given
                announce = self._announcer('notifications/' + kind + '/list_changed')  # type: ignore[operator]
                unsubscribe = source.on_list_changed(kind, announce)
            else:
                unsubscribe = source.on_resource_updated(uri, self._announcer('notifications/resources/updated',
                                                                              {'uri': uri}))
            if unsubscribe is not None:
                self._unsubscribes.append(unsubscribe)
                followed = True
        return followed

    def _announcer(self, method: str, params: 'Optional[JsonObject]' = None) -> 'Callable[[], None]':
        return lambda: self.deliver(method, params)

    def deliver(self, method: str, params: 'Optional[JsonObject]' = None) -> None:
        tagged = {}  # type: JsonObject
        if params is not None:
            for key in copyable_keys(params):
                tagged[key] = params[key]
        tagged['_meta'] = {SUBSCRIPTION_ID_KEY: self.request_id}
        self._emit(notification(method, tagged))

    def close(self) -> None:
        for unsubscribe in self._unsubscribes:
            unsubscribe()
        self._unsubscribes = []


def _check_capabilities(tool: 'Tool', offered: 'Json') -> None:
    """MissingRequiredClientCapability when the tool needs capabilities the request did not declare."""
    required = tool.client_capabilities
    if required is None:
        return
    missing = {}  # type: JsonObject
    for key in copyable_keys(required):
        if not is_object(get_key(offered, key)):
            missing[key] = required[key]
    if len(object_keys(missing)) > 0:
        raise ProtocolError(MISSING_REQUIRED_CLIENT_CAPABILITY, 'Missing required client capability: ' +
                            ', '.join(object_keys(missing)) + " (tool '" + tool.name + "' needs it; declare it in _meta \"" +
                            CLIENT_CAPABILITIES_KEY + '")', {'requiredCapabilities': missing})


def _emitter(send: 'Optional[Emit]') -> 'Emit':
    def emit(message: 'JsonRpcNotification') -> None:
        if send is None:
            return
        try:
            send(message)
        except JsError:
            pass  # a dead stream must not fail the call that produced the notification
    return emit


def _tool_logger(tool_name: str, threshold: 'Optional[str]', emit: 'Emit') -> 'Callable[[str, str], None]':
    """Log lines reach the client only when the request set a log level (the revision forbids
    notifications/message otherwise)."""
    def log(level: str, message: str) -> None:
        if threshold is None:
            return
        line = log_message(level, message, tool_name, threshold)
        if line is not None:
            emit(line)
    return log


def _not_found_message(method: 'Json') -> str:
    text = 'Method not found: ' + str(method)
    if method in REMOVED_METHODS:
        text += ' (not part of ' + MODERN_PROTOCOL_VERSIONS[0] + '; it exists only after an initialize handshake)'
    return text
