"""Copy MCP Config for VS Code itself offers to write the file this VS Code reads (ui/mcp/config_file.py): it
writes one that is not there, and opens one that is without changing it."""
import asyncio
import json

import vscode

from hermes.core.client_config import snippet_for
from hermes.ui.mcp.config_file import offer_workspace_file, write_action

URL = 'http://127.0.0.1:19999/mcp'


def offer(tmp_path, version, answer, monkeypatch):
    vscode.workspace.open_folders([str(tmp_path)])
    monkeypatch.setattr(vscode, 'version', version)
    vscode.window.message_answers.append(answer)
    client = 'vscode-portable' if version >= '1.140' else 'vscode'
    return asyncio.run(offer_workspace_file(snippet_for(client, URL, 'tok')))


def test_vscode_1_140_gets_mcp_json_at_the_workspace_root(tmp_path, monkeypatch):
    assert offer(tmp_path, '1.140.0', write_action('.mcp.json'), monkeypatch) == 'written'
    assert json.loads((tmp_path / '.mcp.json').read_text())['mcpServers']['vscode']['url'] == URL
    assert vscode.window.messages[0] == ('info', 'Hermes: MCP config copied to the clipboard (it contains the '
                                         'access token; keep it private).', ['Write .mcp.json'])
    assert vscode.window.messages[-1][1] == ('Hermes: wrote .mcp.json. It holds this window\'s access token: keep '
                                             'it out of version control.')
    assert not (tmp_path / '.vscode').exists()


def test_older_vscode_gets_its_vscode_folder_file(tmp_path, monkeypatch):
    assert offer(tmp_path, '1.139.1', write_action('.vscode/mcp.json'), monkeypatch) == 'written'
    assert json.loads((tmp_path / '.vscode' / 'mcp.json').read_text())['servers']['vscode']['url'] == URL
    assert not (tmp_path / '.mcp.json').exists()


def test_a_file_already_there_is_opened_and_left_as_it_is(tmp_path, monkeypatch):
    mine = '// my servers\n{"mcpServers": {"other": {"url": "http://example.com"}}}\n'
    (tmp_path / '.mcp.json').write_text(mine)
    assert offer(tmp_path, '1.140.0', write_action('.mcp.json'), monkeypatch) == 'opened'
    assert (tmp_path / '.mcp.json').read_text() == mine
    assert vscode.window.activeTextEditor.document.uri.fsPath == str(tmp_path / '.mcp.json')
    assert vscode.window.messages[-1][1] == ('Hermes: .mcp.json already exists and was left as it is: paste the '
                                             'copied entry into it.')


def test_nothing_is_written_unless_asked_nor_without_a_folder(tmp_path, monkeypatch):
    assert offer(tmp_path, '1.140.0', None, monkeypatch) is None
    assert list(tmp_path.iterdir()) == []
    vscode.workspace.workspaceFolders = None
    assert asyncio.run(offer_workspace_file('{}')) is None
    assert vscode.window.messages[-1] == ('info', 'Hermes: MCP config copied to the clipboard (it contains the '
                                          'access token; keep it private).', [])
