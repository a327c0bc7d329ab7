import json

import pytest

from hermes.core.client_config import all_snippets, snippet_for

URL = 'http://127.0.0.1:19999/mcp'


def test_hermes_agent_yaml():
    assert snippet_for('hermes', URL, 'tok') == (
        'mcp_servers:\n  vscode:\n    url: "http://127.0.0.1:19999/mcp"\n'
        '    headers:\n      Authorization: "Bearer tok"\n')


def test_claude_code_command():
    assert snippet_for('claude', URL, 'tok') == (
        'claude mcp add --transport http vscode http://127.0.0.1:19999/mcp --header "Authorization: Bearer tok"\n')


def test_vscode_and_cursor_json():
    assert json.loads(snippet_for('vscode', URL, 'tok')) == {
        'servers': {'vscode': {'type': 'http', 'url': URL, 'headers': {'Authorization': 'Bearer tok'}}}}
    assert json.loads(snippet_for('cursor', URL, 'tok')) == {
        'mcpServers': {'vscode': {'url': URL, 'headers': {'Authorization': 'Bearer tok'}}}}


def test_without_auth_there_are_no_headers():
    assert 'headers' not in snippet_for('hermes', URL, None)
    assert '--header' not in snippet_for('claude', URL, None)
    assert json.loads(snippet_for('vscode', URL, None)) == {'servers': {'vscode': {'type': 'http', 'url': URL}}}


def test_all_snippets_and_unknown_client():
    text = all_snippets(URL, 'tok')
    for title in ['# Hermes Agent', '# Claude Code', '# VS Code', '# Cursor']:
        assert title in text
    with pytest.raises(ValueError, match='unknown client zed'):
        snippet_for('zed', URL, 'tok')
