import asyncio

import pytest

from hermes.core.mcp.protocol import McpSession, SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION
from hermes.core.tools import Tool, ToolRegistry

SERVER_INFO = {'name': 'hermes-vscode', 'version': '0.1.0'}
ECHO_SCHEMA = {'type': 'object', 'properties': {'text': {'type': 'string'}}, 'required': ['text']}
EMPTY_SCHEMA = {'type': 'object', 'properties': {}}


class Log:
    """Stands in for the extension's output channel."""

    def __init__(self):
        self.lines = []

    def debug(self, text):
        self.lines.append('debug ' + text)

    def info(self, text):
        self.lines.append('info ' + text)

    def warn(self, text):
        self.lines.append('warn ' + text)

    def error(self, text):
        self.lines.append('error ' + text)


async def echo(args, call):
    return args['text']


async def chatty(args, call):
    call.progress(1, 2, 'halfway')
    call.progress(2, 2)
    call.log('debug', 'details')
    call.log('info', 'started')
    call.log('error', 'trouble')
    return 'done'


async def wait_for_cancel(args, call):
    stopped = asyncio.get_running_loop().create_future()
    call.on_cancel(lambda: stopped.set_result('stopped'))
    return await stopped


async def broken(args, call):
    raise RuntimeError('boom')


def make_registry():
    registry = ToolRegistry()
    registry.add(Tool('echo', 'Echo the text', ECHO_SCHEMA, echo))
    registry.add(Tool('chatty', 'Reports progress and logs', EMPTY_SCHEMA, chatty))
    registry.add(Tool('wait', 'Waits until cancelled', EMPTY_SCHEMA, wait_for_cancel))
    registry.add(Tool('broken', 'Always fails', EMPTY_SCHEMA, broken, title='Broken'))
    return registry


@pytest.fixture
def sent():
    return []


@pytest.fixture
def log():
    return Log()


@pytest.fixture
def session(sent, log):
    return McpSession(SERVER_INFO, make_registry(), lambda message, related: sent.append((message, related)), log)


def request(request_id, method, params=None):
    message = {'jsonrpc': '2.0', 'id': request_id, 'method': method}
    if params is not None:
        message['params'] = params
    return message


def note(method, params=None):
    message = {'jsonrpc': '2.0', 'method': method}
    if params is not None:
        message['params'] = params
    return message


def handle(session, message):
    return asyncio.run(session.handle(message))


def initialize(session, version=LATEST_PROTOCOL_VERSION):
    response = handle(session, request(0, 'initialize', {
        'protocolVersion': version, 'capabilities': {}, 'clientInfo': {'name': 'pytest', 'version': '9'}}))
    assert handle(session, note('notifications/initialized')) is None
    return response


def error_of(response, request_id=1):
    assert response['jsonrpc'] == '2.0' and response['id'] == request_id and 'result' not in response
    return response['error']['code'], response['error']['message']


def call_tool(session, name, arguments=None, request_id=1, meta=None):
    params = {'name': name}
    if arguments is not None:
        params['arguments'] = arguments
    if meta is not None:
        params['_meta'] = meta
    return handle(session, request(request_id, 'tools/call', params))


# ---------------------------------------------------------------------------------------- framing

@pytest.mark.parametrize('message', ['hello', 42, None, True])
def test_a_value_that_is_no_message_is_an_invalid_request(session, message):
    response = handle(session, message)
    assert response['id'] is None and response['error']['code'] == -32600
    assert response['error']['message'].startswith('Invalid Request: expected a JSON object')


def test_an_invalid_message_is_answered_with_its_id_when_usable(session):
    assert error_of(handle(session, {'jsonrpc': '1.0', 'id': 5, 'method': 'ping'}), 5) == (
        -32600, 'Invalid Request: jsonrpc must be "2.0"')


def test_responses_from_the_client_get_no_answer(session):
    assert handle(session, {'jsonrpc': '2.0', 'id': 9, 'result': {}}) is None


def test_unknown_notifications_are_ignored(session):
    assert handle(session, note('notifications/roots/list_changed')) is None


# ---------------------------------------------------------------------------------------- lifecycle

def test_ping_works_before_and_after_initialize(session):
    assert handle(session, request(1, 'ping')) == {'jsonrpc': '2.0', 'id': 1, 'result': {}}
    initialize(session)
    assert handle(session, request('p', 'ping')) == {'jsonrpc': '2.0', 'id': 'p', 'result': {}}


def test_requests_before_initialize_are_refused(session):
    for method in ['tools/list', 'tools/call', 'logging/setLevel']:
        assert error_of(handle(session, request(1, method))) == (
            -32600, 'Server not initialized: send initialize first')


def test_unknown_methods_are_not_found_at_any_time(session):
    assert error_of(handle(session, request(1, 'resources/list'))) == (-32601, 'Method not found: resources/list')
    initialize(session)
    assert error_of(handle(session, request(1, 'prompts/get'))) == (-32601, 'Method not found: prompts/get')
    assert error_of(handle(session, request(1, '__class__'))) == (-32601, 'Method not found: __class__')


def test_server_discover_is_refused_at_once_with_a_hint(session):
    assert error_of(handle(session, request(1, 'server/discover'))) == (
        -32601, 'Method not found: server/discover (this is an initialize session, protocol versions 2025-11-25, '
                '2025-06-18, 2025-03-26, 2024-11-05; 2026-07-28 requests are sent without Mcp-Session-Id, with '
                'MCP-Protocol-Version: 2026-07-28)')


@pytest.mark.parametrize('version', SUPPORTED_PROTOCOL_VERSIONS)
def test_initialize_answers_with_a_supported_client_version(session, version):
    response = initialize(session, version)
    assert response == {'jsonrpc': '2.0', 'id': 0, 'result': {
        'protocolVersion': version,
        'capabilities': {'tools': {'listChanged': True}, 'logging': {}},
        'serverInfo': SERVER_INFO}}
    assert session.negotiated_version == version


def test_initialize_answers_an_unsupported_version_with_the_latest(session):
    assert initialize(session, '1999-01-01')['result']['protocolVersion'] == '2025-11-25'
    assert session.negotiated_version == LATEST_PROTOCOL_VERSION


def test_initialize_records_the_client_and_includes_instructions(sent, log):
    session = McpSession(SERVER_INFO, make_registry(), instructions='Use these tools to drive VS Code.')
    assert not session.initialized and not session.ready
    response = handle(session, request(1, 'initialize', {'protocolVersion': '2025-06-18',
                                                          'clientInfo': {'name': 'claude-code', 'version': '2.1'}}))
    assert response['result']['instructions'] == 'Use these tools to drive VS Code.'
    assert session.initialized and not session.ready
    assert session.client_info == {'name': 'claude-code', 'version': '2.1'}
    handle(session, note('notifications/initialized'))
    assert session.ready


@pytest.mark.parametrize('params', [None, {}, {'protocolVersion': 20250618}, [1]])
def test_initialize_needs_a_string_protocol_version(session, params):
    assert error_of(handle(session, request(1, 'initialize', params))) == (
        -32602, 'initialize: params.protocolVersion must be a string, such as "2025-11-25"')
    assert not session.initialized


def test_a_second_initialize_is_refused(session):
    initialize(session)
    assert error_of(handle(session, request(1, 'initialize', {'protocolVersion': '2025-03-26'}))) == (
        -32600, 'Session already initialized: initialize may be sent only once')
    assert session.negotiated_version == LATEST_PROTOCOL_VERSION


# ---------------------------------------------------------------------------------------- batches

def test_batches_are_refused_before_initialize(session):
    assert handle(session, [request(1, 'ping')]) == {'jsonrpc': '2.0', 'id': None, 'error': {
        'code': -32600, 'message': 'Batches are not supported before initialize'}}


@pytest.mark.parametrize('version', ['2025-11-25', '2025-06-18', '2024-11-05'])
def test_batches_are_refused_outside_2025_03_26(session, version):
    initialize(session, version)
    assert handle(session, [request(1, 'ping')])['error'] == {
        'code': -32600, 'message': 'Batches are not supported in protocol version ' + version}


def test_batches_work_in_2025_03_26(session):
    initialize(session, '2025-03-26')
    responses = handle(session, [
        request(1, 'ping'),
        note('notifications/whatever'),
        request(2, 'tools/call', {'name': 'echo', 'arguments': {'text': 'hi'}}),
        {'jsonrpc': '2.0', 'id': 3},
        [request(4, 'ping')],
        request(5, 'nope'),
    ])
    assert responses == [
        {'jsonrpc': '2.0', 'id': 1, 'result': {}},
        {'jsonrpc': '2.0', 'id': 2, 'result': {'content': [{'type': 'text', 'text': 'hi'}], 'isError': False}},
        {'jsonrpc': '2.0', 'id': 3, 'error': {
            'code': -32600, 'message': 'Invalid Request: a response needs exactly one of result and error'}},
        {'jsonrpc': '2.0', 'id': None, 'error': {
            'code': -32600, 'message': 'Invalid Request: expected a JSON object, got array'}},
        {'jsonrpc': '2.0', 'id': 5, 'error': {'code': -32601, 'message': 'Method not found: nope'}},
    ]


def test_empty_batches_and_notification_only_batches(session):
    initialize(session, '2025-03-26')
    assert handle(session, [])['error'] == {'code': -32600, 'message': 'Invalid Request: empty batch'}
    assert handle(session, [note('notifications/a'), {'jsonrpc': '2.0', 'id': 1, 'result': {}}]) is None


# ---------------------------------------------------------------------------------------- tools

def test_tools_list_describes_every_tool_in_order(session):
    initialize(session)
    result = handle(session, request(1, 'tools/list', {'cursor': 'ignored'}))['result']
    assert [tool['name'] for tool in result['tools']] == ['echo', 'chatty', 'wait', 'broken']
    assert 'nextCursor' not in result
    assert result['tools'][0] == {'name': 'echo', 'description': 'Echo the text', 'inputSchema': ECHO_SCHEMA,
                                  'annotations': {'readOnlyHint': True, 'destructiveHint': False}}
    assert result['tools'][3]['title'] == 'Broken'


def test_tools_call_returns_the_registry_result(session, log):
    initialize(session)
    assert call_tool(session, 'echo', {'text': 'hello'}) == {
        'jsonrpc': '2.0', 'id': 1, 'result': {'content': [{'type': 'text', 'text': 'hello'}], 'isError': False}}
    assert log.lines[-1].startswith('info mcp: tools/call echo: ok (') and log.lines[-1].endswith(' ms)')


@pytest.mark.parametrize('params', [None, {}, {'name': 3}, {'arguments': {}}])
def test_tools_call_needs_a_tool_name(session, params):
    initialize(session)
    assert error_of(handle(session, request(1, 'tools/call', params))) == (
        -32602, 'tools/call: params.name must be a string (the tool name)')


def test_tool_failures_are_results_not_protocol_errors(session, log):
    initialize(session)
    unknown = call_tool(session, 'nope')['result']
    assert unknown['isError'] is True
    assert unknown['content'][0]['text'] == "Unknown tool 'nope'. Available tools: echo, chatty, wait, broken"
    invalid = call_tool(session, 'echo')['result']
    assert invalid['content'][0]['text'] == (
        "Invalid arguments for tool 'echo':\narguments: missing required property 'text'")
    failed = call_tool(session, 'broken', {})['result']
    assert failed == {'content': [{'type': 'text', 'text': "Tool 'broken' failed: boom"}], 'isError': True}
    assert log.lines[-1].startswith('warn mcp: tools/call broken: tool error (')


def test_progress_is_sent_only_when_the_client_asked_for_it(session, sent):
    initialize(session)
    sent.clear()
    call_tool(session, 'chatty', {}, request_id=7)
    assert [message['method'] for message, _ in sent] == ['notifications/message', 'notifications/message']
    sent.clear()
    assert call_tool(session, 'chatty', {}, request_id=8, meta={'progressToken': 'tok'})['result']['isError'] is False
    progress = [(message['params'], related) for message, related in sent
                if message['method'] == 'notifications/progress']
    assert progress == [({'progressToken': 'tok', 'progress': 1, 'total': 2, 'message': 'halfway'}, 8),
                        ({'progressToken': 'tok', 'progress': 2, 'total': 2}, 8)]


def test_a_falsy_progress_token_still_asks_for_progress(session, sent):
    initialize(session)
    sent.clear()
    call_tool(session, 'chatty', {}, meta={'progressToken': 0})
    assert [message['params']['progress'] for message, _ in sent if message['method'] == 'notifications/progress'] == [1, 2]


def test_cancelled_calls_get_no_response(session, sent, log):
    initialize(session)

    async def scenario():
        running = asyncio.ensure_future(session.handle(request(42, 'tools/call', {'name': 'wait'})))
        await asyncio.sleep(0)
        assert await session.handle(note('notifications/cancelled', {'requestId': '42'})) is None
        await asyncio.sleep(0)
        assert not running.done(), "the string id '42' is not the number 42"
        await session.handle(note('notifications/cancelled', {'requestId': 42, 'reason': 'user stop'}))
        return await running
    assert asyncio.run(scenario()) is None
    assert 'info mcp: cancelling request 42: user stop' in log.lines
    assert log.lines[-1].startswith('info mcp: tools/call wait: cancelled after ')
    # The id is free again, and cancelling a finished request is harmless.
    assert handle(session, note('notifications/cancelled', {'requestId': 42})) is None
    assert call_tool(session, 'echo', {'text': 'again'}, request_id=42)['result']['isError'] is False


def test_close_cancels_in_flight_calls_and_refuses_new_requests(session):
    initialize(session)

    async def scenario():
        running = asyncio.ensure_future(session.handle(request(1, 'tools/call', {'name': 'wait'})))
        await asyncio.sleep(0)
        session.close()
        return await running
    assert asyncio.run(scenario()) is None
    assert session.closed
    assert error_of(handle(session, request(1, 'ping'))) == (-32600, 'Session closed')


def test_unexpected_exceptions_are_internal_errors(sent, log):
    class BrokenTool(Tool):
        def to_mcp(self):
            raise RuntimeError('cannot describe myself')
    registry = ToolRegistry()
    registry.add(BrokenTool('odd', 'Odd', EMPTY_SCHEMA, echo))
    session = McpSession(SERVER_INFO, registry, None, log)
    initialize(session)
    assert error_of(handle(session, request(1, 'tools/list'))) == (-32603, 'Internal error: cannot describe myself')
    assert log.lines[-1].startswith('warn mcp: tools/list: error -32603 Internal error: cannot describe myself (')


# ---------------------------------------------------------------------------------------- logging

def log_lines(sent):
    return [(message['params']['level'], message['params']['data'], message['params']['logger'], related)
            for message, related in sent if message['method'] == 'notifications/message']


def test_logging_defaults_to_info_and_follows_set_level(session, sent):
    initialize(session)
    session.log_to_client('debug', 'hidden')
    session.log_to_client('info', {'structured': True})
    assert handle(session, request(1, 'logging/setLevel', {'level': 'error'})) == {
        'jsonrpc': '2.0', 'id': 1, 'result': {}}
    session.log_to_client('warning', 'hidden too')
    session.log_to_client('critical', 'shown', 'hermes.mcp')
    session.log_to_client('emergency', 'shown too')
    assert log_lines(sent) == [('info', {'structured': True}, 'hermes', None), ('critical', 'shown', 'hermes.mcp', None),
                               ('emergency', 'shown too', 'hermes', None)]


def test_debug_level_lets_everything_through(session, sent):
    initialize(session)
    handle(session, request(1, 'logging/setLevel', {'level': 'debug'}))
    session.log_to_client('debug', 'visible')
    assert log_lines(sent) == [('debug', 'visible', 'hermes', None)]


@pytest.mark.parametrize('params', [None, {}, {'level': 'verbose'}, {'level': 'INFO'}, {'level': ['info']}])
def test_set_level_needs_a_known_level(session, params):
    initialize(session)
    assert error_of(handle(session, request(1, 'logging/setLevel', params))) == (
        -32602, 'logging/setLevel: params.level must be one of '
                'debug, info, notice, warning, error, critical, alert, emergency')
    assert session.log_level == 'info'


def test_tool_logs_reach_the_client_tagged_with_tool_and_request(session, sent):
    initialize(session)
    call_tool(session, 'chatty', {}, request_id='r1')
    assert log_lines(sent) == [('info', 'started', 'chatty', 'r1'), ('error', 'trouble', 'chatty', 'r1')]


def test_a_failing_send_does_not_fail_the_tool(log):
    def send(message, related):
        raise RuntimeError('stream closed')
    session = McpSession(SERVER_INFO, make_registry(), send, log)
    initialize(session)
    assert call_tool(session, 'chatty', {}, meta={'progressToken': 1})['result']['isError'] is False
    assert 'warn mcp: could not send notifications/progress: stream closed' in log.lines


def test_without_send_or_log_nothing_breaks():
    session = McpSession(SERVER_INFO, make_registry())
    initialize(session)
    assert call_tool(session, 'chatty', {}, meta={'progressToken': 1})['result']['isError'] is False
    session.log_to_client('error', 'nowhere to go')
    assert error_of(handle(session, request(1, 'nope')))[0] == -32601


# ---------------------------------------------------------------------------------------- list_changed

def test_tool_list_changes_are_announced_after_initialize_until_close(sent):
    registry = make_registry()
    session = McpSession(SERVER_INFO, registry, lambda message, related: sent.append((message, related)))
    registry.remove('broken')
    assert sent == [], 'nothing is announced to a client that has not initialized'
    initialize(session)
    remove = registry.add(Tool('new', 'New', EMPTY_SCHEMA, echo))
    remove()
    changed = ({'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'}, None)
    assert sent == [changed, changed]
    session.close()
    registry.add(Tool('later', 'Later', EMPTY_SCHEMA, echo))
    assert sent == [changed, changed]


# ---------------------------------------------------------------------------------------- features

class EchoFeature:
    """A pluggable part of MCP as core/mcp/resources.py is one: its capability, methods and close."""

    def __init__(self, session):
        self.session = session
        self.closed = False

    def capabilities(self):
        return {'echoes': {'loud': True}}

    def handler(self, method):
        return self._echo if method == 'echo/say' else None

    async def _echo(self, request_id, params):
        self.session.notify('notifications/echo', {'heard': params['text']})
        return {'said': params['text']}

    def close(self):
        self.closed = True


def test_a_feature_adds_its_capability_its_method_and_closes_with_the_session(session, sent):
    feature = EchoFeature(session)
    session.add_feature(feature)
    assert handle(session, request(1, 'echo/say', {'text': 'x'}))['error']['code'] == -32600  # not initialized
    capabilities = initialize(session)['result']['capabilities']
    assert capabilities == {'tools': {'listChanged': True}, 'logging': {}, 'echoes': {'loud': True}}
    assert handle(session, request(2, 'echo/say', {'text': 'hi'}))['result'] == {'said': 'hi'}
    assert sent[-1] == ({'jsonrpc': '2.0', 'method': 'notifications/echo', 'params': {'heard': 'hi'}}, None)
    assert error_of(handle(session, request(3, 'echo/shout', {})), 3)[0] == -32601
    session.close()
    assert feature.closed
