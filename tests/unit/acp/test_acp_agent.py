"""The ACP client (net/acp/agent.py over net/acp/connection.py and the seam's line process) against the scripted
agent tests/acp_agent/agent.py, under CPython. tests/node/acp_agent.test.js runs the same cases on the bundle."""
import asyncio
import os
import sys
from pathlib import Path

import pytest

from hermes.core.acp.protocol import AcpError, RequestError
from hermes.net.acp.agent import AcpAgent

AGENT = str(Path(__file__).resolve().parents[2] / 'acp_agent' / 'agent.py')
TOKEN = 'tok-5ecret-abcdef0123456789'


class Log:
    def __init__(self):
        self.lines = []

    def debug(self, text):
        self.lines.append(('debug', text))

    def info(self, text):
        self.lines.append(('info', text))

    def warn(self, text):
        self.lines.append(('warn', text))

    def error(self, text):
        self.lines.append(('error', text))

    def text(self):
        return '\n'.join(line for _level, line in self.lines)


class ClientSide:
    """Answers the agent's requests from dicts the test sets; records every call."""

    def __init__(self):
        self.calls = []
        self.permission = {'outcome': {'outcome': 'selected', 'optionId': 'allow_once'}}
        self.permission_waits = None  # an asyncio.Event the permission answer waits for
        self.question = {'action': 'accept', 'content': {'strategy': 'balanced', 'count': 2}}
        self.question_waits = None

    async def request_permission(self, session_id, params):
        self.calls.append(('request_permission', session_id, params['toolCall']['toolCallId']))
        if self.permission_waits is not None:
            await self.permission_waits.wait()
        return self.permission

    async def create_elicitation(self, session_id, question):
        self.calls.append(('create_elicitation', session_id, question['mode'], question.get('url')))
        if self.question_waits is not None:
            await self.question_waits.wait()
        return self.question

    async def read_text_file(self, params):
        self.calls.append(('read_text_file', params))
        if params['path'] == 'missing.txt':
            raise RequestError(-32002, 'Resource not found: missing.txt')
        return {'content': 'line 1\nline 2\n'}

    async def write_text_file(self, params):
        self.calls.append(('write_text_file', params))
        return None

    async def terminal_create(self, params):
        self.calls.append(('terminal_create', params))
        return {'terminalId': 'term-1'}

    async def terminal_output(self, params):
        return {'output': 'hi\n', 'truncated': False, 'exitStatus': {'exitCode': 0, 'signal': None}}

    async def terminal_wait_for_exit(self, params):
        return {'exitCode': 0, 'signal': None}

    async def terminal_kill(self, params):
        return {}

    async def terminal_release(self, params):
        self.calls.append(('terminal_release', params))
        return {}


def spec(mode='normal', **extra):
    result = {'name': 'Scripted Agent', 'command': sys.executable, 'args': [AGENT, mode], 'env': {}, 'cwd': None}
    result.update(extra)
    return result


def run(coroutine):
    # the bound only turns a hang into a failure; no verdict depends on it
    return asyncio.run(asyncio.wait_for(coroutine, 120))


async def started(mode='normal', client_side=None, log=None, **extra):
    agent = AcpAgent(spec(mode, **extra), client_side or ClientSide(), log or Log())
    await agent.start()
    return agent


async def turn(agent, text, updates=None):
    session = await agent.new_session('/tmp', [])
    seen = [] if updates is None else updates
    result = await agent.prompt(session['sessionId'], [{'type': 'text', 'text': text}], seen.append)
    return session, result, seen


def texts(updates, kind='agent_message_chunk'):
    return [u['content']['text'] for u in updates if u['sessionUpdate'] == kind]


async def until(condition):
    while not condition():
        await asyncio.sleep(0.01)


def test_start_initializes_with_version_1_and_our_capabilities():
    async def scenario():
        agent = AcpAgent(spec(), ClientSide(), Log())
        result = await agent.start()
        assert agent.alive
        agent.dispose()
        await agent.closed()
        return agent, result
    agent, result = run(scenario())
    assert result['echo'] == {'protocolVersion': 1, 'clientCapabilities': {
        'fs': {'readTextFile': True, 'writeTextFile': True}, 'terminal': True, 'auth': {'terminal': True},
        'elicitation': {'form': {}, 'url': {}}}}  # both modes present and non-null: both advertised
    assert agent.capabilities['loadSession'] is True
    assert agent.auth_methods == [{'id': 'scripted', 'name': 'Scripted', 'description': None}]
    assert agent.agent_info == {'name': 'scripted-acp-agent', 'version': '1.0.0'}
    assert not agent.alive


def test_prompt_streams_the_updates_of_its_session_in_order_and_returns_the_stop_reason():
    async def scenario():
        agent = await started()
        between = []
        agent.on_session_update(lambda session_id, update: between.append((session_id, update['sessionUpdate'])))
        session = await agent.new_session('/tmp', [])
        await until(lambda: between)  # sent after session/new's answer: no turn runs to collect it
        updates = []
        result = await agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'hello there'}], updates.append)
        agent.dispose()
        return session, result, updates, between
    session, result, updates, between = run(scenario())
    assert session['sessionId'] == 'sess-1'
    assert session['modes']['currentModeId'] == 'default'
    assert result == {'stopReason': 'end_turn'}
    assert [u['sessionUpdate'] for u in updates] == [
        'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update',
        'agent_message_chunk']
    assert texts(updates) == ['Hello', ', you said: hello there']
    # what came between turns (after session/new) went to the session listener, not to the turn
    assert between == [('sess-1', 'available_commands_update')]


def test_cancel_sends_session_cancel_and_the_turn_ends_cancelled():
    async def scenario():
        agent = await started()
        session = await agent.new_session('/tmp', [])
        updates = []
        running = asyncio.ensure_future(agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'wait_cancel'}],
                                                     updates.append))
        await until(lambda: updates)
        agent.cancel(session['sessionId'])
        result = await running
        agent.dispose()
        return result, updates
    result, updates = run(scenario())
    assert result == {'stopReason': 'cancelled'}
    assert texts(updates) == ['working', 'stopping']


def test_dispose_ends_the_process_and_rejects_what_is_pending():
    async def scenario():
        agent = await started()
        session = await agent.new_session('/tmp', [])
        updates = []
        running = asyncio.ensure_future(agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'ignore_cancel'}],
                                                     updates.append))
        exits = []
        agent.on_exit(exits.append)
        await until(lambda: updates)
        pid = agent.connection.process['pid']
        agent.dispose()
        with pytest.raises(AcpError) as caught:
            await running
        await agent.closed()
        return caught.value, pid, exits
    error, pid, exits = run(scenario())
    assert (error.kind, str(error)) == ('exited', 'Scripted Agent was stopped.')
    assert exits == []  # an expected end is no news
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_requests_from_the_agent_reach_the_client_side_and_its_answers_or_errors_go_back():
    async def scenario():
        side = ClientSide()
        agent = await started(client_side=side)
        _s, _r, read = await turn(agent, 'read notes.md 2 1')
        _s, _r, missing = await turn(agent, 'read missing.txt')
        _s, _r, written = await turn(agent, 'write notes.md new text')
        _s, _r, ran = await turn(agent, 'terminal echo hi')
        _s, _r, permission = await turn(agent, 'permission')
        _s, _r, unknown = await turn(agent, 'unknown_method')
        agent.dispose()
        return side, [texts(updates)[0] for updates in [read, missing, written, ran, permission, unknown]]
    side, answers = run(scenario())
    assert answers == [
        'read: {"content": "line 1\\nline 2\\n"}',
        'read: {"error": {"code": -32002, "message": "Resource not found: missing.txt"}}',
        'write: {}',
        'terminal: {"exit": {"exitCode": 0, "signal": null}, "output": {"exitStatus": {"exitCode": 0, "signal": null}, '
        '"output": "hi\\n", "truncated": false}}',
        'permission: {"optionId": "allow_once", "outcome": "selected"}',
        'unknown_method: {"error": {"code": -32601, "message": "Method not found: fs/delete_everything"}}',
    ]
    assert side.calls[0] == ('read_text_file', {'sessionId': 'sess-1', 'path': 'notes.md', 'line': 2, 'limit': 1})
    assert ('write_text_file', {'sessionId': 'sess-3', 'path': 'notes.md', 'content': 'new text'}) in side.calls
    assert ('request_permission', 'sess-5', 'edit-approval-1') in side.calls


def test_a_client_side_that_fails_answers_internal_error_and_the_turn_goes_on():
    class Broken(ClientSide):
        async def read_text_file(self, params):
            raise ValueError('disk on fire')

    async def scenario():
        agent = await started(client_side=Broken())
        _s, result, updates = await turn(agent, 'read notes.md')
        agent.dispose()
        return result, texts(updates)
    assert run(scenario()) == ({'stopReason': 'end_turn'},
                               ['read: {"error": {"code": -32603, "message": "disk on fire"}}'])


def test_cancel_answers_a_waiting_permission_request_cancelled():
    async def scenario():
        side = ClientSide()
        side.permission_waits = asyncio.Event()  # the user never answers
        agent = await started(client_side=side)
        session = await agent.new_session('/tmp', [])
        updates = []
        running = asyncio.ensure_future(agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'permission'}],
                                                     updates.append))
        await until(lambda: side.calls)
        agent.cancel(session['sessionId'])
        result = await running
        side.permission_waits.set()  # the prompter's late answer is dropped
        await asyncio.sleep(0.05)
        agent.dispose()
        return result, texts(updates)
    assert run(scenario()) == ({'stopReason': 'end_turn'}, ['permission: {"outcome": "cancelled"}'])


def test_a_turn_the_agent_never_ends_after_cancel_rejects_with_timeout():
    async def scenario():
        agent = await started(cancel_grace_ms=200)
        session = await agent.new_session('/tmp', [])
        updates = []
        running = asyncio.ensure_future(agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'ignore_cancel'}],
                                                     updates.append))
        await until(lambda: updates)
        agent.cancel(session['sessionId'])
        with pytest.raises(AcpError) as caught:
            await running
        alive = agent.alive
        agent.dispose()
        return caught.value, alive
    error, alive = run(scenario())
    assert (error.kind, str(error)) == ('timeout', 'Scripted Agent did not end the turn within 0.2 s of being asked to stop.')
    assert alive  # the agent itself goes on; the user may start another turn or a new session


def test_load_replays_into_on_update_and_list_follows_every_page():
    async def scenario():
        agent = await started()
        replayed = []
        loaded = await agent.load_session('old-1', '/work', [], replayed.append)
        resumed = await agent.resume_session('old-2', '/work', [])
        sessions = await agent.list_sessions('/work')
        modes = await agent.set_mode('old-1', 'accept_edits')
        models = await agent.set_model('old-1', 'm')
        agent.dispose()
        return loaded, replayed, resumed, sessions, modes, models
    loaded, replayed, resumed, sessions, modes, models = run(scenario())
    assert loaded == {} and resumed == {} and modes == {} and models == {}
    assert [u['sessionUpdate'] for u in replayed] == ['user_message_chunk', 'agent_message_chunk']
    assert [s['sessionId'] for s in sessions] == ['old-1-0', 'old-1-1', 'old-2-0', 'old-2-1', 'old-3-0', 'old-3-1']
    assert sessions[0] == {'sessionId': 'old-1-0', 'title': 'Session 1.0', 'updatedAt': '2026-12-01T10:00:00Z',
                           'cwd': '/work'}


# -- the agent fails -------------------------------------------------------------------------------------------

def test_a_command_that_does_not_exist_is_a_spawn_error():
    async def scenario():
        agent = AcpAgent({'name': 'Hermes Agent', 'command': 'no-such-hermes-xyz', 'args': ['acp']}, ClientSide(), Log())
        with pytest.raises(AcpError) as caught:
            await agent.start()
        return caught.value
    error = run(scenario())
    assert (error.kind, str(error)) == ('spawn', 'Could not start Hermes Agent: the command "no-such-hermes-xyz" was '
                                                 'not found.')


@pytest.mark.parametrize('bad, problem', [
    ({'name': 'A', 'command': ''}, 'no command is set'),
    ({'name': 'A', 'command': 'x', 'args': 'acp'}, '"args" must be a list of strings'),
    ({'name': 'A', 'command': 'x', 'env': {'K': 1}}, '"env" must map names to strings'),
])
def test_a_bad_spec_is_a_spawn_error_naming_the_problem(bad, problem):
    async def scenario():
        with pytest.raises(AcpError) as caught:
            await AcpAgent(bad, ClientSide(), Log()).start()
        return caught.value
    error = run(scenario())
    assert (error.kind, str(error)) == ('spawn', 'Could not start A: ' + problem + '.')


def test_a_crash_at_start_rejects_start_with_its_exit_code_and_last_output():
    async def scenario():
        agent = AcpAgent(spec('crash_at_start'), ClientSide(), Log())
        exits = []
        agent.on_exit(exits.append)
        with pytest.raises(AcpError) as caught:
            await agent.start()
        return caught.value, exits
    error, exits = run(scenario())
    text = 'Scripted Agent exited with code 3 while starting.\nIts last output:\nscripted agent: cannot start, no configuration'
    assert (error.kind, str(error)) == ('exited', text)
    assert exits == [text]


def test_a_hang_at_initialize_times_out_and_the_process_is_ended():
    async def scenario():
        agent = AcpAgent(spec('hang_init', initialize_timeout_ms=300), ClientSide(), Log())
        with pytest.raises(AcpError) as caught:
            await agent.start()
        pid = agent.connection.process['pid']
        await agent.closed()
        return caught.value, pid, agent.alive
    error, pid, alive = run(scenario())
    assert (error.kind, str(error)) == ('timeout', 'Scripted Agent did not answer "initialize" within 0.3 s.')
    assert not alive
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_version_we_do_not_speak_is_a_protocol_error():
    async def scenario():
        with pytest.raises(AcpError) as caught:
            await started('wrong_version')
        return caught.value
    error = run(scenario())
    assert (error.kind, str(error)) == ('protocol', 'Scripted Agent speaks ACP protocol version 2; Hermes for VS Code '
                                                    'speaks version 1.')


def test_an_exit_mid_turn_rejects_the_turn_and_tells_on_exit():
    async def scenario():
        agent = await started()
        exits = []
        agent.on_exit(exits.append)
        with pytest.raises(AcpError) as caught:
            await turn(agent, 'exit_mid_turn')
        return caught.value, exits, agent.alive
    error, exits, alive = run(scenario())
    text = 'Scripted Agent exited with code 7 during a turn.\nIts last output:\nfatal: boom'
    assert (error.kind, str(error)) == ('exited', text)
    assert exits == [text] and not alive


def test_after_the_end_every_call_rejects_at_once_with_the_same_error():
    async def scenario():
        agent = await started()
        with pytest.raises(AcpError):
            await turn(agent, 'exit_mid_turn')
        with pytest.raises(AcpError) as caught:
            await agent.new_session('/tmp', [])
        return caught.value
    error = run(scenario())
    assert error.kind == 'exited' and str(error).startswith('Scripted Agent exited with code 7 during a turn.')


@pytest.mark.parametrize('command, reason, shown', [
    ('malformed', 'not JSON', 'this is not json'),
    ('not_rpc', 'expected a JSON object, got array', '[1, 2, 3]'),
])
def test_a_line_that_is_no_acp_message_ends_the_connection(command, reason, shown):
    async def scenario():
        agent = await started()
        exits = []
        agent.on_exit(exits.append)
        with pytest.raises(AcpError) as caught:
            await turn(agent, command)
        pid = agent.connection.process['pid']
        await agent.closed()
        return caught.value, exits, pid
    error, exits, pid = run(scenario())
    text = 'Scripted Agent wrote something that is not an ACP message on its stdout (' + reason + '): ' + shown
    assert (error.kind, str(error)) == ('protocol', text)
    assert exits == [text]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_message_over_the_limit_ends_the_connection_and_one_at_the_limit_passes():
    async def scenario():
        agent = await started(max_message_bytes=100000)
        _s, _r, updates = await turn(agent, 'huge 100000')
        fits = len(texts(updates)[0])
        with pytest.raises(AcpError) as caught:
            await turn(agent, 'huge 100001')
        return fits, caught.value
    fits, error = run(scenario())
    assert fits > 99000
    assert (error.kind, str(error)) == ('protocol', 'Scripted Agent sent a message larger than 100000 bytes, the limit; the '
                                                    'connection was closed.')


def test_the_default_limit_is_32_mb():
    async def scenario():
        agent = await started()
        with pytest.raises(AcpError) as caught:
            await turn(agent, 'huge 40000000')
        return caught.value
    error = run(scenario())
    assert (error.kind, str(error)) == ('protocol', 'Scripted Agent sent a message larger than 32 MB, the limit; the '
                                                    'connection was closed.')


def test_a_stderr_flood_is_drained_and_kept_bounded():
    async def scenario():
        log = Log()
        agent = await started(log=log)
        _s, result, updates = await turn(agent, 'flood 5000000')
        # stderr is read apart from stdout: its end may come after the answer
        await until(lambda: agent.connection.stderr_tail.endswith('the last line of the flood\n'))
        tail = agent.connection.stderr_tail
        agent.dispose()
        return result, texts(updates), tail, log
    result, said, tail, log = run(scenario())
    assert result == {'stopReason': 'end_turn'} and said == ['flooded']
    # at most 4,000 characters, from the start of a line (a flood line is 91)
    assert 4000 - 91 < len(tail) <= 4000 and tail.startswith('noise ') and tail.endswith('the last line of the flood\n')
    prefix = 'Scripted Agent stderr: '
    stderr_logged = sum(len(line) - len(prefix) for _level, line in log.lines if line.startswith(prefix))
    assert 1000000 <= stderr_logged < 1100000
    assert ('info', 'Scripted Agent: its stderr is no longer logged (over 1 MB); the last 4000 characters are kept '
                    'for error messages') in log.lines


def test_dispose_ends_what_the_agent_started_too():
    async def scenario():
        agent = await started()
        _s, _r, updates = await turn(agent, 'child')
        child = int(texts(updates)[0].split(' ')[1])
        os.kill(child, 0)  # running
        agent.dispose()
        await agent.closed()
        await until(lambda: not _exists(child))
        return child
    run(scenario())


def _exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent) counts as gone
    with open('/proc/' + str(pid) + '/stat') as stat:
        return stat.read().split(') ')[1][0] != 'Z'


def test_an_agent_that_ignores_sigterm_is_killed():
    async def scenario():
        agent = await started('ignore_term')
        pid = agent.connection.process['pid']
        agent.dispose()
        await agent.closed()
        return pid
    pid = run(scenario())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# -- the token -------------------------------------------------------------------------------------------------

def test_the_token_reaches_the_agent_only_in_session_new_never_a_log_or_an_error():
    servers = [{'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:19999/mcp',
                'headers': [{'name': 'Authorization', 'value': 'Bearer ' + TOKEN}]}]

    async def scenario():
        log = Log()
        agent = await started(log=log, env={'SCRIPTED_KEY': 'sk-env-secret-123456'})
        session = await agent.new_session('/tmp', servers)
        with pytest.raises(AcpError) as caught:
            await agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'echo_secret'}], lambda u: None)
        await until(lambda: 'connecting with' in log.text())  # stderr is read apart from stdout
        tail = agent.connection.stderr_tail
        agent.dispose()
        await agent.closed()
        return caught.value, log, tail
    error, log, tail = run(scenario())
    assert TOKEN in tail  # the agent did get it (and printed it)
    assert (error.kind, error.code) == ('agent', -32602)
    assert str(error) == 'Scripted Agent: Invalid params: bad header [redacted] (-32602): {"headers":["[redacted]"]}'
    assert error.data == '{"headers":["[redacted]"]}'
    assert 'stderr: connecting with [redacted]' in log.text()
    assert TOKEN not in log.text() and TOKEN not in str(error)
    assert 'sk-env-secret-123456' not in log.text()


def test_a_long_token_is_redacted_before_an_error_or_its_output_is_cut():
    long_token = 'f' * 20 + '0123456789abcdef' * 3  # as long as the window's: a cut would leave a prefix of it
    servers = [{'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:19999/mcp',
                'headers': [{'name': 'Authorization', 'value': 'Bearer ' + long_token}]}]

    async def scenario():
        agent = await started()
        session = await agent.new_session('/tmp', servers)
        with pytest.raises(AcpError) as caught:
            await agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'echo_secret'}], lambda u: None)
        agent.dispose()
        await agent.closed()
        return caught.value
    error = run(scenario())
    assert str(error) == 'Scripted Agent: Invalid params: bad header [redacted] (-32602): {"headers":["[redacted]"]}'
    assert long_token[:8] not in str(error)


def test_a_cut_stderr_tail_starts_at_a_whole_line():
    from hermes.core.acp.protocol import append_tail
    assert append_tail('', 'abc\n', 10) == 'abc\n'
    assert append_tail('secret-start-xyz\n', 'line two\n', 12) == 'line two\n'  # '-xyz' was cut: gone
    assert append_tail('', 'x' * 20, 10) == ''  # one endless line: nothing shown rather than its end


def test_an_agent_error_keeps_its_code_for_the_front_end():
    async def scenario():
        agent = await started('no_provider')
        with pytest.raises(AcpError) as caught:
            await agent.new_session('/tmp', [])
        agent.dispose()
        return caught.value
    error = run(scenario())
    assert (error.kind, error.code, str(error)) == ('agent', -32603, 'Scripted Agent: No LLM provider configured (-32603)')


def test_secrets_are_header_values_and_credential_variables_not_every_value():
    from hermes.core.acp.protocol import secrets_of, redact
    servers = [{'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:1/mcp',
                'headers': [{'name': 'Authorization', 'value': 'Bearer ' + TOKEN}]},
               {'type': 'stdio', 'name': 'gh', 'command': 'gh-mcp', 'args': [],
                'env': [{'name': 'GITHUB_TOKEN', 'value': 'ghp_0123456789'}, {'name': 'HOME', 'value': '/home/someone'}]}]
    env = {'HERMES_HOME': '/tmp/hermes-home', 'OPENAI_API_KEY': 'sk-0123456789', 'DEBUG': '1'}
    found = secrets_of(servers, env)
    assert sorted(found) == sorted(['Bearer ' + TOKEN, TOKEN, 'ghp_0123456789', 'sk-0123456789'])
    assert redact('home /tmp/hermes-home, key sk-0123456789, ' + TOKEN, found) == \
        'home /tmp/hermes-home, key [redacted], [redacted]'


def test_a_form_question_reaches_the_client_side_for_its_session_and_the_answer_goes_back_exactly():
    async def scenario():
        side = ClientSide()
        agent = await started(client_side=side)
        session, result, updates = await turn(agent, 'elicit_form')
        agent.dispose()
        return session['sessionId'], side.calls, texts(updates)
    session_id, calls, said = run(scenario())
    assert calls == [('create_elicitation', session_id, 'form', None)]
    assert said == ['elicit: {"action": "accept", "content": {"count": 2, "strategy": "balanced"}}']


def test_a_question_scoped_to_our_prompt_request_goes_to_that_turns_session():
    async def scenario():
        side = ClientSide()
        side.question = {'action': 'decline'}
        agent = await started(client_side=side)
        session, _r, updates = await turn(agent, 'elicit_request')
        agent.dispose()
        return session['sessionId'], side.calls, texts(updates)
    session_id, calls, said = run(scenario())
    assert calls == [('create_elicitation', session_id, 'form', None)]
    assert said == ['elicit: {"action": "decline"}']


def test_a_url_carrying_the_mcp_token_and_an_unknown_mode_are_invalid_params_never_asked():
    async def scenario():
        side = ClientSide()
        agent = await started(client_side=side)
        session = await agent.new_session('/tmp', [{'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:1/mcp',
                                                    'headers': [{'name': 'Authorization', 'value': 'Bearer ' + TOKEN}]}])
        said = []
        for text in ['elicit_secret', 'elicit_mode']:
            updates = []
            await agent.prompt(session['sessionId'], [{'type': 'text', 'text': text}], updates.append)
            said.extend(texts(updates))
        agent.dispose()
        return side.calls, said
    calls, said = run(scenario())
    assert calls == []
    assert said[0].startswith('elicit: {"error": {"code": -32602, "message": "Invalid params: the URL carries a credential')
    assert TOKEN not in said[0]
    assert said[1] == ('elicit: {"error": {"code": -32602, "message": "Invalid params: elicitation mode \\"voice\\" is '
                       'not supported (this client advertises \\"form\\" and \\"url\\")"}}')


def test_cancel_answers_a_waiting_question_cancel():
    async def scenario():
        side = ClientSide()
        side.question_waits = asyncio.Event()  # the user never answers
        agent = await started(client_side=side)
        session = await agent.new_session('/tmp', [])
        updates = []
        running = asyncio.ensure_future(agent.prompt(session['sessionId'], [{'type': 'text', 'text': 'elicit_form'}],
                                                     updates.append))
        await until(lambda: side.calls)
        agent.cancel(session['sessionId'])
        result = await running
        side.question_waits.set()  # the late answer is dropped
        await asyncio.sleep(0.05)
        agent.dispose()
        return result, texts(updates)
    assert run(scenario()) == ({'stopReason': 'end_turn'}, ['elicit: {"action": "cancel"}'])
