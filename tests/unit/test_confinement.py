"""Writes resolve links before the confinement check: a dangling symlink inside the workspace that points
outside is judged by its target (host/paths.py), and user settings outside the allowed sections ask."""
import asyncio
import pytest
import os

import vscode
from hermes.core.tools import ToolCall
from hermes.host.paths import in_workspace, real_path
from hermes.tools.catalog import build_registry
from shim_services import shim_services, window_services
from hermes.host.approval import Approver


def test_a_dangling_symlink_out_of_the_workspace_is_outside(tmp_path):
    ws, outside = tmp_path / 'ws', tmp_path / 'outside'
    ws.mkdir()
    outside.mkdir()
    os.symlink(outside / 'new.txt', ws / 'link.txt')  # dangling: its target does not exist yet
    os.symlink(outside / 'missing-dir', ws / 'linkdir')
    vscode.workspace.open_folders([str(ws)])
    assert real_path(str(ws / 'link.txt')) == str(outside / 'new.txt')
    assert in_workspace(str(ws / 'link.txt')) is False
    assert in_workspace(str(ws / 'linkdir' / 'a' / 'b.txt')) is False
    assert in_workspace(str(ws / 'fresh.txt')) is True
    registry = build_registry(None, shim_services())
    vscode.workspace.settings['hermes.tools.confirm'] = 'never'
    result = asyncio.run(registry.call('file_write', {'path': 'link.txt', 'content': 'x'}, ToolCall()))
    assert result['isError'] is True and 'outside the workspace' in result['content'][0]['text']
    assert not (outside / 'new.txt').exists()


def test_user_settings_outside_the_safe_sections_ask(tmp_path, context):
    vscode.workspace.open_folders([str(tmp_path)])
    vscode.workspace.settings['http.proxyAuthorization'] = 'Basic SECRET'
    vscode.workspace.settings['editor.tabSize'] = 3
    registry = build_registry(Approver(), window_services(context))
    vscode.window.message_answers.append(None)
    refused = asyncio.run(registry.call('workspace_get_config', {'key': 'http.proxyAuthorization'}, ToolCall()))
    assert refused['content'][0]['text'].startswith('The user declined') and 'SECRET' not in str(refused)
    assert asyncio.run(registry.call('workspace_get_config', {'key': 'editor.tabSize'}, ToolCall()))['isError'] is False
    vscode.window.message_answers.append('Allow')
    allowed = asyncio.run(registry.call('workspace_get_config', {'key': 'http.proxyAuthorization'}, ToolCall()))
    assert 'SECRET' in str(allowed)


@pytest.mark.parametrize('key', ['hermes.llm.extraHeaders', 'hermes.llm', 'hermes'])
def test_hermes_own_user_settings_ask_too(tmp_path, context, key):
    """hermes.llm.extraHeaders carries the user's API key: the hermes section is no editor preference."""
    vscode.workspace.open_folders([str(tmp_path)])
    vscode.workspace.settings['hermes.llm.extraHeaders'] = {'Authorization': 'Bearer SECRET'}
    registry = build_registry(Approver(), window_services(context))
    vscode.window.message_answers.append(None)
    refused = asyncio.run(registry.call('workspace_get_config', {'key': key}, ToolCall()))
    assert refused['content'][0]['text'].startswith('The user declined') and 'SECRET' not in str(refused)


def test_a_large_section_of_user_settings_asks_before_it_is_cut(tmp_path, context):
    """A section too large to show whole is cut by the tool after the gate, not by the service before it: a cut
    value is text, and the gate asks for a user-level value or a whole section."""
    vscode.workspace.open_folders([str(tmp_path)])
    vscode.workspace.settings.update({f'vault.entry{n}': 'SECRET' + 'x' * 100 for n in range(400)})
    registry = build_registry(Approver(), window_services(context))
    vscode.window.message_answers.append(None)
    refused = asyncio.run(registry.call('workspace_get_config', {'key': 'vault'}, ToolCall()))
    assert refused['content'][0]['text'].startswith('The user declined') and 'SECRET' not in str(refused)
    vscode.window.message_answers.append('Allow')
    allowed = asyncio.run(registry.call('workspace_get_config', {'key': 'vault'}, ToolCall()))['structuredContent']
    assert allowed['truncated'] is True and allowed['value'].startswith('{"entry0":"SECRET')
    assert allowed['value'].endswith('more characters; ask for a narrower key]') and len(allowed['value']) < 30100
