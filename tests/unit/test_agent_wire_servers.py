"""The scripted model servers the coding-agent CLIs talk to (tests/llm_server: anthropic_messages, openai_responses,
gemini_api) over real HTTP: each wire format's stream reassembles into the scripted step, the CLIs' side questions
take no step, and the tool results come back out of the next request. The CLIs themselves run in tests/clients."""
import json
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from llm_server.agent_script import Say, ToolUse
from llm_server.anthropic_messages import AnthropicServer
from llm_server.gemini_api import GeminiServer
from llm_server.openai_responses import ResponsesServer, ToolSearch


def sse(response):
    """[(event name or None, data)] of a text/event-stream body."""
    assert response.headers['content-type'] == 'text/event-stream'
    events = []
    for block in response.text.strip().split('\n\n'):
        lines = dict(line.split(': ', 1) for line in block.split('\n'))
        events.append((lines.get('event'), json.loads(lines['data'])))
    return events


def test_anthropic_stream_carries_a_tool_use_then_text_and_side_questions_take_no_step():
    with AnthropicServer([ToolUse('mcp__vscode__file_read', {'path': 'a.txt'}, 'toolu_1'), Say('Done.')]) as model:
        url = model.base_url + '/v1/messages?beta=true'
        tools = [{'name': 'mcp__vscode__file_read', 'input_schema': {'type': 'object'}}]
        assert httpx.post(model.base_url + '/v1/messages/count_tokens', json={}).json() == {'input_tokens': 120}
        side = httpx.post(url, json={'model': 'm', 'messages': [], 'stream': False}).json()
        assert side['content'] == [{'type': 'text', 'text': 'scripted'}]
        events = sse(httpx.post(url, json={'model': 'm', 'messages': [], 'tools': tools, 'stream': True}))
        names = [name for name, _ in events]
        assert names[0] == 'message_start' and names[-2:] == ['message_delta', 'message_stop']
        assert events[1][1]['content_block'] == {'type': 'tool_use', 'id': 'toolu_1', 'name': 'mcp__vscode__file_read',
                                                 'input': {}}
        arguments = ''.join(data['delta']['partial_json'] for name, data in events if name == 'content_block_delta')
        assert json.loads(arguments) == {'path': 'a.txt'}
        assert events[-2][1]['delta']['stop_reason'] == 'tool_use'
        result = {'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': [{'type': 'text', 'text': 'A'}]}
        events = sse(httpx.post(url, json={'model': 'm', 'tools': tools, 'stream': True,
                                           'messages': [{'role': 'user', 'content': [result]}]}))
        text = ''.join(data['delta']['text'] for name, data in events if name == 'content_block_delta')
        assert text == 'Done.' and events[-2][1]['delta']['stop_reason'] == 'end_turn'
        assert model.tool_results() == [result]
        assert len(model.turns) == 2  # the side question took no step


def test_responses_stream_carries_a_search_a_namespaced_call_and_text():
    steps = [ToolSearch('read a file'), ToolUse('file_read', {'path': 'a.txt'}, 'call_1', namespace='mcp__vscode'),
             Say('Done.')]
    with ResponsesServer(steps) as model:
        url = model.base_url + '/v1/responses'
        assert httpx.get(model.base_url + '/v1/models').json()['data'][0]['id'] == 'gpt-scripted'
        request = {'model': 'gpt-5.5', 'stream': True, 'tools': [{'type': 'tool_search'}], 'input': []}
        events = sse(httpx.post(url, json=request))
        done = [data['item'] for name, data in events if name == 'response.output_item.done']
        assert done == [{'type': 'tool_search_call', 'id': 'ts_scripted', 'call_id': 'search_1', 'execution': 'client',
                         'status': 'completed', 'arguments': {'query': 'read a file', 'limit': 3}}]
        events = sse(httpx.post(url, json=request))
        [call] = [data['item'] for name, data in events if name == 'response.output_item.done']
        assert (call['type'], call['namespace'], call['name'], json.loads(call['arguments'])) == (
            'function_call', 'mcp__vscode', 'file_read', {'path': 'a.txt'})
        assert events[-1][0] == 'response.completed' and events[-1][1]['response']['usage']['total_tokens'] == 132
        output = {'type': 'function_call_output', 'call_id': 'call_1', 'output': 'A'}
        events = sse(httpx.post(url, json=dict(request, input=[output])))
        text = ''.join(data['delta'] for name, data in events if name == 'response.output_text.delta')
        assert text == 'Done.'
        assert model.tool_results() == [output]
        assert httpx.post(url, json={'model': 'm', 'input': []}).json()['output'][0]['content'][0]['text'] == 'scripted'
        assert len(model.turns) == 3


def test_gemini_stream_carries_parallel_calls_and_json_questions_get_their_schema_filled():
    steps = [[ToolUse('mcp_vscode_workspace_get_folders', {}),
              ToolUse('mcp_vscode_file_read', {'path': 'a.txt', 'wait_for_previous': True})], Say('Done.')]
    with GeminiServer(steps) as model:
        route = model.base_url + '/v1beta/models/gemini-x-flash-lite:generateContent'
        router = {'generationConfig': {'responseMimeType': 'application/json', 'responseJsonSchema': {
            'type': 'object', 'properties': {'complexity_reasoning': {'type': 'string'},
                                             'complexity_score': {'type': 'integer'}}}}}
        answer = httpx.post(route, json=router).json()['candidates'][0]['content']['parts'][0]['text']
        assert json.loads(answer) == {'complexity_reasoning': 'scripted', 'complexity_score': 1}
        url = model.base_url + '/v1beta/models/gemini-x:streamGenerateContent?alt=sse'
        [(_, reply)] = sse(httpx.post(url, json={'contents': []}))
        assert reply['candidates'][0]['content']['parts'] == [
            {'functionCall': {'name': 'mcp_vscode_workspace_get_folders', 'args': {}}},
            {'functionCall': {'name': 'mcp_vscode_file_read', 'args': {'path': 'a.txt', 'wait_for_previous': True}}}]
        response = {'functionResponse': {'name': 'mcp_vscode_file_read', 'response': {'output': 'A'}}}
        [(_, reply)] = sse(httpx.post(url, json={'contents': [{'role': 'user', 'parts': [response]}]}))
        assert reply['candidates'][0]['content']['parts'] == [{'text': 'Done.'}]
        assert model.tool_results() == [response['functionResponse']]
        assert len(model.turns) == 2
