"""An ACP agent's slash commands (available_commands_update): read from the agent's list, kept with the conversation
(stored and restored with it), kept by the service when they arrive before anyone watches the session (Hermes Agent
0.19.0 sends them right after session/new), the latest list winning, said once at the end of a chat session's
response (again only when the list changes), listed in the side panel, and a typed "/name input" sent to the agent
as the prompt's text exactly."""
import asyncio

import vscode

from hermes.core.acp.backends import HERMES_NAME
from hermes.core.acp.commands import commands_of, commands_hint, commands_key, commands_update, hint_text
from hermes.core.chat.conversations import Conversation
from test_acp_sessions import make_world, ask
from test_acp_turn import chunk
from test_panel_acp import panel, send, of

HELP = {'name': 'help', 'description': 'Show the commands'}
MODEL = {'name': 'model', 'description': 'Show or switch the model', 'input': {'hint': 'model name'}}
COMPACT = {'name': 'compact', 'description': 'Compress the context'}


def commands_update_of(*commands):
    return {'sessionUpdate': 'available_commands_update', 'availableCommands': list(commands)}


HINT = 'Hermes Agent commands: `/help`, `/model` — type one as your message.'


# ------------------------------------------------------------------------------------------- the pure part

def test_an_agents_list_becomes_names_descriptions_and_input_hints():
    assert commands_of([HELP, MODEL]) == [
        {'name': 'help', 'description': 'Show the commands', 'hint': ''},
        {'name': 'model', 'description': 'Show or switch the model', 'hint': 'model name'}]
    # a stored list (no `input`) reads back the same
    assert commands_of(commands_of([HELP, MODEL])) == commands_of([HELP, MODEL])


def test_entries_that_cannot_be_typed_are_left_out_and_a_name_is_kept_once():
    assert commands_of([{'description': 'no name'}, {'name': ''}, {'name': 'two words'}, {'name': '/slashed'},
                        'help', None, {'name': 7}, HELP, {'name': 'help', 'description': 'again'},
                        {'name': 'tools', 'description': 3, 'input': 'not an object'}]) == [
        {'name': 'help', 'description': 'Show the commands', 'hint': ''},
        {'name': 'tools', 'description': '', 'hint': ''}]
    assert commands_of(None) == [] and commands_of({'name': 'help'}) == [] and commands_of('help') == []


def test_a_long_description_is_cut():
    [command] = commands_of([{'name': 'long', 'description': 'x' * 500}])
    assert len(command['description']) == 200 and command['description'].endswith('…')


def test_only_an_available_commands_update_carries_commands():
    assert commands_update(commands_update_of(HELP)) == commands_of([HELP])
    assert commands_update({'sessionUpdate': 'available_commands_update'}) == []  # an empty list: no commands now
    assert commands_update({'sessionUpdate': 'session_info_update', 'title': 'x'}) is None
    assert commands_update(None) is None


def test_the_hint_is_said_once_per_list_and_again_when_the_names_change():
    acp = {'agent': HERMES_NAME, 'sessionId': 's', 'commands': commands_of([HELP, MODEL])}
    assert commands_hint(HERMES_NAME, acp) == HINT
    assert acp['commandsShown'] == '/help /model' == commands_key(acp['commands'])
    assert commands_hint(HERMES_NAME, acp) is None  # not every turn
    acp['commands'] = commands_of([{'name': 'help', 'description': 'reworded'}, MODEL])
    assert commands_hint(HERMES_NAME, acp) is None  # the same commands
    acp['commands'] = commands_of([HELP, MODEL, COMPACT])
    assert commands_hint(HERMES_NAME, acp) == ('Hermes Agent commands: `/help`, `/model`, `/compact` — type one as '
                                               'your message.')
    assert commands_hint(HERMES_NAME, {'agent': HERMES_NAME, 'sessionId': 's'}) is None  # none sent
    assert commands_hint(HERMES_NAME, None) is None


def test_a_long_list_is_named_in_part():
    many = commands_of([{'name': 'c' + str(number)} for number in range(20)])
    assert hint_text('Agent', many).endswith('`/c11` … — type one as your message.')


def test_a_conversations_commands_are_stored_and_restored_checked():
    conversation = Conversation()
    conversation.acp = {'agent': HERMES_NAME, 'sessionId': 's', 'commands': commands_of([HELP]),
                        'commandsShown': '/help'}
    restored = Conversation.restore(conversation.to_data())
    assert restored.acp == conversation.acp
    data = conversation.to_data()
    data['acp'] = {'agent': HERMES_NAME, 'sessionId': 's', 'commands': [{'name': 'bad name'}, 'x'], 'commandsShown': 3}
    assert Conversation.restore(data).acp == {'agent': HERMES_NAME, 'sessionId': 's'}


# ------------------------------------------------------------------------------------------- a chat session

def test_commands_sent_before_the_session_is_watched_are_kept_and_said_once_at_the_end_of_the_response():
    world = make_world({'turns': [[chunk('one')], [chunk('two')]], 'after_new': [commands_update_of(HELP, MODEL)]})
    stream, result = ask(world, 'first')
    assert stream.of('markdown') == ['one', '\n\n' + HINT]  # the answer, then the line about the commands
    [conversation] = world['store'].conversations
    assert conversation.acp['commands'] == commands_of([HELP, MODEL])
    assert conversation.acp['commandsShown'] == '/help /model'
    second, _ = ask(world, 'second', resource='hermes:/' + conversation.id)
    assert second.of('markdown') == ['two']  # not every turn


def test_the_latest_list_wins_and_a_changed_list_is_said_again():
    world = make_world({'turns': [[chunk('one')], [commands_update_of(HELP, MODEL, COMPACT), chunk('two')],
                                  [chunk('three')], [chunk('four')]],
                        'after_new': [commands_update_of(HELP), commands_update_of(HELP, MODEL)]})
    first, _ = ask(world, 'first')
    assert first.text() == 'one\n\n' + HINT  # the second list, not the first
    [conversation] = world['store'].conversations
    resource = 'hermes:/' + conversation.id
    second, _ = ask(world, 'second', resource=resource)
    assert second.of('markdown')[-1] == ('\n\nHermes Agent commands: `/help`, `/model`, `/compact` — type one as your '
                                         'message.')
    third, _ = ask(world, 'third', resource=resource)
    assert third.text() == 'three'
    # the list the agent sent in a turn is the one later turns hand on (not the older one it sent after session/new)
    assert world['acp'].updates.commands_for('sess-1') == commands_of([HELP, MODEL, COMPACT])
    fourth, _ = ask(world, 'fourth', resource=resource)
    assert fourth.text() == 'four' and conversation.acp['commands'] == commands_of([HELP, MODEL, COMPACT])


def test_commands_sent_outside_the_turn_are_recorded():
    # (the fake agent sends them through the between-turns path, after the turn's last update)
    world = make_world({'turns': [[chunk('one')], [chunk('two')]], 'after_turn': [commands_update_of(HELP)]})
    first, _ = ask(world, 'first')
    [conversation] = world['store'].conversations
    assert conversation.acp['commands'] == commands_of([HELP])
    assert first.text() == 'one\n\nHermes Agent commands: `/help` — type one as your message.'
    second, _ = ask(world, 'second', resource='hermes:/' + conversation.id)
    assert second.text() == 'two'


def test_a_reopened_session_knows_its_commands_and_does_not_repeat_the_hint():
    memory = vscode.Memento()
    world = make_world({'turns': [[chunk('one')]], 'after_new': [commands_update_of(HELP, MODEL)]}, memory=memory)
    ask(world, 'first')
    data = world['store'].to_data()
    world['context'].dispose_all()
    later = make_world({'turns': [[chunk('again')]], 'replay': []}, memory=memory)  # a reload: a new agent process
    for stored in data['conversations']:
        later['store'].put(Conversation.restore(stored))
    [conversation] = later['store'].conversations
    assert conversation.acp['commands'] == commands_of([HELP, MODEL])
    stream, _ = ask(later, 'after the reload', resource='hermes:/' + conversation.id)
    assert stream.text() == 'again'
    assert [call[0] for call in later['made'][0].calls] == ['start', 'load', 'prompt']


def test_commands_the_agent_sends_while_a_session_loads_are_kept():
    world = make_world({'turns': [[chunk('one')], [chunk('two')]]})
    ask(world, 'first')
    [conversation] = world['store'].conversations
    world['made'][0].crash()  # the next turn loads the session into a new process, which sends its commands
    world['made'][0].scripts['replay'] = [chunk('replayed'), commands_update_of(HELP)]
    stream, _ = ask(world, 'second', resource='hermes:/' + conversation.id)
    assert stream.text() == 'two\n\nHermes Agent commands: `/help` — type one as your message.'
    assert [call[0] for call in world['made'][1].calls] == ['start', 'load', 'prompt']


def test_a_typed_command_reaches_the_agent_as_the_prompts_text_exactly():
    world = make_world({'turns': [[chunk('ran')], [chunk('ran')]], 'after_new': [commands_update_of(HELP, MODEL)]})
    ask(world, '/model  custom:m2 ')
    [conversation] = world['store'].conversations
    ask(world, '/unknown-to-vs-code', resource='hermes:/' + conversation.id)
    prompts = [call[2] for call in world['made'][0].calls if call[0] == 'prompt']
    assert prompts == [[{'type': 'text', 'text': '/model  custom:m2 '}],
                       [{'type': 'text', 'text': '/unknown-to-vs-code'}]]


# ------------------------------------------------------------------------------------------- the side panel

def test_the_panel_is_told_the_commands_and_keeps_its_replies_as_they_were():
    world = make_world({'turns': [[chunk('one')], [chunk('two')]], 'after_new': [commands_update_of(HELP, MODEL)]})
    controller, host = panel(world)
    asyncio.run(controller.handle({'type': 'ready'}))
    assert of(host, 'commands') == [{'type': 'commands', 'commands': []}]  # nothing known before Hermes ran
    send(controller, 'first')
    assert of(host, 'commands')[-1] == {'type': 'commands', 'commands': commands_of([HELP, MODEL])}
    assert ''.join(message['text'] for message in of(host, 'textDelta')) == 'one'  # no hint in the panel
    assert [message['text'] for message in of(host, 'notice')] == []
    controller.new_chat()  # a new conversation with the same agent lists what it sent last, before its first turn
    assert of(host, 'commands')[-1] == {'type': 'commands', 'commands': commands_of([HELP, MODEL])}
    controller.backends.select_backend('builtin')
    assert of(host, 'commands')[-1] == {'type': 'commands', 'commands': []}  # the built-in loop has none


def test_the_agents_last_commands_are_remembered_across_a_reload():
    memory = vscode.Memento()
    world = make_world({'turns': [[chunk('one')]], 'after_new': [commands_update_of(HELP)]}, memory=memory)
    ask(world, 'first')
    world['context'].dispose_all()
    later = make_world({'turns': []}, memory=memory)
    assert later['acp'].updates.known_commands(HERMES_NAME) == commands_of([HELP])
    assert later['acp'].updates.known_commands('Another agent') == []


# ------------------------------------------------------------------------------------------- VS Code's "/" completion

class CustomizationTypes:
    Prompt = 'prompt-type'


def offered(monkeypatch, world):
    """register_session_commands on a VS Code that has the chatSessionCustomizationProvider proposal: returns what
    it registered ({'type', 'metadata', 'provider'}) and how often it told VS Code the lists changed."""
    from hermes.ui.chat.session_commands import register_session_commands
    registered = {}
    fired = []

    def register(session_type, metadata, provider):
        registered.update({'type': session_type, 'metadata': metadata, 'provider': provider})
        provider['onDidChange'](lambda *ignored: fired.append(True))
        return vscode.Disposable(lambda: None)
    monkeypatch.setattr(vscode.chat, 'registerChatSessionCustomizationProvider', register, raising=False)
    monkeypatch.setattr(vscode, 'ChatSessionCustomizationType', CustomizationTypes, raising=False)
    runner = world['sessions'].acp
    runner.commands_offered = register_session_commands(world['context'], runner, world['sessions'], world['store'],
                                                        world['log'])
    return registered, fired


def listed(registered, resource):
    return [(item['name'], item['description'], item['type'], item['uri'].scheme, item['source'], item['userInvocable'])
            for item in registered['provider']['provideChatSessionCustomizations'](vscode.Uri.parse(resource))]


def test_where_vscode_can_list_them_the_sessions_slash_completion_offers_the_agents_commands(monkeypatch):
    world = make_world({'turns': [[chunk('one')], [commands_update_of(HELP, MODEL), chunk('two')]],
                        'after_new': [commands_update_of(HELP, MODEL, COMPACT)]})
    registered, fired = offered(monkeypatch, world)
    assert world['sessions'].acp.commands_offered is True
    assert registered['type'] == 'hermes' and registered['metadata']['supportedTypes'] == ['prompt-type']
    assert listed(registered, 'hermes:/untitled-1') == []  # nothing known before the agent ran
    assert world['store'].conversations == []  # (asking made no conversation)
    stream, _ = ask(world, 'first')
    assert stream.text() == 'one'  # VS Code offers them: the chat does not say them
    assert fired == [True]  # VS Code is told once that this session's list changed
    [conversation] = [c for c in world['store'].conversations if c.acp]
    resource = 'hermes:/' + conversation.id
    # /help is the session's own command (VS Code lists it already and it reaches the agent the same way)
    assert listed(registered, resource) == [
        ('model', 'Show or switch the model ‹model name›', 'prompt-type', 'agent-builtin', 'builtin', True),
        ('compact', 'Compress the context', 'prompt-type', 'agent-builtin', 'builtin', True)]
    ask(world, 'second', resource=resource)  # the agent drops /compact: VS Code is told to ask again
    assert fired == [True, True] and [name for name, *rest in listed(registered, resource)] == ['model']
    # a new session, before its first turn: what the agent new sessions use sent last
    assert [name for name, *rest in listed(registered, 'hermes:/untitled-2')] == ['model']


def test_without_the_proposal_nothing_is_registered_and_the_chat_says_them():
    from hermes.ui.chat.session_commands import register_session_commands
    world = make_world({'turns': [[chunk('one')]], 'after_new': [commands_update_of(HELP)]})
    assert register_session_commands(world['context'], world['sessions'].acp, world['sessions'], world['store'],
                                     world['log']) is False
    stream, _ = ask(world, 'first')
    assert stream.text() == 'one\n\nHermes Agent commands: `/help` — type one as your message.'


def test_a_vscode_that_refuses_the_proposal_gets_the_commands_said_in_the_chat(monkeypatch):
    from hermes.ui.chat.session_commands import register_session_commands

    class Refusing:
        def __getattr__(self, name):
            raise RuntimeError("Extension 'hermes-agent.hermes-agent' CANNOT use API proposal: "
                               'chatSessionCustomizationProvider.')
    world = make_world({'turns': [[chunk('one')]], 'after_new': [commands_update_of(HELP)]})
    monkeypatch.setattr(vscode, 'chat', Refusing())
    assert register_session_commands(world['context'], world['sessions'].acp, world['sessions'], world['store'],
                                     world['log']) is False
    assert ('info', 'Chat sessions: the agent\'s commands are said in the chat (Extension \'hermes-agent.hermes-agent\' '
            'CANNOT use API proposal: chatSessionCustomizationProvider.)') in world['log'].lines
