"""The side panel answered by an ACP agent (Hermes Agent, or an agent of hermes.acp.agents), under CPython with the
shim and the scripted fake agent of test_acp_sessions: the backend choice, the turn posted as the panel's cards
(text, thoughts, tool calls that end, diffs, the plan, usage), permission cards with every option and the answer
mapped back exactly, no answer → deny before the agent's timeout, Stop → session/cancel, one conversation store
with the chat sessions (a conversation started in the panel continues in a session, and the other way round), and
Hermes missing or without a provider said as a session says it."""
import asyncio
import copy

import vscode

import hermes.host.acp.turn_runner as turn_runner
from hermes.core.acp.backends import INSTALL_HINT
from hermes.core.chat.sessions import item_view
from hermes.ui.panel.controller import PanelController
from test_acp_sessions import FakeError, make_world, ask, FORM_QUESTION
from test_acp_turn import PERMISSION, READ, WRITE, SHELL_PERMISSION, chunk
from test_panel_controller import Host, scripted

THOUGHT = chunk('thinking it over', 'agent_thought_chunk')
PLAN = {'sessionUpdate': 'plan', 'entries': [{'content': 'Read hello.py', 'status': 'completed'},
                                             {'content': 'Answer', 'status': 'in_progress'}]}
USAGE = {'sessionUpdate': 'usage_update', 'size': 1000, 'used': 80}
READ_DONE = {'sessionUpdate': 'tool_call_update', 'toolCallId': 'tc-2', 'status': 'completed',
             'content': [{'type': 'content', 'content': {'type': 'text', 'text': 'print("hi")'}}]}


class StoreHost(Host):
    """The panel's host over the world's conversation store (as ui/panel/view.py PanelHost keeps it)."""

    def __init__(self, store):
        Host.__init__(self)
        self.store = store
        self.diffs_shown = []

    def save(self, conversation):
        Host.save(self, conversation)
        self.store.put(conversation, 'panel')
        self.store.set_panel(conversation, 'panel')

    async def show_diffs(self, diffs, agent_name):
        self.diffs_shown.append((agent_name, [diff['path'] for diff in diffs]))

    async def setup_agent(self, agent_name):
        self.actions.append(('setup_agent', agent_name))
        return getattr(self, 'signs_in', False)


def panel(world, loop=None, stored=None):
    host = StoreHost(world['store'])
    controller = PanelController(host, world['log'], loop or scripted(('text', 'built-in answer')), stored, None,
                                 world['sessions'].acp)
    return controller, host


def send(controller, text):
    return asyncio.run(controller.handle({'type': 'send', 'text': text}))


def of(host, kind):
    return [message for message in host.posted if message['type'] == kind]


def test_the_panel_offers_every_backend_and_defaults_like_a_session():
    world = make_world({'turns': []})
    world['acp'].choice.agents_configured = lambda: [{'name': 'Scripted', 'command': 'python3', 'args': [], 'env': {},
                                                   'cwd': None}]
    controller, host = panel(world)
    asyncio.run(controller.handle({'type': 'ready'}))
    [backends] = of(host, 'backends')
    assert [(c['id'], c['available']) for c in backends['choices']] == [('builtin', True), ('hermes', True),
                                                                       ('Scripted', True)]
    assert (backends['current'], backends['locked'], backends['usage']) == ('hermes', False, None)
    assert host.types()[:2] == ['state', 'backends']


def test_no_model_list_banner_while_an_agent_answers():
    world = make_world({'turns': []})
    controller, host = panel(world)
    host.models_error = RuntimeError('Cannot reach the LLM')
    asyncio.run(controller.refresh_models())
    assert of(host, 'error') == [] and of(host, 'models')[0]['error'] == 'Cannot reach the LLM'
    controller.backends.select_backend('builtin')
    asyncio.run(controller.refresh_models())
    assert of(host, 'error')[0]['message'] == 'Cannot reach the LLM'


def test_the_built_in_loop_answers_when_chosen_and_the_conversation_keeps_it():
    world = make_world({'turns': []})
    loop = scripted(('text', 'built-in answer'))
    controller, host = panel(world, loop)
    assert asyncio.run(controller.handle({'type': 'selectBackend', 'backend': 'builtin'})) is True
    send(controller, 'hi')
    assert loop.calls == [([], 'hi')] and world['made'] == []  # no agent started
    assert controller.backends.backend_state()['current'] == 'builtin' and controller.backends.backend_state()['locked'] is True
    assert controller.backends.select_backend('hermes') is False  # locked: New chat to choose another
    assert ('warn', 'Panel: this conversation keeps its agent; New chat to choose another') in world['log'].lines
    controller.new_chat()
    assert controller.backends.backend_state() == {'choices': controller.backends.backend_state()['choices'], 'current': 'builtin',
                                          'locked': False}  # the choice stays for the next conversation


def test_a_choice_that_is_not_offered_is_refused():
    world = make_world({'turns': []})
    controller, host = panel(world)
    assert controller.backends.select_backend('Claude Code') is False
    assert controller.backends.backend_state()['current'] == 'hermes'
    assert ('warn', 'Panel: ignored an agent choice that is not offered ("Claude Code")') in world['log'].lines


def test_a_hermes_turn_is_posted_as_the_panels_cards_and_recorded_in_the_shared_store(tmp_path):
    (tmp_path / 'hello.py').write_text('print("hi")\n')
    world = make_world({'turns': [[THOUGHT, READ, READ_DONE, PLAN, USAGE, WRITE, chunk('It prints hi.')]]},
                       cwd=str(tmp_path))
    controller, host = panel(world)
    send(controller, 'What does hello.py do?')
    assert of(host, 'backends')[0]['current'] == 'hermes'  # while the turn runs too (not the built-in loop)
    # ('options': the agent's pickers, with the backends and as its new session's values are known)
    assert host.types() == ['userMessage', 'turnStarted', 'backends', 'commands', 'options', 'options', 'options',
                            'thoughtDelta', 'agentTool', 'agentTool', 'plan', 'usage', 'agentTool', 'textDelta',
                            'agentTool', 'turnEnded', 'backends', 'commands', 'options']
    tools = of(host, 'agentTool')
    assert [(t['tool']['id'], t['tool']['status'], t['tool']['complete']) for t in tools] == [
        ('tc-2', 'running', False), ('tc-2', 'ok', True), ('tc-3', 'running', False),
        ('tc-3', 'ok', True)]  # Hermes 0.19.0 never closes write_file: closed at the end of the turn
    assert tools[1]['tool']['output'] == 'print("hi")' and tools[0]['tool']['paths'] == [str(tmp_path / 'hello.py')]
    assert tools[0]['tool']['kind'] == 'read' and tools[0]['tool']['title'] == 'read: hello.py'
    assert of(host, 'plan') == [{'type': 'plan', 'entries': [{'title': 'Read hello.py', 'status': 'completed'},
                                                             {'title': 'Answer', 'status': 'in_progress'}]}]
    assert of(host, 'usage') == [{'type': 'usage', 'used': 80, 'size': 1000, 'cost': None}]
    assert of(host, 'thoughtDelta') == [{'type': 'thoughtDelta', 'text': 'thinking it over'}]
    assert of(host, 'textDelta') == [{'type': 'textDelta', 'text': 'It prints hi.'}]
    [conversation] = world['store'].conversations
    assert conversation.acp == {'agent': 'Hermes Agent', 'sessionId': 'sess-1'}
    assert world['store'].panel_id == conversation.id
    reply = conversation.messages[1]
    assert reply['status'] == 'done' and [p['kind'] for p in reply['parts']] == ['thought', 'tool', 'plan', 'tool',
                                                                                  'text']
    assert of(host, 'turnEnded')[0]['status'] == 'done'
    assert of(host, 'backends')[-1]['locked'] is True and of(host, 'backends')[-1]['current'] == 'hermes'
    assert of(host, 'backends')[-1]['usage'] == {'used': 80, 'size': 1000, 'cost': None}
    # the chat sessions list the same conversation (one store), with the agent's context use
    assert item_view(conversation, str)['description'].startswith('Hermes Agent · 8% of context')


def test_a_conversation_started_in_the_panel_continues_in_a_chat_session_in_the_same_agent_session():
    world = make_world({'turns': [[chunk('from the panel')], [chunk('from the session')]]})
    controller, host = panel(world)
    send(controller, 'first')
    [conversation] = world['store'].conversations
    stream, result = ask(world, 'second', 'hermes:/' + conversation.id)
    [agent] = world['made']
    assert [call[0] for call in agent.calls] == ['start', 'new', 'prompt', 'prompt']  # one process, one session
    assert [call[1] for call in agent.calls if call[0] == 'prompt'] == ['sess-1', 'sess-1']
    assert stream.text() == 'from the session' and len(conversation.messages) == 4


def test_a_chat_sessions_conversation_opened_in_the_panel_continues_there_in_the_same_agent_session():
    world = make_world({'turns': [[chunk('from the session')], [chunk('from the panel')]]})
    ask(world, 'first')
    [conversation] = world['store'].conversations
    controller, host = panel(world)
    assert controller.show(conversation) is True
    assert of(host, 'backends')[-1]['current'] == 'hermes' and of(host, 'backends')[-1]['locked'] is True
    send(controller, 'second')
    [agent] = world['made']
    assert [call[1] for call in agent.calls if call[0] == 'prompt'] == ['sess-1', 'sess-1']
    assert of(host, 'textDelta') == [{'type': 'textDelta', 'text': 'from the panel'}]
    assert [m['role'] for m in conversation.messages] == ['user', 'assistant', 'user', 'assistant']


async def _until(condition):
    while not condition():
        await asyncio.sleep(0)


def test_a_permission_is_a_card_with_every_option_and_the_answer_goes_back_exactly():
    world = make_world({'turns': [[('permission', SHELL_PERMISSION), chunk('not run')]]})
    controller, host = panel(world)

    async def scenario():
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'clean up'}))
        await _until(lambda: of(host, 'permission'))
        [card] = of(host, 'permission')
        assert card['id'].startswith('permission-1-perm-check-1') and card['command'] == 'rm -rf build'
        assert [(c['id'], c['label']) for c in card['choices']] == [
            ('once', 'Allow once'), ('session', 'Allow for session'), ('always', 'Allow always'),
            ('never', 'Deny always'), ('deny', 'Deny')]  # every option the agent offers (one without an id cannot be)
        waiting = [t['tool'] for t in of(host, 'agentTool') if t['tool']['id'] == card['id']]
        assert waiting[-1]['status'] == 'waiting'  # the card the question sits in
        assert controller.questions.answer(card['id'], 'yes please') is False  # not an option it offered
        assert controller.questions.answer('permission-9-x', 'once') is False  # no such question
        await controller.handle({'type': 'permissionAnswer', 'id': card['id'], 'option': 'never'})
        await task
        return card
    card = asyncio.run(scenario())
    assert world['made'][0].outcomes == [{'outcome': {'outcome': 'selected', 'optionId': 'never'}}]
    answered = [t['tool'] for t in of(host, 'agentTool') if t['tool']['id'] == card['id']][-1]
    assert (answered['status'], answered['output']) == ('error', 'Deny always')
    assert ('warn', 'Panel: refused an answer the agent did not offer ("yes please")') in world['log'].lines
    assert controller.questions.waiting == []


def test_a_permissions_diff_is_shown_as_lines_and_opens_in_an_editor():
    edit = copy.deepcopy(PERMISSION)
    edit['toolCall']['content'] = [{'type': 'diff', 'path': 'out.txt', 'oldText': 'one\ntwo\nthree\n',
                                    'newText': 'one\n2\nthree\n'}]
    world = make_world({'turns': [[('permission', edit), chunk('written')]]})
    controller, host = panel(world)

    async def scenario():
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'edit it'}))
        await _until(lambda: of(host, 'permission'))
        [card] = of(host, 'permission')
        await controller.handle({'type': 'openPermissionDiff', 'id': card['id']})
        await controller.handle({'type': 'permissionAnswer', 'id': card['id'], 'option': 'allow_once'})
        await task
        return card
    card = asyncio.run(scenario())
    assert card['diffs'] == [{'path': '/work/ws/out.txt', 'shown': 'out.txt', 'preview': {
        'added': 1, 'removed': 1, 'created': False, 'more': 0, 'tooLarge': False,
        'hunks': [{'line': 2, 'removed': ['two'], 'added': ['2']}]}}]
    assert [c['label'] for c in card['choices']] == ['Allow edit', 'Deny']
    assert host.diffs_shown == [('Hermes Agent', ['/work/ws/out.txt'])]
    assert world['made'][0].outcomes == [{'outcome': {'outcome': 'selected', 'optionId': 'allow_once'}}]


def test_an_unanswered_permission_is_denied_before_the_agent_gives_up_with_a_note(monkeypatch):
    monkeypatch.setattr(turn_runner, 'PERMISSION_DEADLINE_MS', 20)
    world = make_world({'turns': [[('permission', PERMISSION), chunk('not written')]]})
    controller, host = panel(world)
    send(controller, 'write it')
    assert world['made'][0].outcomes == [{'outcome': {'outcome': 'selected', 'optionId': 'deny'}}]
    assert {'type': 'notice', 'text': turn_runner.DENIED_IN_TIME} in host.posted
    [card] = of(host, 'permission')
    ended = [t['tool'] for t in of(host, 'agentTool') if t['tool']['id'] == card['id']][-1]
    assert (ended['status'], ended['output']) == ('error', turn_runner.DENIED_IN_TIME)
    assert controller.questions.waiting == []  # no buttons left that could answer it later


def test_stop_sends_session_cancel_and_the_reply_is_stopped():
    scripts = {'turns': [[chunk('working'), ('wait', None)]]}
    world = make_world(scripts)
    controller, host = panel(world)

    async def scenario():
        scripts['release'] = asyncio.Event()
        scripts['turns'][0][1] = ('wait', scripts['release'])
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'long job'}))
        await _until(lambda: of(host, 'textDelta'))
        await controller.handle({'type': 'stop'})
        await task
    asyncio.run(scenario())
    assert world['made'][0].cancelled == ['sess-1']
    assert of(host, 'turnEnded')[0]['status'] == 'stopped' and not controller.running
    assert world['store'].conversations[0].messages[1]['status'] == 'stopped'


def test_without_hermes_the_panel_says_how_to_get_it_once_and_the_built_in_loop_answers():
    world = make_world({'turns': []}, programs={})
    loop = scripted(('text', 'built-in answer'))
    controller, host = panel(world, loop)
    asyncio.run(controller.handle({'type': 'ready'}))
    hermes = [c for c in of(host, 'backends')[0]['choices'] if c['id'] == 'hermes'][0]
    assert hermes['available'] is False and of(host, 'backends')[0]['current'] == 'builtin'
    assert controller.backends.select_backend('hermes') is True  # chosen anyway: the session's notice, once
    send(controller, 'hi')
    send(controller, 'again')
    assert of(host, 'notice') == [{'type': 'notice', 'text': INSTALL_HINT}]
    assert [call[1] for call in loop.calls] == ['hi', 'again'] and world['made'] == []


def test_hermes_without_a_provider_is_a_readable_banner_with_the_setup_button():
    world = make_world({'turns': [], 'new_error': FakeError('agent', 'Internal error', -32603, {
        'details': 'No LLM provider configured. Run `hermes model` to select a provider.'})})
    controller, host = panel(world)
    send(controller, 'hi')
    [error] = of(host, 'error')
    assert error['message'].startswith('Hermes Agent has no model provider configured yet')
    assert '-32603' not in error['message']
    assert (error['setup'], error['retry']) == ('Set up Hermes Agent', 'turn')
    assert world['store'].conversations[0].messages[1]['status'] == 'error'
    asyncio.run(controller.handle({'type': 'setupAgent'}))
    assert ('setup_agent', 'Hermes Agent') in host.actions


def test_retry_after_a_failed_agent_turn_asks_the_same_agent_again():
    scripts = {'turns': [[('raise', FakeError('exited', 'Hermes Agent exited with code 1 during a turn.'))],
                         [chunk('better now')]]}
    world = make_world(scripts)
    controller, host = panel(world)
    send(controller, 'hi')
    assert of(host, 'error')[0]['message'].startswith('Hermes Agent stopped unexpectedly')
    asyncio.run(controller.handle({'type': 'retry'}))
    [conversation] = world['store'].conversations
    assert [m['role'] for m in conversation.messages] == ['user', 'assistant']
    assert conversation.messages[1]['status'] == 'done' and of(host, 'textDelta')[-1]['text'] == 'better now'
    assert [call[2][0]['text'] for call in world['made'][-1].calls if call[0] == 'prompt'][-1] == 'hi'


# ---------------------------------------------------------------- an agent's form question (ACP elicitation)


def test_a_form_question_is_a_card_with_its_fields_checked_before_anything_is_sent():
    world = make_world({'turns': [[('question', FORM_QUESTION), chunk('thanks')]]})
    controller, host = panel(world)

    async def scenario():
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'refactor'}))
        await _until(lambda: of(host, 'elicitation'))
        [card] = of(host, 'elicitation')
        waiting = [t['tool'] for t in of(host, 'agentTool') if t['tool']['id'] == card['id']]
        assert waiting[-1]['status'] == 'waiting'
        await controller.handle({'type': 'elicitationAnswer', 'id': card['id'], 'action': 'accept',
                                 'values': '{"strategy": "reckless", "count": "0"}'})
        assert world['made'][0].outcomes == []  # nothing sent: the card came back with the reasons
        await controller.handle({'type': 'elicitationAnswer', 'id': card['id'], 'action': 'accept', 'values': '[1]'})
        await controller.handle({'type': 'elicitationAnswer', 'id': card['id'], 'action': 'maybe', 'values': '{}'})
        await controller.handle({'type': 'elicitationAnswer', 'id': card['id'], 'action': 'accept',
                                 'values': '{"strategy": "balanced", "count": "5", "__proto__": "x"}'})
        await task
        return card
    card = asyncio.run(scenario())
    first, again = of(host, 'elicitation')
    assert (first['agent'], first['message']) == ('Hermes Agent', FORM_QUESTION['message'])
    assert [(f['name'], f['kind'], f['label'], f['required']) for f in first['fields']] == [
        ('strategy', 'choice', 'Strategy <b>now</b>', True), ('count', 'integer', 'Files at most', True)]
    assert first['values'] == {'strategy': '', 'count': '3'} and first['problems'] == []
    assert again['problems'] == ['Strategy <b>now</b>: must be one of the choices offered',
                                 'Files at most: must be at least 1']
    assert again['values'] == {'strategy': 'reckless', 'count': '0'}  # the user's try, to correct
    assert world['made'][0].outcomes == [{'action': 'accept', 'content': {'strategy': 'balanced', 'count': 5}}]
    assert ('warn', 'Panel: refused form answers that are no JSON object of texts') in world['log'].lines
    assert ('warn', 'Panel: refused a form answer "maybe"') in world['log'].lines
    answered = [t['tool'] for t in of(host, 'agentTool') if t['tool']['id'] == card['id']][-1]
    assert (answered['status'], answered['output']) == ('ok', 'Answered.')
    assert controller.questions.waiting == []


def test_decline_and_cancel_on_a_form_card_map_exactly():
    world = make_world({'turns': [[('question', FORM_QUESTION), chunk('a')], [('question', FORM_QUESTION), chunk('b')]]})
    controller, host = panel(world)

    async def answer_with(text, action):
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': text}))
        await _until(lambda: len(of(host, 'elicitation')) > len(world['made'][0].outcomes) if world['made'] else False)
        card = of(host, 'elicitation')[-1]
        await controller.handle({'type': 'elicitationAnswer', 'id': card['id'], 'action': action, 'values': '{}'})
        await task

    async def scenario():
        await answer_with('one', 'decline')
        await answer_with('two', 'cancel')
    asyncio.run(scenario())
    assert world['made'][0].outcomes == [{'action': 'decline'}, {'action': 'cancel'}]


def test_an_unanswered_form_is_cancelled_at_the_deadline(monkeypatch):
    monkeypatch.setattr(turn_runner, 'PERMISSION_DEADLINE_MS', 20)
    world = make_world({'turns': [[('question', FORM_QUESTION), chunk('went on')]]})
    controller, host = panel(world)
    send(controller, 'refactor')
    assert world['made'][0].outcomes == [{'action': 'cancel'}]
    assert {'type': 'notice', 'text': turn_runner.QUESTION_EXPIRED} in host.posted
    assert controller.questions.waiting == []  # the card's buttons are gone with it


def test_stop_cancels_a_waiting_form():
    scripts = {'turns': [[('question', FORM_QUESTION), chunk('stopped')]]}
    world = make_world(scripts)
    controller, host = panel(world)

    async def scenario():
        scripts['release'] = asyncio.Event()
        task = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'refactor'}))
        await _until(lambda: of(host, 'elicitation'))
        await controller.handle({'type': 'stop'})
        await task
    asyncio.run(scenario())
    assert world['made'][0].outcomes == [{'action': 'cancel'}]
    assert {'type': 'notice', 'text': turn_runner.QUESTION_STOPPED} in host.posted


def test_hermes_subagents_are_posted_nested_under_the_call_that_delegated_them():
    from test_acp_subagents import scripted_updates
    world = make_world({'turns': [scripted_updates()]})
    controller, host = panel(world)
    send(controller, 'delegate')
    last = {}
    for post in of(host, 'agentTool'):
        last[post['tool']['id']] = post['tool']
    assert [(tool_id, tool['parent'], tool['subagent']) for tool_id, tool in last.items()] == [
        ('tc-delegate1', None, False), ('hermes-subagent:sa-1', 'tc-delegate1', True),
        ('hermes-subagent:sa-2', 'tc-delegate1', True), ('hermes-subagent:sa-1.1', 'hermes-subagent:sa-1', True),
        ('hermes-subagent:bad id', None, False)]
    docs = last['hermes-subagent:sa-1']
    assert (docs['title'], docs['status'], docs['input'], docs['output']) == (
        'Review docs', 'ok', 'Tools: read_file ×2, search_files', 'The docs are current.')
    [conversation] = world['store'].conversations
    stored = [part for part in conversation.messages[-1]['parts'] if part['kind'] == 'tool']
    assert [part.get('parent') for part in stored] == [None, 'tc-delegate1', 'tc-delegate1', 'hermes-subagent:sa-1',
                                                       None]  # the panel nests them again when it reopens
