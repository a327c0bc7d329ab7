"""VS Code language-model messages ↔ OpenAI chat messages (core/chat/messages.py), both ways."""
import vscode
from hermes.core.chat.messages import (to_openai, from_openai, tool_call_parts, openai_tools_from_vscode,
                                       estimate_request_tokens, part_kind, DictFactory, IMAGE_PLACEHOLDER)
from hermes.host.chat.host import VsCodeParts

User, Assistant = vscode.LanguageModelChatMessage.User, vscode.LanguageModelChatMessage.Assistant
Text, Call, Result = vscode.LanguageModelTextPart, vscode.LanguageModelToolCallPart, vscode.LanguageModelToolResultPart


def conversation():
    """A tool round trip as VS Code's agent mode sends it to a provider."""
    return [
        User('What is in app.py?'),
        Assistant([Text('Let me look.'), Call('call_1', 'hermes_file_read', {'path': 'app.py'}),
                   Call('call_2', 'hermes_git_get_status', {})]),
        User([Result('call_1', [Text('print("hi")')]), Result('call_2', [Text('clean'), Text('on main')])]),
        Assistant('It prints hi.'),
        User([Text('Thanks. '), Text('And tests?')], 'alice'),
    ]


OPENAI = [
    {'role': 'user', 'content': 'What is in app.py?'},
    {'role': 'assistant', 'content': 'Let me look.', 'tool_calls': [
        {'id': 'call_1', 'type': 'function', 'function': {'name': 'hermes_file_read', 'arguments': '{"path":"app.py"}'}},
        {'id': 'call_2', 'type': 'function', 'function': {'name': 'hermes_git_get_status', 'arguments': '{}'}}]},
    {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'print("hi")'},
    {'role': 'tool', 'tool_call_id': 'call_2', 'content': 'clean\non main'},
    {'role': 'assistant', 'content': 'It prints hi.'},
    {'role': 'user', 'content': 'Thanks. And tests?', 'name': 'alice'},
]


def test_vscode_messages_become_openai_messages_with_tool_calls_and_results():
    assert to_openai(conversation()) == OPENAI


def test_openai_messages_become_vscode_messages_and_back():
    messages = from_openai(OPENAI, VsCodeParts())
    assert [m.role for m in messages] == [1, 2, 1, 2, 1]
    assistant = messages[1]
    assert isinstance(assistant.content[0], vscode.LanguageModelTextPart)
    assert [(p.callId, p.name, p.input) for p in assistant.content[1:]] == [
        ('call_1', 'hermes_file_read', {'path': 'app.py'}), ('call_2', 'hermes_git_get_status', {})]
    results = messages[2].content
    assert [type(p).__name__ for p in results] == ['LanguageModelToolResultPart'] * 2
    assert results[1].content[0].value == 'clean\non main'
    assert messages[4].name == 'alice'
    assert to_openai(messages) == OPENAI  # the round trip is exact


def test_round_trip_through_plain_dict_parts():
    messages = from_openai(OPENAI, DictFactory())
    assert messages[2] == {'role': 1, 'content': [{'callId': 'call_1', 'content': [{'value': 'print("hi")'}]},
                                                  {'callId': 'call_2', 'content': [{'value': 'clean\non main'}]}]}
    assert to_openai(messages) == OPENAI


def test_tool_results_followed_by_text_in_one_user_message():
    messages = [Assistant([Call('c1', 'x', {'a': 1})]), User([Result('c1', [Text('done')]), Text('now what?')])]
    assert to_openai(messages) == [
        {'role': 'assistant', 'content': '', 'tool_calls': [
            {'id': 'c1', 'type': 'function', 'function': {'name': 'x', 'arguments': '{"a":1}'}}]},
        {'role': 'tool', 'tool_call_id': 'c1', 'content': 'done'},
        {'role': 'user', 'content': 'now what?'},
    ]
    back = from_openai(to_openai(messages), DictFactory())
    assert back[1]['content'][1] == {'value': 'now what?'}  # results and text share the user message again


def test_a_result_without_its_call_becomes_user_text():
    """VS Code may trim the history so that the call is gone; a bare `tool` message would be rejected."""
    assert to_openai([User([Result('gone', [Text('42')])])]) == [
        {'role': 'user', 'content': 'Result of tool call gone:\n42'}]


def test_data_parts_text_json_images_and_markers():
    part = vscode.LanguageModelDataPart
    message = User([Text('a'), part(b'{"k": 1}', 'application/json'), part(b'\x89PNG', 'image/png'),
                    part(b'ephemeral', 'cache_control'), part('plain', 'text/plain')])
    assert to_openai([message]) == [{'role': 'user', 'content': 'a{"k": 1}' + IMAGE_PLACEHOLDER + 'plain'}]
    result = User([Result('c', [part(b'{"ok":true}', 'application/json')])])
    assert to_openai([Assistant([Call('c', 't', {})]), result])[1] == {
        'role': 'tool', 'tool_call_id': 'c', 'content': '{"ok":true}'}


def test_system_role_and_unknown_parts():
    thinking = type('Thinking', (vscode._Undefined,), {})()
    thinking.value, thinking.id = 'hmm', 'th1'
    messages = [vscode.LanguageModelChatMessage(3, 'Be brief.'), vscode.LanguageModelChatMessage(2, [thinking, Text('ok')])]
    assert part_kind(thinking) == 'unknown'
    assert to_openai(messages) == [{'role': 'system', 'content': 'Be brief.'}, {'role': 'assistant', 'content': 'ok'}]
    assert to_openai([User([])]) == []  # nothing to say, nothing sent


def test_openai_system_message_is_user_text_for_vscode():
    back = from_openai([{'role': 'system', 'content': 'Rules.'}, {'role': 'user', 'content': [
        {'type': 'text', 'text': 'hi '}, {'type': 'image_url', 'image_url': {'url': 'data:'}}]}], DictFactory())
    assert back == [{'role': 1, 'content': [{'value': 'Rules.'}]},
                    {'role': 1, 'content': [{'value': 'hi ' + IMAGE_PLACEHOLDER}]}]


def test_model_tool_calls_become_parts_and_bad_arguments_are_reported():
    calls = [
        {'id': 'a', 'type': 'function', 'function': {'name': 'hermes_file_read', 'arguments': '{"path": "x"}'}},
        {'id': 'b', 'type': 'function', 'function': {'name': 'broken', 'arguments': '{"path": '}},
        {'id': 'c', 'type': 'function', 'function': {'name': 'nothing', 'arguments': ''}},
    ]
    converted = tool_call_parts(calls, VsCodeParts())
    assert [(p.callId, p.name, p.input) for p in converted['parts']] == [
        ('a', 'hermes_file_read', {'path': 'x'}), ('b', 'broken', {}), ('c', 'nothing', {})]
    assert len(converted['errors']) == 1 and converted['errors'][0].startswith('The arguments for broken')


def test_vscode_tools_become_openai_tools():
    tools = [type('T', (), {'name': 'hermes_file_read', 'description': 'Read a file.',
                            'inputSchema': {'type': 'object', 'properties': {'path': {'type': 'string'}}}})(),
             type('T', (), {'name': 'no_schema', 'description': None, 'inputSchema': None})()]
    assert openai_tools_from_vscode(tools) == [
        {'type': 'function', 'function': {'name': 'hermes_file_read', 'description': 'Read a file.',
                                          'parameters': {'type': 'object', 'properties': {'path': {'type': 'string'}}}}},
        {'type': 'function', 'function': {'name': 'no_schema', 'description': '',
                                          'parameters': {'type': 'object', 'properties': {}}}}]


def test_token_estimates_for_text_and_messages():
    assert estimate_request_tokens('') == 0
    assert estimate_request_tokens('abcdefgh') == 2
    short, long = estimate_request_tokens(User('hi')), estimate_request_tokens(User('hi ' * 400))
    assert 0 < short < long and long >= 300
    assert estimate_request_tokens(Assistant([Call('c', 'tool', {'path': 'a' * 400})])) > 100
