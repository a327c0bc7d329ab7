"""Per-request streams carry a call's progress and log notifications; notifications/cancelled reaches
the running handler and the cancelled call gets no response (the spec's rule)."""
import asyncio
import json
import threading
import time

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from test_http_transport import headers, initialize, post


@pytest.fixture
def window(start_window):
    return start_window(test_tools=True)


def sse_messages(text):
    return [json.loads(line[len('data: '):]) for line in text.splitlines() if line.startswith('data: ')]


def test_progress_and_logs_stream_before_the_result(window):
    session = initialize(window)
    post(window, {'jsonrpc': '2.0', 'id': 1, 'method': 'logging/setLevel', 'params': {'level': 'info'}},
         mcp_session_id=session)
    response = post(window, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call', 'params': {
        'name': 'test_progress', 'arguments': {'steps': 3}, '_meta': {'progressToken': 'tok-1'}}},
        mcp_session_id=session)
    assert response.headers['content-type'] == 'text/event-stream'
    messages = sse_messages(response.text)
    progress = [m['params'] for m in messages if m.get('method') == 'notifications/progress']
    assert progress == [{'progressToken': 'tok-1', 'progress': step, 'total': 3, 'message': f'step {step}'}
                        for step in (1, 2, 3)]
    logs = [m['params'] for m in messages if m.get('method') == 'notifications/message']
    assert logs == [{'level': 'info', 'logger': 'test_progress', 'data': f'did step {step}'} for step in (1, 2, 3)]
    assert messages[-1]['id'] == 2 and messages[-1]['result']['content'][0]['text'] == 'done 3'


def test_sdk_progress_callback_receives_every_step(window):
    seen = []

    async def progress(value, total, message):
        seen.append((value, total, message))

    async def run():
        async with httpx2.AsyncClient(headers=window.auth) as http:
            async with streamable_http_client(window.url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await session.call_tool('test_progress', {'steps': 4}, progress_callback=progress)
    result = asyncio.run(asyncio.wait_for(run(), 30))
    assert result.content[0].text == 'done 4'
    assert seen == [(step, 4, f'step {step}') for step in range(1, 5)]


def test_cancelled_notification_stops_the_handler_and_drops_the_response(window):
    """Cancelled once the call is running (its first progress arrived): a condition, not a delay. The call
    would count to 100,000 (over half an hour): only the cancellation can end it."""
    session = initialize(window)
    body = {'jsonrpc': '2.0', 'id': 'slow-1', 'method': 'tools/call',
            'params': {'name': 'test_progress', 'arguments': {'steps': 100000, 'delay_ms': 20},
                       '_meta': {'progressToken': 'slow'}}}
    running, outcome = threading.Event(), {'messages': []}

    def call():
        with httpx.stream('POST', window.url, content=json.dumps(body), timeout=120,
                          headers=headers(window, mcp_session_id=session)) as stream:
            for line in stream.iter_lines():
                if line.startswith('data: '):
                    outcome['messages'].append(json.loads(line[len('data: '):]))
                    running.set()
    worker = threading.Thread(target=call)
    worker.start()
    assert running.wait(120), 'the call never reported progress'
    cancel = post(window, {'jsonrpc': '2.0', 'method': 'notifications/cancelled',
                           'params': {'requestId': 'slow-1', 'reason': 'user pressed stop'}}, mcp_session_id=session)
    assert cancel.status_code == 202
    worker.join(120)
    assert not worker.is_alive(), 'the cancelled call kept its stream open'
    assert [m for m in outcome['messages'] if m.get('id') == 'slow-1'] == []  # a cancelled request gets no response
    state = post(window, {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call',
                          'params': {'name': 'test_cancelled_calls', 'arguments': {}}}, mcp_session_id=session)
    cancelled_at = state.json()['result']['structuredContent']['cancelled']  # it streamed nothing: plain JSON
    assert len(cancelled_at) == 1 and 2 <= cancelled_at[0] < 100000  # stopped in the middle, after it had begun


def test_list_changed_reaches_the_get_stream(window):
    """Adding a tool at run time tells connected clients (notifications/tools/list_changed)."""
    session = initialize(window)
    with httpx.stream('GET', window.url, timeout=60,
                      headers=headers(window, mcp_session_id=session, accept='text/event-stream')) as stream:
        window.process.stdin.write(json.dumps({'addTool': 'test_dynamic'}) + '\n')
        window.process.stdin.flush()
        for line in stream.iter_lines():
            if line.startswith('data: '):
                message = json.loads(line[len('data: '):])
                assert message == {'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'}
                break
    tools = post(window, {'jsonrpc': '2.0', 'id': 4, 'method': 'tools/list'}, mcp_session_id=session).json()
    assert 'test_dynamic' in [tool['name'] for tool in tools['result']['tools']]


MODERN_META = {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
               'io.modelcontextprotocol/clientCapabilities': {}}


def modern_headers(window, method, name=None):
    result = {'Accept': 'application/json, text/event-stream', 'Content-Type': 'application/json',
              'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, **window.auth}
    if name:
        result['Mcp-Name'] = name
    return result


def modern_call(window, request_id, name, arguments, **meta):
    body = {'jsonrpc': '2.0', 'id': request_id, 'method': 'tools/call',
            'params': {'name': name, 'arguments': arguments, '_meta': dict(MODERN_META, **meta)}}
    return body, modern_headers(window, 'tools/call', name)


def test_2026_progress_streams_and_closing_the_stream_cancels_the_call(window):
    """No session, no notifications/cancelled: the progress arrives on the request's own stream (without
    event ids: nothing to resume), and closing that stream is the cancellation."""
    body, headers_ = modern_call(window, 'long-1', 'test_progress', {'steps': 100000, 'delay_ms': 20},
                                 progressToken='p-1')
    with httpx.stream('POST', window.url, json=body, headers=headers_, timeout=120) as stream:
        assert stream.headers['content-type'] == 'text/event-stream'
        lines = []
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith('data: '):
                first = json.loads(line[len('data: '):])
                break
    assert first == {'jsonrpc': '2.0', 'method': 'notifications/progress',
                     'params': {'progressToken': 'p-1', 'progress': 1, 'total': 100000, 'message': 'step 1'}}
    assert not any(line.startswith('id:') for line in lines)
    deadline = time.monotonic() + 120  # a condition to wait for (generously), not a timing assertion
    cancelled_at = []
    while not cancelled_at and time.monotonic() < deadline:
        body, headers_ = modern_call(window, 'state', 'test_cancelled_calls', {})
        reply = httpx.post(window.url, json=body, headers=headers_, timeout=60)
        assert reply.status_code == 200 and reply.headers['content-type'] == 'application/json'
        cancelled_at = reply.json()['result']['structuredContent']['cancelled']
        time.sleep(0.05)
    assert len(cancelled_at) == 1 and 1 <= cancelled_at[0] < 100000


def test_2026_log_lines_only_at_the_requested_level(window):
    body, headers_ = modern_call(window, 2, 'test_progress', {'steps': 2}, **{
        'io.modelcontextprotocol/logLevel': 'info'})
    messages = sse_messages(httpx.post(window.url, json=body, headers=headers_, timeout=60).text)
    assert [m['params']['data'] for m in messages if m.get('method') == 'notifications/message'] == [
        'did step 1', 'did step 2']
    assert messages[-1]['result']['resultType'] == 'complete'
    body, headers_ = modern_call(window, 3, 'test_progress', {'steps': 2})
    quiet = httpx.post(window.url, json=body, headers=headers_, timeout=60)
    assert quiet.headers['content-type'] == 'application/json'  # nothing to say first: plain JSON
    assert quiet.json()['result']['content'][0]['text'] == 'done 2'
