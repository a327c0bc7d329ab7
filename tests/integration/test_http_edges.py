"""The MCP transport's edges, on the bundle's real server: bodies over the limit get a 413 the client can
read (and an endless body does not keep the connection), and no random or mutated body breaks it.
(Slow-loris and half-sent requests: tests/node/http_edges.test.js, with short timeouts.)"""
import http.client
import json
import random
import socket

import httpx

from test_http_transport import INIT, headers, initialize, assert_still_serving

LIMIT = 4 * 1024 * 1024
TOO_LARGE = 'Payload Too Large: request bodies are limited to 4194304 bytes'


def _post_with_stdlib(window, body):
    """http.client sends the whole body before it reads: a server that closes early makes it fail with a
    broken pipe (httpx would read an early answer and hide that)."""
    connection = http.client.HTTPConnection('127.0.0.1', window.port, timeout=60)
    try:
        connection.request('POST', '/mcp', body=body, headers=headers(window))
        response = connection.getresponse()
        return response.status, response.getheader('Connection'), json.loads(response.read())
    finally:
        connection.close()


def test_a_32_mib_body_gets_a_413_the_client_reads(window):
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b'x' * (32 * 1024 * 1024) + b'"}}'
    status, connection, reply = _post_with_stdlib(window, body)
    assert (status, connection, reply['error']['message']) == (413, 'close', TOO_LARGE)
    assert_still_serving(window)


def test_an_over_limit_body_without_a_declared_length_gets_a_413(window):
    body = iter([b'x' * (1024 * 1024)] * 12)  # sent chunked: the limit is found while reading
    status, connection, reply = _post_with_stdlib(window, body)
    assert (status, connection, reply['error']['message']) == (413, 'close', TOO_LARGE)


def test_an_endless_body_is_cut_without_being_read_to_the_end(window):
    raw = socket.create_connection(('127.0.0.1', window.port), timeout=60)
    token = window.auth.get('Authorization', '')
    raw.sendall(('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
                 'Accept: application/json, text/event-stream\r\nAuthorization: ' + token + '\r\n'
                 'Transfer-Encoding: chunked\r\n\r\n').encode())
    chunk = b'100000\r\n' + b'x' * 0x100000 + b'\r\n'
    sent = 0
    cut = False
    try:
        while sent < 1024:  # 1 GiB: far past what the server will read after its 413
            raw.sendall(chunk)
            sent += 1
    except (BrokenPipeError, ConnectionResetError):
        cut = True
    finally:
        raw.close()
    assert cut, 'the server read 1 GiB of a body it had refused'
    assert_still_serving(window)


def _mutations(rng, seeds):
    """Bodies made from valid messages: bytes flipped, dropped, duplicated, cut, values swapped for odd ones."""
    odd_values = [None, True, -1, 2 ** 60, 1e308, '', '\u202e', '\x00', [], {}, [[]], {'__proto__': {}},
                  'x' * 1000, {'constructor': 1}, 'tools/call', '__class__']
    for _ in range(1000):
        seed = rng.choice(seeds)
        kind = rng.randrange(4)
        if kind == 0:  # a field's value replaced
            message = json.loads(json.dumps(seed))
            if isinstance(message, list):
                message = message[0]
            target = message['params'] if 'params' in message and isinstance(message['params'], dict) and rng.random() < 0.5 else message
            keys = list(target.keys())
            if keys:
                target[rng.choice(keys)] = rng.choice(odd_values)
            yield json.dumps(message).encode()
        else:
            data = bytearray(json.dumps(seed).encode())
            for _ in range(rng.randrange(1, 4)):
                position = rng.randrange(len(data))
                if kind == 1:
                    data[position] = rng.randrange(256)
                elif kind == 2:
                    del data[position:position + rng.randrange(1, 8)]
                else:
                    data[position:position] = data[position:position + rng.randrange(1, 16)]
            yield bytes(data)


SEEDS = [INIT,
         {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'},
         {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call', 'params': {'name': 'file_read', 'arguments': {'path': 'main.py'}}},
         {'jsonrpc': '2.0', 'id': 4, 'method': 'ping'},
         [{'jsonrpc': '2.0', 'id': 5, 'method': 'ping'}, {'jsonrpc': '2.0', 'method': 'notifications/initialized'}],
         {'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': {'requestId': 3}}]


def test_a_thousand_random_bodies_get_4xx_and_the_server_lives(window):
    session = initialize(window)
    rng = random.Random(20261201)
    for _ in range(1000):
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        try:
            json.loads(payload.decode('utf-8', 'replace'))  # as the server reads it
            continue  # by chance valid JSON: not a random body
        except ValueError:
            pass
        response = httpx.post(window.url, content=payload, headers=headers(window, mcp_session_id=session), timeout=10)
        assert 400 <= response.status_code < 500, (payload, response.status_code, response.text)
    assert_still_serving(window)


def test_a_thousand_mutated_bodies_never_get_a_5xx_and_the_server_lives(window):
    session = initialize(window)
    rng = random.Random(7)
    statuses = set()
    for payload in _mutations(rng, SEEDS):
        response = httpx.post(window.url, content=payload, headers=headers(window, mcp_session_id=session), timeout=10)
        statuses.add(response.status_code)
        assert response.status_code < 500, (payload, response.status_code, response.text)
        try:
            json.loads(payload.decode('utf-8', 'replace'))  # as the server reads it
        except ValueError:
            assert 400 <= response.status_code < 500, (payload, response.status_code, response.text)
    assert 400 in statuses
    assert_still_serving(window)
