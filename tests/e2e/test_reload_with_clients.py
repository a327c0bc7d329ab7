"""A window reload with MCP clients connected, in a real VS Code (code-server, the packaged extension): the
extension host restarts and the MCP server with it. The discovery file is written anew with the same port and
token; a 2025 client's old session gets 404 (the spec's "start a new session") and a new one works, subscriptions
included; a 2026-07-28 client, which has no session, just goes on; and Hermes Agent itself, running outside VS Code
with this window's MCP server, still has the window's tools in its next turn and reads through them again.
(docs/RELIABILITY.md)"""
import json
import secrets
import time

import httpx
import pytest

from conftest import copy_of_fixture_workspace, open_window, running_code_server
from acp_agents import MODEL, hermes_home_in, hermes_program, write_hermes_config
from hermes_acp import HermesAcp, vscode_mcp_server
from mcp_session import McpSession
from vscode_server import free_port, wait_until
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

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


def discovery_after_reload(server, workspace, before):
    """The discovery file the reloaded window's new extension host wrote (another pid than `before`'s)."""
    def rewritten():
        for info in server.discovery_files():
            if str(workspace) in info.get('workspaceFolders', []) and info.get('pid') != before['pid']:
                return info
        return None
    return wait_until(rewritten, 90, what='the discovery file of the new extension host')


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

        window.reload()
        wait_until(lambda: activations(reload_server) >= 2, 90, what='the extension to activate again')
        after = discovery_after_reload(reload_server, reload_workspace, before)
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


@pytest.fixture(scope='module')
def llm():
    # 'title': Hermes asks for a session title after a turn (not streamed), answered apart from the script
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello.'))], 'models': [MODEL], 'title': 'Reload proof',
                                'model_fields': {'max_model_len': 131072}}).start()
    yield server
    server.stop()


def read_turn(llm, hermes, session, call_id, proof_file):
    """One Hermes turn in which the model reads `proof_file` through the window's file_read; returns the requests
    the model got in it (the first offers the tools, the last carries the tool's result)."""
    before = len(llm.chat_requests())
    llm.script(Reply(tool_events([(call_id, 'mcp__vscode__file_read', {'path': proof_file})])),
               Reply(text_events('Read.')))
    hermes.prompt(session, f'What does {proof_file} say?')
    return [request['body'] for request in llm.chat_requests()[before:] if request['body'].get('stream') is True]


def tool_result(body, call_id):
    [message] = [m for m in body['messages'] if m['role'] == 'tool' and m.get('tool_call_id') == call_id]
    return json.dumps(message['content'])


@pytest.fixture(scope='module')
def hermes_workspace(tmp_path_factory):
    return copy_of_fixture_workspace(tmp_path_factory, 'reload-hermes-ws')


@pytest.fixture(scope='module')
def hermes_reload_server(tmp_path_factory, hermes_workspace):
    """A code-server of its own: the other test's extension host outlives its closed page (code-server keeps it for
    a reconnection) and would still hold that window's port."""
    settings = {'hermes.mcp.port': free_port(), 'hermes.tools.confirm': 'never'}
    with running_code_server(tmp_path_factory, hermes_workspace, 'reload-hermes', settings=settings) as server:
        yield server


def test_hermes_agents_next_turn_after_a_reload_still_has_the_windows_tools(browser, hermes_reload_server,
                                                                            hermes_workspace, llm, tmp_path):
    """Hermes Agent outside VS Code (its ACP server, as Zed runs it) with this window's MCP server: its session
    with the old extension host ends with the reload (404), and the next turn must not lose the window."""
    server, workspace = hermes_reload_server, hermes_workspace
    proof = 'The reload code is ' + secrets.token_hex(8) + '.'
    (workspace / 'notes').mkdir(exist_ok=True)
    (workspace / 'notes' / 'reload-proof.txt').write_text(proof + '\n')
    home = tmp_path / 'hermes-home'
    write_hermes_config(hermes_home_in(home), llm.endpoint)
    with open_window(browser, server, 'reload-hermes') as window:
        before = server.discovery_for(workspace)
        hermes = HermesAcp(hermes_program(required=True), home, workspace)
        try:
            hermes.call('initialize', {'protocolVersion': 1, 'clientCapabilities': {}})
            session = hermes.call('session/new', {'cwd': str(workspace),
                                                  'mcpServers': [vscode_mcp_server(before)]})['sessionId']
            first = read_turn(llm, hermes, session, 'call_before', 'notes/reload-proof.txt')
            assert 'mcp__vscode__file_read' in [tool['function']['name'] for tool in first[0]['tools']]
            assert proof in tool_result(first[-1], 'call_before')

            logs = set(server.extension_logs())
            window.reload()
            after = discovery_after_reload(server, workspace, before)
            assert (after['url'], after['token']) == (before['url'], before['token'])

            second = read_turn(llm, hermes, session, 'call_after', 'notes/reload-proof.txt')
            assert 'mcp__vscode__file_read' in [tool['function']['name'] for tool in second[0]['tools']]
            assert proof in tool_result(second[-1], 'call_after')  # read through the window, not an error
            new_host = '\n'.join(path.read_text() for path in server.extension_logs() if path not in logs)
            assert 'mcp: initialize: ok' in new_host  # Hermes opened a session with the reloaded window's server
            assert 'tools/call file_read: ok' in new_host  # which answered the read
        finally:
            hermes.close()
