"""Key-by-key copies of objects that come from outside (MCP and LLM tool arguments, LM request options, stored
conversations, settings) leave a `__proto__` key out. JSON.parse makes it an own key; in the bundle
`copy['__proto__'] = value` would make `value` the copy's prototype, and the copy would show values no validation
saw. Under CPython the key is just a key, so these tests show the bug only where the parity layer replays them on
the bundle (`inv parity`, objects built by JSON.parse); tests/node has the tool-level cases."""
from hermes.core.chat.conversations import HISTORY_TOOL_CHARS, compact
from hermes.core.llm_wire import chat_request, without_descriptions
from hermes.core.tools import to_call_result, with_default_notes
from hermes.core.values import copy_object, copyable_keys
from hermes.net.llm_client import LlmClient

PROTO = {'path': '/etc/passwd', 'model': 'evil', 'isError': True}


def test_copyable_keys_are_the_own_keys_but_proto():
    value = {'a': 1, '__proto__': PROTO, 'b': None}
    assert copyable_keys(value) == ['a', 'b']
    assert copy_object(value) == {'a': 1, 'b': None}
    assert copy_object({}) == {}


def test_a_stored_tool_result_that_is_compacted_keeps_no_proto():
    message = {'role': 'tool', 'tool_call_id': 'c1', 'content': 'x' * (HISTORY_TOOL_CHARS + 1000), '__proto__': PROTO}
    copy = compact(message)
    assert sorted(copy.keys()) == ['content', 'role', 'tool_call_id']
    assert copy['content'].endswith('[truncated: 1000 more characters]')


def test_request_options_and_schemas_are_copied_without_proto():
    body = chat_request('m', [], None, None, False, {'temperature': 0.5, '__proto__': PROTO})
    assert body == {'model': 'm', 'messages': [], 'stream': True, 'temperature': 0.5}
    schema = {'type': 'object', 'description': 'd', '__proto__': PROTO,
              'properties': {'a': {'type': 'string', 'description': 'x', '__proto__': PROTO}}}
    assert without_descriptions(schema) == {'type': 'object', 'properties': {'a': {'type': 'string'}}}


def test_a_tool_result_and_a_schema_with_defaults_are_copied_without_proto():
    result = to_call_result({'content': [{'type': 'text', 'text': 'ok'}], '__proto__': PROTO})
    assert result == {'content': [{'type': 'text', 'text': 'ok'}], 'isError': False}
    noted = with_default_notes({'type': 'object', '__proto__': PROTO,
                                'properties': {'n': {'type': 'integer', 'default': 3, '__proto__': PROTO}}})
    assert noted == {'type': 'object', 'properties': {'n': {'type': 'integer', 'default': 3,
                                                            'description': 'Default: 3.'}}}


def test_extra_headers_from_settings_skip_proto():
    client = LlmClient('http://127.0.0.1:1/v1', None, {'X-Team': 'a', '__proto__': 'b'})
    assert client.headers() == {'Accept': 'application/json', 'X-Team': 'a'}
