"""dist/mcp-server.js (health | config | stdio) against windows running the real extension bundle.

The CLI finds windows the way users' machines do: through the discovery files under $HOME/.hermes/ide,
so each run gets the window's HOME, and a working directory inside (or outside) its workspace."""
import asyncio
import json
import os
import shlex
import subprocess
import tomllib

import httpx
import pytest
import yaml
from mcp import Client, ClientSession, MCPError, StdioServerParameters, stdio_client

from conftest import NODE, ROOT

CLI = ROOT / 'dist' / 'mcp-server.js'
NO_WINDOW_WORDS = 'Open VS Code with the Hermes extension installed'


def cli(args, home, cwd=None, stdin=None, timeout=120):
    env = dict(os.environ, HOME=str(home))
    return subprocess.run([NODE, str(CLI)] + list(args), input=stdin, capture_output=True, text=True, env=env,
                          cwd=str(cwd or home), timeout=timeout)


def stdio_lines(messages, home, cwd=None, args=()):
    """Run `stdio` with these lines on stdin (dicts are dumped), stdin then closed; the messages it wrote."""
    text = ''.join((m if isinstance(m, str) else json.dumps(m)) + '\n' for m in messages)
    result = cli(['stdio'] + list(args), home, cwd, stdin=text)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def tool_count(window):
    return httpx.get(window.base + '/health').json()['tools']


def sessions(window):
    return httpx.get(window.base + '/health').json()['sessions']


INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'test', 'version': '1'}}}
INITIALIZED = {'jsonrpc': '2.0', 'method': 'notifications/initialized'}


# ------------------------------------------------------------------------------------------ health

def test_health_passes_and_reports_the_tool_count(window, workspace):
    subdir = workspace / 'src'
    subdir.mkdir()
    result = cli(['health'], window.home, subdir)
    assert result.returncode == 0, result.stdout + result.stderr
    count = tool_count(window)
    assert f'✓ tools/list  {count} tools' in result.stdout
    assert f'✓ window      {window.url} · pid {window.process.pid} · workspace {workspace}' in result.stdout
    assert '✓ auth        bearer token accepted' in result.stdout
    assert '✓ initialize  protocol 2025-11-25 · server hermes-vscode' in result.stdout
    assert '✓ ping' in result.stdout and '(median of 5)' in result.stdout
    assert result.stdout.endswith('All checks passed.\n')
    assert window.token not in result.stdout
    assert sessions(window) == 0  # health ended its session


def test_health_json(window):
    result = cli(['health', '--json'], window.home)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report['ok'] is True
    assert report['tools'] == tool_count(window)
    assert report['window']['port'] == window.port
    assert [check['name'] for check in report['checks']] == ['window', '/health', 'auth', 'initialize',
                                                             'tools/list', 'ping']
    assert report['pingMs'] > 0
    assert window.token not in result.stdout


def test_health_with_a_wrong_token(window):
    result = cli(['health', '--token', 'not-the-token'], window.home)
    assert result.returncode == 1
    assert '✗ auth        401 Unauthorized: the bearer token is wrong' in result.stdout
    assert f'~/.hermes/ide/{window.port}.json' in result.stdout
    assert '- initialize  skipped' in result.stdout


def test_health_with_an_explicit_url_borrows_the_discovered_token(window, tmp_path):
    result = cli(['health', '--url', window.url], window.home, tmp_path)
    assert result.returncode == 0, result.stdout


def test_health_without_any_window(tmp_path):
    empty = tmp_path / 'empty-home'
    empty.mkdir()
    result = cli(['health'], empty)
    assert result.returncode == 1
    assert NO_WINDOW_WORDS in result.stdout
    assert 'hermes.mcp.enabled' in result.stdout


def test_health_of_a_window_that_has_gone(start_window, tmp_path):
    window = start_window()
    url = window.url
    window.stop()
    result = cli(['health', '--url', url], tmp_path)
    assert result.returncode == 1
    assert f"Can't reach the Hermes MCP server at {window.base}/health (connection refused)" in result.stdout


def test_the_window_holding_the_current_directory_is_chosen(start_window, workspace, tmp_path):
    other_folder = tmp_path / 'other'
    other_folder.mkdir()
    first = start_window()
    second = start_window(folders=[str(other_folder)])
    assert cli(['config', '--client', 'claude'], first.home, workspace).stdout.count(first.url) == 1
    assert cli(['config', '--client', 'claude'], first.home, other_folder).stdout.count(second.url) == 1
    picked = cli(['config', '--client', 'claude', '--port', str(first.port)], first.home, other_folder)
    assert first.url in picked.stdout and first.token in picked.stdout
    missing = cli(['config', '--port', '1'], first.home)
    assert missing.returncode == 1
    assert 'No running Hermes window serves on port 1' in missing.stderr


# ------------------------------------------------------------------------------------------ config

def test_config_for_claude_is_the_exact_command(window):
    result = cli(['config', '--client', 'claude'], window.home)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (f'claude mcp add --transport http vscode {window.url} '
                             f'--header "Authorization: Bearer {window.token}"\n')


def test_config_for_all_clients_and_as_json(window):
    result = cli(['config'], window.home)
    assert result.returncode == 0
    for heading in ['# Hermes Agent', '# Claude Code', '# Codex (codex mcp add)', '# Codex (~/.codex/config.toml)',
                    '# Gemini CLI (gemini mcp add)', '# Gemini CLI (~/.gemini/settings.json)', '# VS Code', '# Cursor']:
        assert heading in result.stdout
    snippets = json.loads(cli(['config', '--json', '--client', 'vscode'], window.home).stdout)
    assert snippets['url'] == window.url
    assert json.loads(snippets['snippets']['vscode']) == {'servers': {'vscode': {
        'type': 'http', 'url': window.url, 'headers': {'Authorization': f'Bearer {window.token}'}}}}


@pytest.mark.parametrize('auth', ['token', 'none'])
def test_every_snippet_parses_the_way_its_client_reads_it(start_window, auth):
    """Hermes Agent reads YAML, Claude Code, Codex and Gemini CLI get their arguments from a shell, Codex reads
    TOML, Gemini CLI, VS Code and Cursor read JSON."""
    window = start_window({'hermes.mcp.auth': auth})
    snippets = json.loads(cli(['config', '--json'], window.home).stdout)['snippets']
    headers = {'Authorization': f'Bearer {window.token}'} if auth == 'token' else None
    with_headers = (lambda server: dict(server, headers=headers)) if headers else (lambda server: server)
    assert yaml.safe_load(snippets['hermes']) == {'mcp_servers': {'vscode': with_headers({'url': window.url})}}
    assert cli(['config', '--client', 'hermes'], window.home).stdout == snippets['hermes']
    header_args = ['--header', f'Authorization: Bearer {window.token}'] if headers else []
    assert shlex.split(snippets['claude']) == [
        'claude', 'mcp', 'add', '--transport', 'http', 'vscode', window.url] + header_args
    assert json.loads(snippets['vscode']) == {'servers': {'vscode': with_headers({'type': 'http', 'url': window.url})}}
    assert json.loads(snippets['cursor']) == {'mcpServers': {'vscode': with_headers({'url': window.url})}}
    codex_lines = [shlex.split(line) for line in snippets['codex'].splitlines()]
    if headers:
        assert codex_lines == [['export', f'HERMES_VSCODE_TOKEN={window.token}'],
                               ['codex', 'mcp', 'add', 'vscode', '--url', window.url,
                                '--bearer-token-env-var', 'HERMES_VSCODE_TOKEN']]
    else:
        assert codex_lines == [['codex', 'mcp', 'add', 'vscode', '--url', window.url]]
    codex_server = {'url': window.url, 'http_headers': headers} if headers else {'url': window.url}
    assert tomllib.loads(snippets['codex-toml']) == {'mcp_servers': {'vscode': codex_server}}
    assert shlex.split(snippets['gemini']) == ['gemini', 'mcp', 'add', '--transport', 'http', 'vscode', window.url] + (
        ['-H', f'Authorization: Bearer {window.token}'] if headers else []) + ['-s', 'user']
    assert json.loads(snippets['gemini-json']) == {'mcpServers': {'vscode': with_headers({'url': window.url,
                                                                                         'type': 'http'})}}
    for client in ['codex', 'codex-toml', 'gemini', 'gemini-json']:
        assert cli(['config', '--client', client], window.home).stdout == snippets[client]


def test_config_without_any_window(tmp_path):
    result = cli(['config'], tmp_path)
    assert result.returncode == 1
    assert NO_WINDOW_WORDS in result.stderr
    assert result.stdout == ''


# ------------------------------------------------------------------------------------------ usage

@pytest.mark.parametrize('args', [['frobnicate'], ['health', '--frob'], [], ['config', '--client', 'emacs']])
def test_bad_command_lines_print_usage_and_exit_2(args, tmp_path):
    result = cli(args, tmp_path)
    assert result.returncode == 2
    assert 'Usage: node dist/mcp-server.js' in result.stderr
    assert result.stdout == ''


def test_help(tmp_path):
    result = cli(['--help'], tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith('Usage: node dist/mcp-server.js <command>')


# ------------------------------------------------------------------------------------------ stdio

def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def sdk_session(window, cwd, action, tmp_path):
    params = StdioServerParameters(command=NODE, args=[str(CLI), 'stdio'], env={'HOME': str(window.home)},
                                   cwd=str(cwd))
    with open(tmp_path / 'bridge-stderr.txt', 'w') as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                return await action(session)


def test_stdio_with_the_official_sdk(window, workspace, tmp_path):
    async def action(session):
        init = await session.initialize()
        tools = await session.list_tools()
        result = await session.call_tool('workspace_get_folders', {})
        await session.send_ping()
        return init, tools, result

    init, tools, result = run(sdk_session(window, workspace, action, tmp_path))
    assert init.server_info.name == 'hermes-vscode'
    assert init.capabilities.tools.list_changed is True
    names = [tool.name for tool in tools.tools]
    assert 'workspace_get_folders' in names and len(names) == tool_count(window)
    assert result.is_error is False
    assert result.structured_content['folders'][0]['path'] == str(workspace)
    assert json.loads(result.content[0].text)['folders'][0]['path'] == str(workspace)
    stderr = (tmp_path / 'bridge-stderr.txt').read_text()
    assert f'bridging stdio to {window.url}' in stderr
    assert sessions(window) == 0  # stdin closed → the bridge deleted its session


def test_stdio_raw_lines_and_a_malformed_one(window):
    out, _ = stdio_lines([INIT, INITIALIZED, '{"jsonrpc": "2.0", "id": 2,', '',
                          {'jsonrpc': '2.0', 'id': 'three', 'method': 'tools/list'},
                          {'jsonrpc': '2.0', 'id': 4, 'method': 'ping'}], window.home)
    by_id = {json.dumps(message['id']): message for message in out}
    assert by_id['1']['result']['protocolVersion'] == '2025-06-18'
    assert by_id['null']['error']['code'] == -32700
    assert len(by_id['"three"']['result']['tools']) == tool_count(window)
    assert by_id['4'] == {'jsonrpc': '2.0', 'id': 4, 'result': {}}
    assert len(out) == 4


def test_stdio_without_any_window_answers_every_request(tmp_path):
    out, stderr = stdio_lines([INIT, INITIALIZED, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}], tmp_path)
    assert [message['id'] for message in out] == [1, 2]
    for message in out:
        assert message['error']['code'] == -32000
        assert NO_WINDOW_WORDS in message['error']['message']
    assert 'notifications/initialized failed' in stderr


def test_stdio_when_the_window_is_gone_with_the_sdk(start_window, workspace, tmp_path):
    window = start_window()
    window.stop()

    async def action(session):
        with pytest.raises(MCPError) as caught:
            await session.initialize()
        return caught.value

    error = run(sdk_session(window, workspace, action, tmp_path))
    assert error.code == -32000
    assert NO_WINDOW_WORDS in error.message


def test_stdio_when_the_window_goes_away_mid_session(start_window, workspace):
    window = start_window()
    env = dict(os.environ, HOME=str(window.home))
    bridge = subprocess.Popen([NODE, str(CLI), 'stdio'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=str(workspace))
    try:
        def send(message):
            bridge.stdin.write(json.dumps(message) + '\n')
            bridge.stdin.flush()

        send(INIT)
        assert json.loads(bridge.stdout.readline())['result']['serverInfo']['name'] == 'hermes-vscode'
        send(INITIALIZED)
        window.stop()
        send({'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'})
        reply = json.loads(bridge.stdout.readline())
        assert reply['id'] == 2
        assert reply['error']['code'] == -32000
        assert f"Can't reach the Hermes MCP server at {window.url}" in reply['error']['message']
        bridge.stdin.close()
        assert bridge.wait(10) == 0
    finally:
        if bridge.poll() is None:
            bridge.kill()


def test_stdio_explicit_url_of_a_dead_server(tmp_path):
    out, _ = stdio_lines([INIT], tmp_path, args=['--url', 'http://127.0.0.1:19/mcp'])
    assert out[0]['id'] == 1 and out[0]['error']['code'] == -32000
    assert out[0]['error']['message'].startswith("Can't reach the Hermes MCP server at http://127.0.0.1:19/mcp (")


MODERN_META = {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
               'io.modelcontextprotocol/clientCapabilities': {}}


def test_stdio_carries_2026_requests_without_a_handshake(window, workspace):
    """A 2026-07-28 stdio client sends no initialize: each line goes out with its metadata mirrored into headers,
    and a refused request comes back as its own JSON-RPC error, not as a transport failure."""
    out, _ = stdio_lines([
        {'jsonrpc': '2.0', 'id': 1, 'method': 'server/discover', 'params': {'_meta': MODERN_META}},
        {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call', 'params': {
            'name': 'workspace_get_folders', 'arguments': {}, '_meta': MODERN_META}},
        {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/list', 'params': {'_meta': dict(
            MODERN_META, **{'io.modelcontextprotocol/protocolVersion': '2099-01-01'})}},
    ], window.home)
    by_id = {message['id']: message for message in out}
    assert by_id[1]['result']['supportedVersions'][0] == '2026-07-28'
    assert by_id[2]['result']['structuredContent']['folders'][0]['path'] == str(workspace)
    assert by_id[3]['error']['code'] == -32022 and by_id[3]['error']['data']['requested'] == '2099-01-01'
    assert sessions(window) == 0



def test_stdio_a_cancelled_2026_call_aborts_its_http_request(start_window, workspace, tmp_path):
    """The official SDK client over stdio, speaking 2026-07-28: cancelling a call sends notifications/cancelled
    (stdio has no stream of its own to close). The bridge aborts that request's HTTP POST — closing the stream is
    how a 2026-07-28 server hears a cancellation — and sends the client nothing more for it."""
    window = start_window(test_tools=True)
    params = StdioServerParameters(command=NODE, args=[str(CLI), 'stdio'], env={'HOME': str(window.home)},
                                   cwd=str(workspace))

    async def cancelled_steps(client):
        return (await client.call_tool('test_cancelled_calls', {})).structured_content['cancelled']

    async def main():
        with open(tmp_path / 'bridge-stderr.txt', 'w') as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode='2026-07-28') as client:
                assert await cancelled_steps(client) == []
                started = asyncio.Event()

                async def on_progress(progress, total, message):
                    started.set()

                call = asyncio.ensure_future(client.call_tool('test_progress', {'steps': 100000, 'delay_ms': 20},
                                                              progress_callback=on_progress))
                await started.wait()  # the tool runs: its first progress came back through the bridge
                call.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await call
                while not await cancelled_steps(client):  # a condition, not a delay (the run's timeout bounds it)
                    await asyncio.sleep(0.05)
                return await cancelled_steps(client)

    steps = asyncio.run(asyncio.wait_for(main(), 180))  # a ceiling; 100,000 steps would take over half an hour
    assert len(steps) == 1 and 1 <= steps[0] < 100000
    assert 'failed' not in (tmp_path / 'bridge-stderr.txt').read_text()
