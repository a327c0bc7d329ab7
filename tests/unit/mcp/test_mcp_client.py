"""The Streamable HTTP MCP client (hermes.net.mcp.client) against a scripted fake `fetch`."""
import asyncio
import json

import pytest

import hermes.js.fetch_cpython as cpython
from hermes.net.mcp.client import (McpClientError, McpHttpClient, base_url_of, get_health, http_error_message,
                                   port_of, server_explanation, unreachable_message)

URL = 'http://127.0.0.1:19999/mcp'


class FakeResponse:
    def __init__(self, status=200, body='', content_type='application/json', headers=None, chunks=None,
                 status_text=None):
        self.status = status
        self.statusText = status_text if status_text is not None else {200: 'OK', 202: 'Accepted',
                                                                       401: 'Unauthorized', 404: 'Not Found'}.get(
            status, '')
        self.headers = dict(headers or {})
        if content_type:
            self.headers['Content-Type'] = content_type
        self.chunks = list(chunks) if chunks is not None else ([body] if body else [])


class NetworkError(Exception):
    def __init__(self, code, message='fetch failed'):
        super().__init__(message)
        self.code = code


class FakeServer:
    """Answers each fetch with the next scripted response (or exception), recording the requests."""

    def __init__(self, *responses):
        self.responses = list(responses)
        self.requests = []

    async def __call__(self, url, options):
        self.requests.append({'url': url, 'method': options['method'], 'headers': dict(options['headers']),
                              'body': json.loads(options['body']) if options.get('body') else None})
        answer = self.responses.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


@pytest.fixture
def server(monkeypatch):
    def install(*responses):
        fake = FakeServer(*responses)
        monkeypatch.setattr(cpython, 'FETCH', fake)
        return fake
    return install


def run(coroutine):
    return asyncio.run(coroutine)


def sse(*messages):
    return ''.join(f'event: message\nid: {n}\ndata: {json.dumps(m)}\n\n' for n, m in enumerate(messages))


INIT_RESULT = {'jsonrpc': '2.0', 'id': 1, 'result': {'protocolVersion': '2025-06-18', 'capabilities': {},
                                                     'serverInfo': {'name': 'hermes-vscode', 'version': '0.1.0'}}}


# ------------------------------------------------------------------------------------ pure helpers

def test_base_url_and_port():
    assert base_url_of(URL) == 'http://127.0.0.1:19999'
    assert base_url_of('http://127.0.0.1:19999') == 'http://127.0.0.1:19999'
    assert port_of(URL) == 19999
    assert port_of('http://localhost/mcp') == 80
    assert port_of('https://example.com/mcp') == 443
    assert port_of('http://[::1]:8080/mcp') == 8080
    assert port_of('http://[::1]/mcp') == 80
    assert port_of('http://host:abc/mcp') is None


@pytest.mark.parametrize('code, reason', [
    ('ECONNREFUSED', 'connection refused'), ('ENOTFOUND', 'host not found'), ('ECONNRESET', 'connection reset'),
    (None, 'bad port'), ('EWHATEVER', 'bad port'),
])
def test_unreachable_message(code, reason):
    assert unreachable_message(URL, code, 'bad port') == (
        f"Can't reach the Hermes MCP server at {URL} ({reason}). Is VS Code open with Hermes running?")


def test_unreachable_message_for_timeouts():
    assert 'did not answer within 5000 ms' in unreachable_message(URL, 'TimeoutError', 'x', 5000)
    assert '(timed out)' in unreachable_message(URL, 'TimeoutError', 'x')


@pytest.mark.parametrize('status, status_text, body, expected', [
    (401, 'Unauthorized', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,'
                          '"message":"Unauthorized: the bearer token is wrong"}}',
     '401 Unauthorized: the bearer token is wrong'),
    (404, 'Not Found', '{"error":{"message":"Session not found: abc"}}', '404 Not Found: Session not found: abc'),
    (400, '', '{"error":{"message":"Bad Request: no"}}', '400 Bad Request: no'),
    (500, 'Internal Server Error', '', '500 Internal Server Error'),
    (502, 'Bad Gateway', 'upstream died', '502 Bad Gateway: upstream died'),
    (418, '', '', '418 HTTP error'),
    (403, 'Forbidden', '{"error":"Forbidden"}', '403 Forbidden'),
])
def test_http_error_message(status, status_text, body, expected):
    assert http_error_message(status, status_text, body) == expected


def test_server_explanation_truncates_long_text():
    assert server_explanation('x' * 1000).endswith('…')
    assert server_explanation(None) is None
    assert server_explanation('   ') is None


# ------------------------------------------------------------------------------------ the client

def test_initialize_keeps_session_and_version_for_later_requests(server):
    fake = server(
        FakeResponse(body=json.dumps(INIT_RESULT), headers={'Mcp-Session-Id': 'sess-1'}),
        FakeResponse(status=202, content_type=None),
        FakeResponse(body=json.dumps({'jsonrpc': '2.0', 'id': 2, 'result': {'tools': []}})),
    )
    client = McpHttpClient(URL, 'secret')
    result = run(client.initialize())
    assert result['serverInfo']['name'] == 'hermes-vscode'
    assert client.session_id == 'sess-1'
    assert client.protocol_version == '2025-06-18'
    assert run(client.request('tools/list')) == {'tools': []}
    first, initialized, listing = fake.requests
    assert first['headers'] == {'Accept': 'application/json, text/event-stream', 'Content-Type': 'application/json',
                                'Authorization': 'Bearer secret'}
    assert first['body']['method'] == 'initialize'
    assert first['body']['params']['clientInfo']['name'] == 'hermes-mcp-cli'
    assert initialized['body'] == {'jsonrpc': '2.0', 'method': 'notifications/initialized'}
    assert initialized['headers']['Mcp-Session-Id'] == 'sess-1'
    assert listing['headers']['Mcp-Session-Id'] == 'sess-1'
    assert listing['headers']['MCP-Protocol-Version'] == '2025-06-18'
    assert listing['body']['id'] == 2


def test_no_token_no_authorization_header(server):
    fake = server(FakeResponse(status=202, content_type=None))
    run(McpHttpClient(URL, '').post({'jsonrpc': '2.0', 'method': 'notifications/x'}))
    assert 'Authorization' not in fake.requests[0]['headers']


def test_event_stream_reply_in_odd_chunks_streams_messages_in_order(server):
    progress = {'jsonrpc': '2.0', 'method': 'notifications/progress', 'params': {'progress': 1}}
    reply = {'jsonrpc': '2.0', 'id': 7, 'result': {'content': [{'type': 'text', 'text': 'é\n✓'}]}}
    text = ': ping\r\n\r\n' + sse(progress, reply).replace('\n', '\r\n')
    chunks = [text[i:i + 5] for i in range(0, len(text), 5)]
    server(FakeResponse(content_type='text/event-stream', chunks=chunks))
    seen = []
    received = run(McpHttpClient(URL).post({'jsonrpc': '2.0', 'id': 7, 'method': 'tools/call'}, seen.append))
    assert received == [progress, reply]
    assert seen == [progress, reply]


def test_batch_json_reply(server):
    replies = [{'jsonrpc': '2.0', 'id': 1, 'result': {}}, {'jsonrpc': '2.0', 'id': 2, 'result': {}}]
    server(FakeResponse(body=json.dumps(replies)))
    assert run(McpHttpClient(URL).post([{'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}])) == replies


def test_accepted_and_empty_bodies_are_no_messages(server):
    server(FakeResponse(status=202, content_type=None), FakeResponse(status=200, body=''))
    client = McpHttpClient(URL)
    assert run(client.post({'jsonrpc': '2.0', 'method': 'notifications/initialized'})) == []
    assert run(client.post({'jsonrpc': '2.0', 'method': 'notifications/initialized'})) == []


def test_http_error_carries_status_and_the_servers_words(server):
    error = {'code': -32000, 'message': 'Unauthorized: the bearer token is wrong'}
    server(FakeResponse(status=401, body=json.dumps({'jsonrpc': '2.0', 'id': None, 'error': error})))
    with pytest.raises(McpClientError) as caught:
        run(McpHttpClient(URL, 'bad').post({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}))
    assert str(caught.value) == '401 Unauthorized: the bearer token is wrong'
    assert caught.value.status == 401 and caught.value.kind == 'http'


def test_unreachable_server(server):
    server(NetworkError('ECONNREFUSED'))
    with pytest.raises(McpClientError) as caught:
        run(McpHttpClient(URL).post({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}))
    assert str(caught.value) == ("Can't reach the Hermes MCP server at http://127.0.0.1:19999/mcp "
                                 "(connection refused). Is VS Code open with Hermes running?")
    assert caught.value.kind == 'network'


def test_connection_breaking_mid_stream(server):
    server(FakeResponse(content_type='text/event-stream', chunks=['event: message\n', NetworkError('ECONNRESET')]))
    with pytest.raises(McpClientError) as caught:
        run(McpHttpClient(URL).post({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}))
    assert 'broke (connection reset)' in str(caught.value)


def test_invalid_json_and_unexpected_content_type(server):
    server(FakeResponse(body='{nope'), FakeResponse(body='<html>', content_type='text/html'),
           FakeResponse(content_type='text/event-stream', chunks=['data: {nope\n\n']))
    client = McpHttpClient(URL)
    for words in ['invalid JSON', 'text/html instead of JSON', 'event with invalid JSON']:
        with pytest.raises(McpClientError) as caught:
            run(client.post({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}))
        assert words in str(caught.value)
        assert caught.value.kind == 'protocol'


def test_request_raises_on_json_rpc_errors_and_missing_replies(server):
    server(FakeResponse(body=json.dumps({'jsonrpc': '2.0', 'id': 1, 'error': {'code': -32601, 'message': 'nope'}})),
           FakeResponse(body=json.dumps({'jsonrpc': '2.0', 'id': 99, 'result': {}})))
    client = McpHttpClient(URL)
    with pytest.raises(McpClientError) as caught:
        run(client.request('bogus/method'))
    assert str(caught.value) == 'bogus/method failed: nope (-32601)'
    assert caught.value.kind == 'rpc' and caught.value.code == -32601
    with pytest.raises(McpClientError) as caught:
        run(client.request('ping'))
    assert 'no response to ping' in str(caught.value)


def test_a_new_initialize_drops_the_old_session(server):
    fake = server(FakeResponse(body=json.dumps(INIT_RESULT), headers={'Mcp-Session-Id': 'new'}))
    client = McpHttpClient(URL)
    client.session_id, client.protocol_version = 'old', '2025-03-26'
    run(client.post({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {}}))
    assert 'Mcp-Session-Id' not in fake.requests[0]['headers']
    assert client.session_id == 'new'


def test_close_deletes_the_session_and_never_raises(server):
    fake = server(FakeResponse(status=200, body=''), NetworkError('ECONNREFUSED'))
    client = McpHttpClient(URL, 'tok')
    client.session_id = 's1'
    run(client.close())
    assert fake.requests[0]['method'] == 'DELETE'
    assert fake.requests[0]['headers']['Mcp-Session-Id'] == 's1'
    assert client.session_id is None
    run(client.close())  # no session: nothing sent
    client.session_id = 's2'
    run(client.close())  # the server is gone: swallowed
    assert len(fake.requests) == 2


def test_listen_delivers_server_notifications(server):
    changed = {'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'}
    fake = server(FakeResponse(content_type='text/event-stream', chunks=[': keep-alive\n\n', sse(changed)]))
    client = McpHttpClient(URL, 'tok')
    client.session_id = 's1'
    seen = []
    run(client.listen(seen.append))
    assert seen == [changed]
    assert fake.requests[0]['method'] == 'GET'
    assert fake.requests[0]['headers']['Accept'] == 'text/event-stream'
    assert fake.requests[0]['headers']['Mcp-Session-Id'] == 's1'


def test_listen_refused(server):
    server(FakeResponse(status=405, status_text='Method Not Allowed', body=''))
    client = McpHttpClient(URL)
    client.session_id = 's1'
    with pytest.raises(McpClientError) as caught:
        run(client.listen(print))
    assert caught.value.status == 405


def test_get_health(server):
    fake = server(FakeResponse(body='{"status": "ok", "tools": 3}'), FakeResponse(status=404, body='nope'),
                  NetworkError('ECONNREFUSED'))
    assert run(get_health('http://127.0.0.1:5')) == {'status': 'ok', 'tools': 3}
    assert fake.requests[0]['url'] == 'http://127.0.0.1:5/health'
    with pytest.raises(McpClientError, match='404 Not Found: nope'):
        run(get_health('http://127.0.0.1:5'))
    with pytest.raises(McpClientError, match='connection refused'):
        run(get_health('http://127.0.0.1:5'))
