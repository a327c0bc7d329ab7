"""Arguments a client adds that a tool does not declare (Gemini CLI's `wait_for_previous`) are left out of the call,
never an error, and logged once per client and name; a known argument that is wrong keeps today's exact error."""
import asyncio

from hermes.core.ignored_arguments import IgnoredArguments, MAX_NOTES
from hermes.core.mcp.protocol import McpSession
from hermes.core.mcp.stateless import McpStatelessServer
from hermes.core.tools import Tool, ToolCall, ToolRegistry, declared_arguments
from test_mcp_protocol import SERVER_INFO, Log, request, note
from test_mcp_stateless import request as modern_request

# file_read's own schema shape: a required path, two optional lines, nothing else.
READ_SCHEMA = {'type': 'object', 'additionalProperties': False, 'required': ['path'],
               'properties': {'path': {'type': 'string'}, 'start_line': {'type': 'integer', 'minimum': 1},
                              'end_line': {'type': 'integer', 'minimum': 1},
                              'options': {'type': 'object', 'additionalProperties': False,
                                          'properties': {'depth': {'type': 'integer'}}}}}
GEMINI_CALL = {'path': 'notes.md', 'wait_for_previous': True}
# What the handler gets of it: every argument the tool declares (None where not given), and nothing else.
AS_DECLARED = {'path': 'notes.md', 'start_line': None, 'end_line': None, 'options': None}
GEMINI = {'name': 'gemini-cli-mcp-client', 'version': '0.61.0'}


def registry_seeing(seen):
    async def handler(args, call):
        seen.append(args)
        return 'read ' + args['path']
    registry = ToolRegistry()
    registry.add(Tool('file_read', 'Read a file', READ_SCHEMA, handler))
    return registry


def text_of(result):
    return result['content'][0]['text']


def test_gemini_dependent_call_succeeds_and_the_tool_sees_only_what_it_declares():
    seen = []
    call = ToolCall()
    result = asyncio.run(registry_seeing(seen).call('file_read', dict(GEMINI_CALL), call))
    assert result == {'content': [{'type': 'text', 'text': 'read notes.md'}], 'isError': False}
    assert seen == [AS_DECLARED]
    assert call.ignored == ['wait_for_previous']


def test_a_wrong_type_on_a_known_argument_keeps_the_exact_old_error():
    seen = []
    registry = registry_seeing(seen)
    result = asyncio.run(registry.call('file_read', {'path': 'notes.md', 'start_line': 'one'}))
    assert result == {'isError': True, 'content': [{'type': 'text', 'text':
                      "Invalid arguments for tool 'file_read':\narguments.start_line: expected integer, got string"}]}
    # A call that fails anyway says everything today's did, the unknown names included (often a misspelling).
    result = asyncio.run(registry.call('file_read', {'paht': 'notes.md', 'wait_for_previous': True}))
    assert text_of(result) == (
        "Invalid arguments for tool 'file_read':\narguments: missing required property 'path'\n"
        "arguments: unexpected property 'paht' (allowed: path, start_line, end_line, options)\n"
        "arguments: unexpected property 'wait_for_previous' (allowed: path, start_line, end_line, options)")
    assert seen == []


def test_nested_objects_stay_strict():
    seen = []
    result = asyncio.run(registry_seeing(seen).call('file_read', {'path': 'a', 'options': {'deep': 1}}))
    assert text_of(result) == ("Invalid arguments for tool 'file_read':\n"
                               "arguments.options: unexpected property 'deep' (allowed: depth)")
    assert seen == []


def test_only_schemas_that_forbid_other_names_lose_them():
    open_schema = {'type': 'object', 'properties': {'a': {}}}
    assert declared_arguments({'a': 1, 'b': 2}, open_schema) == [{'a': 1, 'b': 2}, []]
    ruled = {'type': 'object', 'properties': {'a': {}}, 'additionalProperties': {'type': 'integer'}}
    assert declared_arguments({'a': 1, 'b': 2}, ruled) == [{'a': 1, 'b': 2}, []]
    assert declared_arguments({'a': 1, '__proto__': {'a': 2}}, dict(open_schema, additionalProperties=False)) == [
        {'a': 1}, ['__proto__']]


def test_each_client_and_name_is_logged_once_at_debug_level():
    log = Log()
    ignored = IgnoredArguments(log)
    ignored.note('gemini-cli-mcp-client 0.61.0', 'file_read', ['wait_for_previous'])
    ignored.note('gemini-cli-mcp-client 0.61.0', 'file_search', ['wait_for_previous'])
    ignored.note('gemini-cli-mcp-client 0.61.0', 'file_read', [])
    ignored.note('other 1', 'file_read', ['wait_for_previous', 'x'])
    assert log.lines == [
        "debug mcp: gemini-cli-mcp-client 0.61.0 sends 'wait_for_previous', which file_read does not declare: "
        'left out of the call (said once per client and argument)',
        "debug mcp: other 1 sends 'wait_for_previous', which file_read does not declare: "
        'left out of the call (said once per client and argument)',
        "debug mcp: other 1 sends 'x', which file_read does not declare: "
        'left out of the call (said once per client and argument)']


def test_a_2025_06_18_session_serves_gemini_exact_call_and_logs_it_once():
    seen, log = [], Log()
    session = McpSession(SERVER_INFO, registry_seeing(seen), lambda message, related: None, log)
    asyncio.run(session.handle(request(0, 'initialize', {'protocolVersion': '2025-06-18', 'capabilities': {},
                                                         'clientInfo': GEMINI})))
    asyncio.run(session.handle(note('notifications/initialized')))
    for request_id in [1, 2]:
        response = asyncio.run(session.handle(request(request_id, 'tools/call',
                                                      {'name': 'file_read', 'arguments': dict(GEMINI_CALL)})))
        assert response['result'] == {'content': [{'type': 'text', 'text': 'read notes.md'}], 'isError': False}
    assert seen == [AS_DECLARED, AS_DECLARED]
    assert [line for line in log.lines if line.startswith('debug ')] == [
        "debug mcp: gemini-cli-mcp-client 0.61.0 sends 'wait_for_previous', which file_read does not declare: "
        'left out of the call (said once per client and argument)']


def test_a_2026_07_28_request_is_served_alike():
    seen, log = [], Log()
    server = McpStatelessServer(SERVER_INFO, registry_seeing(seen), log)
    message = modern_request(1, 'tools/call', {'name': 'file_read', 'arguments': dict(GEMINI_CALL)})
    response = asyncio.run(server.handle(message))
    assert response['result']['content'] == [{'type': 'text', 'text': 'read notes.md'}]
    assert response['result']['isError'] is False
    assert seen == [AS_DECLARED]
    assert [line for line in log.lines if line.startswith('debug ')] == [
        "debug mcp: pytest 1 sends 'wait_for_previous', which file_read does not declare: "
        'left out of the call (said once per client and argument)']


def test_the_memory_is_bounded_against_a_client_that_invents_names():
    log = Log()
    ignored = IgnoredArguments(log)
    ignored.note('a 1', 'file_read', ['n' + str(number) for number in range(MAX_NOTES + 50)])
    ignored.note('b 1', 'file_read', ['x'])
    assert len(log.lines) == MAX_NOTES


def test_a_2026_client_is_named_once_with_the_revision_it_speaks():
    log = Log()
    server = McpStatelessServer(SERVER_INFO, registry_seeing([]), log)
    for request_id in [1, 2]:
        asyncio.run(server.handle(modern_request(request_id, 'tools/list')))
    other = modern_request(3, 'tools/list', **{'io.modelcontextprotocol/clientInfo': {'name': 'claude-code',
                                                                                      'version': '2.1.328'}})
    asyncio.run(server.handle(other))
    assert [line for line in log.lines if ' speaks ' in line] == [
        'info mcp: pytest 1 speaks 2026-07-28 (no session: every request says who it is)',
        'info mcp: claude-code 2.1.328 speaks 2026-07-28 (no session: every request says who it is)']
