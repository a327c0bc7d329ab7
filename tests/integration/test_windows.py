"""Several windows, discovery files, settings that take effect without a reload."""
import json
import os
import random
import socket
import stat
import time

import httpx


def wait_for(predicate, timeout=60, what='condition'):  # a generous ceiling: the machine may be busy
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f'timed out waiting for {what}')


def free_port(span=1):
    """A port with `span` free neighbours, below Linux's ephemeral range so clients can't grab them."""
    rng = random.Random()
    while True:
        port = rng.randrange(20000, 32000)
        if all(port_is_free(port + offset) for offset in range(span)):
            return port


def port_is_free(port):
    with socket.socket() as probe:
        try:
            probe.bind(('127.0.0.1', port))
            return True
        except OSError:
            return False


def test_discovery_file_is_private_and_complete(window, workspace, home):
    path = window.discovery_file()
    info = json.loads(path.read_text())
    assert info['url'] == window.url and info['port'] == window.port and info['token'] == window.token
    assert info['workspaceFolders'] == [str(workspace)]
    assert info['protocolVersions'][0] == '2026-07-28'
    assert info['pid'] == window.process.pid
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700


def test_discovery_file_removed_on_deactivate(window):
    path = window.discovery_file()
    assert path.exists()
    assert window.stop() == 0
    assert not path.exists()


def test_second_window_takes_the_next_port(start_window):
    port = free_port(span=2)
    first = start_window({'hermes.mcp.port': port})
    second = start_window({'hermes.mcp.port': port})
    assert first.port == port and second.port == port + 1
    for window in (first, second):
        assert httpx.get(window.base + '/health', timeout=60).json()['status'] == 'ok'
        assert window.discovery_file().exists()
    assert first.discovery_file() != second.discovery_file()  # each window serves and announces itself


def test_taken_port_by_another_program_is_skipped(start_window):
    with socket.socket() as blocker:
        taken = free_port(span=2)
        blocker.bind(('127.0.0.1', taken))
        blocker.listen()
        window = start_window({'hermes.mcp.port': taken})
        assert window.port == taken + 1


def test_changing_the_port_restarts_without_reload(window, home):
    old_port = window.port
    new_port = free_port()
    window.set_settings({'hermes.mcp.port': new_port})
    new_file = home / '.hermes' / 'ide' / f'{new_port}.json'
    wait_for(new_file.exists, what='the new discovery file')
    assert not (home / '.hermes' / 'ide' / f'{old_port}.json').exists()
    assert httpx.get(f'http://127.0.0.1:{new_port}/health', timeout=60).json()['status'] == 'ok'
    try:
        httpx.get(f'http://127.0.0.1:{old_port}/health', timeout=2)
        raise AssertionError('the old port still answers')
    except httpx.ConnectError:
        pass


def test_auth_none_serves_without_token(start_window):
    window = start_window({'hermes.mcp.auth': 'none'})
    assert window.token is None
    health = httpx.get(window.base + '/health', timeout=60).json()
    assert health['auth'] == 'none'
    response = httpx.post(window.url, timeout=60, headers={'Content-Type': 'application/json',
                                                          'Accept': 'application/json, text/event-stream'},
                          content=json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
                              'protocolVersion': '2025-11-25', 'capabilities': {},
                              'clientInfo': {'name': 't', 'version': '1'}}}))
    assert response.status_code == 200


def test_disabling_stops_the_server(window):
    base = window.base
    path = window.discovery_file()
    window.set_settings({'hermes.mcp.enabled': False})
    wait_for(lambda: not path.exists(), what='the discovery file to go')
    try:
        httpx.get(base + '/health', timeout=2)
        raise AssertionError('a disabled server still answers')
    except httpx.ConnectError:
        pass
