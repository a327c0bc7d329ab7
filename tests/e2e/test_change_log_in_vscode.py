"""The change log in a real VS Code (code-server, the packaged extension): an external MCP client — the official
Python SDK, under its own clientInfo name — edits two files through the real editor; `changes_list` and
`hermes://changes` list the edits under that name; Keep one hunk, Undo the other and Undo the whole second file
through the review commands: the files on disk are then exactly as expected (CRLF included). And pending changes
survive a reload of the window (its own code-server: a reload would disturb the shared window's other modules)."""
import json

import mcp.types as types
import pytest

from conftest import copy_of_fixture_workspace, open_window, running_code_server
from mcp_session import McpSession
from vscode_server import wait_until

AGENT = types.Implementation(name='e2e-agent', version='1.0')


@pytest.fixture
def agent(code_server, workbench, workspace):
    folder = workspace / 'changes'
    folder.mkdir(exist_ok=True)
    (folder / 'one.py').write_text('a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n')
    (folder / 'two.txt').write_bytes(b'x\r\ny\r\nz\r\n')
    info = code_server.discovery_for(workspace)
    client = McpSession(info['url'], info['token'], client_info=AGENT)
    yield client
    try:
        client.call('command_execute', {'command': 'hermes.changes.keepAll'})
    finally:
        client.close()


def ours(view):
    return [item for item in view['pending'] if item['path'].startswith('changes/')]


def test_an_sdk_clients_edits_are_listed_under_its_name_and_kept_or_undone_exactly(agent, workspace):
    agent.ok('editor_edit_file', {'path': 'changes/one.py', 'edits': [{'old_text': 'b = 2', 'new_text': 'b = 20'},
                                                                      {'old_text': 'e = 5', 'new_text': 'e = 50'}]})
    agent.ok('file_write', {'path': 'changes/two.txt', 'content': 'x\r\nY\r\nz\r\n'})
    text, view = agent.ok('changes_list', {})
    listed = ours(view)
    assert [(item['path'], item['client']) for item in listed] == [('changes/one.py', 'e2e-agent'),
                                                                   ('changes/two.txt', 'e2e-agent')]
    assert [(hunk['line'], hunk['removed_lines'], hunk['added_lines']) for hunk in listed[0]['hunks']] == [
        (2, ['b = 2'], ['b = 20']), (5, ['e = 5'], ['e = 50'])]
    assert '- changes/one.py: +2 −2 by e2e-agent, hunks at line 2, 5' in text
    resource = agent.run(lambda session: session.read_resource('hermes://changes'))
    assert ours(json.loads(resource.contents[0].text)) == listed

    one = str(workspace / 'changes' / 'one.py')
    first, second = [hunk['id'] for hunk in listed[0]['hunks']]
    agent.ok('command_execute', {'command': 'hermes.changes.keep', 'args': [one, first]})
    agent.ok('command_execute', {'command': 'hermes.changes.undo', 'args': [one, second]})
    agent.ok('command_execute', {'command': 'hermes.changes.undoFile',
                                 'args': [str(workspace / 'changes' / 'two.txt')]})
    wait_until(lambda: (workspace / 'changes' / 'one.py').read_text() == 'a = 1\nb = 20\nc = 3\nd = 4\ne = 5\n',
               30, what='the undone hunk back on disk, the kept one staying')
    wait_until(lambda: (workspace / 'changes' / 'two.txt').read_bytes() == b'x\r\ny\r\nz\r\n',
               30, what='the second file back byte for byte')
    _, after = agent.ok('changes_list', {})
    assert ours(after) == []
    decided = [(item['action'], item['path']) for item in after['history'] if item['path'].startswith('changes/')]
    assert decided == [('kept', 'changes/one.py'), ('undone', 'changes/one.py'), ('undone', 'changes/two.txt')]


# ------------------------------------------------------------------------------------- a window reload

@pytest.fixture(scope='module')
def reloadable(tmp_path_factory, browser):
    """A code-server of this module's own: reloading the shared window would disturb the other modules."""
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'changes-ws')
    (workspace / 'kept.py').write_text('one\ntwo\nthree\n')
    with running_code_server(tmp_path_factory, workspace, 'changes', settings={'hermes.tools.confirm': 'never'}) as server:
        with open_window(browser, server, 'changes') as bench:
            yield server, bench, workspace


def window_mcp(server, workspace, not_pid=None):
    """An MCP session with the window's extension host (after a reload: the new one, not `not_pid`)."""
    def find():
        infos = [info for info in server.discovery_files() if str(workspace) in info.get('workspaceFolders', [])]
        fresh = [info for info in infos if info.get('pid') != not_pid]
        return fresh[-1] if fresh else None
    info = wait_until(find, 60, what='a discovery file of the extension host')
    return McpSession(info['url'], info['token'], client_info=AGENT), info['pid']


def test_pending_changes_survive_a_window_reload(reloadable):
    server, bench, workspace = reloadable
    client, pid = window_mcp(server, workspace)
    try:
        client.ok('editor_edit_file', {'path': 'kept.py', 'edits': [{'old_text': 'two', 'new_text': 'TWO'}]})
        _, before = client.ok('changes_list', {})
    finally:
        client.close()
    assert [(item['path'], item['client']) for item in before['pending']] == [('kept.py', 'e2e-agent')]
    bench.page.reload()
    bench.page.wait_for_selector('.monaco-workbench', timeout=60000)
    client, _ = window_mcp(server, workspace, pid)
    try:
        _, after = client.ok('changes_list', {})
        assert after['pending'] == before['pending']
        client.ok('command_execute', {'command': 'hermes.changes.undoFile', 'args': [str(workspace / 'kept.py')]})
        wait_until(lambda: (workspace / 'kept.py').read_text() == 'one\ntwo\nthree\n', 30,
                   what='the change undone after the reload')
    finally:
        client.close()
