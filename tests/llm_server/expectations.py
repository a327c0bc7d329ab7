"""What each scenario must produce — checked on the CPython run and on the transpiled run alike.
`check(name, events, server)` raises AssertionError with the events attached when a check fails."""
import json

from pydantic import TypeAdapter
from openai.types.chat.completion_create_params import CompletionCreateParamsStreaming

_OPENAI_REQUEST = TypeAdapter(CompletionCreateParamsStreaming)


def validate_openai_request(body):
    """The body against the official `openai` package's request types (pydantic-validated; the
    Iterable fields are validated when consumed), plus: nothing of ours leaks (`hermes_*` keys)."""
    value = _OPENAI_REQUEST.validate_python(body)
    messages = list(value['messages'])
    list(value.get('tools') or [])
    assert body['stream'] is True
    assert body.get('stream_options', {'include_usage': True}) == {'include_usage': True}
    assert messages[0]['role'] == 'system'
    text = json.dumps(body)
    assert '"hermes_' not in text, 'an internal key leaked into the request'
    _assert_consistent(body['messages'])
    if 'tools' in body:
        assert body['tool_choice'] in ('auto', 'none')
        for tool in body['tools']:
            assert tool['type'] == 'function' and tool['function']['parameters']['type'] == 'object'


def _assert_consistent(messages):
    """Every assistant message with tool_calls is followed by one tool message per call."""
    for index, message in enumerate(messages):
        if message.get('role') == 'assistant' and message.get('tool_calls'):
            ids = [call['id'] for call in message['tool_calls']]
            answered = []
            for later in messages[index + 1:]:
                if later.get('role') != 'tool':
                    break
                answered.append(later['tool_call_id'])
            assert sorted(answered) == sorted(ids), f'tool calls {ids} answered by {answered}'
        if message.get('role') == 'tool':
            assert index > 0 and messages[index - 1].get('role') in ('assistant', 'tool'), 'an orphaned tool result'


def _of(events, kind):
    return [event for event in events if event['event'] == kind]


def text_of(events):
    return ''.join(event['text'] for event in _of(events, 'text'))


def outcome_of(events):
    done = _of(events, 'done')
    assert len(done) == 1, f'expected exactly one done event, got {len(done)}'
    return done[0]['outcome']


def history_of(events):
    return _of(events, 'finished')[0]['history']


def error_of(events):
    errors = _of(events, 'error')
    assert len(errors) == 1, f'expected one error event, got {errors}'
    return errors[0]


def check(name, events, server):
    try:
        _common(events, server)
        CHECKS[name](events, server)
    except AssertionError as failure:
        raise AssertionError(f'{name}: {failure}\nevents: {json.dumps(events, indent=1)[:6000]}') from None


def _common(events, server):
    assert events[-2]['event'] == 'done' and events[-1]['event'] == 'finished'
    history = history_of(events)
    _assert_consistent(history)
    for request in server.chat_requests():
        validate_openai_request(request['body'])


# ------------------------------------------------------------------------------------------ scenarios

def plain_text(events, server):
    assert text_of(events) == 'Hello! How can I help you today?'
    outcome = outcome_of(events)
    assert outcome['stopped'] == 'done' and outcome['text'] == 'Hello! How can I help you today?'
    assert outcome['usage'] == {'prompt_tokens': 120, 'completion_tokens': 12, 'total_tokens': 132}
    assert outcome['mode'] == 'native'
    history = history_of(events)
    assert [m['role'] for m in history] == ['user', 'assistant']
    body = server.chat_requests()[0]['body']
    assert body['model'] == 'qwen2.5:7b' and body['tool_choice'] == 'auto'
    assert [t['function']['name'] for t in body['tools']] == ['echo', 'add', 'wait', 'fail', 'dangerous']
    assert body['messages'][1] == {'role': 'user', 'content': 'Hi'}
    assert server.chat_requests()[0]['headers']['accept'] == 'text/event-stream'


def tool_calls_split(events, server):
    calls = _of(events, 'tool_call')
    assert [(c['id'], c['name'], c['arguments']) for c in calls] == [('call_a1', 'echo', {'text': 'split across many chunks'})]
    results = _of(events, 'tool_result')
    assert results[0]['text'] == 'split across many chunks' and results[0]['isError'] is False
    assert outcome_of(events)['text'] == 'The tool said: split across many chunks.'
    assert [e['number'] for e in _of(events, 'iteration')] == [1, 2]
    second = server.chat_requests()[1]['body']['messages']
    assert second[-2]['tool_calls'][0]['function'] == {'name': 'echo', 'arguments': '{"text": "split across many chunks"}'}
    assert second[-1] == {'role': 'tool', 'tool_call_id': 'call_a1', 'content': 'split across many chunks'}


def parallel_tool_calls(events, server):
    calls = _of(events, 'tool_call')
    assert [(c['id'], c['name']) for c in calls] == [('call_p1', 'add'), ('call_p2', 'echo')]
    assert calls[0]['arguments'] == {'a': 2, 'b': 3}
    results = _of(events, 'tool_result')
    assert json.loads(results[0]['text']) == {'sum': 5} and results[1]['text'] == 'both'
    assert text_of(events).startswith('Running two tools. ')
    second = server.chat_requests()[1]['body']['messages']
    assert [m['role'] for m in second[-3:]] == ['assistant', 'tool', 'tool']
    assert second[-3]['content'] == 'Running two tools. '
    assert [m['tool_call_id'] for m in second[-2:]] == ['call_p1', 'call_p2']


def text_protocol(events, server):
    first, second = (request['body'] for request in server.chat_requests())
    assert 'tools' not in first and '```tool' in first['messages'][0]['content']
    assert '### echo' in first['messages'][0]['content']
    calls = _of(events, 'tool_call')
    assert [(c['name'], c['arguments']) for c in calls] == [('echo', {'text': 'from a block'})]
    assert '```' not in text_of(events), 'the tool block must not be streamed as text'
    assert text_of(events).startswith('I will echo it.')
    assert second['messages'][-1]['role'] == 'user'
    assert second['messages'][-1]['content'].startswith('Tool results:')
    assert 'from a block' in second['messages'][-1]['content']
    assert second['messages'][-2]['role'] == 'assistant' and '```tool' in second['messages'][-2]['content']
    assert outcome_of(events)['text'] == 'Done: from a block.' and outcome_of(events)['mode'] == 'text'


def malformed_tool_json(events, server):
    requests = server.chat_requests()
    assert len(requests) == 3
    correction = requests[1]['body']['messages'][-1]
    assert correction['role'] == 'user' and 'could not be read' in correction['content']
    assert 'not valid JSON' in correction['content']
    assert [c['name'] for c in _of(events, 'tool_call')] == ['echo']
    assert outcome_of(events)['stopped'] == 'done' and outcome_of(events)['text'] == 'Fixed it.'


def malformed_native_arguments(events, server):
    results = _of(events, 'tool_result')
    assert len(results) == 1 and results[0]['isError'] and 'Invalid arguments' in results[0]['text']
    second = server.chat_requests()[1]['body']['messages']
    assert second[-1]['role'] == 'tool' and second[-1]['tool_call_id'] == 'call_bad'
    assert outcome_of(events)['stopped'] == 'done'


def tools_rejected_then_text(events, server):
    requests = server.chat_requests()
    assert 'tools' in requests[0]['body'] and 'tools' not in requests[1]['body']
    assert any('text tool protocol' in n['message'] for n in _of(events, 'notice'))
    assert [c['name'] for c in _of(events, 'tool_call')] == ['echo']
    outcome = outcome_of(events)
    assert outcome['stopped'] == 'done' and outcome['mode'] == 'text'
    assert [e['number'] for e in _of(events, 'iteration')] == [1, 1, 2]


def rate_limited_then_ok(events, server):
    requests = server.chat_requests()
    assert len(requests) == 2
    assert requests[1]['at'] - requests[0]['at'] >= 0.9, 'Retry-After: 1 was not honoured'
    assert text_of(events) == 'Worth the wait.'


def server_error(events, server):
    assert len(server.chat_requests()) == 3  # the first try and 2 retries (TEST_CLIENT_OPTIONS)
    error = error_of(events)
    assert error['kind'] == 'server'
    assert error['message'] == (f'The LLM at {server.endpoint} failed (500 Internal Server Error: The server had '
                                'an error while processing your request.).')
    assert outcome_of(events)['stopped'] == 'error'


def unauthorized(events, server):
    error = error_of(events)
    assert error['kind'] == 'auth'
    assert '"Hermes: Set API Key"' in error['message'] and '401' in error['message']
    assert server.chat_requests()[0]['headers']['authorization'] == 'Bearer sk-wrong'
    assert len(server.chat_requests()) == 1


def authorized(events, server):
    headers = server.chat_requests()[0]['headers']
    assert headers['authorization'] == 'Bearer sk-right' and headers['x-team'] == 'hermes'
    assert text_of(events) == 'Key accepted.'


def unknown_model(events, server):
    error = error_of(events)
    assert error['kind'] == 'model_not_found'
    assert error['message'] == (f"The model 'nope:1b' was not found at {server.endpoint}. Models there: llama3.2:1b, "
                                'qwen2.5:7b. Set hermes.llm.model to one of them.')


def disconnect_mid_stream(events, server):
    error = error_of(events)
    assert error['kind'] == 'stream_cut' and 'what arrived is kept' in error['message']
    received = text_of(events)
    assert received != '' and 'This answer will be cut off halfway through.'.startswith(received)
    assert received != 'This answer will be cut off halfway through.'
    history = history_of(events)
    assert history[-1] == {'role': 'assistant', 'content': received}


def error_event_mid_stream(events, server):
    error = error_of(events)
    assert error['kind'] == 'server' and 'CUDA out of memory' in error['message']
    assert text_of(events) == 'Part'
    assert history_of(events)[-1] == {'role': 'assistant', 'content': 'Part'}


def never_answers(events, server):
    error = error_of(events)
    assert error['kind'] == 'timeout'
    assert error['message'].startswith(f'The LLM at {server.endpoint} did not answer within 0.8 s.')
    # 'timeout' is the loop's own timer: the server would have held the request for 30 s and then hung up
    # ('network'). No bound on the elapsed time: a busy machine may run the timer late.


def stalls_mid_stream(events, server):
    error = error_of(events)
    assert error['kind'] == 'stream_cut' and 'stopped sending for 0.6 s' in error['message']
    assert text_of(events) != ''
    assert history_of(events)[-1]['content'] == text_of(events)


def cancel_while_streaming(events, server):
    outcome = outcome_of(events)
    assert outcome['stopped'] == 'cancelled' and not _of(events, 'error')
    finished = _of(events, 'finished')[0]
    assert finished['cancel_to_done_ms'] is not None, finished  # cancelled, then done (how soon: no verdict)
    received = text_of(events)
    assert received.startswith('word word') and len(received) < len('word ' * 200)
    assert history_of(events)[-1] == {'role': 'assistant', 'content': received}


def _cancelled_promptly(events):
    """Promptly by what happened, not by a clock: without the cancellation the turn would have ended in an error
    (a server that hangs for 30 s, then drops the connection) or a second request (after Retry-After: 30)."""
    assert outcome_of(events)['stopped'] == 'cancelled' and not _of(events, 'error')
    finished = _of(events, 'finished')[0]
    assert finished['cancel_to_done_ms'] is not None, finished
    assert [m['role'] for m in history_of(events)] == ['user']


def cancel_while_connecting(events, server):
    _cancelled_promptly(events)
    assert len(server.chat_requests()) == 1


def cancel_during_backoff(events, server):
    _cancelled_promptly(events)
    assert len(server.chat_requests()) == 1  # the retry after Retry-After: 30 never went out


def cancel_during_tool(events, server):
    outcome = outcome_of(events)
    assert outcome['stopped'] == 'cancelled'
    finished = _of(events, 'finished')[0]
    assert finished['cancel_to_done_ms'] is not None, finished  # the wait tool alone takes 20 s: see 'Cancelled'
    history = history_of(events)
    assert [m['role'] for m in history] == ['user', 'assistant', 'tool', 'tool']
    assert [m['tool_call_id'] for m in history[2:]] == ['call_w1', 'call_w2']
    assert all('Cancelled' in m['content'] for m in history[2:])
    assert len(server.chat_requests()) == 1
    assert [c['name'] for c in _of(events, 'tool_call')] == ['wait']  # echo never started


def denied_by_gate(events, server):
    result = _of(events, 'tool_result')[0]
    assert result['isError'] and 'declined' in result['text']
    assert outcome_of(events)['text'] == 'Understood.'


def max_iterations(events, server):
    requests = server.chat_requests()
    assert len(requests) == 3
    assert requests[0]['body']['tool_choice'] == 'auto' and requests[2]['body']['tool_choice'] == 'none'
    assert 'last step' in requests[2]['body']['messages'][0]['content']
    outcome = outcome_of(events)
    assert outcome['stopped'] == 'max_iterations' and error_of(events)['kind'] == 'max_iterations'
    assert len(_of(events, 'tool_call')) == 2
    assert 'Not run' in history_of(events)[-1]['content']


def ollama_without_tools(events, server):
    shows = [r for r in server.requests if r['path'] == '/api/show']
    assert len(shows) == 1 and shows[0]['body'] == {'model': 'qwen2.5:7b'}
    first = server.chat_requests()[0]['body']
    assert 'tools' not in first and '```tool' in first['messages'][0]['content']
    assert any('does not support tool calling' in n['message'] for n in _of(events, 'notice'))
    assert outcome_of(events)['text'] == 'Echoed.'


def stream_options_rejected(events, server):
    first, second = (request['body'] for request in server.chat_requests())
    assert first['stream_options'] == {'include_usage': True} and 'stream_options' not in second
    assert text_of(events) == 'Fine without usage.' and outcome_of(events)['usage'] is None


def not_streaming(events, server):
    assert text_of(events) == 'Whole answer.' and outcome_of(events)['stopped'] == 'done'


CHECKS = {name: function for name, function in globals().items()
          if callable(function) and not name.startswith('_') and name not in (
              'check', 'validate_openai_request', 'text_of', 'outcome_of', 'history_of', 'error_of', 'TypeAdapter',
              'CompletionCreateParamsStreaming')}
