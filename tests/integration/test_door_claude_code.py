"""The real, interactive Claude Code finds this window's door by itself and sends its edits there for review.

The bundle runs under node with the fake `vscode` (tests/node/serve_doors.js): its Claude Code door listens, writes
its lock file into `$CLAUDE_CONFIG_DIR/ide`, and a scripted stand-in for Hermes' review answers each `openDiff` as the
test says. Claude Code (pinned in tests/clients/clients.json, installed by `inv setup`) runs interactively in tmux,
its cwd in the workspace, offline against a scripted Anthropic server (tests/llm_server/anthropic_messages.py),
in `--permission-mode manual`, with the environment a VS Code terminal of this window has (`CLAUDE_CODE_SSE_PORT`,
from the extension's environmentVariableCollection, and `TERM_PROGRAM=vscode`) and nothing else configured: no
`/ide`, no `--ide`, no MCP config. Its onboarding, folder trust and the API key are pre-accepted in
`$CLAUDE_CONFIG_DIR/.claude.json` (a first start asks about each).

Checked by experiment (Claude Code 2.1.328, the bundle's door, this test):
- it dials the door at once: `initialize` (protocol 2025-11-25, clientInfo `claude-code`), `notifications/initialized`,
  `ide_connected {pid}`, `tools/list`; the lock's `pid` (the node process) need not be its ancestor when
  `CLAUDE_CODE_SSE_PORT` names the port, even with `TERM_PROGRAM=vscode`;
- at every prompt it calls `closeAllDiffTabs`; for an Edit (after a Read) it calls `openDiff {old_file_path,
  new_file_path, new_file_contents, tab_name: "✻ [Claude Code] notes.md (<hash>) ⧉"}` and waits: the door's answer
  is the decision (the terminal asks too meanwhile, below);
- answered `FILE_SAVED` + a text that differs from its proposal, it writes *that* text and tells the model "The user
  modified your proposed changes before accepting them"; it calls `close_tab` (twice), then `getDiagnostics {uri}` of
  the file *before* it writes it (its baseline; strace: the write follows ~60-200 ms later, atomically through
  `<name>.tmp.<pid>.<hex>` renamed over the file), then `getDiagnostics {}` after the write — in acceptEdits mode too
  (then without openDiff). The door's disk watch ended its span at the first, so under load it recorded the temporary
  file as a file Claude Code created (tests/node/door_watch.test.js; host/doors/watch.py);
- answered `DIFF_REJECTED`, it leaves the file as it was, tells the model "The tool use was rejected" (is_error) and
  ends the turn ("[Request interrupted by user for tool use]") without asking the model again;
- while openDiff is pending, the terminal asks too: "Opened changes in <ideName> ⧉ … Save file to continue… Do you
  want to make this edit to <file>? 1. Yes 2. Yes, and switch to accept edits 3. No". Esc there: `close_tab` (twice),
  no cancellation of the openDiff request, the file unchanged. "Yes" there: `close_tab`, then it writes its own
  proposal — a write the review never saw, which the door's disk watch records as Claude Code's pending change. So a
  review must end when its tab is closed, and write nothing then;
- a `selection_changed` the door sends when the user selects text (after the CLI is connected) reaches the model's
  next request as "The user selected the lines 2 to 2 from <file>:\n<text>", and the CLI shows "⧉ Selected 1 lines
  from <file> in <ideName>";
- in acceptEdits mode (shift+tab) it writes without openDiff; the door's disk watch makes each file its pending
  change (two edits in a row: both, and none of its temporaries);
- without `CLAUDE_CODE_SSE_PORT` (lock file only, `TERM_PROGRAM=vscode`, the lock's pid not an ancestor of the CLI)
  it did not connect within 20 s.
Timings (2 cores, shared with other work): the whole module 7-10 s (the CLI connects within ~0.5 s of its start; the
acceptEdits test waits ~1.5 s for the disk watch's late window).
"""
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from llm_server.agent_script import Say, ToolUse
from llm_server.anthropic_messages import AnthropicServer
from door_cli import NODE, Door, Terminal, until
from terminal_env import as_a_users_terminal

CLIENT = 'claude-code'
API_KEY = 'sk-ant-scripted-door-0123456789abcdef'
ARTIFACTS = ROOT / 'tests' / 'artifacts' / 'integration'


def claude_program():
    from tasks import client_dir
    folder = client_dir(CLIENT)
    program = folder / 'node_modules' / '.bin' / 'claude'
    if not (folder / '.installed').exists() or not program.exists():
        pytest.skip(f'{CLIENT} is not installed in {folder}: run `inv setup`')
    if shutil.which('tmux') is None:
        pytest.skip('tmux is not installed (the interactive CLI runs in it): apt-get install tmux')
    if not (ROOT / 'dist' / 'extension.js').exists():
        pytest.skip('dist/extension.js is missing: run `inv build`')
    return program


@pytest.fixture(scope='module')
def setup(tmp_path_factory):
    program = claude_program()
    base = tmp_path_factory.mktemp('door-claude')
    workspace = base / 'project'
    workspace.mkdir()
    (workspace / 'notes.md').write_text('one\ntwo\nthree\n')
    (workspace / 'todo.txt').write_text('alpha\nbeta\n')
    (workspace / 'draft.txt').write_text('first\nsecond\n')
    (workspace / 'plan.txt').write_text('start\nfinish\n')
    (workspace / 'first.txt').write_text('red\n')
    (workspace / 'second.txt').write_text('green\n')
    home = base / 'home'
    config = home / '.claude'
    config.mkdir(parents=True)
    (base / 'tmp').mkdir()
    # A first interactive start asks for its onboarding, the folder's trust and whether to use the API key.
    (config / '.claude.json').write_text(json.dumps({
        'hasCompletedOnboarding': True, 'theme': 'dark',
        'customApiKeyResponses': {'approved': [API_KEY[-20:]], 'rejected': []},
        'projects': {str(workspace): {'hasTrustDialogAccepted': True, 'hasCompletedProjectOnboarding': True}}}))
    # The window and the CLI share the user's config folder: the lock file is where the CLI looks.
    door = Door(workspace, dict(os.environ, HOME=str(home), CLAUDE_CONFIG_DIR=str(config), TMPDIR=str(base / 'tmp')))
    model = AnthropicServer([Say('(nothing scripted yet)')]).start()
    # What a VS Code terminal of this window holds (the extension's environmentVariableCollection), and offline.
    cli_env = dict(as_a_users_terminal(os.environ), HOME=str(home), CLAUDE_CONFIG_DIR=str(config), TERM_PROGRAM='vscode',
                   CLAUDE_CODE_SSE_PORT=str(door.port), ANTHROPIC_BASE_URL=model.base_url, ANTHROPIC_API_KEY=API_KEY,
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC='1', DISABLE_AUTOUPDATER='1', DISABLE_TELEMETRY='1',
                   DISABLE_ERROR_REPORTING='1', TERM='xterm-256color',
                   PATH=str(Path(NODE).parent) + os.pathsep + os.environ.get('PATH', ''))
    if os.geteuid() == 0:
        cli_env['IS_SANDBOX'] = '1'
    # tmux hands a session the environment of its server, started here with `cli_env`; the script says it again.
    script = base / 'claude.sh'
    script.write_text('#!/bin/sh\n' + ''.join(f'export {key}={shlex.quote(value)}\n' for key, value in cli_env.items()
                                              if re.match(r'^[A-Z_][A-Z0-9_]*$', key)) +
                      f'exec {shlex.quote(str(program))} --permission-mode manual\n')
    script.chmod(0o700)
    terminal = Terminal(base / 'tmux.sock', workspace, str(script), cli_env)

    def seen():
        return terminal.screen() + '\n--- door\n' + door.seen()
    yield {'door': door, 'model': model, 'terminal': terminal, 'workspace': workspace, 'seen': seen}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # for the record: the last screen and what crossed the door
    (ARTIFACTS / 'door-claude-code.log').write_text(seen())
    terminal.stop()
    door.stop()
    model.stop()


def texts_of(messages):
    """Every text of a request's messages, joined: what the model reads."""
    found = []
    for message in messages:
        content = message.get('content')
        if isinstance(content, str):
            found.append(content)
            continue
        for block in content or []:
            if block.get('type') == 'text':
                found.append(block['text'])
    return '\n'.join(found)


def ready_for_a_prompt(setup):
    until(lambda: 'manual mode on' in setup['terminal'].screen(), 'the CLI to wait for a prompt', setup['seen'])


def test_the_cli_connects_to_the_door_by_itself(setup):
    door = setup['door']
    lock = json.loads(Path(door.lock).read_text())
    assert lock['workspaceFolders'] == [str(setup['workspace'])] and lock['transport'] == 'ws'
    connected = until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    assert connected['clientInfo']['name'] == 'claude-code'
    assert connected['client'] == 'Claude Code'
    [initialize] = [event for event in door.all('received') if event.get('method') == 'initialize']
    assert initialize['params']['clientInfo']['name'] == 'claude-code'
    until(lambda: any(event.get('method') == 'tools/list' for event in door.all('received')), 'tools/list',
          setup['seen'])
    ready_for_a_prompt(setup)


def test_a_selection_in_the_editor_reaches_the_model(setup):
    door, model, terminal, workspace = setup['door'], setup['model'], setup['terminal'], setup['workspace']
    until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    ready_for_a_prompt(setup)
    door.command({'select': {'file': str(workspace / 'todo.txt'), 'line': 1, 'from': 0, 'to': 4}})
    sent = until(lambda: door.find('sent', lambda event: event['method'] == 'selection_changed'),
                 'the door to send selection_changed', setup['seen'])
    assert sent['params']['text'] == 'beta'
    assert sent['params']['filePath'] == str(workspace / 'todo.txt')
    model.script(Say('Noted.'))
    terminal.type('What did I select?')
    until(lambda: model.turns, 'the model request', setup['seen'])
    said = texts_of(model.turns[0]['messages'])
    assert f"The user selected the lines 2 to 2 from {workspace / 'todo.txt'}:\nbeta\n" in said, said[-3000:]
    # the CLI shows it with the prompt it sent, naming the window as the lock file does — waited for, not read once:
    # the CLI redraws its screen when it likes (a fresh-clone run on a loaded machine read it before it was drawn)
    ide_name = json.loads(Path(door.lock).read_text())['ideName']
    until(lambda: f'Selected 1 lines from todo.txt in {ide_name}' in terminal.screen(), 'the selection on screen',
          setup['seen'])
    until(lambda: 'Noted.' in terminal.screen(), 'the answer on screen', setup['seen'])
    ready_for_a_prompt(setup)


def test_an_edit_becomes_a_proposal_and_the_cli_writes_what_the_review_kept(setup):
    door, model, terminal, workspace = setup['door'], setup['model'], setup['terminal'], setup['workspace']
    notes = workspace / 'notes.md'
    until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    ready_for_a_prompt(setup)
    # the user keeps the proposal but writes one of its lines differently
    door.command({'answer': {'outcome': 'accepted', 'replace': ['TWO', 'two (mine)']}})
    model.script(ToolUse('Read', {'file_path': str(notes)}, 'toolu_read_notes'),
                 ToolUse('Edit', {'file_path': str(notes), 'old_string': 'two\nthree', 'new_string': 'TWO\nTHREE'},
                         'toolu_edit_notes'),
                 Say('Edited notes.md.'))
    terminal.type('Shout the last two lines of notes.md')
    proposal = until(lambda: door.find('propose', lambda call: call['filePath'] == str(notes)), 'the proposal',
                     setup['seen'])
    assert proposal['text'] == 'one\nTWO\nTHREE\n'
    assert proposal['author']['client'] == 'Claude Code'
    [diff] = door.calls('openDiff')
    assert (diff['old_file_path'], diff['new_file_path'], diff['new_file_contents']) == (
        str(notes), str(notes), 'one\nTWO\nTHREE\n')
    assert re.match(r'✻ \[Claude Code\] notes\.md .*⧉$', diff['tab_name']), diff['tab_name']
    result = until(lambda: [block for block in model.tool_results() if block['tool_use_id'] == 'toolu_edit_notes'],
                   'the edit\'s result to reach the model', setup['seen'])[0]
    assert 'The user modified your proposed changes before accepting them' in json.dumps(result['content'])
    assert notes.read_text() == 'one\ntwo (mine)\nTHREE\n'  # the review's text, not the proposal
    # it then names the file it wrote (the door's disk watch records at once on this: host/doors/watch.py)
    until(lambda: {'uri': notes.as_uri()} in door.calls('getDiagnostics'), 'getDiagnostics of the file',
          setup['seen'])
    until(lambda: 'Edited notes.md.' in terminal.screen(), 'the answer on screen', setup['seen'])
    ready_for_a_prompt(setup)


def test_a_rejected_edit_leaves_the_file_as_it_was(setup):
    door, model, terminal, workspace = setup['door'], setup['model'], setup['terminal'], setup['workspace']
    todo = workspace / 'todo.txt'
    until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    ready_for_a_prompt(setup)
    door.command({'answer': {'outcome': 'rejected'}})
    model.script(ToolUse('Read', {'file_path': str(todo)}, 'toolu_read_todo'),
                 ToolUse('Edit', {'file_path': str(todo), 'old_string': 'beta', 'new_string': 'BETA'},
                         'toolu_edit_todo'),
                 Say('Edited todo.txt.'))
    terminal.type('Shout beta in todo.txt')
    until(lambda: door.find('propose', lambda call: call['filePath'] == str(todo)), 'the proposal', setup['seen'])
    until(lambda: door.find('decided', lambda decision: decision['outcome'] == 'rejected'), 'the rejection',
          setup['seen'])
    until(lambda: 'Rejected update to todo.txt' in terminal.screen(), 'the CLI to show the rejection', setup['seen'])
    ready_for_a_prompt(setup)
    assert todo.read_text() == 'alpha\nbeta\n'
    # what the model learns of it: the conversation the next prompt carries
    model.script(Say('Fine.'))
    terminal.type('Leave it then')
    until(lambda: model.turns, 'the next model request', setup['seen'])
    [result] = [block for message in model.turns[0]['messages'] if isinstance(message.get('content'), list)
                for block in message['content'] if block.get('tool_use_id') == 'toolu_edit_todo']
    assert result.get('is_error') is True
    assert 'The tool use was rejected' in json.dumps(result['content'])
    # the turn ended at the rejection: the model was not asked again until the user spoke
    assert '[Request interrupted by user for tool use]' in texts_of(model.turns[0]['messages'])
    assert todo.read_text() == 'alpha\nbeta\n'


def propose_and_hold(setup, name, old, new):
    """The model edits `name`; nobody decides in the editor: the CLI asks in the terminal too (returns the title)."""
    door, model, terminal, workspace = setup['door'], setup['model'], setup['terminal'], setup['workspace']
    path = workspace / name
    until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    ready_for_a_prompt(setup)
    door.command({'answer': {'outcome': 'hold'}})
    model.script(ToolUse('Read', {'file_path': str(path)}, 'toolu_read_' + path.stem),
                 ToolUse('Edit', {'file_path': str(path), 'old_string': old, 'new_string': new}, 'toolu_edit_' + path.stem),
                 Say(f'Edited {name}.'))
    terminal.type(f'Change {name}')
    proposal = until(lambda: door.find('propose', lambda call: call['filePath'] == str(path)), 'the proposal',
                     setup['seen'])
    until(lambda: f'Do you want to make this edit to {name}?' in terminal.screen(), 'the question in the terminal',
          setup['seen'])
    ide_name = json.loads(Path(door.lock).read_text())['ideName']
    until(lambda: f'Opened changes in {ide_name}' in terminal.screen(), 'the CLI naming the window', setup['seen'])
    return proposal['title'], f'Do you want to make this edit to {name}?'


def test_escape_in_the_terminal_closes_the_pending_proposal(setup):
    door, terminal, workspace = setup['door'], setup['terminal'], setup['workspace']
    title, question = propose_and_hold(setup, 'draft.txt', 'second', 'SECOND')
    terminal.answer('Escape', question)
    # no cancellation of the openDiff request: the CLI closes its tab, and that ends the review
    until(lambda: door.find('decided', lambda decision: decision.get('by') == 'close'), 'the review to end',
          setup['seen'])
    assert door.find('close', lambda call: call['title'] == title)
    assert not door.find('decided', lambda decision: decision.get('by') == 'cancellation')
    until(lambda: 'Rejected update to draft.txt' in terminal.screen(), 'the CLI to show the rejection', setup['seen'])
    ready_for_a_prompt(setup)
    assert (workspace / 'draft.txt').read_text() == 'first\nsecond\n'


def test_yes_in_the_terminal_writes_the_proposal_and_the_door_watch_records_it(setup):
    door, terminal, workspace = setup['door'], setup['terminal'], setup['workspace']
    plan = workspace / 'plan.txt'
    title, question = propose_and_hold(setup, 'plan.txt', 'finish', 'FINISH')
    closes_before = len(door.all('close'))
    terminal.answer('Enter', question)  # "1. Yes": decided in the terminal, not in the editor
    until(lambda: 'Edited plan.txt.' in terminal.screen(), 'the answer on screen', setup['seen'])
    # the CLI closed the review's tab (ending it) and wrote its own proposal
    assert door.find('close', lambda call: call['title'] == title) and len(door.all('close')) > closes_before
    assert plan.read_text() == 'start\nFINISH\n'
    until(lambda: {'uri': plan.as_uri()} in door.calls('getDiagnostics'), 'getDiagnostics of the file',
          setup['seen'])
    # a write the review never saw: the door's disk watch makes it Claude Code's pending change
    pending = until(lambda: [item for items in door.all('pending') for item in items
                             if item['path'] == str(plan)], 'the pending change of plan.txt', setup['seen'])
    assert (pending[-1]['client'], pending[-1]['added'], pending[-1]['removed']) == ('Claude Code', 1, 1)


def test_in_accept_edits_mode_what_it_writes_itself_becomes_its_pending_change(setup):
    """Two edits in a row written without asking: no openDiff, each file Claude Code's pending change in the change
    log (the door's disk watch), its atomic-write temporaries never (tests/node/door_watch.test.js)."""
    door, model, terminal, workspace = setup['door'], setup['model'], setup['terminal'], setup['workspace']
    first, second = workspace / 'first.txt', workspace / 'second.txt'  # there before the CLI came
    until(lambda: door.find('connected'), 'the CLI to connect', setup['seen'])
    ready_for_a_prompt(setup)
    terminal.answer('BTab', 'manual mode on')  # shift+tab: the next permission mode
    until(lambda: 'accept edits on' in terminal.screen(), 'accept edits mode', setup['seen'])
    proposals = len(door.all('propose'))
    model.script([ToolUse('Read', {'file_path': str(first)}, 'toolu_read_first'),
                  ToolUse('Read', {'file_path': str(second)}, 'toolu_read_second')],
                 ToolUse('Edit', {'file_path': str(first), 'old_string': 'red', 'new_string': 'RED'}, 'toolu_first'),
                 ToolUse('Edit', {'file_path': str(second), 'old_string': 'green', 'new_string': 'GREEN'},
                         'toolu_second'),
                 Say('Both edited.'))
    terminal.type('Shout both colours')
    until(lambda: 'Both edited.' in terminal.screen(), 'the answer on screen', setup['seen'])
    assert (first.read_text(), second.read_text()) == ('RED\n', 'GREEN\n')
    assert len(door.all('propose')) == proposals, 'no proposal: the CLI wrote by itself'
    door.command({'settled': True})
    settled = until(lambda: door.all('settled'), 'the disk watch to settle', setup['seen'])[-1]
    mine = {Path(item['path']).name: (item['client'], item['added'], item['removed']) for item in settled
            if Path(item['path']).parent == workspace}
    assert mine['first.txt'] == ('Claude Code', 1, 1) and mine['second.txt'] == ('Claude Code', 1, 1)
    assert not [name for pending in door.all('pending') for name in map(lambda item: item['path'], pending)
                if '.tmp.' in name]
