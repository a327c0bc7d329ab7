"""The first real tools, against the vscode shim."""
import asyncio
import json

import vscode
from shim_services import window_services
from hermes.core.tools import Services
from hermes.host.tool_services import PathService
from hermes.tools.catalog import build_registry as build_registry_with


def build_registry(approver=None, services=None):
    """workspace_get_folders reads the workspace's folders through call.services.paths, as in a window."""
    return build_registry_with(approver, services or Services(paths=PathService()))


def call(registry, name, arguments=None):
    from hermes.core.tools import ToolCall
    return asyncio.run(registry.call(name, arguments or {}, ToolCall()))


def test_workspace_get_folders_lists_open_folders(tmp_path):
    vscode.workspace.open_folders([str(tmp_path / 'a'), str(tmp_path / 'b')])
    result = call(build_registry(), 'workspace_get_folders')
    assert result['isError'] is False
    folders = result['structuredContent']['folders']
    assert [f['name'] for f in folders] == ['a', 'b']
    assert folders[0]['path'] == str(tmp_path / 'a') and folders[1]['index'] == 1


def test_workspace_get_folders_with_no_folder_open():
    result = call(build_registry(), 'workspace_get_folders')
    assert result['structuredContent'] == {'name': None, 'folders': []}


def test_editor_get_open_tabs(context, tmp_path):
    (tmp_path / 'w').mkdir()
    vscode.workspace.open_folders([str(tmp_path / 'w')])
    uri = vscode.Uri.file(str(tmp_path / 'w' / 'app.py'))
    elsewhere = vscode.Uri.file(str(tmp_path / 'other-project' / 'secret.py'))
    vscode.window.tabGroups.all = [vscode.TabGroup(1, [vscode.Tab('app.py', uri, active=True, dirty=True),
                                                       vscode.Tab('Welcome'), vscode.Tab('secret.py', elsewhere)])]
    result = call(build_registry(None, window_services(context)), 'editor_get_open_tabs')
    tabs = result['structuredContent']['tabs']
    assert tabs[0] == {'label': 'app.py', 'path': str(tmp_path / 'w' / 'app.py'), 'uri': uri.toString(), 'group': 1,
                       'active': True, 'dirty': True, 'pinned': False, 'preview': False}
    assert tabs[1]['path'] is None
    # a tab of a file outside the workspace: neither its name nor its place (host/confinement.py)
    assert tabs[2]['label'] == 'a file outside the workspace' and tabs[2]['path'] is None and tabs[2]['uri'] is None
    assert 'other-project' not in json.dumps(result)


def test_tools_leave_out_top_level_arguments_they_do_not_declare():
    """Clients add names of their own (Gemini CLI: `wait_for_previous`); a wrong known argument is still an error."""
    assert call(build_registry(), 'workspace_get_folders', {'wait_for_previous': True})['isError'] is False
    result = call(build_registry(), 'file_read', {'path': ['a'], 'wait_for_previous': True})
    assert result['isError'] is True
    assert result['content'][0]['text'] == (
        "Invalid arguments for tool 'file_read':\narguments.path: expected string, got array\n"
        "arguments: unexpected property 'wait_for_previous' (allowed: path, start_line, end_line)")
