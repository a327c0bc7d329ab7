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
    session = initialize(window)
    body = {'jsonrpc': '2.0', 'id': 'slow-1', 'method': 'tools/call',
            'params': {'name': 'test_progress', 'arguments': {'steps': 200, 'delay_ms': 20}}}
    outcome = {}

    def call():
        outcome['response'] = httpx.post(window.url, content=json.dumps(body), timeout=30,
                                         headers=headers(window, mcp_session_id=session))
    worker = threading.Thread(target=call)
    started = time.monotonic()
    worker.start()
    time.sleep(0.3)
    cancel = post(window, {'jsonrpc': '2.0', 'method': 'notifications/cancelled',
                           'params': {'requestId': 'slow-1', 'reason': 'user pressed stop'}}, mcp_session_id=session)
    assert cancel.status_code == 202
    worker.join(10)
    assert time.monotonic() - started < 3, 'the cancelled call kept running'
    replies = [m for m in sse_messages(outcome['response'].text) if m.get('id') == 'slow-1']
    assert replies == []  # a cancelled request gets no response
    state = post(window, {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call',
                          'params': {'name': 'test_cancelled_calls', 'arguments': {}}}, mcp_session_id=session)
    cancelled_at = sse_messages(state.text)[-1]['result']['structuredContent']['cancelled']
    assert len(cancelled_at) == 1 and 5 <= cancelled_at[0] < 200


def test_list_changed_reaches_the_get_stream(window):
    """Adding a tool at run time tells connected clients (notifications/tools/list_changed)."""
    session = initialize(window)
    with httpx.stream('GET', window.url, timeout=10,
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
