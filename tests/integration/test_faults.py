"""Faults the MCP server survives, on the bundle's real server under node (tests/node/serve_mcp.js): a client
that never reads its event stream, a window that crashes beside another, the port taken by another program.
docs/RELIABILITY.md lists each with what happens; every wait here is a condition with a generous ceiling."""
import json
import os
import signal
import socket
import time

import httpx

from test_http_transport import headers, initialize, post
from test_mcp_server_cli import cli
from test_windows import free_port, wait_for

MIB = 1024 * 1024
UNSENT_LIMIT = 8 * MIB  # net/sse.py MAX_UNSENT_BYTES


def memory(window):
    """The window's memory after a full collection (serve_mcp.js {"gc": true}; node runs with --expose-gc)."""
    window.command({'gc': True})
    return json.loads(window.process.stdout.readline())


def tools_list(window, session):
    response = post(window, {'jsonrpc': '2.0', 'id': 'tl', 'method': 'tools/list'}, mcp_session_id=session)
    assert response.status_code == 200, response.text
    return response


def open_legacy_stream_that_is_never_read(window):
    """A raw socket that asks for the legacy event stream, reads its first bytes (the endpoint event) and then
    never reads again, with a receive buffer as small as the kernel allows."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(('127.0.0.1', window.port))
    auth = ''.join(f'{key}: {value}\r\n' for key, value in window.auth.items())
    raw.sendall(f'GET /sse HTTP/1.1\r\nHost: 127.0.0.1:{window.port}\r\nAccept: text/event-stream\r\n{auth}\r\n'.encode())
    received = b''
    while b'sessionId=' not in received or b'\n\n' not in received.split(b'sessionId=', 1)[1]:
        received += raw.recv(4096)
    session = received.split(b'sessionId=', 1)[1].split(b'\n', 1)[0].decode().strip()
    return raw, session


def test_a_client_that_never_reads_its_stream_is_dropped_with_memory_bounded_and_others_served(start_window):
    window = start_window(node_args=['--expose-gc'])
    healthy = initialize(window)
    listing = tools_list(window, healthy).content
    before = memory(window)
    raw, stuck = open_legacy_stream_that_is_never_read(window)
    messages = f'{window.base}/messages?sessionId={stuck}'
    pushed, dropped = 0, False
    with httpx.Client(timeout=60, headers=headers(window)) as http:
        for message in [{'jsonrpc': '2.0', 'id': 'init', 'method': 'initialize', 'params': {
                'protocolVersion': '2024-11-05', 'capabilities': {}, 'clientInfo': {'name': 'stuck', 'version': '1'}}},
                        {'jsonrpc': '2.0', 'method': 'notifications/initialized'}]:
            assert http.post(messages, content=json.dumps(message)).status_code == 202
        # Every reply to the stuck session goes to its stream: push until the server lets go of it.
        while pushed < 40 * UNSENT_LIMIT:
            answer = http.post(messages, content=json.dumps({'jsonrpc': '2.0', 'id': pushed, 'method': 'tools/list'}))
            if answer.status_code == 404:  # the session ended with its stream
                dropped = True
                break
            assert answer.status_code == 202, answer.text
            pushed += len(listing)
            if pushed % (16 * len(listing)) == 0:  # and the others are served meanwhile
                assert tools_list(window, healthy).content == listing
    assert dropped, f'the server kept a client that never read after {pushed // MIB} MiB'
    assert pushed >= UNSENT_LIMIT  # not dropped for anything else: it had let the stated limit fill first
    after = memory(window)
    print(f'dropped after {pushed / MIB:.1f} MiB pushed; heap {before["heapUsed"] / MIB:.1f} → '
          f'{after["heapUsed"] / MIB:.1f} MiB, RSS {before["rss"] / MIB:.1f} → {after["rss"] / MIB:.1f} MiB')
    assert after['heapUsed'] < before['heapUsed'] + 2 * UNSENT_LIMIT
    assert tools_list(window, healthy).content == listing
    assert httpx.get(window.base + '/health', timeout=60).json()['sessions'] == 1  # the healthy one only
    raw.setblocking(True)
    raw.settimeout(60)
    try:
        while raw.recv(65536):  # what the kernel had buffered, then the end: the server closed it
            pass
    except ConnectionResetError:
        pass
    raw.close()


def test_a_crashed_window_leaves_the_other_serving_and_its_discovery_file_is_ignored_then_removed(
        start_window, workspace, home):
    survivor = start_window()
    crashed = start_window()  # the newer window: the one a careless client would pick first
    stale = crashed.discovery_file()
    os.kill(crashed.process.pid, signal.SIGKILL)  # no deactivate: its discovery file stays behind
    crashed.process.wait(60)
    assert stale.exists()
    session = initialize(survivor)
    assert tools_list(survivor, session).json()['result']['tools']
    result = cli(['health'], home, workspace, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f'✓ window      {survivor.url} · pid {survivor.process.pid}' in result.stdout
    assert str(crashed.port) not in result.stdout
    assert not stale.exists(), 'the CLI removes the file of a window whose process is gone'
    assert survivor.discovery_file().exists()


def test_a_port_taken_by_another_program_at_start_is_skipped_and_taken_again_once_free(start_window, home):
    preferred = free_port(span=2)
    blocker = socket.socket()
    blocker.bind(('127.0.0.1', preferred))
    blocker.listen()
    first = start_window({'hermes.mcp.port': preferred})
    assert first.port == preferred + 1
    assert json.loads(first.discovery_file().read_text())['port'] == preferred + 1
    blocker.close()  # the other program ends: the running window stays where its clients found it
    assert httpx.get(first.base + '/health', timeout=60).json()['status'] == 'ok'
    assert first.discovery_file().exists()
    first.stop()  # the window closes (or reloads): the next start takes the preferred port again
    wait_for(lambda: not first.discovery_file().exists(), what='the closed window to remove its file')
    again = start_window({'hermes.mcp.port': preferred})
    assert again.port == preferred
    assert json.loads(again.discovery_file().read_text())['port'] == preferred
    assert sorted(path.name for path in (home / '.hermes' / 'ide').glob('*.json')) == [f'{preferred}.json']
