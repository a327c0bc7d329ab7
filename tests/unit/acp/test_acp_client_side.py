"""host/acp/client_side.py over the vscode shim: what an ACP agent's fs/*, terminal/* and permission requests do in
this window (the same gate, confinement and change log as the tools), and the whole path from the scripted agent."""
import asyncio
import sys
from pathlib import Path

import pytest
import vscode

from hermes.core.acp.protocol import AcpError, RequestError
from hermes.host.acp.client_side import AcpClientSide, select_lines, command_line
from hermes.host.approval import Approver
from hermes.host.changes.log import ChangeLog
from hermes.host.terminals import register_terminals
from hermes.net.acp.agent import AcpAgent
from hermes.tools.catalog import build_registry
from shim_services import shim_services

AGENT = str(Path(__file__).resolve().parents[2] / 'acp_agent' / 'agent.py')
MARK = '\x1b]633;C\x07'


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 120))


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / 'project'
    root.mkdir()
    (root / 'notes.md').write_text('one\ntwo\nthree\n')
    (tmp_path / 'secret.txt').write_text('outside')
    vscode.workspace.open_folders([str(root)])
    return root


@pytest.fixture
def side(ws, context):
    terminals = register_terminals(context)
    registry = build_registry(Approver(), shim_services(terminals=terminals))
    return AcpClientSide(registry, terminals)


def error_of(coroutine):
    with pytest.raises(RequestError) as caught:
        run(coroutine)
    return caught.value.code, str(caught.value)


@pytest.mark.parametrize('line, limit, expected', [
    (None, None, 'one\ntwo\nthree\n'), (2, None, 'two\nthree\n'), (2, 1, 'two\n'), (1, 0, ''), (9, 2, ''),
    (None, 2, 'one\ntwo\n'), (3, 5, 'three\n'),
])
def test_select_lines(line, limit, expected):
    assert select_lines('one\ntwo\nthree\n', line, limit) == expected


def test_select_lines_of_a_text_without_a_final_newline():
    assert select_lines('a\nb', 2, 1) == 'b'
    assert select_lines('a\nb', 1, 1) == 'a\n'


def test_command_line_quotes_what_a_shell_would_split():
    assert command_line('npm', ['run', 'test me'], [{'name': 'CI', 'value': '1 2'}]) == "'CI=1 2' npm run 'test me'"
    assert command_line('ls', [], None) == 'ls'


def test_read_gives_the_editor_text_first_then_the_disk(side, ws):
    async def scenario():
        disk = await side.read_text_file({'sessionId': 's', 'path': str(ws / 'notes.md'), 'line': 2, 'limit': 1})
        document = await vscode.workspace.openTextDocument(vscode.Uri.file(str(ws / 'notes.md')))
        document._apply([vscode.TextEdit.replace(vscode.Range(0, 0, 0, 3), 'ONE (unsaved)')])
        editor = await side.read_text_file({'sessionId': 's', 'path': str(ws / 'notes.md')})
        return disk, editor
    disk, editor = run(scenario())
    assert disk == {'content': 'two\n'}
    assert editor == {'content': 'ONE (unsaved)\ntwo\nthree\n'}


def test_read_is_confined_to_the_workspace_and_says_what_is_missing(side, ws, tmp_path):
    code, text = error_of(side.read_text_file({'sessionId': 's', 'path': str(tmp_path / 'secret.txt')}))
    assert code == -32602 and 'is outside the workspace' in text
    code, text = error_of(side.read_text_file({'sessionId': 's', 'path': str(ws / 'nope.md')}))
    assert code == -32002 and text.startswith('"nope.md" does not exist.')
    code, text = error_of(side.read_text_file({'sessionId': 's', 'path': 5}))
    assert (code, text) == (-32602, 'Invalid params: "path" must be a string')


def test_write_asks_through_the_tools_gate_and_is_recorded_in_the_change_log(ws, context):
    terminals = register_terminals(context)
    changes = ChangeLog(None)
    registry = build_registry(Approver(), shim_services(terminals=terminals, changes=changes))
    side = AcpClientSide(registry, terminals)
    side.set_change_author('sess-1', {'client': 'Hermes Agent', 'session': 'sess-1', 'turn': 't1'})
    vscode.window.message_answers.append(None)  # the user closes the dialog: no
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws / 'notes.md'), 'content': 'x'}))
    assert code == -32603 and text.startswith('The user declined to run file_write.')
    assert (ws / 'notes.md').read_text() == 'one\ntwo\nthree\n'
    vscode.window.message_answers.append('Allow')
    assert run(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws / 'notes.md'), 'content': 'new\n'})) is None
    assert (ws / 'notes.md').read_text() == 'new\n'
    [entry] = changes.pending()
    assert entry['author'] == {'client': 'Hermes Agent', 'session': 'sess-1', 'turn': 't1'}


def test_write_outside_the_workspace_is_refused_before_anyone_is_asked(side, tmp_path):
    vscode.window.message_answers.append('Allow')  # would be used up by a dialog
    code, text = error_of(side.write_text_file({'sessionId': 's', 'path': str(tmp_path / 'secret.txt'), 'content': 'x'}))
    assert code == -32602 and 'is outside the workspace' in text
    assert (tmp_path / 'secret.txt').read_text() == 'outside'
    assert vscode.window.message_answers == ['Allow']


def test_permission_goes_to_the_sessions_prompter_and_without_one_is_cancelled(side):
    asked = []

    async def prompter(params):
        asked.append(params['toolCall']['toolCallId'])
        return {'outcome': 'selected', 'optionId': 'allow_once'}
    params = {'sessionId': 'sess-1', 'toolCall': {'toolCallId': 'edit-approval-1'}, 'options': []}
    assert run(side.request_permission('sess-1', params)) == {'outcome': {'outcome': 'cancelled'}}
    side.set_permission_prompter('sess-1', prompter)
    assert run(side.request_permission('sess-1', params)) == {'outcome': {'outcome': 'selected', 'optionId': 'allow_once'}}
    assert run(side.request_permission('sess-2', params)) == {'outcome': {'outcome': 'cancelled'}}
    side.set_permission_prompter('sess-1', None)
    assert run(side.request_permission('sess-1', params)) == {'outcome': {'outcome': 'cancelled'}}
    assert asked == ['edit-approval-1']


def test_terminal_runs_in_a_vs_code_terminal_after_the_gate(side, ws):
    vscode.window.shell_commands['echo hi'] = ([MARK + 'hi\r\n'], 0)
    vscode.window.message_answers.append('Allow')

    async def scenario():
        created = await side.terminal_create({'sessionId': 's', 'command': 'echo', 'args': ['hi'], 'cwd': str(ws)})
        ids = {'sessionId': 's', 'terminalId': created['terminalId']}
        exited = await side.terminal_wait_for_exit(ids)
        output = await side.terminal_output(ids)
        released = await side.terminal_release(ids)
        return created, exited, output, released
    created, exited, output, released = run(scenario())
    assert created == {'terminalId': 'term-1'}
    assert exited == {'exitCode': 0, 'signal': None}
    assert output == {'output': 'hi\n', 'truncated': False, 'exitStatus': {'exitCode': 0, 'signal': None}}
    assert released == {}
    [terminal] = vscode.window.created_terminals
    assert terminal.creationOptions == {'name': 'Agent: echo', 'cwd': str(ws)}
    code, text = error_of(side.terminal_output({'sessionId': 's', 'terminalId': 'term-1'}))
    assert (code, text) == (-32002, 'Resource not found: terminal term-1')


def test_a_declined_terminal_runs_nothing(side):
    vscode.window.message_answers.append(None)
    code, text = error_of(side.terminal_create({'sessionId': 's', 'command': 'rm', 'args': ['-rf', '/']}))
    assert code == -32603 and text.startswith('The user declined to run terminal_run.')
    assert vscode.window.created_terminals == []


def test_output_is_cut_to_the_agents_byte_limit_from_the_start(side):
    vscode.window.shell_commands['seq'] = ([MARK + '1234567890\r\n'], 0)
    vscode.window.message_answers.append('Allow')

    async def scenario():
        created = await side.terminal_create({'sessionId': 's', 'command': 'seq', 'outputByteLimit': 4})
        ids = {'sessionId': 's', 'terminalId': created['terminalId']}
        await side.terminal_wait_for_exit(ids)
        return await side.terminal_output(ids)
    assert run(scenario()) == {'output': '890\n', 'truncated': True, 'exitStatus': {'exitCode': 0, 'signal': None}}


def test_the_scripted_agent_reads_writes_and_runs_through_this_window(side, ws):
    """The whole path: the agent's requests over the pipe, answered by the real client side over the shim."""
    vscode.window.message_answers.extend(['Allow', 'Allow'])
    vscode.window.shell_commands['echo hi'] = ([MARK + 'hi\r\n'], 0)

    async def scenario():
        agent = AcpAgent({'name': 'Scripted', 'command': sys.executable, 'args': [AGENT]}, side, None)
        await agent.start()
        said = []
        for text in ['read ' + str(ws / 'notes.md') + ' 1 1', 'write ' + str(ws / 'made.md') + ' made by the agent',
                     'terminal echo hi', 'read /etc/passwd']:
            session = await agent.new_session(str(ws), [])
            updates = []
            await agent.prompt(session['sessionId'], [{'type': 'text', 'text': text}], updates.append)
            said.extend(u['content']['text'] for u in updates if u['sessionUpdate'] == 'agent_message_chunk')
        agent.dispose()
        await agent.closed()
        return said
    said = run(scenario())
    assert said[0] == 'read: {"content": "one\\n"}'
    assert said[1] == 'write: {}'
    assert (ws / 'made.md').read_text() == 'made by the agent'
    assert said[2].startswith('terminal: {"exit": {"exitCode": 0, "signal": null}, "output": {"exitStatus"')
    assert '"output": "hi\\n"' in said[2]
    assert said[3].startswith('read: {"error": {"code": -32602, "message": "\\"/etc/passwd\\" is outside the workspace')


def test_activate_gives_the_window_one_client_side_over_its_registry_and_terminals(context):
    from hermes import extension
    vscode.workspace.settings['hermes.mcp.enabled'] = False  # the MCP server needs Node's http
    api = run(extension.activate(context))
    agents = api['acp']
    assert isinstance(agents.client_side, AcpClientSide)
    assert agents.client_side.registry.get('file_write') is not None
    assert agents.client_side.registry.approver is not None
    run(extension.deactivate())


def test_deactivate_waits_until_every_agent_process_has_exited(context):
    import os
    from hermes import extension
    vscode.workspace.settings['hermes.mcp.enabled'] = False

    async def scenario():
        api = await extension.activate(context)
        agent = api['acp'].create({'name': 'Scripted', 'command': sys.executable, 'args': [AGENT, 'ignore_term']},
                                  api['acp'].client_side)
        await agent.start()
        pid = agent.connection.process['pid']
        await extension.deactivate()
        return pid
    pid = run(scenario())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_window_forgets_agents_that_ended(context):
    from hermes.host.acp.agents import AcpAgents

    async def scenario():
        agents = AcpAgents(None)
        crashed = agents.create({'name': 'A', 'command': sys.executable, 'args': [AGENT, 'crash_at_start']}, None)
        with pytest.raises(AcpError):
            await crashed.start()
        await crashed.closed()
        fresh = agents.create({'name': 'B', 'command': sys.executable, 'args': [AGENT]}, None)
        kept = agents.running()
        await agents.stop_all()
        return kept, fresh
    kept, fresh = run(scenario())
    assert kept == [fresh]


def test_an_agents_terminal_dialog_shows_the_command_and_the_shell_it_starts_in(side, ws):
    """terminal/create asks as terminal_run does, with what will run: the command line and the new terminal's
    program (the default profile, which a workspace's settings can name)."""
    vscode.workspace.settings['terminal.integrated.defaultProfile.linux'] = 'evil'
    vscode.workspace.settings['terminal.integrated.profiles.linux'] = {'evil': {'path': '/bin/sh', 'args': ['-c', 'x']}}
    vscode.window.message_answers.append(None)
    error_of(side.terminal_create({'sessionId': 's', 'command': 'rm', 'args': ['-rf', '/']}))
    detail = vscode.window.messages[-1][2][0]['detail']
    assert "1 \u2502 command: rm -rf /" in detail
    assert 'terminal profile "evil": /bin/sh -c x' in detail
    assert 'in a new terminal in ' + str(ws) in detail  # where it runs (without a cwd: the first folder, named)


def test_allowing_an_agents_command_for_the_session_covers_that_folder_only(side, ws):
    """"Allow for This Session" on terminal/create covers the same command in the same folder; in another folder
    the user is asked again (the dialog names the folder)."""
    (ws / 'other').mkdir()
    vscode.window.message_answers.append('Allow for This Session')
    vscode.window.message_answers.append(None)  # the second question: nobody answers → declined

    async def create(cwd):
        try:
            return await side.terminal_create({'sessionId': 's', 'command': 'make', 'args': ['clean'], 'cwd': cwd})
        except RequestError as error:
            return error
    first = run(create(str(ws)))
    asked = len(vscode.window.messages)
    again = run(create(str(ws)))
    assert len(vscode.window.messages) == asked, 'the same command in the same folder: not asked again'
    elsewhere = run(create(str(ws / 'other')))
    assert len(vscode.window.messages) == asked + 1 and isinstance(elsewhere, RequestError)
    assert 'in a new terminal in ' + str(ws / 'other') in vscode.window.messages[-1][2][0]['detail']
    assert not isinstance(first, RequestError) or 'integration' in str(first)
    assert not isinstance(again, RequestError) or 'integration' in str(again)


def allowing(answer='allow_once'):
    async def prompter(params):
        return {'outcome': 'selected', 'optionId': answer}
    return prompter


def edit_question(path, old, new):
    return {'sessionId': 'sess-1', 'options': [{'optionId': 'allow_once', 'kind': 'allow_once', 'name': 'Allow edit'},
                                               {'optionId': 'deny', 'kind': 'reject_once', 'name': 'Deny'}],
            'toolCall': {'toolCallId': 'edit-approval-1', 'kind': 'edit', 'title': 'Approve edit: ' + path,
                         'content': [{'type': 'diff', 'path': path, 'oldText': old, 'newText': new}]}}


def test_an_edit_allowed_in_the_agents_question_is_written_without_asking_again(ws, context):
    terminals = register_terminals(context)
    changes = ChangeLog(None)
    registry = build_registry(Approver(), shim_services(terminals=terminals, changes=changes))
    now = [1000]
    side = AcpClientSide(registry, terminals, clock=lambda: now[0])
    side.set_permission_prompter('sess-1', allowing())
    target = str(ws / 'notes.md')
    run(side.request_permission('sess-1', edit_question(target, 'one\ntwo\nthree\n', 'ONE\ntwo\nthree\n')))
    asked = len(vscode.window.messages)
    assert run(side.write_text_file({'sessionId': 'sess-1', 'path': target, 'content': 'ONE\ntwo\nthree\n'})) is None
    assert len(vscode.window.messages) == asked  # no second question
    assert (ws / 'notes.md').read_text() == 'ONE\ntwo\nthree\n'
    assert [entry['path'] for entry in changes.pending()] == [target]  # still in the review
    # the same write again, or another text, is asked about as before (here: declined)
    vscode.window.message_answers.append(None)
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': target, 'content': 'ONE\ntwo\nthree\n'}))
    assert text.startswith('The user declined to run file_write.')
    run(side.request_permission('sess-1', edit_question(target, 'x', 'allowed\n')))
    vscode.window.message_answers.append(None)
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': target, 'content': 'something else\n'}))
    assert text.startswith('The user declined to run file_write.')
    # a minute later the consent is gone
    now[0] += 61000
    vscode.window.message_answers.append(None)
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': target, 'content': 'allowed\n'}))
    assert text.startswith('The user declined to run file_write.')


def test_a_denied_edit_or_another_sessions_consent_allows_nothing(ws, context):
    terminals = register_terminals(context)
    registry = build_registry(Approver(), shim_services(terminals=terminals))
    side = AcpClientSide(registry, terminals)
    target = str(ws / 'notes.md')
    side.set_permission_prompter('sess-1', allowing('deny'))
    run(side.request_permission('sess-1', edit_question(target, None, 'denied\n')))
    side.set_permission_prompter('sess-2', allowing())
    run(side.request_permission('sess-2', edit_question(target, None, 'other\n')))
    for content, session in [('denied\n', 'sess-1'), ('other\n', 'sess-1')]:
        vscode.window.message_answers.append(None)
        code, text = error_of(side.write_text_file({'sessionId': session, 'path': target, 'content': content}))
        assert text.startswith('The user declined to run file_write.')
    assert (ws / 'notes.md').read_text() == 'one\ntwo\nthree\n'
    side.set_permission_prompter('sess-2', None)  # sess-2's turn ended: its consent with it
    vscode.window.message_answers.append(None)
    code, text = error_of(side.write_text_file({'sessionId': 'sess-2', 'path': target, 'content': 'other\n'}))
    assert text.startswith('The user declined to run file_write.')


def test_a_command_allowed_in_the_agents_question_runs_without_asking_again(side, ws):
    vscode.window.shell_commands['make test'] = ([MARK + 'ok\r\n'], 0)
    side.set_permission_prompter('s', allowing())
    run(side.request_permission('s', {'sessionId': 's', 'options': [{'optionId': 'allow_once', 'kind': 'allow_once'}],
                                      'toolCall': {'kind': 'execute', 'rawInput': {'command': 'make test'}}}))
    asked = len(vscode.window.messages)
    created = run(side.terminal_create({'sessionId': 's', 'command': 'make test', 'cwd': str(ws)}))
    assert created == {'terminalId': 'term-1'} and len(vscode.window.messages) == asked
    vscode.window.message_answers.append(None)  # the same command again is asked about
    code, text = error_of(side.terminal_create({'sessionId': 's', 'command': 'make test', 'cwd': str(ws)}))
    assert text.startswith('The user declined to run terminal_run.')


def test_in_observe_mode_a_write_is_captured_for_the_review_without_a_question_and_no_command_runs(ws, context):
    """Hermes Agent's observe mode (main branch, plan_gate.py: "the client captures [edits] into a reviewable
    changeset", commands withheld "atop the client's auto-deny")."""
    terminals = register_terminals(context)
    changes = ChangeLog(None)
    registry = build_registry(Approver(), shim_services(terminals=terminals, changes=changes))
    side = AcpClientSide(registry, terminals)
    side.set_change_author('sess-1', {'client': 'Hermes Agent', 'session': 'sess-1', 'turn': 't1'})
    modes = {'sess-1': 'observe'}
    side.set_observing('sess-1', lambda: modes['sess-1'] == 'observe')
    # (no answer is queued: a dialog would be answered "no", and the write refused)
    assert run(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws / 'notes.md'), 'content': 'new\n'})) is None
    assert (ws / 'notes.md').read_text() == 'new\n'
    [entry] = changes.pending()  # in the review: kept or undone there
    assert entry['path'] == str(ws / 'notes.md') and entry['author']['session'] == 'sess-1'
    code, text = error_of(side.terminal_create({'sessionId': 'sess-1', 'command': 'make', 'args': []}))
    assert (code, text) == (-32603, 'Observe mode: this window runs no command for the agent (it may read the '
                                    'workspace and propose edits, which the user reviews).')
    assert vscode.window.created_terminals == []
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws.parent / 'secret.txt'),
                                                 'content': 'x'}))
    assert code == -32602 and 'is outside the workspace' in text  # confined as ever
    vscode.window.message_answers.append(None)  # out of observe mode, or another session: asked again
    modes['sess-1'] = 'default'
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws / 'notes.md'), 'content': 'y'}))
    assert text.startswith('The user declined to run file_write.')
    side.set_observing('sess-1', None)
    side.set_observing('sess-1', None)  # twice: nothing to forget
    vscode.window.message_answers.append(None)
    code, text = error_of(side.write_text_file({'sessionId': 'sess-1', 'path': str(ws / 'notes.md'), 'content': 'z'}))
    assert text.startswith('The user declined to run file_write.')


def test_the_scripted_hermes_main_gates_plan_and_observe_and_the_window_captures_observes_edits(ws, context):
    """The scripted agent started as `plan_modes` follows Hermes' plan_gate.py: in plan mode it withholds the edit
    itself; in observe mode its edit reaches this window (captured, no question) and it withholds its own command,
    while an agent that does not gate itself (`terminal`) is refused by the window."""
    terminals = register_terminals(context)
    changes = ChangeLog(None)
    registry = build_registry(Approver(), shim_services(terminals=terminals, changes=changes))
    side = AcpClientSide(registry, terminals)

    async def scenario():
        agent = AcpAgent({'name': 'Scripted', 'command': sys.executable, 'args': [AGENT, 'plan_modes']}, side, None)
        await agent.start()
        session = await agent.new_session(str(ws), [])
        session_id = session['sessionId']
        modes = [mode['id'] for mode in session['modes']['availableModes']]
        said = []
        for mode, text in [('plan', 'propose notes.md planned'), ('observe', 'propose notes.md observed'),
                           ('observe', 'run make'), ('observe', 'terminal make')]:
            await agent.set_mode(session_id, mode)
            side.set_observing(session_id, lambda: mode == 'observe')
            updates = []
            await agent.prompt(session_id, [{'type': 'text', 'text': text}], updates.append)
            said.append(''.join(u['content']['text'] for u in updates if u['sessionUpdate'] == 'agent_message_chunk'))
            side.set_observing(session_id, None)
        agent.dispose()
        await agent.closed()
        return modes, said
    modes, said = run(scenario())
    assert modes == ['default', 'plan', 'observe']
    assert said[0].startswith("Blocked in Plan mode: 'write_file' would change the workspace")
    assert said[1] == 'propose: {}'
    assert (ws / 'notes.md').read_text() == 'observed\n'
    [entry] = changes.pending()
    assert entry['path'] == str(ws / 'notes.md')
    assert said[2].startswith("Blocked in Observe mode: 'terminal' would run a command.")
    assert said[3] == ('terminal: {"error": {"code": -32603, "message": "Observe mode: this window runs no command for '
                       'the agent (it may read the workspace and propose edits, which the user reviews)."}}')
    assert vscode.window.created_terminals == []
