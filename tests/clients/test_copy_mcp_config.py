""""Hermes: Copy MCP Config" in the real VS Code: every snippet it puts on the clipboard is the one
`node dist/mcp-server.js config` prints, and reads the way its client reads it (YAML for Hermes Agent, shell
command lines for Claude Code, Codex and Gemini CLI, TOML for Codex's config.toml, JSON for Gemini CLI's
settings.json, VS Code's .vscode/mcp.json, the portable .mcp.json of VS Code 1.140+ and Cursor)."""
import json
import shlex
import tomllib

import pytest
import yaml


def parsed(client, text):
    if client == 'hermes':
        return yaml.safe_load(text)['mcp_servers']['vscode']
    if client == 'claude':
        words = shlex.split(text)
        assert words[:6] == ['claude', 'mcp', 'add', '--transport', 'http', 'vscode'] and words[7] == '--header'
        name, _, value = words[8].partition(': ')
        return {'url': words[6], 'headers': {name: value}}
    if client == 'codex':  # the token travels in the variable the first line exports
        export, command = [shlex.split(line) for line in text.splitlines()]
        variable, _, token = export[1].partition('=')
        assert export[0] == 'export' and command[:6] == ['codex', 'mcp', 'add', 'vscode', '--url', command[5]]
        assert command[6:] == ['--bearer-token-env-var', variable]
        return {'url': command[5], 'headers': {'Authorization': 'Bearer ' + token}}
    if client == 'codex-toml':
        server = tomllib.loads(text)['mcp_servers']['vscode']
        return {'url': server['url'], 'headers': server['http_headers']}
    if client == 'gemini':
        words = shlex.split(text)
        assert words[:6] == ['gemini', 'mcp', 'add', '--transport', 'http', 'vscode'] and words[7] == '-H'
        assert words[9:] == ['-s', 'user']
        name, _, value = words[8].partition(': ')
        return {'url': words[6], 'headers': {name: value}}
    config = json.loads(text)
    return config['servers' if client == 'vscode' else 'mcpServers']['vscode']


@pytest.mark.parametrize('client', ['hermes', 'claude', 'codex', 'codex-toml', 'gemini', 'gemini-json', 'vscode',
                                    'vscode-portable', 'cursor'])
def test_copied_snippet_reads_as_its_client_reads_it(client, probe, our_cli, window):
    copied = probe(f"""await vscode.commands.executeCommand('hermes.copyMcpConfig', '{client}');
                       return await vscode.env.clipboard.readText();""", timeout=20)
    assert copied == our_cli('config', '--client', client)
    server = parsed(client, copied)
    assert server['url'] == window['url']
    assert server['headers'] == {'Authorization': 'Bearer ' + window['token']}
