"""Streamable HTTP and legacy SSE at the wire level: every refusal has an exact status and message,
and the server keeps serving afterwards."""
import json
import random
import socket
import time

import httpx
import pytest

ACCEPT_BOTH = 'application/json, text/event-stream'
INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 't', 'version': '1'}}}


def headers(window, **extra):
    base = {'Content-Type': 'application/json', 'Accept': ACCEPT_BOTH}
    base.update(window.auth)
    base.update({key.replace('_', '-'): value for key, value in extra.items()})
    return base


def post(window, body, raw=False, path='/mcp', **extra):
    content = body if raw else json.dumps(body)
    return httpx.post(window.base + path, content=content, headers=headers(window, **extra), timeout=60)


def initialize(window):
    response = post(window, INIT)
    assert response.status_code == 200, response.text
    session = response.headers['mcp-session-id']
    post(window, {'jsonrpc': '2.0', 'method': 'notifications/initialized'}, mcp_session_id=session)
    return session


def error_of(response):
    return response.json()['error']


def reply_of(response):
    """The JSON-RPC reply, whether it came as application/json or as the last SSE event."""
    if response.headers['content-type'] == 'text/event-stream':
        data = [line[len('data: '):] for line in response.text.splitlines() if line.startswith('data: ')]
        return json.loads(data[-1])
    return response.json()


def assert_still_serving(window):
    assert httpx.get(window.base + '/health', timeout=60).json()['status'] == 'ok'
    session = initialize(window)
    reply = post(window, {'jsonrpc': '2.0', 'id': 9, 'method': 'ping'}, mcp_session_id=session)
    assert reply.json() == {'jsonrpc': '2.0', 'id': 9, 'result': {}}


def test_health_reports_without_secrets(window):
    health = httpx.get(window.base + '/health', timeout=60).json()
    assert health['status'] == 'ok' and health['name'] == 'hermes-vscode' and health['version'] == '0.1.0'
    assert health['tools'] >= 2 and health['sessions'] == 0 and health['auth'] == 'token'
    assert '2025-11-25' in health['protocolVersions']
    assert window.token not in json.dumps(health)


def test_initialize_issues_a_session_and_negotiates(window):
    response = post(window, INIT)
    assert response.status_code == 200
    assert response.headers['content-type'] == 'application/json'
    assert len(response.headers['mcp-session-id']) >= 32
    assert response.json()['result']['protocolVersion'] == '2025-06-18'
    assert 'access-control-allow-origin' not in response.headers


def test_unsupported_client_version_gets_our_latest(window):
    body = dict(INIT, params=dict(INIT['params'], protocolVersion='1999-01-01'))
    assert post(window, body).json()['result']['protocolVersion'] == '2025-11-25'


@pytest.mark.parametrize('auth, message', [
    (None, 'Unauthorized: send "Authorization: Bearer <token>"'),
    ('Bearer wrong', 'Unauthorized: the bearer token is wrong'),
])
def test_missing_or_wrong_token_is_401(window, auth, message):
    sent = {'Content-Type': 'application/json', 'Accept': ACCEPT_BOTH}
    if auth:
        sent['Authorization'] = auth
    for method, path in [('POST', '/mcp'), ('GET', '/mcp'), ('DELETE', '/mcp'), ('GET', '/sse'), ('POST', '/messages')]:
        response = httpx.request(method, window.base + path, headers=sent, content=json.dumps(INIT), timeout=60)
        assert response.status_code == 401, (method, path)
        assert error_of(response)['message'].startswith(message)
        assert response.headers['www-authenticate'] == 'Bearer realm="hermes-vscode"'
    assert_still_serving(window)


def test_evil_host_and_origin_are_403(window):
    evil_host = post(window, INIT, host='evil.example.com')
    assert evil_host.status_code == 403
    assert error_of(evil_host)['message'] == 'Forbidden: Host evil.example.com is not this local server'
    evil_origin = post(window, INIT, origin='https://evil.example.com')
    assert evil_origin.status_code == 403
    assert error_of(evil_origin)['message'] == 'Forbidden: Origin https://evil.example.com is not allowed'


def test_host_is_checked_on_every_request_after_a_good_one(window):
    # the server remembers the last Host it accepted; any other value is checked again, and refused
    own = f'127.0.0.1:{window.port}'
    for host in [own, 'evil.example.com', own, f'127.0.0.1:{window.port + 1}', own, f'localhost:{window.port}',
                 'EVIL.example.com:' + str(window.port)]:
        response = post(window, INIT, host=host)
        refused = host.lower().startswith('evil') or host.endswith(str(window.port + 1))
        assert response.status_code == (403 if refused else 200), host
        if refused:
            assert error_of(response)['message'] == f'Forbidden: Host {host} is not this local server'
    assert post(window, INIT, origin=f'http://localhost:{window.port}').status_code == 200
    assert_still_serving(window)


def test_malformed_json_is_a_parse_error(window):
    response = post(window, '{"jsonrpc": "2.0", "id": 1, "method": ', raw=True)
    assert response.status_code == 400
    error = error_of(response)
    assert error['code'] == -32700 and error['message'].startswith('Parse error: ')
    assert_still_serving(window)


@pytest.mark.parametrize('body', ['[]', '"text"', '42', 'null', '[1, 2]', '{"jsonrpc": "1.0", "id": 1, "method": "ping"}'])
def test_non_request_bodies_are_invalid_requests(window, body):
    session = initialize(window)
    response = post(window, body, raw=True, mcp_session_id=session)
    replies = response.json()
    reply = replies[0] if isinstance(replies, list) else replies
    assert reply['error']['code'] == -32600, response.text
    assert_still_serving(window)


def test_wrong_content_type_is_415(window):
    response = httpx.post(window.url, content=json.dumps(INIT), timeout=60,
                          headers=dict(window.auth, **{'Content-Type': 'text/plain', 'Accept': ACCEPT_BOTH}))
    assert response.status_code == 415
    assert error_of(response)['message'] == 'Unsupported Media Type: Content-Type must be application/json'


def test_wrong_accept_is_406(window):
    response = httpx.post(window.url, content=json.dumps(INIT), timeout=60,
                          headers=dict(window.auth, **{'Content-Type': 'application/json', 'Accept': 'text/html'}))
    assert response.status_code == 406
    assert error_of(response)['message'] == ('Not Acceptable: the Accept header must list both application/json '
                                             'and text/event-stream')


def test_oversized_body_is_413(window):
    big = json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'ping', 'params': {'pad': 'x' * (5 * 1024 * 1024)}})
    response = post(window, big, raw=True)
    assert response.status_code == 413
    assert error_of(response)['message'] == 'Payload Too Large: request bodies are limited to 4194304 bytes'
    assert_still_serving(window)


def test_session_rules(window):
    no_session = post(window, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'})
    assert no_session.status_code == 400
    assert error_of(no_session)['message'] == ('Bad Request: Mcp-Session-Id header is required '
                                               '(send initialize first to get one)')
    unknown = post(window, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}, mcp_session_id='nope')
    assert unknown.status_code == 404
    assert error_of(unknown)['message'] == 'Session not found: nope (it ended or never existed; initialize a new one)'
    session = initialize(window)
    deleted = httpx.delete(window.url, headers=headers(window, mcp_session_id=session), timeout=60)
    assert deleted.status_code == 200
    after = post(window, {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/list'}, mcp_session_id=session)
    assert after.status_code == 404
    bad_version = post(window, {'jsonrpc': '2.0', 'id': 3, 'method': 'ping'}, mcp_session_id=initialize(window),
                       mcp_protocol_version='2099-01-01')
    assert bad_version.status_code == 400
    assert error_of(bad_version)['message'].startswith('Bad Request: unsupported MCP-Protocol-Version 2099-01-01')


def test_unknown_method_and_invalid_params(window):
    session = initialize(window)
    unknown = post(window, {'jsonrpc': '2.0', 'id': 4, 'method': 'no/such'}, mcp_session_id=session).json()
    assert unknown['error']['code'] == -32601 and unknown['error']['message'] == 'Method not found: no/such'
    invalid = reply_of(post(window, {'jsonrpc': '2.0', 'id': 5, 'method': 'tools/call', 'params': {'name': 7}},
                            mcp_session_id=session))
    assert invalid['id'] == 5 and invalid['error']['code'] == -32602


def test_tools_call_before_initialize_is_refused(window):
    """Only a legacy session can exist before initialize: its messages go to the SSE stream."""
    with httpx.stream('GET', window.base + '/sse', headers=headers(window, accept='text/event-stream'),
                      timeout=60) as stream:
        lines = stream.iter_lines()
        endpoint = [next(lines) for _ in range(3)][2][len('data: '):]
        early = post(window, {'jsonrpc': '2.0', 'id': 6, 'method': 'tools/call',
                              'params': {'name': 'workspace_get_folders', 'arguments': {}}}, path=endpoint)
        assert early.status_code == 202 and early.text == 'Accepted'
        data = next(line for line in lines if line.startswith('data: '))
    reply = json.loads(data[len('data: '):])
    assert reply['id'] == 6 and reply['error']['code'] == -32600
    assert reply['error']['message'] == 'Server not initialized: send initialize first'


def test_notification_gets_202(window):
    session = initialize(window)
    response = post(window, {'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': {'requestId': 99}},
                    mcp_session_id=session)
    assert response.status_code == 202 and response.text == ''


def test_tools_call_that_streams_nothing_answers_as_plain_json(window, workspace):
    # SSE only once a call has something to send before its result (test_progress_and_cancel.py):
    # a plain call costs no stream, no chunked body and no keep-alive timer.
    session = initialize(window)
    response = post(window, {'jsonrpc': '2.0', 'id': 7, 'method': 'tools/call',
                             'params': {'name': 'workspace_get_folders', 'arguments': {}}}, mcp_session_id=session)
    assert response.status_code == 200 and response.headers['content-type'] == 'application/json'
    assert response.headers['mcp-session-id'] == session
    # sent whole, with its length: one write, no chunk framing
    assert 'transfer-encoding' not in response.headers
    assert response.headers['content-length'] == str(len(response.content))
    reply = response.json()
    assert reply['id'] == 7 and str(workspace) in reply['result']['content'][0]['text']


def test_get_stream_then_conflict_then_delete(window):
    session = initialize(window)
    with httpx.stream('GET', window.url, headers=headers(window, mcp_session_id=session, accept='text/event-stream'),
                      timeout=60) as stream:
        assert stream.status_code == 200 and stream.headers['content-type'] == 'text/event-stream'
        second = httpx.get(window.url, headers=headers(window, mcp_session_id=session, accept='text/event-stream'),
                           timeout=60)
        assert second.status_code == 409
        assert error_of(second)['message'] == 'Conflict: this session already has an open SSE stream'
    assert_still_serving(window)


def test_legacy_messages_need_a_known_session(window):
    missing = post(window, INIT, path='/messages')
    assert missing.status_code == 400
    assert error_of(missing)['message'] == 'Bad Request: the sessionId query parameter is required'
    unknown = post(window, INIT, path='/messages?sessionId=nope')
    assert unknown.status_code == 404
    assert error_of(unknown)['message'] == 'Session not found: nope (open /sse again)'


def test_legacy_stream_sends_endpoint_and_closes_session_on_disconnect(window):
    with httpx.stream('GET', window.base + '/sse', headers=headers(window, accept='text/event-stream'),
                      timeout=60) as stream:
        lines = stream.iter_lines()
        assert next(lines) == 'event: endpoint'
        next(lines)  # id
        endpoint = next(lines)[len('data: '):]
        assert endpoint.startswith('/messages?sessionId=')
        assert httpx.get(window.base + '/health', timeout=60).json()['sessions'] == 1
    deadline = time.monotonic() + 60  # a ceiling for a condition, not a bound on speed
    while httpx.get(window.base + '/health', timeout=60).json()['sessions'] != 0:
        assert time.monotonic() < deadline, 'the legacy session outlived its stream'
        time.sleep(0.05)


NO_SESSION = ('Bad Request: GET /mcp needs an Mcp-Session-Id header (Streamable HTTP: POST initialize first), '
              'or Accept: text/event-stream for the legacy HTTP+SSE transport (also at /sse)')


@pytest.mark.parametrize('accept', ['*/*', 'text/*', None])
def test_sessionless_get_without_asking_for_a_stream_is_answered_at_once(window, accept):
    """Hermes Agent probes its URL with a plain GET (`Accept: */*`): it gets a finite answer, not a stream."""
    extra = {'Accept': accept} if accept else {}
    request = httpx.Request('GET', window.url, headers=dict(window.auth, **extra))  # no default Accept added
    assert request.headers.get('accept') == accept
    with httpx.Client(timeout=60) as client:
        response = client.send(request)
    assert response.status_code == 400 and error_of(response)['message'] == NO_SESSION
    assert httpx.get(window.base + '/health', timeout=60).json()['sessions'] == 0


@pytest.mark.parametrize('path', ['/mcp', '/sse', '/health'])
def test_head_answers_like_get_without_opening_anything(window, path):
    response = httpx.head(window.base + path, headers=dict(window.auth, Accept='text/event-stream'), timeout=60)
    assert response.status_code == 200 and response.content == b''
    expected = 'application/json' if path == '/health' else 'text/event-stream'
    assert response.headers['content-type'] == expected
    assert httpx.get(window.base + '/health', timeout=60).json()['sessions'] == 0


def test_head_of_the_session_stream_and_a_sessionless_probe(window):
    session = initialize(window)
    stream = httpx.head(window.url, headers=headers(window, mcp_session_id=session, accept='text/event-stream'),
                        timeout=60)
    assert stream.status_code == 200 and stream.headers['content-type'] == 'text/event-stream'
    with httpx.stream('GET', window.url, headers=headers(window, mcp_session_id=session, accept='text/event-stream'),
                      timeout=60) as opened:
        assert opened.status_code == 200  # the HEAD did not take the session's one stream
    probe = httpx.head(window.url, headers=dict(window.auth, Accept='*/*'), timeout=60)
    assert probe.status_code == 400 and probe.headers['content-type'] == 'application/json'
    unauthorized = httpx.head(window.url, timeout=60)
    assert unauthorized.status_code == 401


def test_unknown_path_and_method(window):
    response = httpx.get(window.base + '/nope', timeout=60)
    assert response.status_code == 404
    assert error_of(response)['message'] == 'Not Found: MCP lives at /mcp (legacy SSE at /sse)'
    put = httpx.put(window.url, headers=window.auth, timeout=60)
    assert put.status_code == 405 and put.headers['allow'] == 'GET, HEAD, POST, DELETE'


def test_client_disconnecting_mid_sse_response_leaves_server_serving(window):
    session = initialize(window)
    body = json.dumps({'jsonrpc': '2.0', 'id': 8, 'method': 'tools/call',
                       'params': {'name': 'workspace_get_folders', 'arguments': {}}}).encode()
    request = (f'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{window.port}\r\nContent-Type: application/json\r\n'
               f'Accept: {ACCEPT_BOTH}\r\nAuthorization: Bearer {window.token}\r\nMcp-Session-Id: {session}\r\n'
               f'Content-Length: {len(body)}\r\n\r\n').encode() + body
    for _ in range(20):
        with socket.create_connection(('127.0.0.1', window.port)) as raw:
            raw.sendall(request)
            raw.recv(10)  # read a little of the response, then vanish
    assert_still_serving(window)


def test_random_bytes_never_break_the_server(window):
    session = initialize(window)
    rng = random.Random(1234)
    statuses = set()
    for _ in range(1000):
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        response = httpx.post(window.url, content=payload, headers=headers(window, mcp_session_id=session), timeout=60)
        statuses.add(response.status_code)
        assert response.status_code in (200, 202, 400), (payload, response.status_code, response.text)
    assert 400 in statuses
    assert_still_serving(window)


def test_slow_client_cannot_hold_the_server(window):
    """A client that opens connections and never sends a full request doesn't block others."""
    stuck = []
    for _ in range(20):
        raw = socket.create_connection(('127.0.0.1', window.port))
        raw.sendall(b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n')
        stuck.append(raw)
    try:
        assert_still_serving(window)
    finally:
        for raw in stuck:
            raw.close()
