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

from conftest import client_dir, record
from llm_server.agent_script import Say, ToolUse
from llm_server.gemini_api import GeminiServer
from vscode_server import wait_until

GEMINI_SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
                   'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
                   'ide': {'enabled': True, 'hasSeenNudge': True},
                   'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}
SOCKET = 'hermes-doors-e2e'


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
def terminal_cli(workbench, code_server):
    """`start(session, command)`: a new VS Code terminal in which `command` runs inside tmux."""
    started = []

    def start(session, command):
        # A terminal opened before the doors gets their variables only when relaunched (VS Code marks it): wait for
        # the doors, as a user's terminal opened after the window started would find them
        code_server.wait_for_log(r'IDE door for Qwen Code listening', timeout=90)
        page = workbench.page
        workbench.run_command('Terminal: Create New Terminal')
        page.locator('.terminal-wrapper.active .xterm').first.wait_for(state='visible')
        page.wait_for_timeout(1500)  # the shell's prompt (keys typed before it may be lost)
        page.keyboard.type(f'tmux -L {SOCKET} new-session -s {session} -x 200 -y 50 {shlex.quote(command)}')
        page.keyboard.press('Enter')
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
