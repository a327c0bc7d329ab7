"""The pure parts of the embedded agent under CPython: the OpenAI wire format, the ```tool protocol,
the context budget, the system prompt, the LLM client's error texts, and the loop with a fake client."""
import asyncio
import json

import pytest

from hermes.core.agent_loop import AgentLoop, Sinks
from hermes.core.loop_requests import render_history
from hermes.core.tools import result_text
from hermes.core.cancellation import Cancellation, CANCELLED
from hermes.core.context_budget import estimate_text_tokens, fit_messages, estimate_message_tokens, FOR_CONTEXT
from hermes.core.output_text import cap_chars
from hermes.core.llm_wire import (LlmError, StreamAccumulator, chat_request, openai_tools, parse_arguments,
                                  error_text_of_body, add_usage)
from hermes.core.system_prompt import build_system_prompt
from hermes.core.tool_text import parse_tool_blocks, ToolBlockFilter, protocol_prompt, results_message
from hermes.core.tools import Tool, ToolRegistry
from hermes.core.llm_wire import normalize_endpoint
from hermes.net.llm_client import (retry_delay_ms, unreachable_message, model_not_found_message, auth_message,
                                   server_root, is_ollama_like, ollama_model_info)
from hermes.net.llm_stream import seconds_text


def run(coroutine):
    return asyncio.run(coroutine)


def chunk(delta=None, finish=None, **extra):
    value = {'object': 'chat.completion.chunk', 'choices': [{'index': 0, 'delta': delta or {}, 'finish_reason': finish}]}
    value.update(extra)
    return json.dumps(value)


# ------------------------------------------------------------------------------------------ wire format

def test_request_body_has_stream_usage_tools_and_tool_choice():
    tool = Tool('echo', 'Echo.', {'type': 'object', 'properties': {'text': {'type': 'string'}}}, None)
    body = chat_request('m', [{'role': 'user', 'content': 'hi'}], openai_tools([tool]))
    assert body == {'model': 'm', 'messages': [{'role': 'user', 'content': 'hi'}], 'stream': True,
                    'stream_options': {'include_usage': True},
                    'tools': [{'type': 'function', 'function': {'name': 'echo', 'description': 'Echo.',
                                                                'parameters': tool.input_schema}}],
                    'tool_choice': 'auto'}
    assert 'tools' not in chat_request('m', [], [])
    assert 'stream_options' not in chat_request('m', [], None, None, False)


def test_accumulator_text_usage_finish_and_done():
    acc = StreamAccumulator()
    assert acc.feed_data(chunk({'role': 'assistant', 'content': ''})) == ''
    assert acc.feed_data(chunk({'content': 'Hel'})) == 'Hel'
    assert acc.feed_data(chunk({'content': 'lo'}, 'stop')) == 'lo'
    acc.feed_data(json.dumps({'choices': [], 'usage': {'prompt_tokens': 3, 'completion_tokens': 2, 'total_tokens': 5}}))
    acc.feed_data('[DONE]')
    assert acc.done and acc.turn()['content'] == 'Hello' and acc.turn()['finish_reason'] == 'stop'
    assert acc.turn()['usage']['total_tokens'] == 5 and acc.turn()['tool_calls'] == []


def test_accumulator_tool_calls_by_index_in_pieces_interleaved():
    acc = StreamAccumulator()
    acc.feed_data(chunk({'tool_calls': [{'index': 0, 'id': 'a', 'type': 'function', 'function': {'name': 'x', 'arguments': ''}}]}))
    acc.feed_data(chunk({'tool_calls': [{'index': 1, 'id': 'b', 'type': 'function', 'function': {'name': 'y', 'arguments': '{"q'}}]}))
    acc.feed_data(chunk({'tool_calls': [{'index': 0, 'function': {'arguments': '{"a":'}}]}))
    acc.feed_data(chunk({'tool_calls': [{'index': 1, 'function': {'arguments': '": 1}'}}]}))
    acc.feed_data(chunk({'tool_calls': [{'index': 0, 'function': {'arguments': ' 2}'}}]}, 'tool_calls'))
    calls = acc.tool_calls()
    assert calls == [{'id': 'a', 'type': 'function', 'function': {'name': 'x', 'arguments': '{"a": 2}'}},
                     {'id': 'b', 'type': 'function', 'function': {'name': 'y', 'arguments': '{"q": 1}'}}]
    assert acc.finish_reason == 'tool_calls'


def test_accumulator_tolerates_missing_index_repeated_names_object_arguments_and_no_id():
    acc = StreamAccumulator()
    acc.feed_data(chunk({'tool_calls': [{'id': 'a', 'function': {'name': 'x', 'arguments': '{"k"'}}]}))
    acc.feed_data(chunk({'tool_calls': [{'function': {'name': 'x', 'arguments': ': 1}'}}]}))  # name repeated
    acc.feed_data(chunk({'tool_calls': [{'id': 'b', 'function': {'name': 'y', 'arguments': {'z': True}}}]}))
    acc.feed_data(chunk({'tool_calls': [{'index': 2, 'function': {'name': 'w'}}]}))
    calls = acc.tool_calls()
    assert [(c['id'], c['function']['name'], c['function']['arguments']) for c in calls] == [
        ('a', 'x', '{"k": 1}'), ('b', 'y', '{"z":true}'), ('hermes_call_2', 'w', '')]


def test_accumulator_error_events_and_non_json():
    acc = StreamAccumulator()
    acc.feed_data(json.dumps({'error': {'message': 'boom', 'type': 'server_error'}}))
    assert acc.error == 'boom'
    acc = StreamAccumulator()
    acc.feed_data('overloaded', 'error')
    assert acc.error == 'overloaded'
    with pytest.raises(LlmError) as caught:
        StreamAccumulator().feed_data('{not json')
    assert caught.value.kind == 'protocol'


def test_parse_arguments():
    assert parse_arguments('') == {'value': {}}
    assert parse_arguments('{"a": 1}') == {'value': {'a': 1}}
    assert parse_arguments('"{\\"a\\": 1}"') == {'value': {'a': 1}}  # double-encoded
    assert 'invalid JSON' in parse_arguments('{"a": ')['error']
    assert 'must be a JSON object' in parse_arguments('[1]')['error']


def test_error_text_of_body_and_usage_sum():
    assert error_text_of_body('{"error": {"message": "bad key"}}') == 'bad key'
    assert error_text_of_body('{"error": "model not found"}') == 'model not found'
    assert error_text_of_body('{"detail": "Not Found"}') == 'Not Found'
    assert error_text_of_body('plain words') == 'plain words'
    assert error_text_of_body('  ') is None
    total = add_usage(None, {'prompt_tokens': 1, 'completion_tokens': 2, 'total_tokens': 3})
    assert add_usage(total, {'prompt_tokens': 1, 'completion_tokens': 1, 'total_tokens': 2})['total_tokens'] == 5


# ------------------------------------------------------------------------------------------ ```tool protocol

def test_parse_tool_blocks_variants():
    text = ('First.\n```tool\n{"name": "a", "arguments": {"x": 1}}\n```\nThen:\n```tool_call\n'
            '[{"name": "b", "parameters": {"y": 2}}, {"function": {"name": "c", "arguments": "{\\"z\\": 3}"}}]\n```\n'
            '```python\nprint(1)\n```\n```json\n{"name": "d", "arguments": {},}\n```')
    parsed = parse_tool_blocks(text)
    assert parsed['calls'] == [{'name': 'a', 'arguments': {'x': 1}}, {'name': 'b', 'arguments': {'y': 2}},
                               {'name': 'c', 'arguments': {'z': 3}}, {'name': 'd', 'arguments': {}}]
    assert parsed['errors'] == []
    assert 'print(1)' in parsed['text'] and 'First.' in parsed['text'] and '"name"' not in parsed['text']


def test_parse_tool_blocks_unterminated_json_lines_and_errors():
    assert parse_tool_blocks('```tool\n{"name": "a", "arguments": {}}')['calls'] == [{'name': 'a', 'arguments': {}}]
    lines = parse_tool_blocks('```tool\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n```')
    assert [c['name'] for c in lines['calls']] == ['a', 'b']
    broken = parse_tool_blocks('```tool\n{"name": "a", "arguments": {"x": 1}\n```')
    assert broken['calls'] == [] and 'not valid JSON' in broken['errors'][0]
    assert 'needs a "name"' in parse_tool_blocks('```tool\n{"arguments": {}}\n```')['errors'][0]
    assert 'must be a JSON object' in parse_tool_blocks('```tool\n{"name": "a", "arguments": 3}\n```')['errors'][0]
    assert parse_tool_blocks('```tool\n\n```')['errors'][0].startswith('An empty')
    assert parse_tool_blocks('no tools ``` here')['calls'] == []  # a fence must open a line


def test_tool_block_filter_hides_blocks_across_any_split():
    reply = 'Sure.\n```tool\n{"name": "a", "arguments": {}}\n```\nCode:\n```py\nx = 1\n```\nDone `x`.'
    expected = 'Sure.\nCode:\n```py\nx = 1\n```\nDone `x`.'
    for size in [1, 2, 3, 5, 8, 1000]:
        text_filter = ToolBlockFilter()
        shown = ''.join(text_filter.feed(reply[i:i + size]) for i in range(0, len(reply), size)) + text_filter.finish()
        assert shown == expected, size
    text_filter = ToolBlockFilter()
    assert text_filter.feed('Hello wor') == 'Hello wor'  # plain text is not held back


def test_protocol_prompt_and_results_message():
    tool = Tool('echo', 'Echo the text.', {'type': 'object', 'properties': {'text': {'type': 'string'}}}, None)
    prompt = protocol_prompt([tool])
    assert '```tool' in prompt and '### echo' in prompt and '"text"' in prompt
    message = results_message([{'name': 'echo', 'id': 'c1', 'text': 'hi', 'is_error': False}])
    assert message['role'] == 'user' and message['content'].startswith('Tool results:')
    assert 'name=echo id=c1 status=ok\nhi\n```' in message['content']


# ------------------------------------------------------------------------------------------ budget

def test_token_estimates():
    assert estimate_text_tokens('') == 0
    assert estimate_text_tokens('abcd' * 100) == 100
    assert estimate_text_tokens('日本語') == 3
    assert estimate_message_tokens({'role': 'user', 'content': 'abcd'}) == 5


def _turn(n, result_size=10):
    return [{'role': 'user', 'content': f'question {n}'},
            {'role': 'assistant', 'content': '', 'tool_calls': [{'id': f'c{n}', 'type': 'function',
                                                                 'function': {'name': 't', 'arguments': '{}'}}]},
            {'role': 'tool', 'tool_call_id': f'c{n}', 'content': 'r' * result_size},
            {'role': 'assistant', 'content': f'answer {n}'}]


def test_fit_keeps_everything_that_fits():
    history = _turn(1) + _turn(2)
    fitted = fit_messages({'role': 'system', 'content': 's'}, history, 10000)
    assert fitted['messages'][1:] == history and fitted['dropped'] == 0 and fitted['trimmed'] == 0


def test_fit_trims_old_tool_results_first_then_drops_oldest_turns_never_the_latest():
    system = {'role': 'system', 'content': 'S' * 400}
    history = _turn(1, 8000) + _turn(2, 8000) + _turn(3, 8000)
    fitted = fit_messages(system, history, 2700, keep_from=8)
    assert fitted['trimmed'] == 2 and fitted['dropped'] == 0
    assert fitted['messages'][0] is system and fitted['messages'][9:] == history[8:]
    assert "[truncated to fit the model's context: " in fitted['messages'][3]['content']
    assert history[2]['content'] == 'r' * 8000  # the history itself is untouched
    fitted = fit_messages(system, history, 2450, keep_from=8)
    assert fitted['dropped'] == 4 and fitted['messages'][1]['content'] == 'question 2'
    fitted = fit_messages(system, history, 10, keep_from=8)  # nothing fits: the latest turn still goes whole
    assert fitted['messages'][1:] == history[8:]
    assert cap_chars('x' * 50, 10, FOR_CONTEXT) == 'x' * 10 + "\n[truncated to fit the model's context: 40 more characters]"
    assert cap_chars('x' * 50, 10) == 'x' * 10 + '\n[truncated: 40 more characters]' and cap_chars('x' * 10, 10) == 'x' * 10
    assert cap_chars('x' * 50, 10, '', 'ask for less') == 'x' * 10 + '\n[truncated: 40 more characters; ask for less]'


# ------------------------------------------------------------------------------------------ system prompt

def test_system_prompt_workspace_and_text_tools():
    workspace = {'folders': ['/w'], 'gitBranch': 'main', 'openTabs': ['a.py', 'b.md'],
                 'activeFile': {'path': 'a.py', 'language': 'python', 'line': 3,
                                'selection': {'startLine': 2, 'endLine': 3, 'text': 'x = 1'}},
                 'errors': [{'path': 'a.py', 'line': 2, 'message': 'bad'}, 'plain error']}
    prompt = build_system_prompt(workspace)
    for part in ['Workspace folders: /w', 'Git branch: main', 'Active file: a.py (python), cursor on line 3',
                 'Selected text (lines 2–3):\n```\nx = 1\n```', 'Open tabs: a.py, b.md', '- a.py:2: bad',
                 '- plain error']:
        assert part in prompt
    assert '```tool' not in prompt
    tool = Tool('echo', 'Echo.', {'type': 'object'}, None)
    assert '```tool' in build_system_prompt(None, [tool], True)
    assert 'Workspace' not in build_system_prompt({})


# ------------------------------------------------------------------------------------------ client helpers

def test_client_pure_helpers():
    assert normalize_endpoint('http://h:1/v1/') == 'http://h:1/v1'
    assert normalize_endpoint('http://h:1/v1/chat/completions') == 'http://h:1/v1'
    assert server_root('http://127.0.0.1:11434/v1') == 'http://127.0.0.1:11434'
    assert is_ollama_like('http://127.0.0.1:11434/v1') and not is_ollama_like('http://127.0.0.1:1234/v1')
    assert unreachable_message('http://127.0.0.1:11434/v1') == \
        "Can't reach the LLM at http://127.0.0.1:11434/v1 — is Ollama running (`ollama serve`)?"
    assert '(connection refused)' in unreachable_message('http://127.0.0.1:1234/v1', 'ECONNREFUSED')
    assert '"Hermes: Set API Key"' in auth_message('e', 401, 'no', False)
    assert 'ollama pull m' in model_not_found_message('e', 'm', ['a'], True)
    assert retry_delay_ms('2', None, 0, 500) == 2000
    assert retry_delay_ms(None, '150', 0, 500) == 150
    assert retry_delay_ms(None, None, 2, 500) == 2000
    assert retry_delay_ms(None, None, 10, 500) == 8000
    assert retry_delay_ms('Wed, 21 Oct 2015 07:28:05 GMT', None, 0, 500, 1445412480000) == 5000
    assert [seconds_text(ms) for ms in [800, 2000, 60000, 1500]] == ['0.8', '2', '60', '1.5']


class _BodyAfterDone:
    """A streamed 200 whose body goes on after [DONE] with `after` (pieces; a piece None ends the body, and
    without one the body stays open until the fetch is aborted). Records what the client read and cancelled."""
    def __init__(self, after):
        self.status, self.statusText, self.headers = 200, 'OK', {'content-type': 'text/event-stream'}
        self.pieces = ['data: ' + chunk({'content': 'Hi'}, 'stop') + '\n\ndata: [DONE]\n\n'] + after
        self.reads, self.cancelled, self.aborted = 0, False, asyncio.Event()
        self.on_wait = None  # called when the client waits on the open body

    async def fetch(self, url, options):
        options['signal'].addEventListener('abort', self.aborted.set)
        return self

    async def read_chunk(self):
        self.reads += 1
        if self.pieces:
            return self.pieces.pop(0)
        if self.on_wait is not None:
            self.on_wait()
        await self.aborted.wait()
        raise ConnectionAbortedError('This operation was aborted')

    def cancel(self):
        self.cancelled = True


def _stream_with(response, cancellation=None, **options):
    import hermes.js.fetch_cpython as cpython
    from hermes.net.llm_client import LlmClient
    cpython.FETCH = response.fetch
    client = LlmClient('http://127.0.0.1:9/v1', options=options)
    return run(asyncio.wait_for(client.stream_chat({'model': 'm', 'messages': []}, None, cancellation), 60))


def test_after_done_the_body_is_read_to_its_end_so_the_connection_is_kept():
    response = _BodyAfterDone([': a comment after the answer\n\n', None])
    assert _stream_with(response)['content'] == 'Hi'
    assert response.reads == 3 and not response.cancelled and not response.aborted.is_set()


def test_after_done_a_body_that_goes_on_past_the_cap_is_cancelled():
    response = _BodyAfterDone([': ' + 'x' * 10000 + '\n\n'] * 5 + [None])
    assert _stream_with(response, drain_max_chars=16384)['content'] == 'Hi'
    assert response.reads == 3 and response.cancelled  # the answer, then 2 × 10 kB: past 16 kB


def test_after_done_a_body_held_open_is_given_up_after_the_grace():
    response = _BodyAfterDone([])
    assert _stream_with(response, drain_ms=50)['content'] == 'Hi'
    assert response.aborted.is_set()


def test_a_cancel_while_the_body_is_held_open_after_done_aborts_at_once():
    response, cancellation = _BodyAfterDone([]), Cancellation()
    response.on_wait = lambda: cancellation.cancel('user')
    assert _stream_with(response, cancellation, drain_ms=600000)['content'] == 'Hi'  # not 10 minutes of grace
    assert response.aborted.is_set()


def test_ollama_model_info():
    info = ollama_model_info({'capabilities': ['completion', 'tools'], 'model_info': {'qwen2.context_length': 32768}})
    assert info == {'context_length': 4096, 'model_context_length': 32768, 'supports_tools': True}
    info = ollama_model_info({'capabilities': ['completion'], 'parameters': 'num_ctx 16384\nstop "x"'})
    assert info['context_length'] == 16384 and info['supports_tools'] is False
    assert ollama_model_info({})['supports_tools'] is None


# ------------------------------------------------------------------------------------------ the loop

class FakeClient:
    """Replies from a script: each item a turn dict, an LlmError to raise, or a callable(body)."""

    def __init__(self, replies, info=None):
        self.replies = list(replies)
        self.bodies = []
        self.info = info

    async def stream_chat(self, body, on_delta, cancellation):
        self.bodies.append(body)
        reply = self.replies.pop(0)
        if isinstance(reply, LlmError):
            raise reply
        if callable(reply):
            reply = await reply(body, on_delta, cancellation)
        for piece in reply.get('pieces', [reply.get('content', '')]):
            on_delta(piece)
        return {'content': reply.get('content', ''), 'tool_calls': reply.get('tool_calls', []),
                'finish_reason': 'stop', 'usage': None}

    async def model_info(self, model):
        return self.info


def call(call_id, name, arguments):
    return {'id': call_id, 'type': 'function', 'function': {'name': name, 'arguments': json.dumps(arguments)}}


class Recorder:  # a sink may leave events out: the loop skips them (contracts/events.py)
    def __init__(self):
        self.events = []

    def on_text(self, text):
        self.events.append(('text', text))

    def on_tool_call(self, c):
        self.events.append(('call', c['name']))

    def on_tool_result(self, c, result):
        self.events.append(('result', result_text(result)))

    def on_notice(self, message):
        self.events.append(('notice', message))

    def on_error(self, error):
        self.events.append(('error', error.kind))

    def on_tool_confirmation(self, c, state):
        self.events.append(('confirmation', c['id'], state))


def registry():
    reg = ToolRegistry()

    async def echo(args, c):
        return args['text']
    reg.add(Tool('echo', 'Echo.', {'type': 'object', 'properties': {'text': {'type': 'string'}}, 'required': ['text']},
                 echo))
    return reg


def test_loop_native_roundtrip_and_history_shape():
    client = FakeClient([{'tool_calls': [call('c1', 'echo', {'text': 'hi'})]}, {'content': 'done'}])
    history = [{'role': 'user', 'content': 'go'}]
    sink = Recorder()
    outcome = run(AgentLoop(client, registry()).run(history, sink))
    assert outcome['stopped'] == 'done' and outcome['text'] == 'done' and outcome['iterations'] == 2
    assert [m['role'] for m in history] == ['user', 'assistant', 'tool', 'assistant']
    assert history[2]['tool_call_id'] == 'c1' and history[2]['content'] == 'hi'
    assert ('call', 'echo') in sink.events and ('result', 'hi') in sink.events
    sent = client.bodies[1]['messages']
    assert sent[-1] == {'role': 'tool', 'tool_call_id': 'c1', 'content': 'hi'}


def test_the_sink_hears_the_calls_confirmation_state():
    class AskingGate:
        async def approve(self, tool, arguments, tool_call):
            tool_call.set_confirmation('waiting')
            tool_call.set_confirmation('confirmed')
            return None
    reg = registry()
    reg.approver = AskingGate()
    client = FakeClient([{'tool_calls': [call('c1', 'echo', {'text': 'hi'})]}, {'content': 'done'}])
    sink = Recorder()
    run(AgentLoop(client, reg).run([{'role': 'user', 'content': 'go'}], sink))
    assert [event for event in sink.events if event[0] in ('call', 'confirmation', 'result')] == [
        ('call', 'echo'), ('confirmation', 'c1', 'waiting'), ('confirmation', 'c1', 'confirmed'), ('result', 'hi')]


def test_loop_auto_switches_to_text_when_the_model_writes_blocks():
    block = '```tool\n{"name": "echo", "arguments": {"text": "b"}}\n```'
    client = FakeClient([{'content': block}, {'content': 'ok'}])
    history = [{'role': 'user', 'content': 'go'}]
    sink = Recorder()
    outcome = run(AgentLoop(client, registry()).run(history, sink))
    assert outcome['mode'] == 'text' and outcome['text'] == 'ok'
    assert 'tools' in client.bodies[0] and 'tools' not in client.bodies[1]
    assert client.bodies[1]['messages'][-1]['content'].startswith('Tool results:')


def test_loop_model_info_without_tools_starts_in_text_mode_and_unknown_tool_is_a_result():
    client = FakeClient([{'content': '```tool\n{"name": "nope", "arguments": {}}\n```'}, {'content': 'ok'}],
                        {'supports_tools': False, 'context_length': 2048})
    history = [{'role': 'user', 'content': 'go'}]
    sink = Recorder()
    run(AgentLoop(client, registry()).run(history, sink))
    assert 'tools' not in client.bodies[0]
    assert any(kind == 'result' and "Unknown tool 'nope'" in text for kind, text in sink.events)


def test_render_history_text_mode_from_native_history():
    history = [{'role': 'user', 'content': 'go'},
               {'role': 'assistant', 'content': 'Let me see.', 'tool_calls': [call('c1', 'echo', {'text': 'x'})]},
               {'role': 'tool', 'tool_call_id': 'c1', 'content': 'x', 'hermes_tool': 'echo', 'hermes_is_error': False},
               {'role': 'assistant', 'content': 'x it is'}]
    text = render_history(history, 'text')
    assert [m['role'] for m in text] == ['user', 'assistant', 'user', 'assistant']
    assert text[1]['content'] == 'Let me see.\n\n```tool\n{"name":"echo","arguments":{"text":"x"}}\n```'
    native = render_history(history, 'native')
    assert native[2] == {'role': 'tool', 'tool_call_id': 'c1', 'content': 'x'}


def test_loop_sink_that_raises_does_not_break_the_run():
    class Broken:
        def on_text(self, text):
            raise RuntimeError('sink bug')
    outcome = run(AgentLoop(FakeClient([{'content': 'hi'}]), registry()).run([{'role': 'user', 'content': 'x'}], Broken()))
    assert outcome['stopped'] == 'done'


def test_loop_several_sinks_each_hear_every_event_though_one_raises():
    class Broken:
        def on_text(self, text):
            raise RuntimeError('sink bug')

        def on_done(self, outcome):
            raise RuntimeError('sink bug')
    first, second = Recorder(), Recorder()
    client = FakeClient([{'content': '', 'tool_calls': [call('c1', 'echo', {'text': 'hi'})]}, {'content': 'done'}])
    outcome = run(AgentLoop(client, registry()).run([{'role': 'user', 'content': 'x'}], [first, Broken(), second]))
    assert outcome['stopped'] == 'done'
    assert first.events == second.events == [('call', 'echo'), ('result', 'hi'), ('text', 'done')]


def test_loop_without_tools_sends_no_tools_and_errors_reach_the_sink():
    client = FakeClient([LlmError('nope', 'auth', 401)])
    sink = Recorder()
    outcome = run(AgentLoop(client, ToolRegistry()).run([{'role': 'user', 'content': 'x'}], sink))
    assert 'tools' not in client.bodies[0] and outcome['stopped'] == 'error' and outcome['error_kind'] == 'auth'
    assert ('error', 'auth') in sink.events


def test_loop_cancelled_before_start_and_native_mode_does_not_fall_back():
    cancellation = Cancellation()
    cancellation.cancel()
    outcome = run(AgentLoop(FakeClient([]), registry()).run([{'role': 'user', 'content': 'x'}], None, cancellation))
    assert outcome['stopped'] == 'cancelled'
    client = FakeClient([LlmError('no tools', 'tools_unsupported', 400)])
    outcome = run(AgentLoop(client, registry(), {'tool_calling': 'native'}).run([{'role': 'user', 'content': 'x'}]))
    assert outcome['error_kind'] == 'tools_unsupported' and len(client.bodies) == 1


def test_a_tool_cancelled_while_it_is_announced_is_never_called():
    # In JS, calling an async function runs it up to its first await, so a registry.call() that is only raced
    # against the cancel would still start the tool; the loop must not call it at all.
    reg = registry()
    calls = []
    real_call = reg.call

    def recording_call(name, arguments, tool_call):
        calls.append(name)
        return real_call(name, arguments, tool_call)
    reg.call = recording_call
    cancellation = Cancellation()

    class CancelOnCall(Recorder):
        def on_tool_call(self, c):
            cancellation.cancel('user')
    client = FakeClient([{'tool_calls': [call('c1', 'echo', {'text': 'x'})]}])
    history = [{'role': 'user', 'content': 'go'}]
    outcome = run(AgentLoop(client, reg).run(history, CancelOnCall(), cancellation))
    assert outcome['stopped'] == 'cancelled' and calls == []
    assert history[-1]['role'] == 'tool' and 'Cancelled' in history[-1]['content']


def test_cancellation_race():
    async def main():
        cancellation = Cancellation()
        asyncio.get_running_loop().call_later(0.05, cancellation.cancel)
        return await cancellation.race(asyncio.sleep(5, 'late'))
    assert run(main()) is CANCELLED


def test_tools_offered_shrink_with_the_context_and_the_user_is_told_once():
    """44 full tool definitions (~8.7k tokens) don't fit stock Ollama's 4096: compact definitions first,
    then only the registry's essential tools, with one notice that says what to change."""
    import asyncio
    from hermes.core.agent_loop import AgentLoop
    from hermes.core.tools import Tool, ToolRegistry

    async def handler(args, call):
        return 'ok'
    registry = ToolRegistry()
    for index in range(40):
        registry.add(Tool(f'tool_{index}', 'Does thing number ' + str(index) + '. ' + 'More detail. ' * 40,
                          {'type': 'object', 'properties': {'path': {'type': 'string', 'description': 'x' * 200}}},
                          handler, essential=index in (1, 2)))

    def offered(context):
        loop = AgentLoop(None, registry, {'model': 'm', 'context_tokens': context})
        notices = []

        class Sink:
            def on_notice(self, message):
                notices.append(message)
        bodies = [asyncio.run(loop.requests.request([{'role': 'user', 'content': 'hi'}], 'native', 0, None, False, Sinks(Sink())))
                  for _ in range(2)]
        return bodies[-1]['tools'], [n for n in notices if 'too small for all' in n]

    tools, notices = offered(200000)
    assert len(tools) == 40 and tools[0]['function']['description'].endswith('More detail. ') and notices == []
    tools, notices = offered(12000)
    assert len(tools) == 40 and tools[0]['function']['description'] == 'Does thing number 0.'
    assert 'description' not in tools[0]['function']['parameters']['properties']['path'] and notices == []
    tools, notices = offered(2048)
    assert [tool['function']['name'] for tool in tools] == ['tool_1', 'tool_2']
    assert notices == ['The model\'s context (2048 tokens) is too small for all 40 tools, so only 2 essential ones '
                       'are offered. Give the model a larger context (for Ollama: OLLAMA_CONTEXT_LENGTH=32768 '
                       'ollama serve) and set "hermes.llm.contextLength" to match.']


def test_the_essential_tools_are_enough_to_read_search_edit_and_run():
    from hermes.tools.catalog import build_registry
    assert [tool.name for tool in build_registry().list() if tool.essential] == [
        'workspace_get_folders', 'terminal_run', 'editor_get_content', 'editor_edit_file',
        'editor_get_diagnostics', 'file_read', 'file_write', 'file_list_directory', 'file_search',
        'file_search_content']


def authors_seen(sinks, runs=1):
    """The change-log author each tool call of `runs` runs was handed (ToolCall.author)."""
    seen = []

    async def handler(args, call):
        seen.append(call.author)
        return 'ok'
    tools = ToolRegistry()
    tools.add(Tool('note', 'Note.', {'type': 'object'}, handler))
    loop = AgentLoop(FakeClient([{'content': '', 'tool_calls': [call('c1', 'note', {})]}, {'content': 'done'}] * runs),
                     tools)
    for _ in range(runs):
        run(loop.run([{'role': 'user', 'content': 'x'}], sinks))
    return seen


def test_loop_tools_are_authored_by_the_last_sink_that_names_an_author():
    class Named:
        def __init__(self, author):
            self.author = author

        def change_author(self):
            return self.author

    class Broken:
        def change_author(self):
            raise RuntimeError('sink bug')
    stream = Named({'client': '@hermes', 'session': None, 'turn': 't1'})
    session = Named({'client': 'Hermes', 'session': 's1', 'turn': 't1'})
    assert authors_seen([stream, session]) == [session.author]  # a chat session's recorder over the chat stream
    assert authors_seen([stream, Named(None), Broken(), Recorder()]) == [stream.author]
    assert authors_seen(stream) == [stream.author]
    # nobody names one: 'Hermes' with a turn id per run ('run-<time>-<count>': unique across reloads too)
    first, second = authors_seen([Recorder()], 2)
    assert (first['client'], first['session'], second['client']) == ('Hermes', None, 'Hermes')
    assert first['turn'].startswith('run-') and first['turn'].endswith('-1') and second['turn'].endswith('-2')
    # a sink that names a client but no turn gets the run's turn id
    [named] = authors_seen([Named({'client': 'Hermes language model', 'session': None, 'turn': None})])
    assert named['client'] == 'Hermes language model' and named['turn'].startswith('run-')


def test_the_chat_stream_names_its_own_author_alone():
    from hermes.ui.chat.participant import ChatStreamSink
    sink = ChatStreamSink(None, ToolRegistry(), lambda path: None)
    sink.author = {'client': '@hermes', 'session': None, 'turn': 't9'}
    assert sink.change_author() == sink.author
    assert authors_seen(sink) == [sink.author]


def test_long_text_in_a_prompt_is_cut_with_the_one_note():
    """A selection in the system prompt and a stored @hermes turn are cut by core/output_text.py like every other
    text: the note says how much was left out (the selection's after the fence that holds what was kept)."""
    from hermes.core.system_prompt import MAX_SELECTION_CHARS, workspace_section
    from hermes.core.chat.prompts import STORED_USER_CHARS, turn_metadata
    selected = 'a' * (MAX_SELECTION_CHARS + 7)
    section = workspace_section({'activeFile': {'path': 'x.py', 'selection': {'text': selected}}})
    assert section.endswith('```\n' + 'a' * MAX_SELECTION_CHARS + '\n```\n[truncated: 7 more characters]')
    whole = workspace_section({'activeFile': {'path': 'x.py', 'selection': {'text': 'short'}}})
    assert whole.endswith('```\nshort\n```')
    stored = turn_metadata([{'role': 'user', 'content': 'u' * (STORED_USER_CHARS + 3)}], None, None)
    assert stored['hermes']['messages'][0]['content'] == 'u' * STORED_USER_CHARS + '\n[truncated: 3 more characters]'
