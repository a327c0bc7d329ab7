"""The real Gemini CLI and Qwen Code (pinned in tests/clients/clients.json), interactive in tmux as a user runs them,
find the window's doors with nothing configured but their IDE mode, and their edits go through Hermes' review: the
bundle runs under node with the fake `vscode` (tests/node/serve_doors.js, tests/door_cli.py) and a scripted review
stands in for the user.

Checked by experiment, and asserted below:
- Gemini CLI 0.61.0 connects to `http://127.0.0.1:<port>/mcp` with the discovery file's token, found by what VS
  Code's terminals get from the extension (`GEMINI_CLI_IDE_SERVER_PORT`, `GEMINI_CLI_IDE_WORKSPACE_PATH`); it calls
  itself `streamable-http-client`. In its default approval mode an edit (`write_file`) becomes `openDiff {filePath,
  newContent}`, answered at once; it writes exactly the text `ide/diffAccepted` carries (the review's, with the
  user's own edit) and tells the model "User modified the `content`"; after `ide/diffRejected` the file stays as it
  was. In `--approval-mode auto_edit` it writes by itself, and the door's disk watch makes the write its pending
  change. In a container it dials `host.docker.internal` unless the terminal says the IDE is in there too: the door
  puts `VSCODE_REMOTE_CONTAINERS_SESSION` into the terminals then (host/doors/service.py), and the tests pass what they get.
- Qwen Code 0.24.4 reads its own lock (`~/.qwen/ide/<port>.lock`, `QWEN_CODE_IDE_SERVER_PORT`), speaks the same
  protocol (also as `streamable-http-client`, 2025-11-25), refuses to overwrite a file it has not read, and in its
  default approval mode sends the edit to `openDiff` and writes what the review kept."""
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from door_cli import NODE, Door, Terminal, until
from terminal_env import as_a_users_terminal
from llm_server.agent_script import Say, ToolUse
from llm_server.gemini_api import GeminiServer
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

GEMINI_SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
                   'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
                   'ide': {'enabled': True, 'hasSeenNudge': True},
                   'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}
QWEN_SETTINGS = dict(GEMINI_SETTINGS, security={'auth': {'selectedType': 'openai'}, 'folderTrust': {'enabled': False}})


def program(client, name):
    from tasks import client_dir
    found = client_dir(client) / 'node_modules' / '.bin' / name
    if not found.exists():
        pytest.skip(f'{client} is not installed: run `inv setup`')
    return found


@pytest.fixture
def window(tmp_path):
    workspace = tmp_path / 'ws'
    workspace.mkdir()
    (workspace / 'app.py').write_text('a = 1\n')
    home = tmp_path / 'home'
    for folder, settings in (('.gemini', GEMINI_SETTINGS), ('.qwen', QWEN_SETTINGS)):
        (home / folder).mkdir(parents=True)
        (home / folder / 'settings.json').write_text(json.dumps(settings))
    # Gemini CLI's first-run offer to set up VS Code's keybindings takes the next keys: seen
    (home / '.gemini' / 'state.json').write_text(json.dumps({'terminalSetupPromptShown': True}))
    (tmp_path / 'tmp').mkdir()
    env = dict(os.environ, HOME=str(home), TMPDIR=str(tmp_path / 'tmp'), CLAUDE_CONFIG_DIR=str(home / '.claude'))
    door = Door(workspace, env)
    yield {'door': door, 'workspace': workspace, 'home': home, 'tmp': tmp_path / 'tmp', 'base': tmp_path}
    door.stop()


def start(window, command, more_env, session):
    """The CLI as a VS Code terminal of this window starts it: the variables the extension put into the terminals."""
    env = dict(as_a_users_terminal(os.environ), **window['door'].environment, TERM_PROGRAM='vscode', TERM='xterm-256color', NO_COLOR='1',
               HOME=str(window['home']), TMPDIR=str(window['tmp']),
               PATH=str(os.path.dirname(NODE)) + os.pathsep + os.environ.get('PATH', ''), **more_env)
    terminal = Terminal(window['base'] / 'tmux.sock', window['workspace'], command, env, session)

    def seen():
        return terminal.screen() + '\n--- door\n' + window['door'].seen()
    until(lambda: 'Type your message' in terminal.screen(), 'the CLI to wait for a prompt', seen)
    return terminal, seen


@pytest.fixture
def gemini(window):
    model = GeminiServer().start()
    terminals = []

    def run(*flags):
        command = ' '.join([str(program('gemini-cli', 'gemini'))] + list(flags))
        terminal, seen = start(window, command, {'GEMINI_API_KEY': 'scripted',
                                                 'GOOGLE_GEMINI_BASE_URL': model.base_url}, 'gemini')
        terminals.append(terminal)
        # a prompt typed before the CLI's IDE connection is up is answered without the IDE (its own diff in the
        # terminal): a fresh-clone run on a loaded machine did so. What a user sees first: connected, initialized.
        until(lambda: window['door'].find('connected'), 'Gemini CLI to connect to the door', seen)
        until(lambda: 'Initializing' not in terminal.screen(), 'Gemini CLI to finish initializing', seen)
        return terminal, seen
    yield model, run
    for terminal in terminals:
        terminal.stop()
    model.stop()


def test_gemini_cli_writes_what_the_review_kept(window, gemini):
    model, run = gemini
    target = window['workspace'] / 'app.py'
    model.script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 2\nb = 3\n'})], Say('Done.'))
    window['door'].command({'answer': {'outcome': 'accepted', 'replace': ['b = 3', 'b = 30  # mine']}})
    terminal, seen = run()
    terminal.type('set a to 2 and add b')
    proposal = until(lambda: window['door'].find('propose'), 'the proposal', seen)
    assert (proposal['filePath'], proposal['text'], proposal['author']['client']) == \
        (str(target), 'a = 2\nb = 3\n', 'Gemini CLI')
    until(lambda: target.read_text() == 'a = 2\nb = 30  # mine\n', 'the kept text on disk', seen)
    until(lambda: len(model.turns) >= 2, 'the model to hear of it', seen)
    assert 'User modified' in json.dumps(model.turns[-1]), 'the CLI tells its model the user changed the proposal'


def test_a_proposal_gemini_cli_gets_rejected_leaves_the_file(window, gemini):
    model, run = gemini
    target = window['workspace'] / 'app.py'
    model.script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 99\n'})], Say('Ok.'))
    window['door'].command({'answer': {'outcome': 'rejected'}})
    terminal, seen = run()
    terminal.type('set a to 99')
    until(lambda: window['door'].find('decided', lambda value: value['outcome'] == 'rejected'), 'the rejection', seen)
    until(lambda: len(model.turns) >= 2 or 'cancel' in terminal.screen().lower(), 'the CLI to go on', seen)
    assert target.read_text() == 'a = 1\n'


def test_an_edit_gemini_cli_makes_without_asking_becomes_its_pending_change(window, gemini):
    model, run = gemini
    target = window['workspace'] / 'app.py'
    model.script([ToolUse('write_file', {'file_path': str(target), 'content': 'a = 1\nb = 2\n'})], Say('Written.'))
    terminal, seen = run('--approval-mode', 'auto_edit')
    terminal.type('add b')
    pending = until(lambda: window['door'].find('pending', lambda items: any(
        item['path'] == str(target) for item in items)), 'the write to become a pending change', seen)
    [item] = [item for item in pending if item['path'] == str(target)]
    assert (item['client'], item['added'], item['removed']) == ('Gemini CLI', 1, 0)
    assert window['door'].find('propose') is None, 'nothing was proposed'


def test_qwen_code_sends_its_edit_to_the_review(window):
    target = window['workspace'] / 'app.py'
    model = ScriptedLlmServer({'replies': [
        Reply(tool_events([('call_0', 'read_file', {'file_path': str(target)})])),
        Reply(tool_events([('call_1', 'write_file', {'file_path': str(target), 'content': 'a = 2\n'})])),
        Reply(text_events('Done.'))], 'models': ['qwen-scripted']})
    model.__enter__()
    window['door'].command({'answer': {'outcome': 'accepted', 'replace': ['a = 2', 'a = 2  # kept']}})
    command = str(program('qwen-code', 'qwen')) + ' --approval-mode default'
    terminal, seen = start(window, command, {'OPENAI_API_KEY': 'scripted', 'OPENAI_BASE_URL': model.endpoint,
                                             'OPENAI_MODEL': 'qwen-scripted'}, 'qwen')
    try:
        lock = json.loads((window['home'] / '.qwen' / 'ide' / f"{window['door'].ports['qwen']}.lock").read_text())
        assert lock['workspacePath'] == str(window['workspace'])
        until(lambda: window['door'].find('connected'), 'Qwen Code to connect to the door', seen)
        until(lambda: 'Initializing' not in terminal.screen(), 'Qwen Code to finish initializing', seen)
        terminal.type('set a to 2')
        proposal = until(lambda: window['door'].find('propose'), 'the proposal', seen)
        assert (proposal['text'], proposal['author']['client']) == ('a = 2\n', 'Qwen Code')
        until(lambda: target.read_text() == 'a = 2  # kept\n', 'the kept text on disk', seen)
    finally:
        terminal.stop()
        model.stop()
