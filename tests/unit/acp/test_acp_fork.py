"""Fork Conversation (`hermes.forkConversation`, ui/chat/conversation_commands.py, host/acp/agent_sessions.py fork_session): a
conversation an ACP agent answers becomes two — the fork has the same history and a new agent session made with ACP's
`session/fork` (unstable: only where the agent offers `sessionCapabilities.fork`); what cannot be forked is said."""
import asyncio

import vscode

from hermes.core.chat.sessions import item_view
from hermes.ui.chat.conversation_commands import register_conversation_commands, fork_title
from test_acp_sessions import FakeError, make_world, ask
from test_acp_turn import chunk
from test_chat_sessions import FakePanel

FORKS = {'loadSession': True, 'sessionCapabilities': {'fork': {}}}


def commands(world):
    register_conversation_commands(world['context'], world['log'], world['store'], FakePanel(False), world['acp'].sessions)


def fork(argument=None):
    return asyncio.run(vscode.commands.executeCommand('hermes.forkConversation', argument))


def uri_of(conversation):
    return vscode.Uri.js_from({'scheme': 'hermes', 'path': '/' + conversation.id})


def test_a_fork_has_the_history_and_a_new_agent_session_that_its_next_turn_continues():
    world = make_world({'turns': [[chunk('one')], [chunk('two in the fork')]], 'capabilities': FORKS})
    commands(world)
    ask(world, 'first')
    [original] = world['store'].conversations
    original.acp['mode'] = 'accept_edits'
    fork_id = fork(uri_of(original))
    forked = world['store'].get(fork_id)
    agent = world['made'][0]
    assert [c for c in agent.calls if c[0] == 'fork'] == [('fork', 'sess-1', '/work/ws', agent.calls[1][2])]
    assert forked.title == 'Fork of Titled by the agent'
    assert forked.acp == {'agent': 'Hermes Agent', 'sessionId': 'sess-2', 'mode': 'accept_edits'}
    assert forked.messages == original.messages and forked.messages is not original.messages
    assert item_view(forked, str)['label'] == 'Fork of Titled by the agent'
    assert vscode.window.messages[-1][1].startswith('Hermes: "Fork of Titled by the agent" is in the sessions list')
    stream, _ = ask(world, 'again', 'hermes:/' + fork_id)
    assert stream.text() == 'two in the fork'
    assert [c[1] for c in agent.calls if c[0] == 'prompt'] == ['sess-1', 'sess-2']  # the fork's own session
    assert len(original.messages) == 2 and len(forked.messages) == 4  # the original goes on apart


def test_a_fork_of_a_session_the_agent_does_not_have_is_a_clear_error_and_no_conversation():
    world = make_world({'turns': [[chunk('one')]], 'capabilities': FORKS,
                        'fork_error': FakeError('agent', 'Resource not found: session sess-1', -32002)})
    commands(world)
    ask(world, 'first')
    [original] = world['store'].conversations
    assert fork(uri_of(original)) is None
    assert vscode.window.messages[-1][1] == (
        'Hermes: Hermes Agent could not fork the session sess-1 (does it still have it?) — Resource not found: '
        'session sess-1')
    assert len(world['store'].conversations) == 1


def test_an_agent_that_offers_no_fork_is_not_asked():
    world = make_world({'turns': [[chunk('one')]]})
    commands(world)
    ask(world, 'first')
    [original] = world['store'].conversations
    assert fork(uri_of(original)) is None
    assert vscode.window.messages[-1][1] == 'Hermes: Hermes Agent cannot fork a conversation (it offers no session/fork).'
    assert [c for c in world['made'][0].calls if c[0] == 'fork'] == []


def test_a_conversation_without_an_agent_session_cannot_be_forked():
    world = make_world({'turns': [], 'capabilities': FORKS})
    commands(world)
    conversation = world['store'].create()
    conversation.add({'role': 'user', 'text': 'built-in'})
    world['store'].put(conversation)
    assert fork(uri_of(conversation)) is None
    assert vscode.window.messages[-1][1] == ('Hermes: only a conversation an ACP agent answers can be forked '
                                             '("built-in" has no agent session).')
    conversation.acp = {'agent': 'Hermes Agent', 'sessionId': ''}  # chosen, never answered
    assert fork(uri_of(conversation)) is None
    assert vscode.window.messages[-1][1] == 'Hermes: This conversation has no Hermes Agent session yet: send a message first.'
    assert world['made'] == []  # no agent started for it


def test_restricted_mode_forks_nothing():
    world = make_world({'turns': [], 'capabilities': FORKS}, trusted=False)
    commands(world)
    conversation = world['store'].create()
    conversation.add({'role': 'user', 'text': 'q'})
    conversation.acp = {'agent': 'Hermes Agent', 'sessionId': 'sess-1'}
    world['store'].put(conversation)
    assert fork(uri_of(conversation)) is None
    assert 'Restricted Mode' in vscode.window.messages[-1][1] and world['made'] == []


def test_a_forks_title_has_one_prefix():
    assert fork_title('Refactor') == 'Fork of Refactor' and fork_title('Fork of Refactor') == 'Fork of Refactor'
