"""The real Gemini CLI (pinned in tests/clients/clients.json), interactive in tmux as a user runs it, finds the
window's door with no configuration of its own beyond IDE mode (`ide.enabled`), and its edit goes through Hermes'
review: the bundle runs under node with the fake `vscode` (tests/node/serve_doors.js) and a scripted review stands
in for the user.

Checked by experiment, and asserted below: the CLI connects to `http://127.0.0.1:<port>/mcp` with the discovery file's
token (found by the variables VS Code's terminals get from the extension: `TERM_PROGRAM=vscode`,
`GEMINI_CLI_IDE_SERVER_PORT`, `GEMINI_CLI_IDE_WORKSPACE_PATH`); in its default approval mode an edit (`write_file`)
becomes `openDiff {filePath, newContent}`; the CLI writes exactly the text `ide/diffAccepted` carries (the review's,
with the user's own edit) and tells the model the user modified it; `ide/diffRejected` leaves the file as it was.
In a container the CLI dials `host.docker.internal` unless the terminal says the IDE is in there too: the door puts
`VSCODE_REMOTE_CONTAINERS_SESSION` into the terminals then (host/doors.py), and this test passes what they get."""
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import NODE, ROOT

sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]
from llm_server.agent_script import Say, ToolUse
from llm_server.gemini_api import GeminiServer
from tasks import client_dir

GEMINI = client_dir('gemini-cli') / 'node_modules' / '.bin' / 'gemini'
SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
            'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
            'ide': {'enabled': True, 'hasSeenNudge': True},
            'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}
WAIT_S = 60

pytestmark = pytest.mark.skipif(not GEMINI.exists(), reason='Gemini CLI is not installed (inv setup installs it)')


class DoorWindow:
    """tests/node/serve_doors.js in a process of its own: its JSON lines in a queue."""

    def __init__(self, workspace, env):
        self.process = subprocess.Popen([NODE, str(ROOT / 'tests' / 'node' / 'serve_doors.js'), str(workspace)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()
        self.ports = self.next_where(lambda line: 'gemini' in line)

    def _read(self):
        for line in self.process.stdout:
            value = json.loads(line)
            if 'log' in value:
                self.log.append(value['log'])
            else:
                self.lines.put(value)

    def next_where(self, wanted):
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                value = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if wanted(value):
                return value
        raise AssertionError('the window never said what the test waits for; its log: ' + '\n'.join(self.log))

    def review(self, **answer):
        self.process.stdin.write(json.dumps({'review': answer}) + '\n')
        self.process.stdin.flush()

    def stop(self):
        self.process.terminate()
        self.process.wait(30)


def tmux(*args):
    return subprocess.run(['tmux'] + list(args), capture_output=True, text=True, timeout=30)


def end_session(session):
    """The CLI and everything it started are gone (a killed tmux session alone leaves a CLI that ignores SIGHUP)."""
    pane = tmux('display-message', '-p', '-t', session, '#{pane_pid}').stdout.strip()
    if pane.isdigit():
        try:
            os.killpg(os.getpgid(int(pane)), signal.SIGKILL)
        except ProcessLookupError:
            pass
    tmux('kill-session', '-t', session)


def wait_for(condition, what, screen=None):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(what + ('' if screen is None else '\n--- screen\n' + screen()))


@pytest.fixture
def setup(tmp_path):
    workspace = tmp_path / 'ws'
    workspace.mkdir()
    (workspace / 'app.py').write_text('a = 1\n')
    home = tmp_path / 'home'
    (home / '.gemini').mkdir(parents=True)
    (home / '.gemini' / 'settings.json').write_text(json.dumps(SETTINGS))
    temporary = tmp_path / 'tmp'
    temporary.mkdir()
    env = dict(os.environ, HOME=str(home), TMPDIR=str(temporary), CLAUDE_CONFIG_DIR=str(home / '.claude'))
    window = DoorWindow(workspace, env)
    model = GeminiServer().start()
    session = 'hermes-gemini-' + str(os.getpid())
    yield {'workspace': workspace, 'home': home, 'tmp': temporary, 'window': window, 'model': model,
           'session': session}
    end_session(session)
    model.stop()
    window.stop()


def start_gemini(setup, flags=()):
    """The CLI as a VS Code terminal starts it: the variables the extension put into the terminals' environment."""
    terminal = dict(setup['window'].ports['environment'], TERM_PROGRAM='vscode', TERM='xterm-256color',
                    HOME=str(setup['home']), TMPDIR=str(setup['tmp']), PATH=str(Path(NODE).parent) + ':/usr/bin:/bin',
                    GEMINI_API_KEY='scripted', GOOGLE_GEMINI_BASE_URL=setup['model'].base_url, NO_COLOR='1')
    command = 'env -i ' + ' '.join(f"{key}='{value}'" for key, value in terminal.items()) + f" '{GEMINI}' " + \
        ' '.join(flags)
    result = tmux('new-session', '-d', '-s', setup['session'], '-x', '200', '-y', '50', '-c', str(setup['workspace']),
                  command + '; sleep 600')
    assert result.returncode == 0, result.stderr

    def screen():
        return tmux('capture-pane', '-pt', setup['session']).stdout

    wait_for(lambda: any('connected through the IDE door' in line for line in setup['window'].log),
             'Gemini CLI never connected to the door', screen)
    wait_for(lambda: 'Do you want to continue?' in screen() or 'Type your message' in screen(), 'no prompt', screen)
    if 'Do you want to continue?' in screen():  # its first-run offer to set up terminal keybindings: no
        tmux('send-keys', '-t', setup['session'], 'Down', 'Enter')
        wait_for(lambda: 'Type your message' in screen(), 'no prompt after the keybinding question', screen)
    return screen


def ask(setup, text):
    tmux('send-keys', '-t', setup['session'], text)
    time.sleep(0.5)
    tmux('send-keys', '-t', setup['session'], 'Enter')


def test_gemini_cli_connects_and_writes_what_the_review_kept(setup):
    target = setup['workspace'] / 'app.py'
    setup['model'].script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 2\nb = 3\n'})],
                          Say('Done.'))
    setup['window'].review(outcome='accepted', replace=['b = 3', 'b = 30  # mine'])
    screen = start_gemini(setup)
    ask(setup, 'set a to 2 and add b')
    proposal = setup['window'].next_where(lambda line: 'propose' in line)['propose']
    assert proposal['path'] == str(target)
    assert proposal['text'] == 'a = 2\nb = 3\n'
    assert proposal['author']['client'] == 'Gemini CLI'
    wait_for(lambda: target.read_text() == 'a = 2\nb = 30  # mine\n', 'the CLI did not write what was kept: ' +
             repr(target.read_text()), screen)
    wait_for(lambda: len(setup['model'].turns) >= 2, 'no second model request', screen)
    told = json.dumps(setup['model'].turns[-1])
    assert 'User modified' in told, 'the CLI tells its model the user changed the proposal'


def test_a_rejected_proposal_leaves_the_file_as_it_was(setup):
    target = setup['workspace'] / 'app.py'
    setup['model'].script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 99\n'})], Say('Ok.'))
    setup['window'].review(outcome='rejected')
    screen = start_gemini(setup)
    ask(setup, 'set a to 99')
    setup['window'].next_where(lambda line: 'propose' in line)
    wait_for(lambda: 'cancel' in screen().lower() or len(setup['model'].turns) >= 2 or 'rejected' in screen().lower(),
             'the CLI never reacted to the rejection', screen)
    time.sleep(1)
    assert target.read_text() == 'a = 1\n'


def pending_of(window, path):
    window.process.stdin.write(json.dumps({'pending': True}) + '\n')
    window.process.stdin.flush()
    found = window.next_where(lambda line: 'pending' in line)['pending']
    return [item for item in found if item['path'] == path]


def test_an_edit_it_makes_without_asking_becomes_its_pending_change(setup):
    """`--approval-mode auto_edit`: the CLI writes the file itself (no openDiff); while it is connected the door's
    disk watch records the change as the CLI's, hunk by hunk, ready to keep or undo."""
    target = setup['workspace'] / 'app.py'
    setup['model'].script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 1\nb = 2\n'})],
                          Say('Written.'))
    screen = start_gemini(setup, ['--approval-mode', 'auto_edit'])
    ask(setup, 'add b')
    wait_for(lambda: target.read_text() == 'a = 1\nb = 2\n', 'the CLI did not write the file', screen)
    deadline = time.monotonic() + WAIT_S
    found = []
    while time.monotonic() < deadline and not found:
        found = pending_of(setup['window'], str(target))
        time.sleep(0.5)
    assert len(found) == 1, 'the write never became a pending change'
    assert found[0]['client'] == 'Gemini CLI'
    assert (found[0]['added'], found[0]['removed']) == (1, 0)
    assert not any('propose' in line for line in list(setup['window'].lines.queue)), 'nothing was proposed'
