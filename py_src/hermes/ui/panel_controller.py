"""The side panel's logic, free of vscode: the conversation, one turn at a time through the agent loop,
and what the webview is told. `ui/panel.py` wires it to a real WebviewView and VS Code.

Host → webview messages (the webview, media/panel/main.js, ignores anything else):
    {type: 'state', messages, current, running, model, endpoint}   everything, on 'ready' and New chat
    {type: 'userMessage', message}          the user's message as stored
    {type: 'turnStarted'}                   an assistant reply begins
    {type: 'textDelta', text}               streamed reply text
    {type: 'toolStarted', id, name, arguments} · {type: 'toolWaiting', id} · {type: 'toolRunning', id}
    {type: 'toolResult', id, isError, result}
    {type: 'turnEnded', status, message}    status: done | stopped | error; message: the stored reply
    {type: 'error', message, retry, settings, apiKey}   a banner (retry: 'turn' | 'models' | false)
    {type: 'models', models, current, endpoint, error}

Stored conversation (workspaceState, last MAX_MESSAGES messages):
    {version: 1, messages: [...], history: [...]} where a message is {role: 'user', text} or
    {role: 'assistant', status, error, parts: [{kind: 'text', text} |
                                               {kind: 'tool', id, name, arguments, status, result}]}
    and `history` is the LLM's view of earlier turns (OpenAI chat messages) handed to the loop.
"""
# __pragma__('tconv')
from hermes.js import is_none, error_message, JsError, set_timer, clear_timer
from hermes.core.values import json_type, get_key, is_object, object_keys
from hermes.ui.panel_protocol import parse_webview_message, ProtocolError
from hermes.core.cancellation import Cancellation
from hermes.core.tools import WAITING, CONFIRMED

STORE_KEY = 'hermes.panel.conversation'
MAX_MESSAGES = 100
RESULT_LIMIT = 4000
HISTORY_TOOL_CHARS = 8000
"""Tool results kept in the stored LLM history are cut to this (workspaceState stays small)."""
FORCE_END_MS = 3000
"""After Stop, the loop has this long to wind down before the panel ends the turn by itself."""


# ------------------------------------------------------------------------------------ conversation

def _text(value, fallback=''):
    return value if json_type(value) == 'string' else fallback


def _restore_part(part):
    kind = get_key(part, 'kind')
    if kind == 'text':
        return {'kind': 'text', 'text': _text(get_key(part, 'text'))}
    if kind == 'tool':
        status = _text(get_key(part, 'status'), 'error')
        if status not in ['ok', 'error', 'cancelled']:
            status = 'cancelled'
        return {'kind': 'tool', 'id': _text(get_key(part, 'id')), 'name': _text(get_key(part, 'name'), 'tool'),
                'arguments': get_key(part, 'arguments', {}), 'status': status,
                'result': _text(get_key(part, 'result'))}
    return None


def _restore_message(message):
    role = get_key(message, 'role')
    if role == 'user':
        text = _text(get_key(message, 'text'))
        return {'role': 'user', 'text': text} if text != '' else None
    if role == 'assistant':
        parts = []
        raw_parts = get_key(message, 'parts', [])
        if json_type(raw_parts) == 'array':
            for raw in raw_parts:
                part = _restore_part(raw)
                if not is_none(part):
                    parts.append(part)
        status = _text(get_key(message, 'status'), 'done')
        if status not in ['done', 'stopped', 'error']:
            status = 'stopped'  # a reply that was running when the window closed
        error = get_key(message, 'error')
        return {'role': 'assistant', 'status': status, 'error': error if json_type(error) == 'string' else None,
                'parts': parts}
    return None


def _compact(message):
    content = get_key(message, 'content')
    if get_key(message, 'role') != 'tool' or json_type(content) != 'string' or len(content) <= HISTORY_TOOL_CHARS:
        return message
    copy = {}
    for key in object_keys(message):
        copy[key] = message[key]
    copy['content'] = truncate(content, HISTORY_TOOL_CHARS)
    return copy


def _trim_history(history, limit):
    """The last `limit` LLM messages, starting at a user message (never at an orphaned tool result)."""
    if len(history) <= limit:
        return history
    start = len(history) - limit
    while start < len(history) and get_key(history[start], 'role') != 'user':
        start += 1
    return history[start:]


class Conversation:
    def __init__(self, messages=None, history=None, limit=MAX_MESSAGES):
        self.messages = [] if is_none(messages) else messages
        self.history = [] if is_none(history) else history
        self.limit = limit

    @staticmethod
    def restore(data, limit=MAX_MESSAGES):
        """A conversation from stored data; anything malformed in it is dropped, never trusted."""
        messages = []
        history = []
        if is_object(data):
            raw_messages = get_key(data, 'messages', [])
            if json_type(raw_messages) == 'array':
                for raw in raw_messages:
                    message = _restore_message(raw)
                    if not is_none(message):
                        messages.append(message)
            raw_history = get_key(data, 'history', [])
            if json_type(raw_history) == 'array':
                history = [item for item in raw_history if is_object(item)]
        conversation = Conversation(messages, history, limit)
        conversation.trim()
        return conversation

    def add(self, message):
        self.messages.append(message)
        self.trim()

    def trim(self):
        if len(self.messages) > self.limit:
            self.messages = self.messages[len(self.messages) - self.limit:]
        self.history = _trim_history(self.history, self.limit)

    def clear(self):
        self.messages = []
        self.history = []

    def to_data(self):
        return {'version': 1, 'messages': self.messages, 'history': self.history}


# ------------------------------------------------------------------------------------ results

def result_text(result):
    """A tool result (a CallToolResult dict, a string, anything JSON) as text for a card."""
    if json_type(result) == 'string':
        return result
    content = get_key(result, 'content')
    if json_type(content) == 'array':
        texts = []
        for item in content:
            text = get_key(item, 'text')
            if json_type(text) == 'string':
                texts.append(text)
            elif not is_none(get_key(item, 'type')):
                texts.append('[' + str(get_key(item, 'type')) + ']')
        return '\n'.join(texts)
    if is_none(result):
        return ''
    return str(result)


def truncate(text, limit=RESULT_LIMIT):
    if len(text) <= limit:
        return text
    return text[:limit] + '\n… (truncated, ' + str(len(text) - limit) + ' more characters)'


def describe_error(error):
    """An error from the loop or the LLM client → the banner's text and which actions it offers."""
    kind = None
    if not is_none(error) and json_type(error) != 'string':
        try:
            kind = error.kind
        except JsError:
            kind = None
    message = error_message(error)
    return {
        'message': message,
        'kind': kind if json_type(kind) == 'string' else None,
        'settings': kind in ['unreachable', 'model_not_found', 'endpoint_not_found', 'timeout'],
        'apiKey': kind == 'auth',
    }


# ------------------------------------------------------------------------------------ the turn

class Turn:
    def __init__(self, number, user_text, assistant, cancel):
        self.number = number
        self.user_text = user_text
        self.assistant = assistant
        self.cancel = cancel
        self.error = None
        self.ended = False
        self.timer = None


class PanelSink:
    """The agent loop's event sink for one turn (the methods of core.agent_loop.EventSink): every event
    updates the stored reply and the webview. Events after the turn ended (a loop still winding down
    after Stop) are ignored."""

    def __init__(self, controller, turn):
        self.controller = controller
        self.turn = turn

    def _live(self):
        return not self.turn.ended

    def on_iteration(self, number):
        return None

    def on_text(self, delta):
        if not self._live() or json_type(delta) != 'string' or delta == '':
            return
        parts = self.turn.assistant['parts']
        if len(parts) > 0 and parts[len(parts) - 1]['kind'] == 'text':
            parts[len(parts) - 1]['text'] = parts[len(parts) - 1]['text'] + delta
        else:
            parts.append({'kind': 'text', 'text': delta})
        self.controller.post({'type': 'textDelta', 'text': delta})

    def on_tool_call(self, call):
        """{'id', 'name', 'arguments'}: a tool is about to run."""
        if not self._live():
            return
        call_id, name, arguments = _text(get_key(call, 'id')), _text(get_key(call, 'name'), 'tool'), get_key(call, 'arguments', {})
        self.turn.assistant['parts'].append({'kind': 'tool', 'id': call_id, 'name': name, 'arguments': arguments,
                                             'status': 'running', 'result': ''})
        self.controller.post({'type': 'toolStarted', 'id': call_id, 'name': name, 'arguments': arguments})

    def on_tool_log(self, call, level, message):
        return None

    def on_tool_confirmation(self, call, state):
        """The card waits while the gate asks the user, and runs again once the user allowed the call."""
        if state != WAITING and state != CONFIRMED:
            return
        part = self._tool(get_key(call, 'id'))
        if is_none(part) or not self._live():
            return
        waiting = state == WAITING
        part['status'] = 'waiting' if waiting else 'running'
        self.controller.post({'type': 'toolWaiting' if waiting else 'toolRunning', 'id': part['id']})

    def on_tool_result(self, call, result):
        part = self._tool(get_key(call, 'id'))
        if is_none(part) or not self._live():
            return
        is_error = get_key(result, 'isError') is True
        text = truncate(result_text(result))
        part['status'] = 'error' if is_error else 'ok'
        part['result'] = text
        self.controller.post({'type': 'toolResult', 'id': part['id'], 'isError': is_error, 'result': text})

    def on_notice(self, message):
        if json_type(message) == 'string':
            self.controller.log.info('Panel: ' + message)

    def on_error(self, error):
        if self._live():
            self.turn.error = error

    def on_done(self, outcome):
        return None

    def _tool(self, call_id):
        for part in self.turn.assistant['parts']:
            if part['kind'] == 'tool' and part['id'] == call_id:
                return part
        return None


# ------------------------------------------------------------------------------------ controller

class PanelController:
    """`run_turn(history, user_text, sink, cancel)` runs one agent turn (the shared loop) and returns
    None or {'history': [...]}, the LLM history after the turn; `cancel` comes from `make_cancel()`
    (core.cancellation.Cancellation for the real loop). `host` does what needs VS Code:
    post(message), save(data), list_models(), model(), endpoint(), select_model(name),
    insert_code(code), copy_code(code), open_settings(), set_api_key()."""

    def __init__(self, host, log, run_turn, stored=None, make_cancel=None):
        self.host = host
        self.log = log
        self.run_turn = run_turn
        self.make_cancel = Cancellation if is_none(make_cancel) else make_cancel
        self.conversation = Conversation.restore(stored)
        self.turn = None
        self.turns = 0
        self.models = []
        self.models_error = None

    def post(self, message):
        self.host.post(message)

    def save(self):
        self.host.save(self.conversation.to_data())

    @property
    def running(self):
        return not is_none(self.turn)

    async def handle(self, raw):
        """One message from the webview. Returns False when it was rejected (and logs why)."""
        try:
            message = parse_webview_message(raw)
        except ProtocolError as error:
            self.log.warn('Panel: ignored a message from the webview: ' + error_message(error))
            return False
        kind = message['type']
        if kind == 'ready':
            self.post_state()
            await self.refresh_models()
        elif kind == 'send':
            await self.send(message['text'])
        elif kind == 'stop':
            self.stop()
        elif kind == 'retry':
            await self.retry()
        elif kind == 'newChat':
            self.new_chat()
        elif kind == 'insertCode':
            await self.host.insert_code(message['code'])
        elif kind == 'copyCode':
            await self.host.copy_code(message['code'])
        elif kind == 'selectModel':
            await self.host.select_model(message['model'])
            self.post_models()
        elif kind == 'refreshModels':
            await self.refresh_models()
        elif kind == 'openSettings':
            await self.host.open_settings()
        elif kind == 'setApiKey':
            await self.host.set_api_key()
        return True

    def post_state(self):
        running = self.running
        messages = self.conversation.messages
        if running:
            messages = [message for message in messages if message is not self.turn.assistant]
        self.post({'type': 'state', 'messages': messages, 'running': running,
                   'current': self.turn.assistant if running else None,
                   'model': self.host.model(), 'endpoint': self.host.endpoint()})

    def post_models(self):
        self.post({'type': 'models', 'models': self.models, 'current': self.host.model(),
                   'endpoint': self.host.endpoint(), 'error': self.models_error})

    async def refresh_models(self):
        try:
            models = await self.host.list_models()
            self.models = [name for name in models if json_type(name) == 'string']
            self.models_error = None
        except JsError as error:
            self.models = []
            self.models_error = error_message(error)
            self.log.warn('Panel: could not list models: ' + self.models_error)
            described = describe_error(error)
            self.post({'type': 'error', 'message': self.models_error, 'retry': 'models', 'settings': True,
                       'apiKey': described['apiKey']})
        self.post_models()
        return self.models

    async def send(self, text):
        if self.running:
            self.log.warn('Panel: ignored a message sent while a reply is still running')
            return None
        user = {'role': 'user', 'text': text}
        self.conversation.add(user)
        self.post({'type': 'userMessage', 'message': user})
        return await self._run(text)

    async def retry(self):
        """Run the last user message again after a failed reply (the failed reply is dropped)."""
        messages = self.conversation.messages
        count = len(messages)
        if self.running or count < 2:
            return None
        last, before = messages[count - 1], messages[count - 2]
        if last['role'] != 'assistant' or last['status'] != 'error' or before['role'] != 'user':
            return None
        self.conversation.messages = messages[:count - 1]
        self.post_state()
        return await self._run(before['text'])

    def stop(self):
        turn = self.turn
        if is_none(turn):
            return
        turn.cancel.cancel('Stopped by the user')

        def force_end():
            if not turn.ended:
                self.log.warn('Panel: the agent loop did not stop within ' + str(FORCE_END_MS) + ' ms; '
                              'ending the turn')
                self._finish(turn, None)
        turn.timer = set_timer(force_end, FORCE_END_MS)

    def new_chat(self):
        if self.running:
            turn = self.turn
            turn.cancel.cancel('New chat')
            turn.ended = True
            self._clear_timer(turn)
            self.turn = None
        self.conversation.clear()
        self.save()
        self.post_state()

    async def _run(self, text):
        self.turns += 1
        assistant = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
        turn = Turn(self.turns, text, assistant, self.make_cancel())
        self.turn = turn
        self.conversation.add(assistant)
        self.post({'type': 'turnStarted'})
        self.save()
        history = self.conversation.history[:]
        result = None
        try:
            result = await self.run_turn(history, text, PanelSink(self, turn), turn.cancel)
        except JsError as error:
            if not turn.cancel.cancelled:
                turn.error = error
        self._finish(turn, result)
        return assistant

    def _finish(self, turn, result):
        if turn.ended:
            return
        turn.ended = True
        self._clear_timer(turn)
        assistant = turn.assistant
        for part in assistant['parts']:
            if part['kind'] == 'tool' and (part['status'] == 'running' or part['status'] == 'waiting'):
                part['status'] = 'cancelled'
        error_kind = None
        if not is_none(turn.error):
            error_kind = describe_error(turn.error)['kind']
        if turn.cancel.cancelled or error_kind == 'cancelled':
            assistant['status'] = 'stopped'
            self._remember(turn, result)
        elif not is_none(turn.error):
            described = describe_error(turn.error)
            assistant['status'] = 'error'
            assistant['error'] = described['message']
            self.log.warn('Panel: the reply failed: ' + described['message'])
            self.post({'type': 'error', 'message': described['message'], 'retry': 'turn',
                       'settings': described['settings'], 'apiKey': described['apiKey']})
        else:
            assistant['status'] = 'done'
            self._remember(turn, result)
        if self.turn is turn:
            self.turn = None
        self.post({'type': 'turnEnded', 'status': assistant['status'], 'message': assistant})
        self.save()

    def _remember(self, turn, result):
        """The LLM history after a finished or stopped turn (a failed one leaves it unchanged)."""
        history = get_key(result, 'history')
        if json_type(history) == 'array':
            self.conversation.history = [_compact(message) for message in history]
        else:
            reply = ''.join([part['text'] for part in turn.assistant['parts'] if part['kind'] == 'text'])
            added = [{'role': 'user', 'content': turn.user_text}]
            if reply != '':
                added.append({'role': 'assistant', 'content': reply})
            updated = list(self.conversation.history)  # a copy: list + list is string concatenation in JS
            updated.extend(added)
            self.conversation.history = updated
        self.conversation.trim()

    def _clear_timer(self, turn):
        if not is_none(turn.timer):
            clear_timer(turn.timer)
            turn.timer = None
