"""The terminal, debug, git and language tools in a real VS Code (code-server), called over MCP by the
official Python SDK, each checked against the real thing: a real bash with VS Code's shell integration,
the built-in JavaScript debugger on a Node program, git on the fixture repository, the built-in
TypeScript service. Runs with "hermes.tools.confirm": "never" (set by conftest.py)."""
import re
import subprocess

import pytest

from mcp_session import McpSession
from vscode_server import wait_until


@pytest.fixture(scope='module')
def mcp(code_server, workbench, workspace):
    info = code_server.discovery_for(workspace)
    client = McpSession(info['url'], info['token'])
    yield client
    client.close()


def git(workspace, *args):
    return subprocess.run(['git', *args], cwd=workspace, check=True, capture_output=True, text=True).stdout


# ------------------------------------------------------------------------------------------- terminal

def test_terminal_run_in_real_bash_with_shell_integration(mcp, workspace, workbench, artifacts):
    text, created = mcp.ok('terminal_create', {'name': 'e2e', 'shell': 'bash'})
    assert created['shellIntegration'] is True, text
    terminal = created['id']
    progress = []
    text, ran = mcp.ok('terminal_run', {'terminal': terminal, 'command': 'sleep 1.5; echo "hermes-$((6 * 7))" | tee ran.txt'},
                         progress=progress)
    assert ran['exitCode'] == 0 and ran['output'] == 'hermes-42', text
    assert (workspace / 'ran.txt').read_text() == 'hermes-42\n', 'the command really ran in the workspace folder'
    assert progress, 'terminal_run reports progress while it waits'
    text, failed = mcp.ok('terminal_run', {'terminal': terminal, 'command': 'ls /no-such-dir; (exit 3)'})
    assert failed['exitCode'] == 3
    assert 'No such file or directory' in failed['output']
    before = [item['id'] for item in mcp.ok('terminal_list')[1]['terminals']]
    text, default = mcp.ok('terminal_run', {'command': 'echo "idle-$((1 + 1))"'})
    # an idle Hermes terminal is reused: this one, or one an earlier module on the shared window left idle
    assert default['output'] == 'idle-2' and default['terminal'] in before, text
    assert [item['id'] for item in mcp.ok('terminal_list')[1]['terminals']] == before, 'no terminal was created'
    text, created = mcp.ok('terminal_create', {'name': 'e2e-default'})
    assert created['shellIntegration'] is True, 'the default profile (bash here) has shell integration too: ' + text
    workbench.screenshot(artifacts / 'tools-terminal.png')


def test_terminal_send_read_list_and_kill(mcp):
    _, created = mcp.ok('terminal_create', {'name': 'e2e-send', 'shell': 'bash'})
    terminal = created['id']
    command = 'echo "sent-$((20 + 2))"'
    text, _ = mcp.ok('terminal_send', {'terminal': terminal, 'text': command})
    assert text.startswith(f'Sent {len(command)} characters and Enter to terminal {terminal} "e2e-send"')

    def captured():
        text, read = mcp.ok('terminal_read', {'terminal': terminal})
        done = [entry for entry in read['executions'] if not entry['running']]
        return done and done[-1]
    entry = wait_until(captured, 30, what='the sent command in terminal_read')
    assert entry['output'].strip() == 'sent-22' and entry['exitCode'] == 0, mcp.ok('terminal_read', {'terminal': terminal, 'last': 5})[0]
    assert entry['command'] == command

    text, listed = mcp.ok('terminal_list')
    names = {item['id']: item['name'] for item in listed['terminals']}
    assert names[terminal] == 'e2e-send' and 'e2e' in names.values()
    text, _ = mcp.ok('terminal_kill', {'terminal': terminal})
    assert text.startswith(f'Closed terminal {terminal} "e2e-send"')
    wait_until(lambda: terminal not in [item['id'] for item in mcp.ok('terminal_list')[1]['terminals']], 15,
               what='the killed terminal to leave VS Code')
    missing = mcp.call('terminal_read', {'terminal': terminal})
    assert missing.is_error is True and missing.content[0].text.startswith(f'No terminal {terminal}.')


def test_a_cancelled_terminal_run_interrupts_the_command(mcp):
    _, created = mcp.ok('terminal_create', {'name': 'e2e-cancel', 'shell': 'bash'})
    terminal = created['id']
    with pytest.raises(Exception):
        mcp.call('terminal_run', {'terminal': terminal, 'command': 'sleep 30'}, give_up_after=3)

    def ended():
        _, read = mcp.ok('terminal_read', {'terminal': terminal})
        entries = read['executions']
        return entries and not entries[-1]['running'] and entries[-1]
    entry = wait_until(ended, 20, what='the cancelled command to end')
    assert entry['command'] == 'sleep 30' and entry['exitCode'] == 130, entry
    assert entry['durationMs'] < 20000
    mcp.ok('terminal_kill', {'terminal': terminal})


# ------------------------------------------------------------------------------------------- debug

def test_debug_a_node_program_at_a_breakpoint(mcp, workbench, artifacts):
    text, data = mcp.ok('debug_set_breakpoints', {'path': 'debug/app.js', 'lines': [8]})
    assert data['breakpoints'] == [{'line': 8, 'enabled': True}]

    text, started = mcp.ok('debug_start', {'name': 'Debug app.js', 'timeout_seconds': 60})
    assert started['frame'] is not None, text
    assert started['frame']['path'] == 'debug/app.js' and started['frame']['line'] == 8, text
    assert 'return total;' in text

    text, variables = mcp.ok('debug_get_variables', {})
    local = [scope for scope in variables['scopes'] if scope['variables'] is not None][0]
    values = {variable['name']: variable['value'] for variable in local['variables']}
    assert values['total'] == '6', text
    assert variables['frames'][0]['name'].startswith('sum')

    text, evaluated = mcp.ok('debug_evaluate', {'expression': 'total * 7'})
    assert evaluated['result'] == '42', text
    workbench.screenshot(artifacts / 'tools-debug-paused.png')

    text, stepped = mcp.ok('debug_step', {'kind': 'out'})
    assert stepped['frame'] is not None and stepped['frame']['line'] in (12, 13), text

    text, continued = mcp.ok('debug_continue', {'timeout_seconds': 30})
    assert continued['session']['state'] == 'terminated', text

    _, started = mcp.ok('debug_start', {'name': 'Debug app.js', 'timeout_seconds': 60})
    assert started['frame']['line'] == 8
    text, _ = mcp.ok('debug_stop', {})
    assert text.startswith('Stopped '), text
    gone = mcp.call('debug_get_variables', {})
    assert gone.is_error is True and 'No debug session is running' in gone.content[0].text
    mcp.ok('debug_set_breakpoints', {'path': 'debug/app.js', 'lines': []})


# ------------------------------------------------------------------------------------------- git

def test_git_status_diff_commit_and_branches(mcp, workspace):
    text, branches = mcp.ok('git_get_branches')
    assert branches['current'] == 'main' and [b['name'] for b in branches['branches']] == ['main']

    (workspace / 'git-e2e.txt').write_text('first line\n')
    (workspace / 'hello.py').write_text((workspace / 'hello.py').read_text() + '# changed by the git e2e test\n')
    text, status = mcp.ok('git_get_status')
    by_path = {entry['path']: entry for entry in status['files']}
    assert by_path['git-e2e.txt']['kind'] == 'untracked'
    assert by_path['hello.py']['worktree'] == 'M'
    assert 'Untracked:\n  git-e2e.txt' in text or '  git-e2e.txt' in text

    text, _ = mcp.ok('git_diff', {'path': 'hello.py'})
    assert '+# changed by the git e2e test' in text

    mcp.ok('git_command', {'args': ['add', 'git-e2e.txt']})
    text, staged = mcp.ok('git_diff', {'staged': True})
    assert '+first line' in text
    text, committed = mcp.ok('git_command', {'args': ['commit', '-m', 'Add git-e2e.txt', '--', 'git-e2e.txt']})
    assert committed['exitCode'] == 0, text
    assert git(workspace, 'log', '-1', '--format=%s').strip() == 'Add git-e2e.txt'
    assert git(workspace, 'status', '--porcelain', '--', 'git-e2e.txt') == ''
    assert git(workspace, 'status', '--porcelain', '--', 'hello.py').strip() == 'M hello.py'

    text, log = mcp.ok('git_command', {'args': ['log', '--oneline', '-2']})
    assert log['readOnly'] is True and 'Add git-e2e.txt' in text
    mcp.ok('git_command', {'args': ['checkout', '-q', '-b', 'e2e-branch']})
    _, branches = mcp.ok('git_get_branches')
    assert branches['current'] == 'e2e-branch'
    git(workspace, 'checkout', '-q', 'main')
    git(workspace, 'checkout', '--', 'hello.py')


# ------------------------------------------------------------------------------------------- language

def test_typescript_definition_references_hover_symbols_and_rename(mcp, workspace, workbench, artifacts):
    def definition():
        result = mcp.call('lsp_definition', {'path': 'ts/main.ts', 'symbol': 'greet', 'line': 3})
        data = result.structured_content
        return data and data['definitions'] and data
    found = wait_until(definition, 90, interval=1, what='the TypeScript service to answer')
    [target] = found['definitions']
    assert (target['path'], target['line']) == ('ts/greeter.ts', 7)
    assert target['text'].startswith('export function greet(')

    text, references = mcp.ok('lsp_references', {'path': 'ts/greeter.ts', 'symbol': 'greet'})
    places = sorted((item['path'], item['line']) for item in references['references'])
    assert places == [('ts/greeter.ts', 7), ('ts/main.ts', 1), ('ts/main.ts', 3), ('ts/main.ts', 5)], text

    text, hover = mcp.ok('lsp_hover', {'path': 'ts/main.ts', 'symbol': 'greet', 'line': 3})
    assert text.startswith('```typescript\n(alias) greet(greeting: Greeting): string'), text

    text, symbols = mcp.ok('lsp_document_symbols', {'path': 'ts/greeter.ts'})
    kinds = {(item['kind'], item['name']) for item in symbols['symbols']}
    assert ('interface', 'Greeting') in kinds and ('function', 'greet') in kinds, text

    def workspace_symbol():
        _, found = mcp.ok('lsp_workspace_symbols', {'query': 'Greeting'})
        return [item for item in found['symbols'] if item['name'] == 'Greeting']
    [symbol] = wait_until(workspace_symbol, 30, interval=1, what='Greeting in the workspace symbols')
    assert symbol['kind'] == 'interface' and symbol['path'] == 'ts/greeter.ts'

    text, renamed = mcp.ok('lsp_rename', {'path': 'ts/greeter.ts', 'symbol': 'greet', 'new_name': 'welcome'})
    assert renamed['saved'] is True and renamed['edits'] == 4, text
    assert sorted(item['path'] for item in renamed['files']) == ['ts/greeter.ts', 'ts/main.ts']
    main = (workspace / 'ts' / 'main.ts').read_text()
    assert "import { welcome } from './greeter';" in main and main.count('welcome(') == 2
    assert 'export function welcome(greeting: Greeting)' in (workspace / 'ts' / 'greeter.ts').read_text()
    assert not re.search(r'\bgreet\b', main)
    page = workbench.page  # the editor shows the renamed file too
    page.keyboard.press('Control+P')
    box = page.locator('.quick-input-widget input')
    box.wait_for(state='visible')
    box.fill('main.ts')
    page.locator('.quick-input-list .monaco-list-row', has_text='main.ts').first.click()
    page.locator('.tabs-container .tab', has_text='main.ts').first.wait_for()
    lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first
    wait_until(lambda: 'welcome' in lines.inner_text(), 15, what='the renamed call in the editor')
    workbench.screenshot(artifacts / 'tools-lsp-rename.png')
