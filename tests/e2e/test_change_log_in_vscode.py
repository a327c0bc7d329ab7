"""The change log in a real VS Code (code-server, the packaged extension): an external MCP client — the official
Python SDK, under its own clientInfo name — edits two files through the real editor; `changes_list` and
`hermes://changes` list the edits under that name; Keep one hunk, Undo the other and Undo the whole second file
through the review commands: the files on disk are then exactly as expected (CRLF included). And pending changes
survive a reload of the window (its own code-server: a reload would disturb the shared window's other modules), and
the extension host killed (SIGKILL) in the middle of writing the change log (docs/RELIABILITY.md)."""
import json
import os
import signal

import mcp.types as types
import pytest

from conftest import ROOT, copy_of_fixture_workspace, open_window, running_code_server
from mcp_session import McpSession
from vscode_server import holds_within, package_probe_extension, probe_runner, wait_until

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


def test_files_a_terminal_command_changes_are_recorded_under_the_client_and_undone_exactly(agent, workspace):
    """terminal_run in real bash: sed -i rewrites a file open in the editor (a new file renamed over it) and the
    command creates another; both are listed under the client that ran it (the open file with the hunk sed made,
    the new one as created), and undoing both puts the disk back exactly."""
    (workspace / 'changes' / 'term.py').write_text('a = 1\nb = 2\nc = 3\n')
    agent.ok('editor_open_file', {'path': 'changes/term.py'})
    _, ran = agent.ok('terminal_run', {'command': "sed -i 's/b = 2/b = 20/' changes/term.py && "
                                                  "printf 'made = True\\n' > changes/made.py"})
    assert ran['exitCode'] == 0, ran

    def listed():
        _, view = agent.ok('changes_list', {})
        found = [(item['path'], item['client'], item.get('created', False),
                  [(hunk['removed_lines'], hunk['added_lines']) for hunk in item['hunks']]) for item in ours(view)]
        return found if len(found) == 2 else None
    found = wait_until(listed, 30, what='the command\'s two files in the change log')
    assert sorted(found) == [('changes/made.py', 'e2e-agent', True, [([], ['made = True'])]),
                             ('changes/term.py', 'e2e-agent', False, [(['b = 2'], ['b = 20'])])]
    for name in ['term.py', 'made.py']:
        agent.ok('command_execute', {'command': 'hermes.changes.undoFile', 'args': [str(workspace / 'changes' / name)]})
    wait_until(lambda: (workspace / 'changes' / 'term.py').read_text() == 'a = 1\nb = 2\nc = 3\n'
               and not (workspace / 'changes' / 'made.py').exists(), 30, what='the command undone on disk')


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


# ------------------------------------------------------------------ the extension host killed mid-write

# Installed in the extension host through the probe (Node's `fs` is one module there, Hermes' and the probe's): the
# next write into a temporary file of changes.json (the snapshot, host/safe_write.py) stops half way, says so in
# KILL_ME with the host's pid, and blocks the host until the test kills it.
TRAP = """
const fs = require('fs');
const open = fs.openSync, write = fs.writeFileSync;
const trapped = new Set();
fs.openSync = function (target, ...rest) {
  const fd = open.call(fs, target, ...rest);
  if (/changes\\.json\\.[0-9]+-[0-9a-f]+\\.tmp$/.test(String(target))) trapped.add(fd);
  return fd;
};
fs.writeFileSync = function (target, text, ...rest) {
  if (typeof target !== 'number' || !trapped.has(target)) return write.call(fs, target, text, ...rest);
  fs.writeSync(target, text.slice(0, Math.floor(text.length / 2)));
  write.call(fs, KILL_ME, String(process.pid));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
return process.pid;
"""


@pytest.fixture(scope='module')
def probe_vsix(tmp_path_factory):
    from tasks import node_bin  # the pinned Node 24 and vsce from node_modules
    return package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                   ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')


@pytest.fixture(scope='module')
def killable(tmp_path_factory, browser, probe_vsix):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'kill-ws')
    for name in ['a.py', 'b.py', 'c.py']:
        (workspace / name).write_text('one\ntwo\nthree\n')
    with running_code_server(tmp_path_factory, workspace, 'kill', settings={'hermes.tools.confirm': 'never'},
                             extensions=[probe_vsix]) as server:
        with open_window(browser, server, 'kill') as bench:
            yield server, bench, workspace


def storage_files(server):
    """The change log's files in the workspace's storage folder."""
    return sorted(server.user_data.glob('User/workspaceStorage/*/hermes-agent.hermes-agent/changes*'))


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_pending_changes_survive_the_extension_host_killed_while_writing_the_change_log(killable):
    server, bench, workspace = killable
    client, pid = window_mcp(server, workspace)
    try:
        for name in ['a.py', 'b.py']:
            client.ok('editor_edit_file', {'path': name, 'edits': [{'old_text': 'two', 'new_text': 'TWO ' + name}]})
        # their snapshot written (the journal taken in), so that the trap catches the next one
        wait_until(lambda: [path.name for path in storage_files(server)] == ['changes.json'], 60,
                   what='the change log snapshot')
        kill_me = server.home / 'kill-me'
        probe = probe_runner(server.user_home)
        assert probe(TRAP.replace('KILL_ME', json.dumps(str(kill_me)))) == pid
        # acknowledged: the tool's result came back; the snapshot that follows once the changes pause stops half way
        client.ok('editor_edit_file', {'path': 'c.py', 'edits': [{'old_text': 'two', 'new_text': 'TWO c.py'}]})
        wait_until(kill_me.exists, 60, what='the snapshot to stop half way')
    finally:
        client.close()
    assert int(kill_me.read_text()) == pid
    [temporary] = [path for path in storage_files(server) if path.name.endswith('.tmp')]
    with pytest.raises(json.JSONDecodeError):
        json.loads(temporary.read_text())  # half a snapshot
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not pid_alive(pid), 30, what='the extension host to die')
    # VS Code may start a new extension host by itself; else the user reloads the window
    if not holds_within(lambda: any(info.get('pid') != pid and pid_alive(info.get('pid', 0))
                                    for info in server.discovery_files()), 20):
        bench.page.reload()
        bench.page.wait_for_selector('.monaco-workbench', timeout=60000)
    client, new_pid = window_mcp(server, workspace, pid)
    try:
        _, after = client.ok('changes_list', {})
        listed = [(item['path'], item['client'], [(h['removed_lines'], h['added_lines']) for h in item['hunks']])
                  for item in after['pending']]
        assert listed == [(name, 'e2e-agent', [(['two'], ['TWO ' + name])]) for name in ['a.py', 'b.py', 'c.py']]
        assert 'could not be read' not in server.extension_log_text()
        # the dead writer's half snapshot is gone, the journal taken into a whole snapshot
        wait_until(lambda: [path.name for path in storage_files(server)] == ['changes.json'], 60,
                   what='the temporary file removed and the journal compacted')
        json.loads(storage_files(server)[0].read_text())
        client.ok('command_execute', {'command': 'hermes.changes.undoFile', 'args': [str(workspace / 'c.py')]})
        wait_until(lambda: (workspace / 'c.py').read_text() == 'one\ntwo\nthree\n', 30,
                   what='the change acknowledged just before the kill undone after it')
    finally:
        client.close()
