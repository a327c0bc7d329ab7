"""The doors of terminal CLIs in a real VS Code (code-server with the packaged extension): a CLI started in one of
its terminals finds the window by itself — no MCP config, nothing pasted — because the extension put the door's
address into the terminals' environment and wrote the file the CLI looks for (docs/DOORS.md).

The CLI runs inside tmux inside VS Code's terminal (tmux inherits the terminal's environment), so the test can type
into it and read its screen through tmux's socket, as a user would at the keyboard. It talks to a scripted model
server (tests/llm_server)."""
import json
import os
import shlex
import signal
import subprocess
import time

import pytest

from conftest import ROOT, client_dir, record
from llm_server.agent_script import Say, ToolUse
from llm_server.gemini_api import GeminiServer
from vscode_server import wait_until

GEMINI_SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
                   'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
                   'ide': {'enabled': True, 'hasSeenNudge': True},
                   'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}
SOCKET = 'hermes-doors-e2e'
PLAN = 'notes/plan.md'
CLAUDE_FILE = 'notes/claude.md'
SHELL_FILE = 'notes/shell.txt'  # a command of Gemini CLI's rewrites it: its text before is known (small, in the workspace)
BIG_FILE = 'notes/big.log'  # and appends to this one: past the bound of the texts Hermes keeps, its text before is unknown


def tmux(*args):
    return subprocess.run(['tmux', '-L', SOCKET] + list(args), capture_output=True, text=True, timeout=30)


def end_session(session):
    """The CLI and everything it started are gone (a killed tmux session alone leaves a CLI that ignores SIGHUP)."""
    pane = tmux('display-message', '-p', '-t', session, '#{pane_pid}').stdout.strip()
    if pane.isdigit():
        try:
            os.killpg(os.getpgid(int(pane)), signal.SIGKILL)
        except ProcessLookupError:
            pass
    tmux('kill-session', '-t', session)


def screen_of(session):
    return tmux('capture-pane', '-pt', session).stdout


@pytest.fixture(scope='module')
def gemini_model():
    server = GeminiServer().start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def terminal_cli(workbench, code_server, probe):
    """`start(session, command)`: a new VS Code terminal (as "Terminal: New Terminal" makes one: it gets what the
    extensions put into the terminals' environment) in which `command` runs inside tmux."""
    started = []

    def start(session, command):
        # A terminal opened before the doors gets their variables only when relaunched (VS Code marks it): wait for
        # the doors, as a user's terminal opened after the window started would find them
        code_server.wait_for_log(r'IDE door for Qwen Code listening', timeout=90)
        line = f'tmux -L {SOCKET} new-session -s {session} -x 200 -y 50 {shlex.quote(command)}'
        probe(f"""const terminal = vscode.window.createTerminal({{name: {json.dumps(session)}}});
                  terminal.show();
                  terminal.sendText({json.dumps(line)});
                  return true;""")
        wait_until(lambda: tmux('has-session', '-t', session).returncode == 0, 60, what=f'tmux session {session}')
        started.append(session)
        return lambda: screen_of(session)
    yield start
    for session in started:
        end_session(session)


def test_gemini_cli_started_in_a_vscode_terminal_connects_by_itself(code_server, workbench, workspace, terminal_cli,
                                                                    gemini_model):
    (code_server.user_home / '.gemini').mkdir(parents=True, exist_ok=True)
    (code_server.user_home / '.gemini' / 'settings.json').write_text(json.dumps(GEMINI_SETTINGS))
    # its first-run offer to set up VS Code's keybindings comes a moment after the prompt and takes the next keys: seen
    (code_server.user_home / '.gemini' / 'state.json').write_text(json.dumps({'terminalSetupPromptShown': True}))
    # written before the CLI connects: while it is connected, whatever changes on disk behind the editor is its change
    (workspace / PLAN).write_text('# Plan\n\none\ntwo\nthree\nfour\nfive\nsix\nseven\n')
    (workspace / CLAUDE_FILE).write_text('alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\n')
    (workspace / SHELL_FILE).write_text('before the command\n')
    (workspace / BIG_FILE).write_text('a log line of sixty-four characters, repeated to pass the bound\n' * 5000)
    gemini = client_dir('gemini-cli') / 'node_modules' / '.bin' / 'gemini'
    # only the model's address and key are added: the door comes from what VS Code put into the terminal
    screen = terminal_cli('gemini', f'cd {shlex.quote(str(workspace))} && env GEMINI_API_KEY=scripted '
                                    f'GOOGLE_GEMINI_BASE_URL={gemini_model.base_url} {shlex.quote(str(gemini))}')
    try:
        code_server.wait_for_log(r'Gemini CLI \S+ connected through the IDE door', timeout=90)
    finally:
        record('gemini-cli', 'in a VS Code terminal (door): the screen', screen() + '\n--- its environment\n' +
               '\n'.join(line for line in tmux('show-environment', '-g').stdout.splitlines()
                         if 'GEMINI' in line or 'TERM' in line or 'CONTAINER' in line) +
               '\n--- Hermes log\n' + code_server.extension_log_text()[-3000:])
    item = workbench.page.locator('.statusbar-item', has_text='Gemini CLI ⇄ Hermes').first
    item.wait_for(state='visible')
    workbench.screenshot('tests/artifacts/clients/door-gemini-connected.png')
    record('gemini-cli', 'in a VS Code terminal (door)', screen())


def test_the_editors_selection_reaches_gemini_clis_model(code_server, workbench, workspace, gemini_model, probe):
    """Gemini CLI hears the editor's context (`ide/contextUpdate`: the active file, cursor, selected text) and puts it
    into its next model request."""
    gemini_model.script(Say('Noted.'))
    selected = (workspace / 'hello.py').read_text().splitlines()[0]
    # the first line of hello.py selected in its editor (through the probe: a real VS Code editor and selection event)
    probe(f"""const document = await vscode.workspace.openTextDocument({json.dumps(str(workspace / 'hello.py'))});
              const editor = await vscode.window.showTextDocument(document);
              editor.selection = new vscode.Selection(0, 0, 0, {len(selected)});
              return true;""")
    time.sleep(1)  # the context goes out once the editor is quiet (100 ms)
    typed = tmux('send-keys', '-t', 'gemini', 'what did I select?')
    assert typed.returncode == 0, typed.stderr
    time.sleep(0.5)
    tmux('send-keys', '-t', 'gemini', 'Enter')
    try:
        wait_until(lambda: len(gemini_model.turns) > 0, 60, what='a model request')
    finally:
        record('gemini-cli', 'in a VS Code terminal (door): the screen after asking', screen_of('gemini'))
    asked = json.dumps(gemini_model.turns[-1])
    record('gemini-cli', 'the model request after a selection', asked)
    assert 'hello.py' in asked
    assert json.dumps(selected)[1:-1] in asked, 'the selected text is in the request'


LENS = '.monaco-editor .codelens-decoration a'


def lenses(page, text):
    return page.locator(LENS, has_text=text)


def test_gemini_clis_edit_is_reviewed_hunk_by_hunk_and_it_writes_exactly_what_was_kept(
        code_server, workbench, workspace, gemini_model, window, probe):
    """The CLI's edit of a workspace file opens in Hermes' review in the file's own editor, marked hunk by hunk; the
    user keeps one hunk and undoes the other; the CLI gets (ide/diffAccepted) and writes exactly the kept hunk; the
    editor ends clean; the change log says who proposed what."""
    from mcp_session import McpSession
    target = workspace / PLAN
    proposed = '# Plan\n\nONE (kept)\ntwo\nthree\nfour\nfive\nsix\nSEVEN (undone)\n'
    gemini_model.script([ToolUse('write_file', {'file_path': str(target), 'content': proposed})], Say('Written.'))
    tmux('send-keys', '-t', 'gemini', 'update the plan')
    time.sleep(0.5)
    tmux('send-keys', '-t', 'gemini', 'Enter')
    page = workbench.page
    page.locator('.monaco-editor .codelens-decoration', has_text='Gemini CLI proposes changes').first.wait_for()
    wait_until(lambda: lenses(page, 'Keep').count() == 2, 60, what='two Keep lenses in plan.md')
    workbench.screenshot('tests/artifacts/clients/door-proposal-under-review.png')
    lenses(page, 'Keep').first.click()
    wait_until(lambda: lenses(page, 'Keep').count() == 1, 30, what='one hunk left')
    lenses(page, 'Undo').first.click()
    kept = proposed.replace('SEVEN (undone)', 'seven')
    wait_until(lambda: target.read_text() == kept, 60, what='the CLI to write exactly the kept text')
    dirty = 'return vscode.workspace.textDocuments.filter(d => d.uri.fsPath.endsWith("plan.md")).map(d => d.isDirty)'
    wait_until(lambda: probe(dirty) in ([False], []), 30, what='the editor to end clean')
    client = McpSession(window['url'], window['token'])
    try:
        _, listed = client.ok('changes_list', {})
    finally:
        client.close()
    decided = [item for item in listed.get('history', []) if item['path'].endswith('plan.md')]
    assert {(item['client'], item['action']) for item in decided} >= {('Gemini CLI', 'kept'), ('Gemini CLI', 'undone')}
    assert not [item for item in listed['pending'] if item['path'].endswith('plan.md')], 'nothing left to review'


def test_what_a_shell_command_of_gemini_cli_changes_is_its_pending_change_or_a_note_in_the_changes_view(
        code_server, workbench, workspace, gemini_model, window):
    """A command the CLI runs writes the disk itself, no door sees it: the file whose text before Hermes knows becomes
    Gemini CLI's pending change; the one past the bound of the texts Hermes keeps cannot be reviewed exactly, and the
    Changes view says so."""
    from mcp_session import McpSession
    command = (f"printf 'after the command\\n' > {SHELL_FILE} && echo 'one more line' >> {BIG_FILE}")
    gemini_model.script([ToolUse('run_shell_command', {'command': command, 'description': 'update two files'})],
                        Say('Ran it.'))
    tmux('send-keys', '-t', 'gemini', 'run the update')
    time.sleep(0.5)
    tmux('send-keys', '-t', 'gemini', 'Enter')
    try:
        # its default approval mode asks before a command runs: the first choice allows it once
        wait_until(lambda: 'Allow execution' in screen_of('gemini') or (workspace / SHELL_FILE).read_text() !=
                   'before the command\n', 90, what='Gemini CLI to ask before it runs the command')
        for _ in range(20):
            if 'Allow execution' not in screen_of('gemini'):
                break
            tmux('send-keys', '-t', 'gemini', 'Enter')
            time.sleep(1)
        wait_until(lambda: (workspace / SHELL_FILE).read_text() == 'after the command\n', 60, what='the command to run')
    finally:
        record('gemini-cli', 'in a VS Code terminal (door): a shell command', screen_of('gemini'))

    def pending():
        client = McpSession(window['url'], window['token'])
        try:
            return client.ok('changes_list', {})[1]['pending']
        finally:
            client.close()
    wait_until(lambda: [item for item in pending() if item['path'].endswith('shell.txt')], 30,
               what="shell.txt among Gemini CLI's pending changes")
    [changed] = [item for item in pending() if item['path'].endswith('shell.txt')]
    assert changed['client'] == 'Gemini CLI'
    assert not [item for item in pending() if item['path'].endswith('big.log')], 'its text before is unknown'
    page = workbench.page
    for _ in range(5):
        if page.get_by_text('its text before is unknown').first.is_visible():
            break
        page.keyboard.press('Escape')
        workbench.run_command('Focus on Changes View')
        time.sleep(2)
    note = page.get_by_text('big.log: changed by Gemini CLI; its text before is unknown').first
    note.wait_for(state='visible')
    page.locator('.monaco-list-row', has_text='shell.txt').first.wait_for(state='visible')
    workbench.screenshot('tests/artifacts/clients/door-changes-view-notes.png')


CLAUDE_KEY = 'sk-ant-scripted-door-0123456789abcdef'


def test_claude_codes_edit_is_reviewed_and_it_writes_what_was_kept(code_server, workbench, workspace, terminal_cli,
                                                                   window):
    """Claude Code started in a VS Code terminal (`--permission-mode manual`) sends its Edit to Hermes' review: the user
    undoes one hunk and accepts; Claude Code writes the rest and says the user modified its proposal. VS Code saves a
    buffer a second after each change by default (`files.autoSave: afterDelay`): the review's state reaches the disk
    while the user reviews, and Claude Code must still accept the answer."""
    from llm_server.anthropic_messages import AnthropicServer
    target = workspace / CLAUDE_FILE
    # its first start asks for onboarding, the folder's trust and the API key (~/.claude.json without
    # CLAUDE_CONFIG_DIR; unanswered, it checks api.anthropic.com and stops offline)
    (code_server.user_home / '.claude.json').write_text(json.dumps({
        'hasCompletedOnboarding': True, 'theme': 'dark',
        'customApiKeyResponses': {'approved': [CLAUDE_KEY[-20:]], 'rejected': []},
        'projects': {str(workspace): {'hasTrustDialogAccepted': True, 'hasCompletedProjectOnboarding': True}}}))
    model = AnthropicServer([Say('(nothing scripted yet)')]).start()
    try:
        model.script(ToolUse('Read', {'file_path': str(target)}, 'toolu_read'),
                     ToolUse('Edit', {'file_path': str(target), 'old_string': 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta',
                                      'new_string': 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\nETA'}, 'toolu_edit'),
                     Say('Edited claude.md.'))
        claude = client_dir('claude-code') / 'node_modules' / '.bin' / 'claude'
        variables = (f'ANTHROPIC_BASE_URL={model.base_url} ANTHROPIC_API_KEY={CLAUDE_KEY} IS_SANDBOX=1 '
                     'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 '
                     'DISABLE_ERROR_REPORTING=1')
        screen = terminal_cli('claude', f'cd {shlex.quote(str(workspace))} && env {variables} '
                                        f'{shlex.quote(str(claude))} --permission-mode manual')
        try:
            code_server.wait_for_log(r'Claude Code \S+ connected through the IDE door', timeout=90)
            wait_until(lambda: 'manual mode on' in screen(), 60, what='Claude Code waiting for a prompt')
        finally:
            record('claude-code', 'in a VS Code terminal (door): the screen', screen())
        tmux('send-keys', '-t', 'claude', '-l', 'Shout the first and last lines of claude.md')
        time.sleep(0.5)
        tmux('send-keys', '-t', 'claude', 'Enter')
        page = workbench.page
        page.locator('.monaco-editor .codelens-decoration', has_text='Claude Code proposes changes').first.wait_for()
        wait_until(lambda: lenses(page, 'Undo').count() == 2, 60, what='two hunks under review')
        workbench.screenshot('tests/artifacts/clients/door-claude-under-review.png')
        workbench.screenshot(str(ROOT / 'docs' / 'review-door.png'))
        lenses(page, 'Undo').last.click()  # ETA: undone
        wait_until(lambda: lenses(page, 'Undo').count() == 1, 30, what='one hunk left')
        page.locator(LENS, has_text='Accept').first.click()
        kept = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\n'
        wait_until(lambda: [block for block in model.tool_results() if block['tool_use_id'] == 'toolu_edit'], 90,
                   what="the edit's result to reach the model")
        [result] = [block for block in model.tool_results() if block['tool_use_id'] == 'toolu_edit']
        record('claude-code', 'the edit reviewed in VS Code: its result', json.dumps(result) + '\n' + screen())
        assert 'The user modified your proposed changes' in json.dumps(result['content'])
        wait_until(lambda: target.read_text() == kept, 30, what='the file to hold exactly what was kept')
    finally:
        model.stop()
