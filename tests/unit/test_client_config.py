import json
import shlex
import tomllib

import pytest

from hermes.core.client_config import all_snippets, clients_for, snippet_for, vscode_client, vscode_config_file

URL = 'http://127.0.0.1:19999/mcp'


def test_hermes_agent_yaml():
    assert snippet_for('hermes', URL, 'tok') == (
        'mcp_servers:\n  vscode:\n    url: "http://127.0.0.1:19999/mcp"\n'
        '    headers:\n      Authorization: "Bearer tok"\n')


def test_claude_code_command():
    assert snippet_for('claude', URL, 'tok') == (
        'claude mcp add --transport http vscode http://127.0.0.1:19999/mcp --header "Authorization: Bearer tok"\n')


def test_codex_command_reads_the_token_from_the_variable_it_exports():
    assert snippet_for('codex', URL, 'tok') == (
        'export HERMES_VSCODE_TOKEN="tok"\n'
        'codex mcp add vscode --url http://127.0.0.1:19999/mcp --bearer-token-env-var HERMES_VSCODE_TOKEN\n')
    assert snippet_for('codex', URL, None) == 'codex mcp add vscode --url http://127.0.0.1:19999/mcp\n'


def test_codex_config_toml_lines():
    assert tomllib.loads(snippet_for('codex-toml', URL, 'tok')) == {
        'mcp_servers': {'vscode': {'url': URL, 'http_headers': {'Authorization': 'Bearer tok'}}}}
    assert tomllib.loads(snippet_for('codex-toml', URL, '')) == {'mcp_servers': {'vscode': {'url': URL}}}
    # dump_json's escapes are TOML's: a value with a quote or a backslash stays one string
    assert tomllib.loads(snippet_for('codex-toml', 'http://h/"\\x', None))['mcp_servers']['vscode']['url'] == (
        'http://h/"\\x')


def test_gemini_cli_command_and_settings_entry():
    assert shlex.split(snippet_for('gemini', URL, 'tok')) == [
        'gemini', 'mcp', 'add', '--transport', 'http', 'vscode', URL, '-H', 'Authorization: Bearer tok', '-s', 'user']
    assert shlex.split(snippet_for('gemini', URL, None)) == [
        'gemini', 'mcp', 'add', '--transport', 'http', 'vscode', URL, '-s', 'user']
    assert json.loads(snippet_for('gemini-json', URL, 'tok')) == {
        'mcpServers': {'vscode': {'url': URL, 'type': 'http', 'headers': {'Authorization': 'Bearer tok'}}}}


def test_each_json_file_exactly_as_pasted():
    assert snippet_for('vscode-portable', URL, 'tok') == (
        '{\n  "mcpServers": {\n    "vscode": {\n      "type": "http",\n      "url": "http://127.0.0.1:19999/mcp",\n'
        '      "tools": [\n        "*"\n      ],\n      "headers": {\n        "Authorization": "Bearer tok"\n'
        '      }\n    }\n  }\n}\n')
    assert snippet_for('vscode', URL, 'tok') == (
        '{\n  "servers": {\n    "vscode": {\n      "type": "http",\n      "url": "http://127.0.0.1:19999/mcp",\n'
        '      "headers": {\n        "Authorization": "Bearer tok"\n      }\n    }\n  }\n}\n')
    assert snippet_for('cursor', URL, 'tok') == (
        '{\n  "mcpServers": {\n    "vscode": {\n      "url": "http://127.0.0.1:19999/mcp",\n'
        '      "headers": {\n        "Authorization": "Bearer tok"\n      }\n    }\n  }\n}\n')
    assert snippet_for('gemini-json', URL, 'tok') == (
        '{\n  "mcpServers": {\n    "vscode": {\n      "url": "http://127.0.0.1:19999/mcp",\n      "type": "http",\n'
        '      "headers": {\n        "Authorization": "Bearer tok"\n      }\n    }\n  }\n}\n')
    assert snippet_for('codex-toml', URL, 'tok') == (
        '[mcp_servers.vscode]\nurl = "http://127.0.0.1:19999/mcp"\n'
        'http_headers = { Authorization = "Bearer tok" }\n')
    assert json.loads(snippet_for('vscode-portable', URL, None)) == {
        'mcpServers': {'vscode': {'type': 'http', 'url': URL, 'tools': ['*']}}}


def test_the_vscode_file_by_the_version_that_runs_hermes():
    assert [vscode_config_file(version) for version in ['1.139.1', '1.140.0', '1.141.0-insider', '2.0.0']] == [
        '.vscode/mcp.json', '.mcp.json', '.mcp.json', '.mcp.json']
    assert [vscode_client(version) for version in ['1.104.0', '1.139.9', '1.140.0', '', 'x.y', '1']] == [
        'vscode', 'vscode', 'vscode-portable', 'vscode', 'vscode', 'vscode']


def test_the_picker_offers_the_one_file_this_vscode_reads():
    assert [entry[0] for entry in clients_for('1.139.1')] == [
        'hermes', 'claude', 'codex', 'codex-toml', 'gemini', 'gemini-json', 'vscode', 'cursor']
    assert [entry[0] for entry in clients_for('1.140.0')] == [
        'hermes', 'claude', 'codex', 'codex-toml', 'gemini', 'gemini-json', 'vscode-portable', 'cursor']


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
    for title in ['# Hermes Agent', '# Claude Code', '# Codex (codex mcp add)', '# Codex (~/.codex/config.toml)',
                  '# Gemini CLI (gemini mcp add)', '# Gemini CLI (~/.gemini/settings.json)',
                  '# VS Code 1.140+ and Copilot (.mcp.json)', '# VS Code before 1.140 (.vscode/mcp.json)', '# Cursor']:
        assert title in text
    with pytest.raises(ValueError, match='unknown client zed'):
        snippet_for('zed', URL, 'tok')
