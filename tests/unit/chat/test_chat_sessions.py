"""Hermes chat sessions under CPython with the shim's vscode.chat: the contribution, the proposal off
(activation goes on, one hint in the log) and on (the list, NeedsInput, content, requests continuing a
conversation, the side panel's conversations listed, archive)."""
import asyncio
import json
from pathlib import Path

import vscode

from hermes.core.agent_loop import Sinks
from hermes.core.tools import ToolRegistry
from hermes.core.chat.sessions import (session_contribution, SESSION_TYPE, STATUS_NEEDS_INPUT, STATUS_COMPLETED,
                                       ENABLE_HINT, PROPOSALS_HINT_SHOWN)
from hermes.core.chat.prompts import PARTICIPANT_ID, PARTICIPANT_NAME
from hermes.core.chat.conversations import ConversationStore, end_reply
from hermes.host.changes.log import ChangeLog
from hermes.extension import activate
from hermes.ui.chat.sessions import (register_chat_sessions, ChatSessions, SessionParticipant, LIST_QUIET_MS,
                                    LIST_LONGEST_MS)
from fake_clock import FakeClock
from panel_fakes import Log

ROOT = Path(__file__).resolve().parents[3]


class FakeRunner:
    """The agent loop's part in a session: each run reads a file (with a confirmation wait when
    `confirm` is set) and answers; what it saw is kept in `seen`."""

    def __init__(self, controller=None, confirm=False):
        self.seen = []
        self.controller = controller
        self.confirm = confirm
        self.status_while_waiting = None

    async def run(self, history, sink, cancellation, model=None):
        sinks = Sinks(sink)  # one sink or several, as the real loop takes them
        self.seen.append([dict(message) for message in history])
        self.authors = getattr(self, 'authors', []) + [sinks.change_author(None)]  # as the loop asks for it
        call = {'id': 'c' + str(len(self.seen)), 'name': 'file_write' if self.confirm else 'file_read',
                'arguments': {'path': 'notes.txt'}}
        sinks.emit(lambda each: each.on_tool_call(call))
        if self.confirm:
            sinks.emit(lambda each: each.on_tool_confirmation(call, 'waiting'))
            [item] = shown_items(self)
            self.status_while_waiting = item.status
            sinks.emit(lambda each: each.on_tool_confirmation(call, 'confirmed'))
        sinks.emit(lambda each: each.on_tool_result(call, {'content': [{'type': 'text', 'text': 'The answer is 42.'}], 'isError': False}))
        sinks.emit(lambda each: each.on_text('It says 42.'))
        history.append({'role': 'assistant', 'content': 'It says 42.'})
        return {'stopped': 'done'}


def request(prompt, command=None):
    value = vscode._Undefined()
    value.prompt, value.command, value.references, value.toolReferences, value.model = prompt, command, [], [], None
    return value


def session_context(resource):
    item = vscode._Undefined()
    item.resource = resource
    session = vscode._Undefined()
    session.chatSessionItem, session.isUntitled = item, False
    value = vscode._Undefined()
    value.history, value.chatSessionContext = [], session
    return value


def shown_items(runner):
    """The list as VS Code has it once the store's changes paused (the list waits for that: LIST_QUIET_MS)."""
    runner.clock.advance(LIST_QUIET_MS)
    return runner.controller.items.all()


def make(context, tmp_path, confirm=False, store=None, changes=None):
    vscode.workspace.open_folders([str(tmp_path)])
    (tmp_path / 'notes.txt').write_text('The answer is 42.\n')
    vscode.chat.enable_chat_sessions()
    store = store or ConversationStore(lambda: 'id-' + str(len(store.conversations) + 1), lambda: 1000)
    runner = FakeRunner(confirm=confirm)
    runner.clock = FakeClock()
    sessions = register_chat_sessions(context, Log(), ToolRegistry(), runner, lambda model=None: 'm', store, None,
                                      changes, None, runner.clock, runner.clock.now)
    runner.controller = vscode.chat.session_controllers[SESSION_TYPE]
    return sessions, runner, runner.controller, store


def ask(resource, prompt):
    provider, participant = vscode.chat.session_content_providers[SESSION_TYPE]
    stream = vscode.ChatResponseStream()
    result = asyncio.run(participant.requestHandler(request(prompt), session_context(resource), stream,
                                                    vscode.CancellationTokenSource().token))
    return result, stream


def new_session(controller, prompt):
    async def go():
        return await controller.newChatSessionItemHandler({'request': {'prompt': prompt}}, None)
    return asyncio.run(go())


def test_the_contribution_keeps_at_hermes_working():
    [entry] = session_contribution()
    assert entry['type'] == SESSION_TYPE == 'hermes' and entry['canDelegate'] is True
    assert entry['name'] != PARTICIPANT_NAME  # else the delegate agent takes @hermes
    package = json.loads((ROOT / 'package.json').read_text())
    assert package['enabledApiProposals'] == ['chatSessionsProvider', 'chatParticipantAdditions',
                                              'chatSessionCustomizationProvider']
    assert [participant['id'] for participant in package['contributes']['chatParticipants']] == [PARTICIPANT_ID]
    assert package['contributes']['chatSessions'] == [entry]


def test_without_the_proposal_activation_succeeds_and_the_log_says_once_how_to_turn_sessions_on(context):
    vscode.workspace.settings['hermes.mcp.enabled'] = False  # (its server needs Node)
    api = asyncio.run(activate(context))
    assert api['version']
    [channel] = vscode.window.output_channels
    hints = [line for line in channel.lines if 'chatSessionsProvider' in line]
    assert len(hints) == 1
    assert ('"Preferences: Configure Runtime Arguments", add "enable-proposed-api": ["hermes-agent.hermes-agent"] '
            'to argv.json') in hints[0]
    assert "CANNOT use API proposal" in hints[0]
    assert list(vscode.chat.participants) == [PARTICIPANT_ID]  # @hermes still works; no session participant
    assert vscode.chat.session_content_providers == {}
    assert vscode.window.messages == [('info', 'Hermes: ' + ENABLE_HINT, [])]


def test_without_the_proposal_the_information_message_comes_once_per_install(context):
    vscode.workspace.settings['hermes.mcp.enabled'] = False
    context.globalState.update(PROPOSALS_HINT_SHOWN, True)  # an earlier start showed it
    asyncio.run(activate(context))
    assert [line for line in vscode.window.output_channels[0].lines if 'chatSessionsProvider' in line] != []
    assert [message for message in vscode.window.messages if ENABLE_HINT in message[1]] == []


def test_a_new_session_answers_records_the_turn_and_lists_it(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path)
    item = new_session(controller, 'What does notes.txt say?')
    assert item.resource.scheme == 'hermes' and item.label == 'What does notes.txt say?'
    result, stream = ask(item.resource, 'What does notes.txt say?')
    assert stream.of('progress') == ['Reading notes.txt…'] and stream.text() == 'It says 42.'
    assert result['metadata']['hermes']['stopped'] == 'done'
    [listed] = shown_items(runner)
    assert listed.resource.toString() == item.resource.toString()
    assert listed.label == 'What does notes.txt say?' and listed.status == STATUS_COMPLETED
    assert listed.timing['created'] == 1000 and listed.timing['lastRequestEnded'] >= listed.timing['lastRequestStarted']
    [conversation] = store.conversations
    assert [message['role'] for message in conversation.messages] == ['user', 'assistant']
    assert conversation.messages[1]['parts'][0]['status'] == 'ok'
    assert conversation.history[-1] == {'role': 'assistant', 'content': 'It says 42.'}
    turn = conversation.messages[0]['turn']
    assert runner.authors == [{'client': 'Hermes', 'session': conversation.id, 'turn': turn}], \
        "the change log names the session's conversation and turn"


def test_vscodes_refresh_handler_sends_the_list_at_once(context, tmp_path):
    """The controller's refresh handler (ListRefresh, made before the controller) redraws the list without waiting
    for the store's changes to pause: VS Code asks when it shows the list."""
    sessions, runner, controller, store = make(context, tmp_path)
    conversation = store.create('panel')
    conversation.add({'role': 'user', 'text': 'From the side panel'})
    store.put(conversation, 'panel')
    assert controller.items.all() == []  # (the store's change waits for the pause)
    asyncio.run(controller.refreshHandler(vscode.CancellationTokenSource().token))
    assert [item.label for item in controller.items.all()] == ['From the side panel']
    assert isinstance(sessions, ChatSessions) and sessions.list.controller is controller


def test_a_follow_up_continues_the_conversation_and_opening_shows_its_history(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path)
    item = new_session(controller, 'first')
    ask(item.resource, 'first')
    ask(item.resource, 'second')
    assert runner.seen[1][0]['content'] == 'first' and runner.seen[1][-1]['content'] == 'second'
    provider, participant = vscode.chat.session_content_providers[SESSION_TYPE]
    session = provider['provideChatSessionContent'](item.resource, None)
    history = session['history']
    assert [type(turn).__name__ for turn in history] == ['ChatRequestTurn', 'ChatResponseTurn'] * 2
    assert history[0].prompt == 'first' and history[0].participant == SESSION_TYPE
    assert [type(part).__name__ for part in history[1].response] == [
        'ChatResponseProgressPart', 'ChatResponseReferencePart', 'ChatResponseMarkdownPart',
        'ChatResponseCommandButtonPart']
    assert history[1].response[0].value == 'Reading notes.txt…'
    assert history[1].response[1].value.fsPath == str(tmp_path / 'notes.txt')
    assert history[1].response[2].value.value == 'It says 42.'
    assert session['title'] == 'first'
    # every answer, the older one too, can go back to its checkpoint
    [conversation] = store.conversations
    turns = [message['turn'] for message in conversation.messages if message['role'] == 'user']
    buttons = [turn.response[-1].value for turn in history[1::2]]
    assert [button['command'] for button in buttons] == ['hermes.restoreTurn'] * 2
    assert [button['title'] for button in buttons] == ['Restore to Before This Turn'] * 2
    assert [button['arguments'] for button in buttons] == [[conversation.id, turns[0]], [conversation.id, turns[1]]]


def test_a_tool_waiting_for_confirmation_shows_needs_input(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path, confirm=True)
    item = new_session(controller, 'write it')
    ask(item.resource, 'write it')
    assert runner.status_while_waiting == STATUS_NEEDS_INPUT
    [listed] = shown_items(runner)
    assert listed.status == STATUS_COMPLETED
    assert [change.uri.fsPath for change in listed.changes] == [str(tmp_path / 'notes.txt')]
    assert [(change.insertions, change.deletions) for change in listed.changes] == [(0, 0)]  # no change log here


def test_a_side_panel_conversation_is_listed_and_continues_in_a_session(context, tmp_path):
    store = ConversationStore(lambda: 'panel-1', lambda: 500)
    conversation = store.create('panel')
    conversation.add({'role': 'user', 'text': 'from the panel'})
    conversation.add({'role': 'assistant', 'status': 'done', 'error': None,
                      'parts': [{'kind': 'text', 'text': 'hello'}]})
    conversation.history = [{'role': 'user', 'content': 'from the panel'}, {'role': 'assistant', 'content': 'hello'}]
    store.put(conversation, 'panel')
    sessions, runner, controller, store = make(context, tmp_path, store=store)
    [listed] = shown_items(runner)
    assert listed.label == 'from the panel' and listed.resource.toString() == 'hermes:/panel-1'
    ask(listed.resource, 'and now here')
    assert runner.seen[0][0] == {'role': 'user', 'content': 'from the panel'}
    assert [message.get('text') for message in conversation.messages if message['role'] == 'user'] == [
        'from the panel', 'and now here']


def test_archiving_in_the_list_is_stored(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path)
    item = new_session(controller, 'q')
    ask(item.resource, 'q')
    [listed] = shown_items(runner)
    controller.set_archived(listed, True)
    assert store.conversations[0].archived is True
    [listed] = shown_items(runner)
    assert listed.archived is True


def test_a_reply_running_in_the_panel_is_not_answered_twice(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path)
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'busy'})
    conversation.add({'role': 'assistant', 'status': 'running', 'error': None, 'parts': []})
    store.put(conversation)
    result, stream = ask(vscode.Uri.js_from({'scheme': 'hermes', 'path': '/' + conversation.id}), 'again')
    assert runner.seen == [] and 'still answering in the Hermes side panel' in stream.text()


def test_sessions_participant_without_a_session_context_answers_like_at_hermes():
    class Chat:
        async def handle(self, request, chat_context, stream, token):
            return 'plain'
    participant = SessionParticipant(None, Chat(), Log())
    chat_context = vscode._Undefined()
    assert asyncio.run(participant.handle(request('x'), chat_context, None, None)) == 'plain'


# ------------------------------------------------------------------------------------ the commands

class FakePanel:
    def __init__(self, busy=False):
        self.shown = []
        self.conversation = None
        self.busy = busy
        self.new_chats = 0

    def show(self, conversation):
        if self.busy:
            return False
        self.shown.append(conversation)
        self.conversation = conversation
        return True

    def new_chat(self):
        self.new_chats += 1


def commands_with(context, *prompts, busy=False):
    from hermes.ui.chat.conversation_commands import register_conversation_commands
    vscode.commands.registerCommand('hermes.openPanel', lambda: True)
    store = ConversationStore(iter(f'id-{n}' for n in range(100)).__next__, iter(range(1000, 2000)).__next__)
    for prompt in prompts:
        conversation = store.create()
        conversation.add({'role': 'user', 'text': prompt})
        store.put(conversation)
    panel = FakePanel(busy)
    log = Log()
    register_conversation_commands(context, log, store, panel)
    return store, panel, log


def run_command(name, *args):
    return asyncio.run(vscode.commands.executeCommand(name, *args))


def test_continue_in_panel_from_a_session_item_or_a_quick_pick(context):
    store, panel, log = commands_with(context, 'older', 'newer')
    item = vscode._Undefined()
    item.resource = vscode.Uri.js_from({'scheme': 'hermes', 'path': '/id-0'})
    assert run_command('hermes.continueInPanel', item) is True
    assert panel.shown == [store.get('id-0')] and log.lines == [('info', 'Panel: continuing "older"')]
    vscode.window.quick_pick_answers.append(lambda items: items[0])
    assert run_command('hermes.continueInPanel') is True
    assert [pick['label'] for pick in vscode.window.quick_picks[0]] == ['newer', 'older']
    assert panel.shown[-1] is store.get('id-1')


def test_continue_in_panel_is_refused_while_the_panel_answers(context):
    store, panel, log = commands_with(context, 'q', busy=True)
    assert run_command('hermes.continueInPanel', vscode.Uri.js_from({'scheme': 'hermes', 'path': '/id-0'})) is False
    assert vscode.window.messages[-1][1].startswith('Hermes: the side panel is still answering')


def test_delete_a_conversation_and_the_panel_starts_a_new_one(context):
    store, panel, log = commands_with(context, 'keep', 'drop')
    panel.conversation = store.get('id-1')
    assert run_command('hermes.deleteConversation', vscode.Uri.js_from({'scheme': 'hermes', 'path': '/id-1'})) is True
    assert [c.title for c in store.conversations] == ['keep'] and panel.new_chats == 1
    assert run_command('hermes.deleteConversation', vscode.Uri.js_from({'scheme': 'file', 'path': '/id-0'})) is False
    assert [c.title for c in store.conversations] == ['keep']  # a file URI names no conversation; the pick was dismissed


def test_the_session_remembers_the_model_it_ran_on(context, tmp_path):
    sessions, runner, controller, store = make(context, tmp_path)
    item = new_session(controller, 'q')
    provider, participant = vscode.chat.session_content_providers[SESSION_TYPE]
    for vendor, model_id, expected in [('hermes', 'llama3.2:1b', 'llama3.2:1b'), ('copilot', 'gpt-x', 'qwen2.5:7b')]:
        value = request('q')
        value.model = vscode._Undefined()
        value.model.vendor, value.model.id = vendor, model_id
        asyncio.run(participant.requestHandler(value, session_context(item.resource), vscode.ChatResponseStream(),
                                               vscode.CancellationTokenSource().token))
        assert store.conversations[0].model == expected
    [listed] = shown_items(runner)
    assert listed.description == 'qwen2.5:7b'


class TurnWrites:
    """A change log whose pending changes are the last user turn's write of notes.txt in every conversation."""

    def __init__(self, store, path):
        self.store, self.path = store, path

    def pending(self):
        items = []
        for conversation in self.store.conversations:
            turns = [message['turn'] for message in conversation.messages if message['role'] == 'user']
            if turns:
                items.append({'path': self.path, 'uri': None, 'added': 1, 'removed': 1, 'hunks': [],
                              'author': {'client': 'Hermes', 'session': conversation.id, 'turn': turns[-1]}})
        return items

    def on_change(self, listener):
        return vscode.Disposable()


def test_a_turn_that_changed_files_ends_with_open_changes_and_restore(context, tmp_path):
    store = ConversationStore(lambda: 'id-' + str(len(store.conversations) + 1), lambda: 1000)
    sessions, runner, controller, store = make(context, tmp_path, store=store,
                                               changes=TurnWrites(store, str(tmp_path / 'notes.txt')))
    item = new_session(controller, 'Fix notes.txt')
    _, stream = ask(item.resource, 'Fix notes.txt')
    [conversation] = store.conversations
    turn = conversation.messages[0]['turn']
    assert stream.of('button') == [
        {'command': 'hermes.changes.showDiff', 'title': 'Open Changes',
         'arguments': [{'client': 'Hermes', 'session': conversation.id, 'turn': turn}]},
        {'command': 'hermes.restoreTurn', 'title': 'Restore to Before This Turn', 'arguments': [conversation.id, turn]}]
    [listed] = shown_items(runner)
    assert [(change.uri.fsPath, change.insertions, change.deletions) for change in listed.changes] == \
        [(str(tmp_path / 'notes.txt'), 1, 1)]
    assert listed.changes[0].originalUri.scheme == 'hermes-before'


def test_the_session_list_is_redrawn_only_when_a_sessions_changed_files_move(context, tmp_path):
    """VS Code redraws every item of the list on each replace: an external client's write, or one to a file already
    listed with the same counts, must not cost it that."""
    store = ConversationStore(lambda: 'id-' + str(len(store.conversations) + 1), lambda: 1000)
    log = ChangeLog(None, None, lambda key: True if key == 'changes.trackExternal' else None, None, None,
                    lambda path: True)
    sessions, runner, controller, store = make(context, tmp_path, store=store, changes=log)
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'Fix notes.txt', 'turn': 't1'})
    store.put(conversation)
    runner.clock.advance(LIST_QUIET_MS)
    replaced = []
    replace = controller.items.replace
    controller.items.js_replace = lambda items: (replaced.append(len(items)), replace(items))
    notes = str(tmp_path / 'notes.txt')
    log.record(str(tmp_path / 'other.txt'), None, 'x\n', {'client': 'claude-code', 'session': 'mcp-1', 'turn': None})
    runner.clock.advance(LIST_LONGEST_MS)
    assert replaced == [], 'another client\'s write: no session changed'
    session = {'client': 'Hermes', 'session': conversation.id, 'turn': 't1'}
    log.record(notes, 'The answer is 42.\n', 'The answer is 43.\n', session)
    [listed] = shown_items(runner)
    assert replaced == [1]
    assert [(change.insertions, change.deletions) for change in listed.changes] == [(1, 1)]
    log.record(notes, 'The answer is 43.\n', 'The answer is 44.\n', session)
    runner.clock.advance(LIST_LONGEST_MS)
    assert replaced == [1], 'the same file with the same counts: nothing to redraw'
    log.keep(notes)
    assert shown_items(runner)[0].changes == [] and replaced == [1, 1]


def test_a_turns_burst_of_changes_reaches_the_list_once_it_pauses_in_its_final_state(context, tmp_path):
    """VS Code 1.139 can keep a stale item when one replace crosses its own refresh of the item from the live chat:
    a turn's store and change-log events go out as one replace once they pause, with the finished turn's changes
    (and at least every LIST_LONGEST_MS while a turn keeps streaming)."""
    store = ConversationStore(lambda: 'id-' + str(len(store.conversations) + 1), lambda: 1000)
    log = ChangeLog(None, None, None, None, None, lambda path: True)
    sessions, runner, controller, store = make(context, tmp_path, store=store, changes=log)
    replaced = []
    replace = controller.items.replace
    controller.items.js_replace = lambda items: (replaced.append([(item.status, len(item.changes)) for item in items]),
                                                 replace(items))
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'Fix notes.txt', 'turn': 't1'})
    conversation.add({'role': 'assistant', 'status': 'running', 'error': None, 'parts': []})
    store.put(conversation)
    runner.clock.advance(LIST_QUIET_MS - 1)
    log.record(str(tmp_path / 'notes.txt'), 'The answer is 42.\n', 'The answer is 43.\n',
               {'client': 'Hermes', 'session': conversation.id, 'turn': 't1'})
    runner.clock.advance(LIST_QUIET_MS - 1)
    end_reply(conversation.messages[-1], 'done')
    store.put(conversation)
    assert replaced == [], 'nothing yet: the burst goes on'
    runner.clock.advance(LIST_QUIET_MS)
    assert replaced == [[(STATUS_COMPLETED, 1)]], 'one replace, the finished turn with its changed file'

    for step in range(10):  # a turn that streams without a pause still shows its progress now and then
        store.put(conversation)
        runner.clock.advance(LIST_QUIET_MS // 2)
    assert len(replaced) - 1 == 10 * (LIST_QUIET_MS // 2) // LIST_LONGEST_MS
