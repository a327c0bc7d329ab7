"""The Anthropic Messages API as Claude Code calls it (`ANTHROPIC_BASE_URL`): `POST /v1/messages` with
`stream: true` (message_start, content_block_start/delta/stop — `text_delta`, or a `tool_use` block whose input
arrives as `input_json_delta` —, message_delta, message_stop), and `POST /v1/messages/count_tokens`.

A request that offers no tools is one of the CLI's own side questions (none in a plain `claude -p` turn so far):
it gets a short text and takes no step of the script."""
import json

from llm_server.agent_script import Say, ScriptedAgentServer, tool_uses

MODEL = 'claude-scripted'


def _message(content, stop_reason, model):
    return {'id': 'msg_scripted', 'type': 'message', 'role': 'assistant', 'model': model, 'content': content,
            'stop_reason': stop_reason, 'stop_sequence': None,
            'usage': {'input_tokens': 120, 'output_tokens': 12, 'cache_creation_input_tokens': 0,
                      'cache_read_input_tokens': 0}}


def _blocks(step):
    if isinstance(step, Say):
        return [{'type': 'text', 'text': step.text}], 'end_turn'
    return [{'type': 'tool_use', 'id': use.call_id, 'name': use.name, 'input': use.arguments}
            for use in tool_uses(step)], 'tool_use'


def stream_events(blocks, stop_reason, model):
    """The SSE events of one streamed message (text and tool input in a few pieces each, as the API sends them)."""
    start = _message([], None, model)
    start['usage']['output_tokens'] = 1
    events = [('message_start', {'type': 'message_start', 'message': start})]
    for index, block in enumerate(blocks):
        if block['type'] == 'text':
            events.append(('content_block_start', {'type': 'content_block_start', 'index': index,
                                                   'content_block': {'type': 'text', 'text': ''}}))
            pieces = [{'type': 'text_delta', 'text': block['text'][i:i + 8]} for i in range(0, len(block['text']), 8)]
        else:
            events.append(('content_block_start', {'type': 'content_block_start', 'index': index, 'content_block':
                                                   {'type': 'tool_use', 'id': block['id'], 'name': block['name'],
                                                    'input': {}}}))
            text = json.dumps(block['input'])
            pieces = [{'type': 'input_json_delta', 'partial_json': text[i:i + 8]} for i in range(0, len(text), 8)]
        events.extend(('content_block_delta', {'type': 'content_block_delta', 'index': index, 'delta': piece})
                      for piece in pieces)
        events.append(('content_block_stop', {'type': 'content_block_stop', 'index': index}))
    events.append(('message_delta', {'type': 'message_delta', 'delta': {'stop_reason': stop_reason,
                                                                        'stop_sequence': None},
                                     'usage': {'output_tokens': 12}}))
    events.append(('message_stop', {'type': 'message_stop'}))
    return events


class AnthropicServer(ScriptedAgentServer):
    def answer(self, handler, request):
        path, body = request['path'].split('?', 1)[0], request['body'] or {}
        if path.endswith('/v1/messages/count_tokens'):
            handler.send_json({'input_tokens': 120})
            return
        if not path.endswith('/v1/messages'):
            handler.send_json({'type': 'error', 'error': {'type': 'not_found_error', 'message': 'no route ' + path}},
                              404)
            return
        model = body.get('model', MODEL)
        step = self.next_step(request) if body.get('tools') else Say('scripted')
        blocks, stop_reason = _blocks(step)
        if body.get('stream'):
            handler.send_sse(stream_events(blocks, stop_reason, model))
        else:
            handler.send_json(_message(blocks, stop_reason, model))

    def tool_results(self):
        """The tool_result blocks of the conversation as its last request carried it: {'tool_use_id', 'content'}."""
        messages = self.turns[-1].get('messages', []) if self.turns else []
        return [block for message in messages if isinstance(message.get('content'), list)
                for block in message['content'] if block.get('type') == 'tool_result']

    def offered_tools(self, turn=0):
        return [tool.get('name') for tool in self.turns[turn].get('tools', [])]
