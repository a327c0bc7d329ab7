"""The side panel's host logic with a fake loop: what the webview is told, what is stored, Stop, Retry,
New chat, models, and messages refused before they reach anything."""
import asyncio

import pytest

from hermes.ui.panel.controller import PanelController
from hermes.core.chat.conversations import Conversation, MAX_MESSAGES, RESULT_LIMIT
from panel_fakes import Log


class LlmError(Exception):
    def __init__(self, message, kind):
        super().__init__(message)
        self.message = message
        self.kind = kind


class Host:
    def __init__(self, models=None, models_error=None):
        self.posted = []
        self.saved = []
        self.actions = []
        self._models = models if models is not None else ['qwen2.5:7b', 'llama3.2']
        self.models_error = models_error
        self.current_model = 'qwen2.5:7b'
        self.changes_by_turn = None  # what turn_changes answers (None: no change log)

    def post(self, message):
        self.posted.append(message)

    def turn_changes(self, conversation_id):
        return self.changes_by_turn

    async def turn_action(self, kind, conversation_id, turn):
        self.actions.append((kind, conversation_id, turn))

    def save(self, conversation):
        import copy
        self.saved.append(copy.deepcopy(conversation.to_data()))

    def model(self):
        return self.current_model

    def endpoint(self):
        return 'http://127.0.0.1:11434/v1'

    async def list_models(self):
        if self.models_error:
            raise self.models_error
        return self._models

    async def select_model(self, name):
        self.actions.append(('select_model', name))
        self.current_model = name

    async def insert_code(self, code):
        self.actions.append(('insert_code', code))

    async def copy_code(self, code):
        self.actions.append(('copy_code', code))

    async def open_settings(self):
        self.actions.append(('open_settings',))

    async def set_api_key(self):
        self.actions.append(('set_api_key',))

    def types(self):
        return [message['type'] for message in self.posted]


def scripted(*steps, result=None):
    """A fake run_turn: each step is ('text', delta) | ('tool', id, name, args) | ('waiting', id) |
    ('confirmed', id) | ('log', id, text) | ('result', id, result) | ('error', exc) | ('raise', exc) | ('sleep', seconds)."""
    calls = []

    async def run_turn(history, user_text, sink, cancel):
        calls.append((list(history), user_text))
        for step in steps:
            if cancel.cancelled:
                return {'history': history + [{'role': 'user', 'content': user_text}]}
            kind = step[0]
            if kind == 'text':
                sink.on_text(step[1])
            elif kind == 'tool':
                sink.on_tool_call({'id': step[1], 'name': step[2], 'arguments': step[3]})
            elif kind == 'waiting':
                sink.on_tool_confirmation({'id': step[1]}, 'waiting')
            elif kind == 'confirmed':
                sink.on_tool_confirmation({'id': step[1]}, 'confirmed')
            elif kind == 'log':
                sink.on_tool_log({'id': step[1]}, 'notice', step[2])
            elif kind == 'result':
                sink.on_tool_result({'id': step[1]}, step[2])
            elif kind == 'error':
                sink.on_error(step[1])
            elif kind == 'raise':
                raise step[1]
            elif kind == 'sleep':
                await asyncio.sleep(step[1])
        sink.on_done({'stopped': 'done'})
        return result
    run_turn.calls = calls
    return run_turn


def make(run_turn=None, stored=None, host=None):
    host = host or Host()
    log = Log()
    return PanelController(host, log, run_turn or scripted(('text', 'hi')), stored), host, log


def run(coroutine):
    return asyncio.run(coroutine)


def test_ready_sends_state_then_models():
    controller, host, _ = make()
    assert run(controller.handle({'type': 'ready'})) is True
    state, models = host.posted
    assert state == {'type': 'state', 'messages': [], 'running': False, 'current': None, 'model': 'qwen2.5:7b',
                     'endpoint': 'http://127.0.0.1:11434/v1'}
    assert models == {'type': 'models', 'models': ['qwen2.5:7b', 'llama3.2'], 'current': 'qwen2.5:7b',
                      'endpoint': 'http://127.0.0.1:11434/v1', 'error': None}


def test_a_turn_streams_text_and_tool_cards_then_is_stored():
    loop = scripted(('text', 'Let me '), ('text', 'look.'), ('tool', 'c1', 'workspace_get_folders', {}),
                    ('result', 'c1', {'content': [{'type': 'text', 'text': '{"folders": []}'}], 'isError': False}),
                    ('text', 'No folders.'))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'What is open?'}))
    assert host.types() == ['userMessage', 'turnStarted', 'textDelta', 'textDelta', 'toolStarted', 'toolResult',
                            'textDelta', 'turnEnded']
    assert host.posted[4] == {'type': 'toolStarted', 'id': 'c1', 'name': 'workspace_get_folders', 'arguments': {}}
    assert host.posted[5] == {'type': 'toolResult', 'id': 'c1', 'isError': False, 'result': '{"folders": []}'}
    reply = {'role': 'assistant', 'status': 'done', 'error': None, 'parts': [
        {'kind': 'text', 'text': 'Let me look.'},
        {'kind': 'tool', 'id': 'c1', 'name': 'workspace_get_folders', 'arguments': {}, 'status': 'ok',
         'result': '{"folders": []}'},
        {'kind': 'text', 'text': 'No folders.'}]}
    assert host.posted[-1] == {'type': 'turnEnded', 'status': 'done', 'message': reply}
    stored = host.saved[-1]
    turn = stored['messages'][0]['turn']  # its checkpoint id (core/changes/checkpoints.py)
    assert stored['messages'] == [{'role': 'user', 'text': 'What is open?', 'turn': turn}, reply]
    assert stored['history'] == [{'role': 'user', 'content': 'What is open?'},
                                 {'role': 'assistant', 'content': 'Let me look.No folders.'}]
    assert not controller.running


def test_the_loop_history_is_kept_and_handed_to_the_next_turn():
    history = [{'role': 'user', 'content': 'a'}, {'role': 'assistant', 'content': 'b', 'tool_calls': []}]
    loop = scripted(('text', 'b'), result={'history': history})
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'a'}))
    run(controller.handle({'type': 'send', 'text': 'c'}))
    assert loop.calls == [([], 'a'), (history, 'c')]


def test_tool_waiting_for_confirmation_and_error_results():
    loop = scripted(('tool', 't', 'file_write', {'path': 'a'}), ('waiting', 't'),
                    ('result', 't', {'content': [{'type': 'text', 'text': 'The user declined'}], 'isError': True}))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'write'}))
    assert {'type': 'toolWaiting', 'id': 't'} in host.posted
    assert {'type': 'toolResult', 'id': 't', 'isError': True, 'result': 'The user declined'} in host.posted


def test_a_confirmed_call_goes_back_to_running_until_its_result():
    loop = scripted(('tool', 't', 'file_write', {'path': 'a'}), ('waiting', 't'), ('confirmed', 't'),
                    ('result', 't', {'content': [{'type': 'text', 'text': 'wrote a'}], 'isError': False}))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'write'}))
    statuses = [message['type'] for message in host.posted if message.get('id') == 't']
    assert statuses == ['toolStarted', 'toolWaiting', 'toolRunning', 'toolResult']


def test_log_text_does_not_change_a_card():
    loop = scripted(('tool', 't', 'file_write', {'path': 'a'}), ('log', 't', 'Waiting for the user to confirm x'),
                    ('result', 't', {'content': [{'type': 'text', 'text': 'wrote a'}], 'isError': False}))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'write'}))
    statuses = [message['type'] for message in host.posted if message.get('id') == 't']
    assert statuses == ['toolStarted', 'toolResult']


def test_long_tool_results_are_truncated():
    loop = scripted(('tool', 't', 'file_read', {}),
                    ('result', 't', {'content': [{'type': 'text', 'text': 'x' * (RESULT_LIMIT + 50)}]}))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'read'}))
    [result] = [message for message in host.posted if message['type'] == 'toolResult']
    assert result['result'].startswith('x' * RESULT_LIMIT)
    assert result['result'].endswith('[truncated: 50 more characters]')


def test_stop_cancels_the_loop_and_ends_the_turn():
    loop = scripted(('text', 'one '), ('sleep', 0.05), ('text', 'two '), ('sleep', 5), ('text', 'never'))

    async def scenario():
        controller, host, _ = make(loop)
        turn = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'go'}))
        await asyncio.sleep(0.02)
        assert controller.running
        # a second send while running is ignored
        await controller.handle({'type': 'send', 'text': 'again'})
        await controller.handle({'type': 'stop'})
        await asyncio.wait_for(turn, 1)
        return controller, host
    controller, host = run(scenario())
    assert not controller.running
    ended = host.posted[-1]
    assert ended['type'] == 'turnEnded' and ended['status'] == 'stopped'
    assert [message['text'] for message in host.posted if message['type'] == 'textDelta'] == ['one ']
    assert [message for message in host.posted if message['type'] == 'userMessage'][1:] == []


def test_stop_ends_the_turn_even_when_the_loop_does_not_listen(monkeypatch):
    monkeypatch.setattr('hermes.ui.panel.builtin_turn.FORCE_END_MS', 50)

    async def deaf(history, user_text, sink, cancel):
        sink.on_tool_call({'id': 't', 'name': 'terminal_run', 'arguments': {'command': 'sleep 100'}})
        await asyncio.sleep(0.5)
        sink.on_text('late')
        return None

    async def scenario():
        controller, host, log = make(deaf)
        turn = asyncio.ensure_future(controller.handle({'type': 'send', 'text': 'go'}))
        await asyncio.sleep(0.01)
        await controller.handle({'type': 'stop'})
        await asyncio.sleep(0.1)
        assert not controller.running  # ended by the panel, input is back
        ended = [message for message in host.posted if message['type'] == 'turnEnded']
        assert ended[0]['status'] == 'stopped'
        assert ended[0]['message']['parts'][0]['status'] == 'cancelled'
        await turn
        assert not [message for message in host.posted if message['type'] == 'textDelta']
        assert any('did not stop' in line for level, line in log.lines)
    run(scenario())


def test_an_llm_error_shows_a_banner_with_retry_and_retry_runs_the_message_again():
    attempts = []

    async def flaky(history, user_text, sink, cancel):
        attempts.append(user_text)
        if len(attempts) == 1:
            sink.on_text('partial')
            raise LlmError("Can't reach the LLM at http://127.0.0.1:9/v1 — is Ollama running (`ollama serve`)?",
                           'unreachable')
        sink.on_text('fine')
        return None

    controller, host, log = make(flaky)
    run(controller.handle({'type': 'send', 'text': 'hello'}))
    banner = [message for message in host.posted if message['type'] == 'error'][0]
    assert banner['message'].startswith("Can't reach the LLM")
    assert banner['retry'] == 'turn' and banner['settings'] is True and banner['apiKey'] is False
    assert host.posted[-1]['status'] == 'error'
    assert controller.conversation.history == []  # a failed turn leaves the LLM history alone
    run(controller.handle({'type': 'retry'}))
    assert attempts == ['hello', 'hello']
    messages = host.saved[-1]['messages']
    assert [message['role'] for message in messages] == ['user', 'assistant']
    assert messages[1]['status'] == 'done' and messages[1]['parts'] == [{'kind': 'text', 'text': 'fine'}]


def test_errors_reported_through_the_sink_count_too():
    controller, host, _ = make(scripted(('error', LlmError('401 Unauthorized: set the API key', 'auth'))))
    run(controller.handle({'type': 'send', 'text': 'hello'}))
    banner = [message for message in host.posted if message['type'] == 'error'][0]
    assert banner['apiKey'] is True and banner['retry'] == 'turn'


def test_retry_does_nothing_after_a_successful_reply():
    loop = scripted(('text', 'ok'))
    controller, host, _ = make(loop)
    run(controller.handle({'type': 'send', 'text': 'x'}))
    run(controller.handle({'type': 'retry'}))
    assert len(loop.calls) == 1


def test_new_chat_clears_everything_and_is_stored():
    controller, host, _ = make()
    run(controller.handle({'type': 'send', 'text': 'x'}))
    run(controller.handle({'type': 'newChat'}))
    assert host.saved[-1]['messages'] == [] and host.saved[-1]['history'] == []
    assert host.saved[-1]['id'] is None and host.saved[-1]['title'] == 'New conversation'
    assert host.posted[-1]['type'] == 'state' and host.posted[-1]['messages'] == []


def test_the_stored_conversation_is_restored_and_state_is_sent():
    stored = {'version': 1, 'messages': [{'role': 'user', 'text': 'hi'},
                                         {'role': 'assistant', 'status': 'done', 'error': None,
                                          'parts': [{'kind': 'text', 'text': 'hello'}]}],
              'history': [{'role': 'user', 'content': 'hi'}]}
    controller, host, _ = make(stored=stored)
    run(controller.handle({'type': 'ready'}))
    assert host.posted[0]['messages'] == stored['messages']


def test_malformed_stored_data_is_dropped_not_trusted():
    stored = {'messages': [{'role': 'system', 'text': 'x'}, {'role': 'user'}, 'junk',
                           {'role': 'assistant', 'status': 'running', 'parts': [{'kind': 'html', 'html': '<b>'},
                                                                                {'kind': 'tool', 'status': 'running'}]}],
              'history': 'nope'}
    conversation = Conversation.restore(stored)
    assert conversation.messages == [{'role': 'assistant', 'status': 'stopped', 'error': None, 'parts': [
        {'kind': 'tool', 'id': '', 'name': 'tool', 'arguments': {}, 'status': 'cancelled', 'result': ''}]}]
    assert conversation.history == []
    assert Conversation.restore(None).messages == []
    assert Conversation.restore([1, 2]).messages == []


def test_only_the_last_100_messages_are_kept():
    controller, host, _ = make(scripted(('text', 'ok')))
    for index in range(60):
        run(controller.handle({'type': 'send', 'text': f'message {index}'}))
    messages = host.saved[-1]['messages']
    assert len(messages) == MAX_MESSAGES
    assert messages[0] == {'role': 'user', 'text': 'message 10', 'turn': messages[0]['turn']}
    history = host.saved[-1]['history']
    assert len(history) <= MAX_MESSAGES and history[0]['role'] == 'user'


def test_models_failure_posts_a_banner_and_an_empty_list():
    host = Host(models_error=LlmError("Can't reach the LLM at http://127.0.0.1:9/v1 — is Ollama running?", 'unreachable'))
    controller, host, log = make(host=host)
    run(controller.handle({'type': 'refreshModels'}))
    banner, models = host.posted
    assert banner['type'] == 'error' and banner['retry'] == 'models' and banner['settings'] is True
    assert models['models'] == [] and models['error'].startswith("Can't reach the LLM")


def test_select_model_updates_the_setting_and_the_picker():
    controller, host, _ = make()
    run(controller.handle({'type': 'selectModel', 'model': 'llama3.2'}))
    assert host.actions == [('select_model', 'llama3.2')]
    assert host.posted[-1]['current'] == 'llama3.2'


@pytest.mark.parametrize('message, action', [
    ({'type': 'insertCode', 'code': 'x = 1'}, ('insert_code', 'x = 1')),
    ({'type': 'copyCode', 'code': 'ls'}, ('copy_code', 'ls')),
    ({'type': 'openSettings'}, ('open_settings',)),
    ({'type': 'setApiKey'}, ('set_api_key',)),
])
def test_actions_reach_the_host(message, action):
    controller, host, _ = make()
    run(controller.handle(message))
    assert host.actions == [action]


def test_rejected_messages_are_logged_and_do_nothing():
    controller, host, log = make()
    assert run(controller.handle({'type': 'insertCode', 'code': 42})) is False
    assert run(controller.handle({'type': 'eval', 'code': 'alert(1)'})) is False
    assert host.actions == [] and host.posted == []
    assert log.lines == [('warn', 'Panel: ignored a message from the webview: "insertCode.code" must be a string, '
                                  'got integer'),
                         ('warn', 'Panel: ignored a message from the webview: unknown message type "eval"')]


def test_long_tool_results_are_cut_in_the_stored_history():
    history = [{'role': 'user', 'content': 'read'},
               {'role': 'assistant', 'content': '', 'tool_calls': [{'id': 't'}]},
               {'role': 'tool', 'tool_call_id': 't', 'content': 'y' * 20000, 'hermes_tool': 'file_read'},
               {'role': 'assistant', 'content': 'done'}]
    controller, host, _ = make(scripted(('text', 'done'), result={'history': history}))
    run(controller.handle({'type': 'send', 'text': 'read'}))
    stored = host.saved[-1]['history']
    assert stored[2]['tool_call_id'] == 't' and stored[2]['hermes_tool'] == 'file_read'
    assert len(stored[2]['content']) < 8100 and stored[2]['content'].endswith('\n[truncated: 12000 more characters]')
    assert stored[3] == history[3]


def test_a_conversation_answering_in_a_chat_session_is_not_sent_to_twice():
    from hermes.core.chat.conversations import Conversation
    conversation = Conversation([{'role': 'user', 'text': 'busy'},
                                 {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}])
    loop = scripted(('text', 'never'))
    controller, host, _ = make(loop, stored=conversation)
    run(controller.handle({'type': 'send', 'text': 'again'}))
    assert loop.calls == [] and len(conversation.messages) == 2
    [banner] = host.posted
    assert banner['type'] == 'error' and banner['message'].startswith('This conversation is still answering in a '
                                                                      'Hermes chat session.')


def test_a_turns_changes_follow_the_state_and_its_buttons_reach_the_host():
    controller, host, _ = make(scripted(('text', 'ok')), Conversation(conversation_id='c1'))
    host.changes_by_turn = {'t1': {'files': [{'path': '/w/a.py', 'label': 'a.py', 'added': 2, 'removed': 1}],
                                   'added': 2, 'removed': 1}}
    run(controller.handle({'type': 'ready'}))
    assert host.types()[:2] == ['state', 'changes']
    assert host.posted[1] == {'type': 'changes', 'turns': host.changes_by_turn}
    for kind in ['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']:
        assert run(controller.handle({'type': kind, 'turn': 't1'})) is True
    conversation_id = controller.conversation.id
    assert conversation_id == 'c1'
    assert host.actions[-4:] == [(kind, conversation_id, 't1') for kind in
                                 ['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']]
    assert run(controller.handle({'type': 'restoreTurn', 'turn': ''})) is False, 'a blank turn id is refused'


def test_an_option_choice_without_an_acp_runner_is_refused_and_logged():
    # The webview is untrusted: 'setOption' passes the validator whoever answers, and the built-in loop alone (no
    # ACP runner) has no options; it used to read the runner's options off None.
    controller, host, log = make()
    assert asyncio.run(controller.handle({'type': 'setOption', 'option': 'mode', 'value': 'plan'})) is True
    assert asyncio.run(controller.backends.set_option('mode', 'plan')) is False
    assert [text for level, text in log.lines if 'option' in text] == [
        'Panel: ignored an option choice: no ACP agent answers here ("mode")',
        'Panel: ignored an option choice: no ACP agent answers here ("mode")']
    assert [m for m in host.posted if m['type'] == 'options'] == []


def test_a_turn_action_on_a_conversation_never_stored_is_refused():
    # A fresh panel conversation has no id until it is stored; the change log's filter {'session': None, 'turn': 't1'}
    # matches every session (core/changes/model.py matches), so 'undoTurn' from the (untrusted) webview would have
    # undone turn t1 of every panel conversation.
    controller, host, log = make()
    assert controller.conversation.id is None
    for kind in ['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']:
        assert run(controller.handle({'type': kind, 'turn': 't1'})) is False
    assert host.actions == []
    assert [text for level, text in log.lines if level == 'warn'] == [
        'Panel: ignored a turn action: this conversation is not stored, so it has no changes'] * 4
