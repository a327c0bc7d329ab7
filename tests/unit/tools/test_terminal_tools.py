"""Terminal tools against the shim's terminals (their "shell" answers from window.shell_commands)."""
import ast
import asyncio
from pathlib import Path

import pytest
import vscode
from hermes.core.tools import ToolCall, Services
from hermes.host.terminals import register_terminals, MAX_EXECUTIONS
from hermes.tools.catalog import build_registry
from hermes.host.tool_services import PathService

MARK = '\x1b]633;C\x07'


@pytest.fixture
def terminals(context, tmp_path):
    vscode.workspace.open_folders([str(tmp_path)])
    return register_terminals(context)


@pytest.fixture
def registry(terminals):
    return build_registry(None, Services(terminals=terminals, paths=PathService()))


def run(coroutine):
    return asyncio.run(coroutine)


async def call(registry, name, arguments=None, tool_call=None):
    return await registry.call(name, arguments or {}, tool_call or ToolCall())


def text(result):
    return result['content'][0]['text']


def test_create_reports_id_and_shell_integration(registry, tmp_path):
    (tmp_path / 'src').mkdir()

    async def scenario():
        return await call(registry, 'terminal_create', {'name': 'build', 'cwd': 'src'})
    result = run(scenario())
    assert result['isError'] is False
    assert text(result).startswith('Created terminal 1 "build" in src (shell integration active')
    [terminal] = vscode.window.created_terminals
    assert terminal.creationOptions == {'name': 'build', 'cwd': str(tmp_path / 'src')}
    assert terminal.shown is True
    assert result['structuredContent']['shellIntegration'] is True


def test_create_refuses_folders_outside_the_workspace_or_missing(registry):
    async def scenario():
        return (await call(registry, 'terminal_create', {'cwd': '../..'}),
                await call(registry, 'terminal_create', {'cwd': 'nope'}),
                await call(registry, 'terminal_create', {'shell': 'python'}))
    outside, missing, bad_shell = run(scenario())
    assert outside['isError'] and 'outside the workspace' in text(outside)
    assert missing['isError'] and text(missing) == 'The folder "nope" does not exist.'
    assert bad_shell['isError'] and text(bad_shell).startswith("Invalid arguments for tool 'terminal_create'")
    assert vscode.window.created_terminals == []


def test_run_returns_clean_output_and_exit_code(registry):
    vscode.window.shell_commands['npm test'] = ([MARK + '\x1b[32mPASS\x1b[0m 3 tests\r\n', 'done\r\n'], 0)
    vscode.window.shell_commands['false'] = ([MARK], 1)
    progress = []

    async def scenario():
        first = await call(registry, 'terminal_run', {'command': 'npm test'},
                           ToolCall(lambda *args: progress.append(args)))
        second = await call(registry, 'terminal_run', {'command': 'false'})
        return first, second
    first, second = run(scenario())
    assert first['isError'] is False
    assert text(first) == '$ npm test\nPASS 3 tests\ndone\n(exit code 0, terminal 1 "Hermes")'
    data = first['structuredContent']
    assert data['exitCode'] == 0 and data['output'] == 'PASS 3 tests\ndone' and data['shellIntegration'] is True
    assert progress and progress[0][2].startswith('Waiting for shell integration')
    assert second['structuredContent']['exitCode'] == 1
    assert text(second).endswith('(exit code 1, terminal 1 "Hermes")'), 'an idle Hermes terminal is reused'
    assert len(vscode.window.created_terminals) == 1


def test_run_times_out_and_leaves_the_command_running(registry):
    vscode.window.shell_commands['serve'] = ([MARK + 'listening on 8080\r\n'], None)

    async def scenario():
        return await call(registry, 'terminal_run', {'command': 'serve', 'timeout_seconds': 1})
    result = run(scenario())
    assert result['isError'] is False
    assert result['structuredContent']['timedOut'] is True
    assert 'listening on 8080' in text(result) and 'still running after 1 s' in text(result)
    terminal = vscode.window.created_terminals[0]
    assert ('\x03', False) not in terminal.sent


def test_cancelling_a_run_sends_ctrl_c(registry):
    vscode.window.shell_commands['sleep 100'] = ([MARK], None)

    async def scenario():
        tool_call = ToolCall()
        pending = asyncio.ensure_future(call(registry, 'terminal_run', {'command': 'sleep 100'}, tool_call))
        for _ in range(20):
            await asyncio.sleep(0.01)
        tool_call.cancel('user')
        return await pending
    result = run(scenario())
    assert result['structuredContent']['cancelled'] is True
    assert ('\x03', False) in vscode.window.created_terminals[0].sent


def test_run_without_shell_integration_says_so_and_sends_the_text(registry, terminals):
    terminals.new_terminal_wait_ms = 50
    vscode.window.terminal_shell_integration = False

    async def scenario():
        return await call(registry, 'terminal_run', {'command': 'make'})
    result = run(scenario())
    assert result['isError'] is False
    assert text(result).startswith('Shell integration is not available in terminal 1 "Hermes"')
    assert result['structuredContent']['shellIntegration'] is False
    assert vscode.window.created_terminals[0].sent == [('make', True)]


def test_run_in_a_busy_named_terminal_is_refused(registry):
    vscode.window.shell_commands['watch'] = ([MARK], None)

    async def scenario():
        await call(registry, 'terminal_create', {'name': 'dev'})
        await call(registry, 'terminal_run', {'command': 'watch', 'terminal': 'dev', 'timeout_seconds': 1})
        return await call(registry, 'terminal_run', {'command': 'ls', 'terminal': 1})
    result = run(scenario())
    assert result['isError'] is True
    assert text(result) == ('Terminal 1 "dev" is still running `watch`. Wait for it (terminal_read), stop it '
                            '(terminal_send with text "\\u0003" and enter false), or use another terminal.')


def test_send_then_read_captures_what_the_shell_ran(registry):
    vscode.window.shell_commands['ls'] = ([MARK + 'a.txt  b.txt\r\n'], 0)

    async def scenario():
        await call(registry, 'terminal_create', {})
        sent = await call(registry, 'terminal_send', {'terminal': 1, 'text': 'ls'})
        for _ in range(10):
            await asyncio.sleep(0)
        return sent, await call(registry, 'terminal_read', {'terminal': 1})
    sent, read = run(scenario())
    assert text(sent).startswith('Sent 2 characters and Enter to terminal 1 "Hermes".')
    assert text(read) == ('Terminal 1 "Hermes": the last 1 of 1 captured commands (oldest first)\n\n'
                          '$ ls\na.txt  b.txt\n(exit code 0, 0.0 s)')
    [execution] = read['structuredContent']['executions']
    assert execution['exitCode'] == 0 and execution['running'] is False


def gated_registry(terminals):
    """A registry with the gate, as every front end's (a user's terminal is read only after a yes)."""
    from hermes.host.approval import Approver
    return build_registry(Approver(), Services(terminals=terminals, paths=PathService()))


def test_executions_started_by_the_user_are_captured_and_the_ring_buffer_is_bounded(terminals):
    registry = gated_registry(terminals)
    vscode.window.message_answers.append('Allow')  # the terminal is the user's: reading it asks

    async def scenario():
        terminal = vscode.window.createTerminal({'name': 'user'})
        await asyncio.sleep(0.01)
        for number in range(MAX_EXECUTIONS + 3):
            vscode.window.shell_commands[f'echo {number}'] = ([MARK + f'{number}\r\n'], 0)
            terminal.sendText(f'echo {number}')
            for _ in range(6):
                await asyncio.sleep(0)
        return await call(registry, 'terminal_read', {'terminal': 'user', 'last': 2})
    result = run(scenario())
    assert '$ echo 22\n22\n(exit code 0' in text(result)
    assert 'the last 2 of 20 captured commands' in text(result)
    [(level, message, items)] = vscode.window.messages[-1:]
    assert 'Read your terminal "user"' in message and 'which you opened yourself' in items[0]['detail']


def test_a_terminal_the_user_opened_is_not_read_when_nobody_says_yes(terminals):
    registry = gated_registry(terminals)
    vscode.window.message_answers.append(None)

    async def scenario():
        terminal = vscode.window.createTerminal({'name': 'user'})
        await asyncio.sleep(0.01)
        vscode.window.shell_commands['echo s3cret'] = ([MARK + 's3cret\r\n'], 0)
        terminal.sendText('echo s3cret')
        for _ in range(6):
            await asyncio.sleep(0)
        return await call(registry, 'terminal_read', {'terminal': 'user'})
    result = run(scenario())
    assert result['isError'] is True and 'The user declined to run terminal_read' in text(result)
    assert 's3cret' not in text(result)


def test_read_explains_a_terminal_without_shell_integration(terminals):
    registry = gated_registry(terminals)
    vscode.window.terminal_shell_integration = False
    vscode.window.message_answers.append('Allow')

    async def scenario():
        vscode.window.createTerminal({'name': 'plain'})
        await asyncio.sleep(0)
        return await call(registry, 'terminal_read', {'terminal': 'plain'})
    result = run(scenario())
    assert 'Shell integration is not active in this terminal' in text(result)


def test_list_and_kill(registry):
    async def scenario():
        empty = await call(registry, 'terminal_list')
        await call(registry, 'terminal_create', {'name': 'one'})
        await call(registry, 'terminal_create', {'name': 'two'})
        listed = await call(registry, 'terminal_list')
        killed = await call(registry, 'terminal_kill', {'terminal': 'one'})
        await asyncio.sleep(0)
        return empty, listed, killed, await call(registry, 'terminal_list')
    empty, listed, killed, after = run(scenario())
    assert text(empty) == 'No terminals are open. Create one with terminal_create.'
    assert [t['name'] for t in listed['structuredContent']['terminals']] == ['one', 'two']
    assert text(listed) == ('1 "one": shell integration on, 0 captured commands\n'
                            '2 "two": active, shell integration on, 0 captured commands')
    assert text(killed) == 'Closed terminal 1 "one" and ended its shell.'
    assert [t['name'] for t in after['structuredContent']['terminals']] == ['two']
    assert vscode.window.created_terminals[0].exitStatus is not None


def test_unknown_or_missing_terminals_are_tool_errors(registry):
    async def scenario():
        return (await call(registry, 'terminal_send', {'text': 'ls'}),
                await call(registry, 'terminal_kill', {'terminal': 7}),
                await call(registry, 'terminal_read', {'terminal': 'nope'}),
                await call(registry, 'terminal_send', {'terminal': 1}))
    no_active, unknown_id, unknown_name, missing_text = run(scenario())
    assert text(no_active) == 'No terminal is active. Name one (see terminal_list) or create one with terminal_create.'
    assert text(unknown_id) == 'No terminal 7. Open terminals: (none). Create one with terminal_create.'
    assert text(unknown_name).startswith('No terminal "nope".')
    assert missing_text['isError'] and 'text' in text(missing_text)


def test_destructive_terminal_tools_are_declared_so():
    registry = build_registry()
    flags = {name: (registry.get(name).read_only, registry.get(name).destructive)
             for name in ['terminal_create', 'terminal_send', 'terminal_read', 'terminal_run', 'terminal_list',
                          'terminal_kill']}
    assert flags == {'terminal_create': (False, True), 'terminal_send': (False, True), 'terminal_read': (True, False),
                     'terminal_run': (False, True), 'terminal_list': (True, False), 'terminal_kill': (False, True)}


def test_send_types_into_a_busy_terminal_and_runs_commands_in_an_idle_one(registry):
    vscode.window.shell_commands['python3 ask.py'] = ([MARK + 'Continue? [y/n] '], None)
    vscode.window.shell_commands['ls'] = ([MARK + 'a.txt\r\n'], 0)

    async def scenario():
        await call(registry, 'terminal_create', {'name': 'dev'})
        await call(registry, 'terminal_run', {'command': 'python3 ask.py', 'terminal': 'dev', 'timeout_seconds': 1})
        await call(registry, 'terminal_send', {'terminal': 'dev', 'text': 'y'})
        await call(registry, 'terminal_send', {'terminal': 'dev', 'text': '\x03', 'enter': False})
        await asyncio.sleep(0.01)
        await call(registry, 'terminal_send', {'terminal': 'dev', 'text': 'ls'})
        await asyncio.sleep(0.01)
        return await call(registry, 'terminal_read', {'terminal': 'dev', 'last': 5})
    read = run(scenario())
    terminal = vscode.window.created_terminals[0]
    assert terminal.sent == [('y', True), ('\x03', False)], 'a busy terminal gets the text typed'
    assert [entry['command'] for entry in read['structuredContent']['executions']] == ['python3 ask.py', 'ls']
    assert read['structuredContent']['executions'][0]['exitCode'] == 130
    assert read['structuredContent']['executions'][1]['output'] == 'a.txt\n'


def test_the_terminal_service_states_facts_and_the_tools_say_what_to_do_next(registry):
    """Model-facing wording lives with the tools (tools/terminal_parts.py NEXT_STEP), not in the host service."""
    from hermes.core.service_problems import ServiceProblem
    from hermes.host.terminals import TerminalService
    source = (Path(__file__).resolve().parents[3] / 'py_src' / 'hermes' / 'host' / 'terminals.py').read_text()
    tree = ast.parse(source)
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    texts = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in docstrings]
    tools = ['terminal_list', 'terminal_create', 'terminal_read', 'terminal_send', 'terminal_kill', 'terminal_run']
    assert [text for text in texts if any(tool in text for tool in tools)] == []
    service = TerminalService()
    with pytest.raises(ServiceProblem) as problem:
        service.lookup(9)
    assert (problem.value.kind, problem.value.message) == ('not-found', 'No terminal 9. Open terminals: (none).')

    async def scenario():
        await call(registry, 'terminal_create', {'name': 'twin'})
        await call(registry, 'terminal_create', {'name': 'twin'})
        return await call(registry, 'terminal_send', {'terminal': 'twin', 'text': 'ls'})
    assert text(run(scenario())) == 'Several terminals are named "twin" (ids 1, 2). Pass the id instead.'
