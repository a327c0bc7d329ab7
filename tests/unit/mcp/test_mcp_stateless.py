"""MCP 2026-07-28 in the core: per-request _meta, results, errors, log levels, cancellation, subscriptions."""
import asyncio

import pytest

from hermes.core.cancellation import Cancellation
from hermes.core.mcp.headers import encode_mirrored, decode_mirrored, mirrored_headers
from hermes.core.mcp.stateless import McpStatelessServer, http_status_of, ALL_PROTOCOL_VERSIONS
from hermes.core.tools import Tool
from hermes.net.mcp.http import is_modern_request
from test_mcp_protocol import SERVER_INFO, EMPTY_SCHEMA, Log, make_registry

META = {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': {'name': 'pytest', 'version': '1'}}
SERVER_META = {'io.modelcontextprotocol/serverInfo': SERVER_INFO}


def request(request_id, method, params=None, **meta):
    params = dict(params or {})
    params['_meta'] = dict(META, **meta)
    return {'jsonrpc': '2.0', 'id': request_id, 'method': method, 'params': params}


def headers_for(message, **extra):
    headers = {'mcp-protocol-version': message['params']['_meta']['io.modelcontextprotocol/protocolVersion'],
               'mcp-method': message['method']}
    if 'name' in message['params']:
        headers['mcp-name'] = message['params']['name']
    headers.update(extra)
    return headers


@pytest.fixture
def server():
    return McpStatelessServer(SERVER_INFO, make_registry(), Log(), 'Use the tools.')


def run(server, message, sent=None, cancellation=None, headers=None):
    send = None if sent is None else sent.append
    return asyncio.run(server.handle(message, send, cancellation, headers))


def test_discover_names_every_version_and_identifies_the_server(server):
    response = run(server, request('d', 'server/discover'))
    assert response == {'jsonrpc': '2.0', 'id': 'd', 'result': {
        'supportedVersions': ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
        'capabilities': {'tools': {'listChanged': True}, 'logging': {}}, 'instructions': 'Use the tools.',
        'resultType': 'complete', '_meta': SERVER_META, 'ttlMs': 3600000, 'cacheScope': 'public'}}
    assert http_status_of(response) == 200


def test_tools_list_carries_result_type_server_info_and_cache_hints(server):
    result = run(server, request(1, 'tools/list'))['result']
    assert [tool['name'] for tool in result['tools']] == ['echo', 'chatty', 'wait', 'broken']
    assert (result['resultType'], result['_meta'], result['ttlMs'], result['cacheScope']) == (
        'complete', SERVER_META, 60000, 'public')


def test_tool_results_are_complete_and_not_cacheable(server):
    result = run(server, request(2, 'tools/call', {'name': 'echo', 'arguments': {'text': 'hi'}}))['result']
    assert result == {'content': [{'type': 'text', 'text': 'hi'}], 'isError': False, 'resultType': 'complete',
                      '_meta': SERVER_META}


@pytest.mark.parametrize('params, problem', [
    ({}, 'needs params._meta'),
    ({'_meta': {'io.modelcontextprotocol/clientCapabilities': {}}}, 'protocolVersion" must be a string'),
    ({'_meta': {'io.modelcontextprotocol/protocolVersion': '2026-07-28'}}, 'clientCapabilities" must be an object'),
    ({'_meta': dict(META, **{'io.modelcontextprotocol/logLevel': 'loud'})}, 'logLevel" must be one of debug'),
])
def test_malformed_meta_is_invalid_params_and_runs_nothing(server, params, problem):
    response = run(server, {'jsonrpc': '2.0', 'id': 7, 'method': 'tools/call', 'params': dict(params, name='broken')})
    assert response['id'] == 7 and response['error']['code'] == -32602 and problem in response['error']['message']
    assert http_status_of(response) == 400
    assert not any('broken' in line for line in server._log.lines if 'tool error' in line)


def test_unknown_version_lists_what_the_server_speaks(server):
    response = run(server, request(3, 'tools/list', **{'io.modelcontextprotocol/protocolVersion': '2099-01-01'}))
    assert response['error']['code'] == -32022
    assert response['error']['data'] == {'supported': ALL_PROTOCOL_VERSIONS, 'requested': '2099-01-01'}
    assert http_status_of(response) == 400


@pytest.mark.parametrize('method', ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'no/such'])
def test_removed_and_unknown_methods_are_not_found(server, method):
    response = run(server, request(4, method))
    assert response['error']['code'] == -32601 and http_status_of(response) == 404


def test_headers_must_mirror_the_body(server):
    message = request(5, 'tools/call', {'name': 'echo', 'arguments': {'text': 'x'}})
    assert 'result' in run(server, message, headers=headers_for(message))
    for headers, text in [
        (headers_for(message, **{'mcp-name': 'broken'}), "Mcp-Name header value 'broken' does not match body value 'echo'"),
        (headers_for(message, **{'mcp-method': 'tools/list'}), 'Mcp-Method header value'),
        (headers_for(message, **{'mcp-protocol-version': '2025-11-25'}), 'MCP-Protocol-Version header value'),
        ({'mcp-protocol-version': '2026-07-28'}, 'the Mcp-Method header is required'),
    ]:
        response = run(server, message, headers=headers)
        assert response['error']['code'] == -32020 and text in response['error']['message'], response
        assert http_status_of(response) == 400


def test_mirrored_tool_arguments_are_checked_base64_included(server):
    schema = {'type': 'object', 'properties': {'region': {'type': 'string', 'x-mcp-header': 'Region'},
                                               'n': {'type': 'integer', 'x-mcp-header': 'N'}}}
    server.registry.add(Tool('routed', 'Mirrors arguments', schema, lambda args, call: _done(args['region'])))
    message = request(6, 'tools/call', {'name': 'routed', 'arguments': {'region': 'Grüße', 'n': 42}})
    good = headers_for(message, **{'mcp-param-region': '=?base64?R3LDvMOfZQ==?=', 'mcp-param-n': '42.0'})
    assert run(server, message, headers=good)['result']['content'][0]['text'] == 'Grüße'
    for change, text in [({'mcp-param-region': '=?base64?R3LDvMOfZQ?='}, 'Mcp-Param-Region header value is malformed'),
                         ({'mcp-param-region': 'Grüsse'}, 'Mcp-Param-Region header value is malformed'),
                         ({'mcp-param-n': '41'}, "Mcp-Param-N header value '41' does not match")]:
        response = run(server, message, headers=dict(good, **change))
        assert response['error']['code'] == -32020 and text in response['error']['message'], response
    missing = dict(good)
    del missing['mcp-param-region']
    assert 'Mcp-Param-Region header is required' in run(server, message, headers=missing)['error']['message']


def test_a_tool_added_again_under_the_same_name_is_checked_against_its_new_schema(server):
    # the server keeps each tool's mirrored arguments; a new tool of the same name must not inherit them
    def routed(header):
        schema = {'type': 'object', 'properties': {'where': {'type': 'string', 'x-mcp-header': header}}}
        return Tool('routed', 'Mirrors where', schema, lambda args, call: _done(args['where']))
    remove = server.registry.add(routed('Region'))
    message = request(7, 'tools/call', {'name': 'routed', 'arguments': {'where': 'north'}})
    as_region = headers_for(message, **{'mcp-param-region': 'north'})
    assert run(server, message, headers=as_region)['result']['content'][0]['text'] == 'north'
    remove()
    server.registry.add(routed('Zone'))
    refused = run(server, message, headers=as_region)['error']['message']
    assert refused == 'Header mismatch: the Mcp-Param-Zone header is required (the argument is in the body)'
    as_zone = headers_for(message, **{'mcp-param-zone': 'north'})
    assert run(server, message, headers=as_zone)['result']['content'][0]['text'] == 'north'


async def _done(value):
    return value


def test_a_tool_needing_a_capability_the_request_lacks_is_refused(server):
    tool = Tool('sample', 'Needs sampling', EMPTY_SCHEMA, lambda args, call: _done('sampled'),
                client_capabilities={'sampling': {}})
    server.registry.add(tool)
    response = run(server, request(8, 'tools/call', {'name': 'sample'}))
    assert response['error']['code'] == -32021 and response['error']['data'] == {'requiredCapabilities': {'sampling': {}}}
    assert http_status_of(response) == 400
    allowed = request(9, 'tools/call', {'name': 'sample'}, **{'io.modelcontextprotocol/clientCapabilities': {'sampling': {}}})
    assert run(server, allowed)['result']['content'][0]['text'] == 'sampled'


def test_log_lines_only_for_requests_that_set_a_level(server):
    sent = []
    run(server, request(10, 'tools/call', {'name': 'chatty', '_meta': {}}), sent)
    assert [message['method'] for message in sent] == []  # no progress token, no log level
    sent = []
    run(server, request(11, 'tools/call', {'name': 'chatty'}, progressToken='p',
                        **{'io.modelcontextprotocol/logLevel': 'info'}), sent)
    assert [(m['method'], m['params'].get('level')) for m in sent] == [
        ('notifications/progress', None), ('notifications/progress', None),
        ('notifications/message', 'info'), ('notifications/message', 'error')]


def test_cancelling_a_call_stops_the_tool_and_drops_the_response(server):
    async def scenario():
        cancellation = Cancellation()
        task = asyncio.ensure_future(server.handle(request(12, 'tools/call', {'name': 'wait'}), None, cancellation))
        await asyncio.sleep(0.01)
        cancellation.cancel('the client closed the connection')
        return await task
    assert asyncio.run(scenario()) is None
    assert any('tools/call wait: cancelled after' in line for line in server._log.lines)


def test_subscriptions_follow_only_what_was_asked_and_end_gracefully(server):
    async def scenario():
        sent = []
        tools = asyncio.ensure_future(server.handle(request(20, 'subscriptions/listen', {'notifications': {
            'toolsListChanged': True, 'promptsListChanged': True, 'resourceSubscriptions': ['hermes://x']}}), sent.append))
        cancelled = Cancellation()
        other = asyncio.ensure_future(server.handle(request(21, 'subscriptions/listen', {'notifications': {
            'resourcesListChanged': True}}), sent.append, cancelled))
        await asyncio.sleep(0.01)
        server.registry.add(Tool('new', 'New', EMPTY_SCHEMA, lambda args, call: _done('')))
        cancelled.cancel('closed')
        server.close()
        return sent, await tools, await other
    sent, first, second = asyncio.run(scenario())
    subscription = {'io.modelcontextprotocol/subscriptionId': 20}
    assert sent == [
        {'jsonrpc': '2.0', 'method': 'notifications/subscriptions/acknowledged',
         'params': {'notifications': {'toolsListChanged': True}, '_meta': subscription}},
        {'jsonrpc': '2.0', 'method': 'notifications/subscriptions/acknowledged',
         'params': {'notifications': {}, '_meta': {'io.modelcontextprotocol/subscriptionId': 21}}},
        {'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed', 'params': {'_meta': subscription}},
    ]
    assert first == {'jsonrpc': '2.0', 'id': 20, 'result': {  # the server ended it: a graceful final response
        '_meta': dict(subscription, **SERVER_META), 'resultType': 'complete'}}
    assert second is None  # cancelled by the client: no response


class ResourceEvents:
    """An event source as the resources feature plugs in."""

    def __init__(self):
        self.callbacks = {}

    def on_list_changed(self, kind, callback):
        if kind != 'resources':
            return None
        self.callbacks['list'] = callback
        return lambda: self.callbacks.pop('list')

    def on_resource_updated(self, uri, callback):
        self.callbacks[uri] = callback
        return lambda: self.callbacks.pop(uri)


def test_event_sources_feed_resource_notifications(server):
    events = ResourceEvents()
    server.add_event_source(events)

    async def scenario():
        sent = []
        listening = asyncio.ensure_future(server.handle(request('s', 'subscriptions/listen', {'notifications': {
            'resourcesListChanged': True, 'resourceSubscriptions': ['hermes://editor/active', 42]}}), sent.append))
        await asyncio.sleep(0.01)
        events.callbacks['hermes://editor/active']()
        events.callbacks['list']()
        server.close()
        await listening
        return sent
    sent = asyncio.run(scenario())
    assert [(m['method'], m['params']) for m in sent] == [
        ('notifications/subscriptions/acknowledged', {'notifications': {
            'resourcesListChanged': True, 'resourceSubscriptions': ['hermes://editor/active']},
            '_meta': {'io.modelcontextprotocol/subscriptionId': 's'}}),
        ('notifications/resources/updated', {'uri': 'hermes://editor/active',
                                             '_meta': {'io.modelcontextprotocol/subscriptionId': 's'}}),
        ('notifications/resources/list_changed', {'_meta': {'io.modelcontextprotocol/subscriptionId': 's'}}),
    ]
    assert events.callbacks == {}  # unsubscribed when the stream ended


@pytest.mark.parametrize('version, session, message, modern', [
    ('2026-07-28', 'abc', {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'}, True),  # session id ignored
    ('2025-11-25', None, {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'}, False),
    (None, None, {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {}}, False),
    (None, None, {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'}, False),  # legacy 400: session required
    (None, None, request(1, 'tools/list'), True),  # answered with HeaderMismatch (header missing)
    ('2099-01-01', None, {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'}, True),  # UnsupportedProtocolVersion
    ('2099-01-01', None, {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {}}, False),
    (None, None, [request(1, 'tools/list')], False),
])
def test_the_era_of_a_post(version, session, message, modern):
    assert is_modern_request(version, session, message) is modern


def test_mirrored_header_encoding():
    for value in ['file_read', 'Grüße', ' padded ', 'line1\nline2', '=?base64?literal?=']:
        assert decode_mirrored(encode_mirrored(value)) == value
    assert encode_mirrored('file_read') == 'file_read' and encode_mirrored('Hello, 世界') == '=?base64?SGVsbG8sIOS4lueVjA==?='
    assert mirrored_headers({'jsonrpc': '2.0', 'id': 1, 'method': 'resources/read', 'params': {
        'uri': 'file:///a b', '_meta': META}}) == {
        'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'resources/read', 'Mcp-Name': 'file:///a b'}
    assert mirrored_headers({'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'}) is None
