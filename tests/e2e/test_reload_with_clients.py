"""A window reload with MCP clients connected, in a real VS Code (code-server, the packaged extension): the
extension host restarts and the MCP server with it. The discovery file is written anew with the same port and
token; a 2025 client's old session gets 404 (the spec's "start a new session") and a new one works, subscriptions
included; a 2026-07-28 client, which has no session, just goes on. (docs/RELIABILITY.md)"""
import json
import time

import httpx
import pytest

from conftest import copy_of_fixture_workspace, open_window, running_code_server
from mcp_session import McpSession
from vscode_server import free_port, wait_until

ACTIVE = 'hermes://editor/active'
MODERN_META = {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
               'io.modelcontextprotocol/clientCapabilities': {},
               'io.modelcontextprotocol/clientInfo': {'name': 'reload-test', 'version': '1'}}


@pytest.fixture(scope='module')
def preferred_port():
    return free_port()


@pytest.fixture(scope='module')
def reload_workspace(tmp_path_factory):
    return copy_of_fixture_workspace(tmp_path_factory, 'reload-ws')


@pytest.fixture(scope='module')
def reload_server(tmp_path_factory, reload_workspace, preferred_port):
    settings = {'hermes.mcp.port': preferred_port, 'hermes.tools.confirm': 'never'}
    with running_code_server(tmp_path_factory, reload_workspace, 'reload', settings=settings) as server:
        yield server


def post_2025(info, body, session=None):
    headers = {'Authorization': f"Bearer {info['token']}", 'Content-Type': 'application/json',
               'Accept': 'application/json, text/event-stream'}
    if session:
        headers.update({'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25'})
    return httpx.post(info['url'], content=json.dumps(body), headers=headers, timeout=60)


def open_2025_session(info):
    response = post_2025(info, {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-11-25', 'capabilities': {}, 'clientInfo': {'name': 'reload-test', 'version': '1'}}})
    assert response.status_code == 200, response.text
    session = response.headers['mcp-session-id']
    assert post_2025(info, {'jsonrpc': '2.0', 'method': 'notifications/initialized'}, session).status_code == 202
    return session


def tools_2026(info):
    """tools/list as a 2026-07-28 client sends it: no session, the version in every request."""
    return httpx.post(info['url'], timeout=60, content=json.dumps(
        {'jsonrpc': '2.0', 'id': 7, 'method': 'tools/list', 'params': {'_meta': MODERN_META}}), headers={
        'Authorization': f"Bearer {info['token']}", 'Content-Type': 'application/json',
        'Accept': 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list'})


def activations(server):
    return server.extension_log_text().count('activated in')


def test_a_reload_keeps_the_port_ends_old_sessions_with_404_and_clients_carry_on(browser, reload_server,
                                                                                reload_workspace, preferred_port):
    with open_window(browser, reload_server, 'reload') as window:
        before = reload_server.discovery_for(reload_workspace)
        assert before['port'] == preferred_port
        wait_until(lambda: activations(reload_server) >= 1, 90, what='the extension to activate')
        old_session = open_2025_session(before)
        assert post_2025(before, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}, old_session).status_code == 200
        tools = [tool['name'] for tool in tools_2026(before).json()['result']['tools']]
        assert 'file_read' in tools

        window.page.reload()
        window.page.wait_for_selector('.monaco-workbench')
        wait_until(lambda: activations(reload_server) >= 2, 90, what='the extension to activate again')

        def rewritten():
            for info in reload_server.discovery_files():
                if str(reload_workspace) in info.get('workspaceFolders', []) and info.get('pid') != before['pid']:
                    return info
            return None
        after = wait_until(rewritten, 90, what='the discovery file of the new extension host')
        assert (after['port'], after['url'], after['token']) == (before['port'], before['url'], before['token'])
        assert [info['pid'] for info in reload_server.discovery_files()] == [after['pid']]  # the old one is gone

        # 2025: the old session is gone with the old extension host; the spec says 404, and a new session works
        stale = post_2025(after, {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/list'}, old_session)
        assert stale.status_code == 404, stale.text
        assert stale.json()['error']['message'] == (f'Session not found: {old_session} (it ended or never existed; '
                                                    'initialize a new one)')
        # 2026-07-28: no session to lose; the same request goes on working
        assert [tool['name'] for tool in tools_2026(after).json()['result']['tools']] == tools

        # a client that subscribes again hears of changes again
        heard = []

        async def on_message(message):
            params = getattr(message, 'params', None)
            if getattr(message, 'method', None) == 'notifications/resources/updated' and str(params.uri) == ACTIVE:
                heard.append(time.monotonic())
        client = McpSession(after['url'], after['token'], message_handler=on_message)
        try:
            client.run(lambda session: session.subscribe_resource(ACTIVE))
            started = time.monotonic()
            client.ok('editor_open_file', {'path': 'hello.py'})
            wait_until(lambda: [at for at in heard if at >= started], 90, what='an update of the active editor')
            assert json.loads(client.run(lambda session: session.read_resource(ACTIVE)).contents[0].text)['path'] == 'hello.py'
        finally:
            client.close()
