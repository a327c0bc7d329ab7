"""An MCP client that reaches the window only through VS Code's forwarding, in code-server — itself a remote setup
(the browser on one side, the extension host and its 127.0.0.1 on the other; code-server forwards
`/proxy/<port>/` to a port on its side, which is what `vscode.env.asExternalUri` answers there):

- by default the forwarded request is refused (its Host is code-server's, not this server's 127.0.0.1);
- with `hermes.mcp.forwardedAddress` on (a user setting, applied without a reload) the server serves the exact
  address asExternalUri gave: a real MCP client (the official Python SDK) initializes and calls a tool through
  code-server's proxy with the token, and without the token it is refused;
- Copy MCP Config offers the forwarded URL beside the local one.
Copy MCP Config's offer to write VS Code's own MCP file is tested here too (the same window, before the setting).
"""
import json
import urllib.request
from pathlib import Path

import pytest
from chat_view import wait_for_first_window
from conftest import copy_of_fixture_workspace, open_window, running_code_server
from mcp_session import McpSession
from vscode_server import package_probe_extension, probe_runner, wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope='module')
def probe_vsix(tmp_path_factory):
    from tasks import node_bin  # the pinned Node 24 and vsce from node_modules
    return package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                   ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')


@pytest.fixture(scope='module')
def remote(tmp_path_factory, browser, probe_vsix):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'forwarded-ws')
    with running_code_server(tmp_path_factory, workspace, 'forwarded', settings={'hermes.mcp.port': 0},
                             extensions=(probe_vsix,)) as server:
        with open_window(browser, server, 'forwarded') as bench:
            wait_for_first_window(server, bench)
            yield {'server': server, 'bench': bench, 'probe': probe_runner(server.user_home)}


def through_code_server(server, path, token):
    """POST an MCP initialize to code-server's own port, which forwards `path` (no MCP SDK: the raw answer)."""
    body = json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'probe', 'version': '1'}}}).encode()
    headers = {'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream'}
    if token:
        headers['Authorization'] = 'Bearer ' + token
    request = urllib.request.Request(f'http://127.0.0.1:{server.port}{path}', data=body, method='POST',
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def discovery(server):
    return server.discovery_for(server.workspace)


def test_copy_mcp_config_for_vscode_writes_the_file_this_vscode_reads_and_never_overwrites_one(remote, artifacts):
    """The VS Code entry's notification offers to write the file this VS Code version reads (`.vscode/mcp.json`
    before 1.140, `.mcp.json` from it); a second copy finds it there and opens it unchanged."""
    server, probe, bench = remote['server'], remote['probe'], remote['bench']
    version = probe('return vscode.version;')
    newer = [int(part) for part in version.split('.')[:2]] >= [1, 140]
    relative = '.mcp.json' if newer else '.vscode/mcp.json'
    client = 'vscode-portable' if newer else 'vscode'
    target = server.workspace / relative
    assert not target.exists()
    copied = probe(f"return await vscode.commands.executeCommand('hermes.copyMcpConfig', '{client}');")
    toast = bench.page.locator('.notification-toast', has_text='MCP config copied').first
    toast.wait_for(state='visible')
    bench.screenshot(artifacts / 'mcp-config-write-offer.png')
    toast.locator('.monaco-button', has_text='Write ' + relative).first.click()
    wait_until(target.exists, 30, what=f'{relative} written')
    written = json.loads(target.read_text())
    assert written == json.loads(copied)
    entry = written['mcpServers' if newer else 'servers']['vscode']
    found = discovery(server)
    assert entry['url'] == f'http://127.0.0.1:{found["port"]}/mcp'
    assert entry['headers'] == {'Authorization': 'Bearer ' + found['token']}
    bench.notification_text('keep it out of version control')

    target.write_text('{"servers": {"mine": {"url": "http://example.invalid"}}} // kept\n')
    probe(f"return await vscode.commands.executeCommand('hermes.copyMcpConfig', '{client}');")
    toast = bench.page.locator('.notification-toast', has_text='MCP config copied').first
    toast.wait_for(state='visible')
    toast.locator('.monaco-button', has_text='Write ' + relative).first.click()
    bench.notification_text('already exists and was left as it is')
    assert target.read_text() == '{"servers": {"mine": {"url": "http://example.invalid"}}} // kept\n'
    target.unlink()


def test_a_forwarded_request_is_refused_by_default(remote):
    found = discovery(remote['server'])
    status, text = through_code_server(remote['server'], f'/proxy/{found["port"]}/mcp', found['token'])
    assert status == 403 and 'is not this local server' in text, text


def test_with_the_setting_a_real_client_works_through_the_forwarded_address(remote, artifacts):
    server, probe = remote['server'], remote['probe']
    probe("await vscode.workspace.getConfiguration('hermes').update('mcp.forwardedAddress', true, 1); return null")
    server.wait_for_log(r'MCP server also reachable at http://127\.0\.0\.1:\d+/proxy/\d+/mcp')
    found = discovery(server)
    forwarded = f'http://127.0.0.1:{server.port}/proxy/{found["port"]}/mcp'
    assert probe("const u = await vscode.env.asExternalUri(vscode.Uri.parse("
                 f"'http://127.0.0.1:{found['port']}/mcp')); return u.toString(true);") == forwarded
    client = McpSession(forwarded, found['token'])
    try:
        text, _ = client.ok('workspace_get_folders')
    finally:
        client.close()
    assert str(server.workspace) in text
    status, text = through_code_server(server, f'/proxy/{found["port"]}/mcp', None)
    assert status == 401, text  # the token is still required

    # (the command's result is the copied text: the browser's clipboard cannot be read back here)
    probe("globalThis.copied = vscode.commands.executeCommand('hermes.copyMcpConfig', 'claude'); return null")
    page = remote['bench'].page
    row = page.locator('.quick-input-widget .monaco-list-row', has_text='On your own machine')
    row.first.wait_for(state='visible')
    assert forwarded in row.first.inner_text()
    remote['bench'].screenshot(artifacts / 'mcp-config-forwarded.png')
    row.first.click()
    copied = probe('return await globalThis.copied;')
    assert forwarded in copied and found['token'] in copied
    probe("await vscode.workspace.getConfiguration('hermes').update('mcp.forwardedAddress', undefined, 1); return null")

