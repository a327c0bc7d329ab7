""""Hermes: Copy MCP Config" in the real VS Code: every snippet it puts on the clipboard is the one
`node dist/mcp-server.js config` prints, and reads the way its client reads it (YAML for Hermes Agent, a shell
command line for Claude Code, JSON for VS Code and Cursor)."""
import json
import shlex

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
    config = json.loads(text)
    return config['servers' if client == 'vscode' else 'mcpServers']['vscode']


@pytest.mark.parametrize('client', ['hermes', 'claude', 'vscode', 'cursor'])
def test_copied_snippet_reads_as_its_client_reads_it(client, probe, our_cli, window):
    copied = probe(f"""await vscode.commands.executeCommand('hermes.copyMcpConfig', '{client}');
                       return await vscode.env.clipboard.readText();""", timeout=20)
    assert copied == our_cli('config', '--client', client)
    server = parsed(client, copied)
    assert server['url'] == window['url']
    assert server['headers'] == {'Authorization': 'Bearer ' + window['token']}
