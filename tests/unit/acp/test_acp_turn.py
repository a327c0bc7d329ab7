"""An ACP agent's turn folded into a conversation reply (core/acp/turn.py) and which agent answers
(core/acp/backends.py), with the updates Hermes Agent 0.19.0 really sends (recorded from `hermes acp`
against the scripted model)."""
import copy

from hermes.core.acp.turn_usage import cost_text
from hermes.core.acp.turn import (AcpTurn, TurnView, permission_choices, deny_choice, permission_summary,
                                  resolve_path, stop_reason_text)
from hermes.core.acp.backends import (hermes_spec, configured_agents, choose_backend, mcp_server_entry,
                                    describe_failure, INSTALL_HINT, RESTRICTED_HINT, HERMES_NAME)
from hermes.core.chat.sessions import history_plan
from hermes.core.chat.conversations import Conversation

CWD = '/work/ws'

# What Hermes 0.19.0 sent for "read hello.py" (todo, read_file, write_file with an edit approval, text).
TODO_CALL = {'content': [{'content': {'text': 'Updating todo list', 'type': 'text'}, 'type': 'content'}],
             'kind': 'other', 'locations': [], 'title': 'todo (1 item)', 'toolCallId': 'tc-1', 'sessionUpdate': 'tool_call'}
TODO_DONE = {'content': [{'content': {'text': '**Todo list**', 'type': 'text'}, 'type': 'content'}], 'kind': 'other',
             'status': 'completed', 'toolCallId': 'tc-1', 'sessionUpdate': 'tool_call_update'}
PLAN = {'entries': [{'content': 'Read hello.py', 'priority': 'medium', 'status': 'in_progress'},
                    {'content': 'Answer', 'priority': 'low', 'status': 'weird'}], 'sessionUpdate': 'plan'}
READ = {'kind': 'read', 'locations': [{'path': 'hello.py'}], 'title': 'read: hello.py', 'toolCallId': 'tc-2',
        'sessionUpdate': 'tool_call'}
WRITE = {'content': [{'content': {'text': 'Preparing write to out.txt.', 'type': 'text'}, 'type': 'content'}],
         'kind': 'edit', 'locations': [{'path': 'out.txt'}], 'title': 'write: out.txt', 'toolCallId': 'tc-3',
         'sessionUpdate': 'tool_call'}
PERMISSION = {'options': [{'kind': 'allow_once', 'name': 'Allow edit', 'optionId': 'allow_once'},
                          {'kind': 'reject_once', 'name': 'Deny', 'optionId': 'deny'}],
              'sessionId': 's1',
              'toolCall': {'content': [{'newText': 'hi', 'path': 'out.txt', 'type': 'diff'}], 'kind': 'edit',
                           'rawInput': {'tool': 'write_file', 'arguments': {'path': 'out.txt', 'content': 'hi'}},
                           'status': 'pending', 'title': 'Approve edit: out.txt', 'toolCallId': 'edit-approval-1'}}
SHELL_PERMISSION = {'options': [{'kind': 'allow_once', 'name': 'Allow once', 'optionId': 'once'},
                                {'kind': 'allow_always', 'name': 'Allow for session', 'optionId': 'session'},
                                {'kind': 'allow_always', 'name': 'Allow always', 'optionId': 'always'},
                                {'kind': 'reject_always', 'name': 'Deny always', 'optionId': 'never'},
                                {'kind': 'reject_once', 'name': 'Deny', 'optionId': 'deny'},
                                {'name': 'no id'}],
                    'toolCall': {'title': 'Run: rm -rf build', 'toolCallId': 'perm-check-1',
                                 'rawInput': {'command': 'rm -rf build'}}}


def chunk(text, kind='agent_message_chunk'):
    return {'content': {'text': text, 'type': 'text'}, 'sessionUpdate': kind}


class Recorder(TurnView):
    def __init__(self):
        self.events = []

    def on_text(self, text):
        self.events.append(('text', text))

    def on_thought(self, text):
        self.events.append(('thought', text))

    def on_tool(self, tool):
        self.events.append(('tool', tool['id'], tool['status'], tool['complete']))

    def on_plan(self, entries):
        self.events.append(('plan', [(entry['title'], entry['status']) for entry in entries]))

    def on_usage(self, used, size, cost=None):
        self.events.append(('usage', used, size) + ((cost,) if cost is not None else ()))

    def on_commands(self, commands):
        self.events.append(('commands', [command['name'] for command in commands]))

    def on_title(self, title):
        self.events.append(('title', title))


def new_turn():
    reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
    view = Recorder()
    return reply, view, AcpTurn(reply, view, CWD)


def test_a_hermes_turn_becomes_text_tools_and_a_plan():
    reply, view, turn = new_turn()
    for update in [{'availableCommands': [{'name': 'help', 'description': 'List'}, {'description': 'no name'}],
                    'sessionUpdate': 'available_commands_update'},
                   {'size': 131072, 'used': 10213, 'sessionUpdate': 'usage_update'},
                   chunk('Let me think', 'agent_thought_chunk'), chunk(' more.', 'agent_thought_chunk'),
                   TODO_CALL, TODO_DONE, PLAN, READ, WRITE, chunk('Done'), chunk(' reading.'),
                   {'sessionUpdate': 'something_new'}, {'title': 'A title', 'sessionUpdate': 'session_info_update'}]:
        turn.apply(update)
    turn.finish('end_turn')
    kinds = [part['kind'] for part in reply['parts']]
    assert kinds == ['thought', 'tool', 'plan', 'tool', 'tool', 'text']
    assert reply['parts'][0]['text'] == 'Let me think more.'
    assert reply['parts'][5]['text'] == 'Done reading.'
    todo, plan, read, write = reply['parts'][1], reply['parts'][2], reply['parts'][3], reply['parts'][4]
    assert (todo['name'], todo['status'], todo['result']) == ('todo (1 item)', 'ok', '**Todo list**')
    assert plan['entries'] == [{'title': 'Read hello.py', 'status': 'in_progress'},
                               {'title': 'Answer', 'status': 'pending'}]
    # read_file and write_file are never closed by Hermes 0.19.0: the end of the turn closes them
    assert (read['status'], read['paths']) == ('ok', ['/work/ws/hello.py'])
    assert (write['status'], write['paths'], write['toolKind']) == ('ok', ['/work/ws/out.txt'], 'edit')
    assert turn.changed == ['/work/ws/out.txt']  # an edit call's location; a read's is not a change
    assert ('commands', ['help']) in view.events and ('usage', 10213, 131072) in view.events
    assert ('title', 'A title') in view.events and turn.title == 'A title'
    assert view.events[-2:] == [('tool', 'tc-2', 'ok', True), ('tool', 'tc-3', 'ok', True)]
    assert ('tool', 'tc-2', 'running', False) in view.events


def test_a_cancelled_turn_cancels_the_open_tools_and_a_failed_tool_stays_failed():
    reply, view, turn = new_turn()
    turn.apply(READ)
    turn.apply({'toolCallId': 'tc-9', 'title': 'terminal: make', 'kind': 'execute', 'sessionUpdate': 'tool_call'})
    turn.apply({'toolCallId': 'tc-9', 'status': 'failed', 'rawOutput': {'exit': 2}, 'sessionUpdate': 'tool_call_update'})
    turn.finish('cancelled')
    assert [(part['id'], part['status']) for part in reply['parts']] == [('tc-2', 'cancelled'), ('tc-9', 'error')]
    assert reply['parts'][1]['result'] == '{"exit":2}'


def test_updates_without_an_id_or_text_change_nothing():
    reply, view, turn = new_turn()
    for update in [{'sessionUpdate': 'tool_call'}, {'sessionUpdate': 'tool_call', 'toolCallId': ''},
                   {'sessionUpdate': 'agent_message_chunk', 'content': {'type': 'text', 'text': ''}},
                   {'sessionUpdate': 'plan', 'entries': 'not a list'}, {'sessionUpdate': 'usage_update', 'used': 'x'},
                   {'sessionUpdate': 'session_info_update', 'title': '  '}, None, 'text', {}]:
        turn.apply(update)
    assert reply['parts'] == [] and view.events == []


def test_a_permission_request_waits_and_records_the_answer():
    reply, view, turn = new_turn()
    turn.apply(WRITE)
    part = turn.permission_waiting(PERMISSION)
    waiting = Conversation([{'role': 'user', 'text': 'write'}, copy.deepcopy(reply)])
    assert part['status'] == 'waiting' and waiting.status() == 'needs_input'
    assert part['name'] == 'Permission: Approve edit: out.txt'
    assert part['diffs'] == [{'path': '/work/ws/out.txt', 'oldText': None, 'newText': 'hi'}]
    turn.permission_answered(part, 'Allow edit', True)
    answered = Conversation([{'role': 'user', 'text': 'write'}, copy.deepcopy(reply)])
    assert (part['status'], part['result']) == ('ok', 'Allow edit') and answered.status() == 'in_progress'
    second = turn.permission_waiting(SHELL_PERMISSION)
    turn.permission_answered(second, 'Deny', False)
    assert second['status'] == 'error' and second['id'] != part['id']


def test_permission_options_keep_the_agents_order_and_deny_is_reject_once():
    choices = permission_choices(SHELL_PERMISSION)
    assert [choice['id'] for choice in choices] == ['once', 'session', 'always', 'never', 'deny']
    assert [choice['allow'] for choice in choices] == [True, True, True, False, False]
    assert deny_choice(choices)['id'] == 'deny'
    assert deny_choice([c for c in choices if c['id'] != 'deny']) is None  # never "deny always" on the user's behalf
    assert deny_choice(permission_choices(PERMISSION))['id'] == 'deny'
    assert permission_choices({'options': 'x'}) == []


def test_the_permission_question_names_the_command_or_the_files():
    shell = permission_summary(SHELL_PERMISSION, CWD)
    assert (shell['title'], shell['detail'], shell['command']) == ('Run: rm -rf build', 'Command: rm -rf build',
                                                                   'rm -rf build')
    edit = permission_summary(PERMISSION, CWD)
    assert edit['detail'] == 'Changes out.txt' and edit['diffs'][0]['newText'] == 'hi'
    assert permission_summary({}, CWD)['title'] == 'A tool call'


def test_paths_are_made_absolute_against_the_cwd():
    assert resolve_path('/w', 'a/b.py') == '/w/a/b.py'
    assert resolve_path('/w/', './a.py') == '/w/a.py'
    assert resolve_path('/w', '/etc/x') == '/etc/x'
    assert resolve_path('/w', 'C:\\x') == 'C:\\x'
    assert resolve_path('/w', '') is None and resolve_path('/w', 3) is None


def test_stop_reasons_that_need_words():
    assert stop_reason_text('end_turn') is None and stop_reason_text('cancelled') is None
    assert 'token limit' in stop_reason_text('max_tokens')
    assert 'refused' in stop_reason_text('refusal')


def test_a_recorded_acp_turn_replays_as_history_and_survives_the_store():
    reply, view, turn = new_turn()
    for update in [chunk('hmm', 'agent_thought_chunk'), PLAN, READ, chunk('Done.')]:
        turn.apply(update)
    turn.finish('end_turn')
    reply['status'] = 'done'
    conversation = Conversation([{'role': 'user', 'text': 'read it'}, reply])
    conversation.acp = {'agent': HERMES_NAME, 'sessionId': 's1'}
    data = conversation.to_data()
    restored = Conversation.restore(data)
    assert restored.acp == {'agent': HERMES_NAME, 'sessionId': 's1'}
    assert restored.messages[1]['parts'][2]['paths'] == ['/work/ws/hello.py']
    [request, response] = history_plan(restored)
    assert request == {'kind': 'request', 'prompt': 'read it'}
    assert response['parts'] == [
        {'kind': 'markdown', 'text': '**Plan**\n\n- [~] Read hello.py\n- [ ] Answer\n'},
        {'kind': 'progress', 'text': 'read: hello.py'},
        {'kind': 'reference', 'path': '/work/ws/hello.py'},
        {'kind': 'markdown', 'text': 'Done.'}]
    assert Conversation.restore(dict(data, acp={'agent': 'x'})).acp is None


# ------------------------------------------------------------------------------------ who answers

def finder(found):
    return lambda name: found.get(name)


def test_hermes_is_found_on_path_or_at_the_configured_path():
    assert hermes_spec('', finder({'hermes': '/u/bin/hermes'}))['args'] == ['acp']
    assert hermes_spec('', finder({'hermes-acp': '/u/bin/hermes-acp'})) == {
        'name': HERMES_NAME, 'command': '/u/bin/hermes-acp', 'args': [], 'env': {}, 'cwd': None}
    assert hermes_spec('', finder({})) is None
    assert hermes_spec(' /opt/h/bin/hermes ', finder({}))['command'] == '/opt/h/bin/hermes'
    assert hermes_spec('/opt/h/bin/hermes-acp', finder({}))['args'] == []


def test_hermes_leaves_its_own_mcp_servers_out_when_this_window_hands_its_own():
    handed = hermes_spec('', finder({'hermes': '/u/bin/hermes'}), hands_mcp=True)
    assert handed['env'] == {'HERMES_ACP_SKIP_CONFIGURED_MCP': '1'}
    assert hermes_spec('/opt/h/bin/hermes-acp', finder({}), True)['env'] == {'HERMES_ACP_SKIP_CONFIGURED_MCP': '1'}
    assert hermes_spec('', finder({'hermes': '/u/bin/hermes'}))['env'] == {}  # the MCP server is off: its own count


def test_configured_agents_keep_valid_unique_entries():
    specs = configured_agents([
        {'name': 'Claude Code', 'command': 'npx', 'args': ['-y', '@zed-industries/claude-code-acp', 3],
         'env': {'A': '1', 'B': 2}},
        {'name': 'claude code', 'command': 'other'}, {'name': 'Hermes Agent', 'command': 'evil'},
        {'name': 'builtin', 'command': 'x'}, {'name': '', 'command': 'x'}, {'command': 'x'}, 'junk'])
    assert specs == [{'name': 'Claude Code', 'command': 'npx', 'args': ['-y', '@zed-industries/claude-code-acp'],
                      'env': {'A': '1'}, 'cwd': None}]
    assert configured_agents(None) == []


def test_the_backend_choice():
    hermes = hermes_spec('', finder({'hermes': '/b/hermes'}))
    agents = configured_agents([{'name': 'Codex', 'command': 'npx', 'args': ['-y', '@zed-industries/codex-acp']}])
    assert choose_backend('auto', hermes, agents) == {'kind': 'acp', 'spec': hermes}
    assert choose_backend('auto', None, agents) == {'kind': 'builtin', 'notice': INSTALL_HINT}
    assert choose_backend('hermes', None, agents)['notice'] == INSTALL_HINT
    assert choose_backend('builtin', hermes, agents) == {'kind': 'builtin', 'notice': None}
    assert choose_backend('codex', hermes, agents)['spec']['name'] == 'Codex'
    assert 'No agent named "Gemini"' in choose_backend('Gemini', hermes, agents)['notice']
    assert choose_backend('auto', hermes, agents, trusted=False) == {'kind': 'builtin', 'notice': RESTRICTED_HINT}
    assert choose_backend('codex', hermes, agents, trusted=False)['kind'] == 'builtin'
    assert "pip install 'hermes-agent[acp]'" in INSTALL_HINT and 'hermes model' in INSTALL_HINT


def test_the_mcp_entry_carries_the_token_in_a_header():
    assert mcp_server_entry('http://127.0.0.1:5/mcp', 'tok') == {
        'type': 'http', 'name': 'vscode', 'url': 'http://127.0.0.1:5/mcp',
        'headers': [{'name': 'Authorization', 'value': 'Bearer tok'}]}
    assert mcp_server_entry('http://127.0.0.1:5/mcp', None)['headers'] == []


def test_failures_are_words_not_json_rpc_dumps():
    no_provider = describe_failure('agent', -32603, 'Internal error: No LLM provider configured', HERMES_NAME)
    assert no_provider['setup'] is True and 'hermes acp --setup' in no_provider['message']
    assert describe_failure('agent', -32603, 'No LLM provider configured', 'Codex')['setup'] is False
    hermes_019 = describe_failure('agent', -32603, 'Internal error', HERMES_NAME, {
        'details': 'No LLM provider configured. Run `hermes model` to select a provider.'})
    assert hermes_019['setup'] is True and 'Internal error' not in hermes_019['message']
    assert describe_failure('spawn', None, 'spawn hermes ENOENT', HERMES_NAME)['message'].startswith(
        'Hermes Agent could not be started: spawn hermes ENOENT.')
    assert 'stopped unexpectedly' in describe_failure('exited', None, 'code 1', HERMES_NAME)['message']
    assert describe_failure('agent', -32099, 'boom', 'X')['message'] == 'X reported an error: boom (code -32099)'
    assert describe_failure('agent', -32000, 'boom', 'X')['setup'] is True  # auth_required: the sign-in button


def test_a_usage_update_with_cost_says_what_the_session_cost_in_its_currency():
    reply, view, turn = new_turn()
    turn.apply({'sessionUpdate': 'usage_update', 'used': 5, 'size': 100, 'cost': {'amount': 0.4251, 'currency': 'usd'}})
    assert view.events[-1] == ('usage', 5, 100, '$0.43') and turn.usage['cost'] == '$0.43'


def test_cost_text_reads_amounts_in_any_currency_and_refuses_what_is_no_amount():
    assert cost_text({'amount': 1.5, 'currency': 'EUR'}) == '€1.50'
    assert cost_text({'amount': 3, 'currency': 'CHF'}) == '3.00 CHF'
    assert cost_text({'amount': 0.00123, 'currency': 'USD'}) == '$0.0012'  # a cheap turn is not "$0.00"
    assert cost_text({'amount': 0.125, 'currency': 'GBP'}) == '£0.13'  # half up, as in the bundle
    assert cost_text({'amount': 0, 'currency': 'JPY'}) == '¥0.00'
    for bad in [None, {}, {'amount': -1, 'currency': 'USD'}, {'amount': 1e12, 'currency': 'USD'},
                {'amount': '1', 'currency': 'USD'}, {'amount': 1, 'currency': 'US'}, {'amount': 1, 'currency': 'U$D'},
                {'amount': 1, 'currency': 7}]:
        assert cost_text(bad) is None, bad
