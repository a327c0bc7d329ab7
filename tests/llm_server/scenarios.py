"""Scripts for the scripted LLM server (server.py), in real OpenAI `chat.completion.chunk` JSON.

Each scenario: the server's replies plus what the run is asked (`run`: tool_calling, prompt, and
client options) — the same scenarios drive the CPython run (test_llm_scenarios.py) and the
transpiled run under node (tests/integration/test_llm_loop.py)."""
import json

MODEL = 'qwen2.5:7b'
_counter = [0]


class Reply:
    def __init__(self, events=None, status=200, headers=None, body=None, content_type=None, split=None,
                 delay_ms=0, cut_after=None, stall_after=None, hang=False, hang_s=30, raw=None):
        self.events = events or []
        self.status = status
        self.headers = headers or {}
        self.body = body
        self.content_type = content_type
        self.split = split  # write each event in pieces of this many characters
        self.delay_ms = delay_ms
        self.cut_after = cut_after
        self.stall_after = stall_after
        self.hang = hang
        self.hang_s = hang_s
        self.raw = raw  # an exact wire text (overrides events)

    def wire_pieces(self):
        if self.raw is not None:
            text = self.raw
        else:
            text = ''.join(f'data: {event}\n\n' for event in self.events)
        if not self.split:
            if self.raw is not None:
                return [text]
            return [f'data: {event}\n\n' for event in self.events]
        return [text[i:i + self.split] for i in range(0, len(text), self.split)]


def _chunk(delta=None, finish_reason=None, usage=None, choices=True):
    _counter[0] += 1
    value = {'id': 'chatcmpl-scripted', 'object': 'chat.completion.chunk', 'created': 1700000000,
             'model': MODEL, 'system_fingerprint': 'fp_scripted'}
    value['choices'] = [{'index': 0, 'delta': delta or {}, 'logprobs': None, 'finish_reason': finish_reason}] \
        if choices else []
    if usage is not None:
        value['usage'] = usage
    return json.dumps(value)


USAGE = {'prompt_tokens': 120, 'completion_tokens': 12, 'total_tokens': 132}


def text_events(text, piece=4, usage=True):
    events = [_chunk({'role': 'assistant', 'content': ''})]
    for i in range(0, len(text), piece):
        events.append(_chunk({'content': text[i:i + piece]}))
    events.append(_chunk({}, 'stop'))
    if usage:
        events.append(_chunk(usage=USAGE, choices=False))
    events.append('[DONE]')
    return events


def tool_events(calls, piece=3, interleave=False, text_before=''):
    """calls: [(id, name, arguments dict)]. Arguments are sent `piece` characters at a time;
    with `interleave`, the pieces of the calls alternate (as parallel calls stream)."""
    events = [_chunk({'role': 'assistant', 'content': None})]
    if text_before:
        events.append(_chunk({'content': text_before}))
    streams = []
    for index, (call_id, name, arguments) in enumerate(calls):
        text = json.dumps(arguments)
        first = {'tool_calls': [{'index': index, 'id': call_id, 'type': 'function',
                                 'function': {'name': name, 'arguments': ''}}]}
        rest = [{'tool_calls': [{'index': index, 'function': {'arguments': text[i:i + piece]}}]}
                for i in range(0, len(text), piece)]
        streams.append([first] + rest)
    if interleave:
        longest = max(len(s) for s in streams)
        for step in range(longest):
            for stream in streams:
                if step < len(stream):
                    events.append(_chunk(stream[step]))
    else:
        for stream in streams:
            events.extend(_chunk(delta) for delta in stream)
    events.append(_chunk({}, 'tool_calls'))
    events.append(_chunk(usage=USAGE, choices=False))
    events.append('[DONE]')
    return events


def error_body(message, kind='invalid_request_error', code=None):
    return json.dumps({'error': {'message': message, 'type': kind, 'param': None, 'code': code}})


FENCE = '```'
TEXT_CALL = f'I will echo it.\n\n{FENCE}tool\n{{"name": "echo", "arguments": {{"text": "from a block"}}}}\n{FENCE}\n'
MALFORMED_CALL = f'{FENCE}tool\n{{"name": "echo", "arguments": {{"text": "oops"}}\n{FENCE}\n'  # a brace short

SCENARIOS = {
    'plain_text': {
        'replies': [Reply(text_events('Hello! How can I help you today?', piece=3))],
        'run': {'prompt': 'Hi'},
    },
    'tool_calls_split': {
        'replies': [Reply(tool_events([('call_a1', 'echo', {'text': 'split across many chunks'})], piece=2),
                          split=7),
                    Reply(text_events('The tool said: split across many chunks.'))],
        'run': {'prompt': 'Echo something'},
    },
    'parallel_tool_calls': {
        'replies': [Reply(tool_events([('call_p1', 'add', {'a': 2, 'b': 3}), ('call_p2', 'echo', {'text': 'both'})],
                                      piece=2, interleave=True, text_before='Running two tools. ')),
                    Reply(text_events('2 + 3 = 5, and echo said both.'))],
        'run': {'prompt': 'Add and echo'},
    },
    'text_protocol': {
        'replies': [Reply(text_events(TEXT_CALL, piece=5)), Reply(text_events('Done: from a block.'))],
        'run': {'prompt': 'Echo with a block', 'tool_calling': 'text'},
    },
    'malformed_tool_json': {
        'replies': [Reply(text_events(MALFORMED_CALL, piece=6)), Reply(text_events(TEXT_CALL, piece=6)),
                    Reply(text_events('Fixed it.'))],
        'run': {'prompt': 'Echo', 'tool_calling': 'text'},
    },
    'malformed_native_arguments': {
        'replies': [Reply(raw=''.join(f'data: {e}\n\n' for e in [
            _chunk({'role': 'assistant', 'tool_calls': [{'index': 0, 'id': 'call_bad', 'type': 'function',
                                                         'function': {'name': 'echo', 'arguments': '{"text": '}}]}),
            _chunk({}, 'tool_calls'), '[DONE]'])),
                    Reply(text_events('Sorry, retried.'))],
        'run': {'prompt': 'Echo'},
    },
    'tools_rejected_then_text': {
        'replies': [Reply(status=400, body=json.dumps({'error': 'registry.ollama.ai/library/gemma:2b does not support '
                                                                 'tools'})),
                    Reply(text_events(TEXT_CALL)), Reply(text_events('Echoed with the text protocol.'))],
        'run': {'prompt': 'Echo'},
    },
    'rate_limited_then_ok': {
        'replies': [Reply(status=429, headers={'Retry-After': '1'}, body=error_body('Rate limit reached', 'requests',
                                                                                     'rate_limit_exceeded')),
                    Reply(text_events('Worth the wait.'))],
        'run': {'prompt': 'Hi'},
    },
    'server_error': {
        'replies': [Reply(status=500, body=error_body('The server had an error while processing your request.',
                                                      'server_error'))],
        'run': {'prompt': 'Hi'},
    },
    'unauthorized': {
        'api_key': 'sk-right',
        'replies': [Reply(text_events('never sent'))],
        'run': {'prompt': 'Hi', 'api_key': 'sk-wrong'},
    },
    'authorized': {
        'api_key': 'sk-right',
        'replies': [Reply(text_events('Key accepted.'))],
        'run': {'prompt': 'Hi', 'api_key': 'sk-right', 'extra_headers': {'X-Team': 'hermes'}},
    },
    'unknown_model': {
        'models': ['llama3.2:1b', 'qwen2.5:7b'],
        'replies': [Reply(status=404, body=error_body('model "nope:1b" not found, try pulling it first',
                                                      'api_error'))],
        'run': {'prompt': 'Hi', 'model': 'nope:1b'},
    },
    'disconnect_mid_stream': {
        'replies': [Reply(text_events('This answer will be cut off halfway through.', piece=5), cut_after=4)],
        'run': {'prompt': 'Hi'},
    },
    'error_event_mid_stream': {
        'replies': [Reply(raw=''.join(f'data: {e}\n\n' for e in text_events('Partial', usage=False)[:2]) +
                          'data: {"error": {"message": "CUDA out of memory", "type": "server_error"}}\n\n')],
        'run': {'prompt': 'Hi'},
    },
    'never_answers': {
        'replies': [Reply(hang=True)],
        'run': {'prompt': 'Hi', 'client': {'connect_timeout_ms': 800}},
    },
    'stalls_mid_stream': {
        'replies': [Reply(text_events('Thinking really hard about it', piece=4), stall_after=3)],
        'run': {'prompt': 'Hi', 'client': {'idle_timeout_ms': 600}},
    },
    'cancel_while_streaming': {
        'replies': [Reply(text_events('word ' * 200, piece=5), delay_ms=20)],
        'run': {'prompt': 'Talk slowly', 'cancel_when': {'texts': 3}},
    },
    'cancel_while_connecting': {
        'replies': [Reply(hang=True)],
        'run': {'prompt': 'Hi', 'cancel_when': {'requests_received': 1}},
    },
    'cancel_during_backoff': {
        'replies': [Reply(status=503, headers={'Retry-After': '30'}, body=error_body('Overloaded', 'server_error')),
                    Reply(text_events('not reached'))],
        'run': {'prompt': 'Hi', 'cancel_when': {'replies_sent': 1}},
    },
    'cancel_during_tool': {
        'replies': [Reply(tool_events([('call_w1', 'wait', {}), ('call_w2', 'echo', {'text': 'never runs'})])),
                    Reply(text_events('not reached'))],
        'run': {'prompt': 'Wait', 'cancel_when': {'tool_calls': 1}},
    },
    'denied_by_gate': {
        'replies': [Reply(tool_events([('call_d1', 'dangerous', {'path': 'x'})])), Reply(text_events('Understood.'))],
        'run': {'prompt': 'Delete x'},
    },
    'max_iterations': {
        'replies': [Reply(tool_events([('call_m', 'echo', {'text': 'again'})]))],
        'run': {'prompt': 'Loop forever', 'max_iterations': 3},
    },
    'ollama_without_tools': {
        'show': {'capabilities': ['completion'], 'model_info': {'gemma.context_length': 8192},
                 'parameters': 'num_ctx 2048\nstop "<end_of_turn>"'},
        'replies': [Reply(text_events(TEXT_CALL)), Reply(text_events('Echoed.'))],
        'run': {'prompt': 'Echo', 'client': {'ollama': True}},
    },
    'stream_options_rejected': {
        'replies': [Reply(status=400, body=error_body('Unrecognized request argument supplied: stream_options')),
                    Reply(text_events('Fine without usage.', usage=False))],
        'run': {'prompt': 'Hi'},
    },
    'not_streaming': {
        'replies': [Reply(body=json.dumps({'id': 'chatcmpl-1', 'object': 'chat.completion', 'created': 1700000000,
                                           'model': MODEL, 'choices': [{'index': 0, 'finish_reason': 'stop',
                                                                        'message': {'role': 'assistant',
                                                                                    'content': 'Whole answer.'}}],
                                           'usage': USAGE}))],
        'run': {'prompt': 'Hi'},
    },
}
