"""The OpenAI Responses API as Codex calls it through a custom provider (`wire_api = "responses"`, `base_url` ending in
/v1): `POST /v1/responses` with `stream: true` — response.created, response.output_item.added, text deltas,
response.output_item.done (a `message`, or a `function_call` with its call_id and JSON arguments), and
response.completed with usage — and `GET /v1/models`.

A request that offers no tools is one of the CLI's own side questions: it gets a short text and takes no step."""
import json

from llm_server.agent_script import Say, ScriptedAgentServer, tool_uses

MODEL = 'gpt-scripted'
USAGE = {'input_tokens': 120, 'input_tokens_details': {'cached_tokens': 0}, 'output_tokens': 12,
         'output_tokens_details': {'reasoning_tokens': 0}, 'total_tokens': 132}


class ToolSearch:
    """The model searches the tools Codex holds back (`tool_search`, run by the client: a `tool_search_call` item)."""

    def __init__(self, query, call_id='search_1', limit=3):
        self.query = query
        self.call_id = call_id
        self.limit = limit


def _items(step):
    if isinstance(step, ToolSearch):
        return [{'type': 'tool_search_call', 'id': 'ts_scripted', 'call_id': step.call_id, 'execution': 'client',
                 'status': 'completed', 'arguments': {'query': step.query, 'limit': step.limit}}]
    if isinstance(step, Say):
        return [{'type': 'message', 'id': 'msg_scripted', 'role': 'assistant', 'status': 'completed',
                 'content': [{'type': 'output_text', 'text': step.text, 'annotations': []}]}]
    items = []
    for index, use in enumerate(tool_uses(step)):
        item = {'type': 'function_call', 'id': 'fc_scripted_' + str(index), 'call_id': use.call_id,
                'name': use.name, 'arguments': json.dumps(use.arguments), 'status': 'completed'}
        if use.namespace is not None:
            item['namespace'] = use.namespace
        items.append(item)
    return items


def _response(status, model, output, usage=None):
    value = {'id': 'resp_scripted', 'object': 'response', 'created_at': 1700000000, 'status': status, 'model': model,
             'output': output}
    if usage is not None:
        value['usage'] = usage
    return value


def stream_events(items, model):
    events = [('response.created', {'type': 'response.created', 'response': _response('in_progress', model, [])})]
    for index, item in enumerate(items):
        if item['type'] == 'message':
            text = item['content'][0]['text']
            opening = dict(item, status='in_progress', content=[])
            events.append(('response.output_item.added', {'type': 'response.output_item.added',
                                                          'output_index': index, 'item': opening}))
            events.extend(('response.output_text.delta', {'type': 'response.output_text.delta', 'item_id': item['id'],
                                                          'output_index': index, 'content_index': 0,
                                                          'delta': text[i:i + 8]})
                          for i in range(0, len(text), 8))
        else:
            events.append(('response.output_item.added', {'type': 'response.output_item.added',
                                                          'output_index': index, 'item': item}))
        events.append(('response.output_item.done', {'type': 'response.output_item.done', 'output_index': index,
                                                     'item': item}))
    events.append(('response.completed', {'type': 'response.completed',
                                          'response': _response('completed', model, items, USAGE)}))
    return events


class ResponsesServer(ScriptedAgentServer):
    def answer(self, handler, request):
        path, body = request['path'].split('?', 1)[0].rstrip('/'), request['body'] or {}
        if request['method'] == 'GET' and path.endswith('/v1/models'):
            handler.send_json({'object': 'list', 'data': [{'id': MODEL, 'object': 'model', 'created': 1700000000,
                                                           'owned_by': 'scripted'}]})
            return
        if not path.endswith('/v1/responses'):
            handler.send_json({'error': {'message': 'no route ' + path, 'type': 'not_found'}}, 404)
            return
        model = body.get('model', MODEL)
        items = _items(self.next_step(request) if body.get('tools') else Say('scripted'))
        if body.get('stream'):
            handler.send_sse(stream_events(items, model))
        else:
            handler.send_json(_response('completed', model, items, USAGE))

    def tool_results(self):
        """The function_call_output items of the conversation as its last request carried it: {'call_id', 'output'}."""
        items = self.turns[-1].get('input', []) if self.turns else []
        return [item for item in items if isinstance(item, dict) and item.get('type') == 'function_call_output']
