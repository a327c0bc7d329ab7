"""The side panel's logic, free of vscode: the conversation, one turn at a time through the agent loop,
and what the webview is told. `ui/panel/view.py` wires it to a real WebviewView and VS Code.

What the webview is told (`post`) is declared in contracts/panel.py `ToWebview` (mypy checks every post here;
media/panel/main.js has one handler per kind, checked by tsc against the generated protocol.d.ts).
An ACP agent's turn is posted by ui/acp/panel.py (thoughts, tool cards, the plan, usage, notices, permission
cards); who answers a new conversation by `post_backends`.

The conversation (core/chat/conversations.py) goes to the host's `save(conversation)` when a turn starts,
waits for a confirmation and ends: the host keeps it in the conversation store shared with VS Code's
chat sessions, and `show(conversation)` switches the panel to another stored conversation.
"""
# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.events import EventSink
from typing import TYPE_CHECKING, Any, Callable, List, Optional, TypedDict, Union
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.contracts.mcp import CallToolResult
from hermes.contracts.panel import BackendChoice, ToWebview
from hermes.contracts.conversations import AssistantMessage, ToolPart, UserMessage
from hermes.contracts.json import Json, JsonObject
from hermes.host.log import Log
from hermes.contracts.node import TimerHandle
from hermes.ui.acp.session import AcpSessionRunner
if TYPE_CHECKING:
    from hermes.ui.panel.view import PanelHost, RunTurn  # (it imports this module's types)


class DescribedError(TypedDict):
    message: str
    kind: Optional[str]  # the LLM client's error kind (core/llm_errors.py), None for others
    settings: bool  # the banner offers the settings
    apiKey: bool  # … and the API key


class BackendState(TypedDict):
    choices: List[BackendChoice]
    current: str
    locked: bool
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.objects import is_none
from hermes.js.timers import clear_timer, set_timer
from hermes.core.values import json_type, get_key
from hermes.core.acp.prompt_content import panel_images
from hermes.ui.panel.protocol import parse_webview_message, ProtocolError
from hermes.core.cancellation import Cancellation
from hermes.core.tools import WAITING, CONFIRMED
from hermes.core.changes.checkpoints import new_turn_id, last_turn, change_author, turn_of
from hermes.core.chat.conversations import (Conversation, append_text, add_tool, find_tool, finish_tool, end_reply,
                                       remember_turn)
from hermes.core.acp.backends import BUILTIN, HERMES_NAME, choice_of_agent
from hermes.core.acp.sign_in import sign_in_title
from hermes.core.acp.conversation import no_answer_text
from hermes.ui.acp.panel import PanelAcpView, PanelQuestions
from hermes.ui.panel.origin import PANEL_ORIGIN
TURN_ACTIONS = ['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']  # PanelHost.turn_action runs them
FORCE_END_MS = 3000
"""After Stop, the loop has this long to wind down before the panel ends the turn by itself. (An ACP agent's turn
needs no such timer: the ACP client ends it at most 10 s after session/cancel, net/acp/agent.py.)"""


def describe_error(error: 'Any') -> 'DescribedError':
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
    def __init__(self, number: int, user_text: str, assistant: 'AssistantMessage', cancel: Cancellation,
                 turn_id: 'Optional[str]' = None) -> None:
        self.number = number
        self.turn_id = turn_id  # the checkpoint id on the user message (core/changes/checkpoints.py)
        self.user_text = user_text
        self.assistant = assistant
        self.cancel = cancel
        self.error = None  # type: Optional[Exception]
        self.ended = False
        self.timer = None  # type: Optional[TimerHandle]
        self.acp = False  # an ACP agent's turn (Stop sends session/cancel and waits for its end)


class PanelSink:
    """The agent loop's event sink for one turn (contracts/events.py EventSink): every event
    updates the stored reply and the webview. Events after the turn ended (a loop still winding down
    after Stop) are ignored."""

    def __init__(self, controller: 'PanelController', turn: Turn) -> None:
        self.controller = controller
        self.turn = turn

    def _live(self) -> bool:
        return not self.turn.ended

    def on_iteration(self, number: int) -> None:
        return None

    def change_author(self) -> 'Optional[ChangeAuthor]':
        """The change log names this conversation and turn for the files the turn's tools change."""
        return change_author(self.controller.conversation.id, self.turn.turn_id)

    def on_text(self, delta: str) -> None:
        if not self._live() or json_type(delta) != 'string' or delta == '':
            return
        append_text(self.turn.assistant, delta)
        self.controller.post({'type': 'textDelta', 'text': delta})

    def on_tool_call(self, call: 'ShownCall') -> None:
        """{'id', 'name', 'arguments'}: a tool is about to run."""
        if not self._live():
            return
        part = add_tool(self.turn.assistant, call)
        self.controller.conversation.note_changes(call)
        self.controller.post({'type': 'toolStarted', 'id': part['id'], 'name': part['name'],
                              'arguments': part['arguments']})

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_tool_confirmation(self, call: 'ShownCall', state: 'ConfirmationState') -> None:
        """The card waits while the gate asks the user, and runs again once the user allowed the call."""
        if state != WAITING and state != CONFIRMED:
            return
        part = self._tool(get_key(call, 'id'))
        if is_none(part) or not self._live():
            return
        waiting = state == WAITING
        part['status'] = 'waiting' if waiting else 'running'
        self.controller.post({'type': 'toolWaiting' if waiting else 'toolRunning', 'id': part['id']})
        self.controller.save()  # the sessions list shows who waits for the user

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        part = self._tool(get_key(call, 'id'))
        if is_none(part) or not self._live():
            return
        finish_tool(part, result)
        self.controller.post({'type': 'toolResult', 'id': part['id'], 'isError': part['status'] == 'error',
                              'result': part['result']})

    def on_notice(self, message: str) -> None:
        if json_type(message) == 'string':
            self.controller.log.info('Panel: ' + message)

    def on_error(self, error: Exception) -> None:
        if self._live():
            self.turn.error = error

    def on_done(self, outcome: 'Outcome') -> None:
        return None

    def _tool(self, call_id: 'Json') -> 'Optional[ToolPart]':
        return find_tool(self.turn.assistant, call_id)


# ------------------------------------------------------------------------------------ controller

class PanelController:
    """`run_turn(history, user_text, sink, cancel)` runs one agent turn (the shared loop) and returns
    None or {'history': [...]}, the LLM history after the turn; `cancel` comes from `make_cancel()`
    (core.cancellation.Cancellation for the real loop). `host` does what needs VS Code:
    post(message), save(conversation), list_models(), model(), endpoint(), select_model(name),
    insert_code(code), copy_code(code), open_settings(), set_api_key(), turn_changes(conversation_id) (pending
    changes by turn, core/changes/view.py `turn_changes`) and turn_action(kind, conversation_id, turn).
    `stored`: a Conversation, or its data."""

    def __init__(self, host: 'PanelHost', log: 'Log', run_turn: 'RunTurn', stored: 'Union[Conversation, Json]' = None,
                 make_cancel: 'Optional[Callable[[], Cancellation]]' = None,
                 acp: 'Optional[AcpSessionRunner]' = None) -> None:
        self.host = host
        self.log = log
        self.run_turn = run_turn
        self.make_cancel = Cancellation if is_none(make_cancel) else make_cancel  # type: Callable[[], Cancellation]
        self.conversation = stored if isinstance(stored, Conversation) else Conversation.restore(stored)  # type: Conversation
        self.turn = None  # type: Optional[Turn]
        self.turns = 0
        self.models = []  # type: List[str]
        self.models_error = None  # type: Optional[str]
        self.acp = acp  # ui/acp/session.py AcpSessionRunner (None: the built-in loop only, no choice shown)
        self.changes_posted = None  # type: Optional[str]  # the last `changes` message posted (JSON text), for post_changes(True)
        self.backend_choice = None  # type: Optional[str]  # the user's choice for new conversations (None: hermes.agent.backend's)
        self.questions = PanelQuestions(self.post, log)
        if not is_none(acp) and not is_none(getattr(acp, 'on_chosen', None)):
            # the agent's options, as pickers above the input: anew when the agent offers others or its values change
            acp.on_chosen(lambda conversation: self.post_options() if conversation is self.conversation else None)
            acp.on_offered(lambda: self.post_options())

    def post(self, message: 'ToWebview') -> None:
        self.host.post(message)

    def save(self) -> None:
        self.host.save(self.conversation)

    @property
    def running(self) -> bool:
        return not is_none(self.turn)

    async def handle(self, raw: 'Json') -> bool:
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
        elif kind == 'setOption':
            await self.set_option(message['option'], message['value'])
        elif kind == 'sendImages':
            await self.send(message['text'], message['images'])
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
        elif kind in TURN_ACTIONS:
            if self.conversation.id is None:  # (a filter with no session would match every session's changes)
                self.log.warn('Panel: ignored a turn action: this conversation is not stored, so it has no changes')
                return False
            await self.host.turn_action(kind, self.conversation.id, message['turn'])
        elif kind == 'selectBackend':
            self.select_backend(message['backend'])
        elif kind == 'permissionAnswer':
            self.questions.answer(message['id'], message['option'])
        elif kind == 'elicitationAnswer':
            self.questions.answer_form(message['id'], message['action'], message['values'])
        elif kind == 'openPermissionDiff':
            await self.host.show_diffs(self.questions.diffs_of(message['id']), self.conversation.model or 'Agent')
        elif kind == 'setupAgent':
            agent = get_key(self.conversation.acp, 'agent')
            if await self.host.setup_agent(agent if json_type(agent) == 'string' else HERMES_NAME):
                await self.retry()  # signed in: the turn that needed it runs again (when the last reply failed)
        return True

    # ------------------------------------------------------------------ who answers

    def backend_state(self) -> 'BackendState':
        """{'choices', 'current', 'locked'}: a conversation keeps who answered it (an ACP agent, or the built-in
        loop once it has messages); a new one takes the user's choice, else hermes.agent.backend's. Only with an ACP
        runner (its callers ask first)."""
        assert self.acp is not None  # (Transcrypt drops asserts: for the type checker and the CPython tests)
        offered = self.acp.choices()
        acp = self.conversation.acp
        if not is_none(acp):
            return {'choices': offered['choices'], 'current': choice_of_agent(acp['agent']), 'locked': True}
        if len(self.conversation.messages) > 0:
            return {'choices': offered['choices'], 'current': BUILTIN, 'locked': True}
        current = offered['default'] if is_none(self.backend_choice) else self.backend_choice
        return {'choices': offered['choices'], 'current': current, 'locked': False}

    def post_backends(self) -> None:
        if is_none(self.acp):
            return
        state = self.backend_state()
        self.post({'type': 'backends', 'choices': state['choices'], 'current': state['current'],
                   'locked': state['locked'], 'usage': getattr(self.conversation, 'acp_usage', None)})
        commands = self.acp.commands(self.conversation, state['current'])  # type: Any  # (records the agent sent, read)
        self.post({'type': 'commands', 'commands': commands})
        self.post_options()

    def post_options(self) -> None:
        """The conversation's agent options (mode, model, config options) as the panel's pickers."""
        if is_none(self.acp) or is_none(getattr(self.acp, 'panel_options', None)):
            return
        options = self.acp.panel_options(self.conversation)  # type: Any  # (core/acp/options.py's picker records)
        self.post({'type': 'options', 'options': options})

    async def set_option(self, option: str, value: str) -> bool:
        """A picker's choice: one the agent offers (else refused, logged), kept with the conversation and set on its
        session (session/set_config_option, or the deprecated set_mode/set_model) as a chat session's input area does.
        Refused too on the built-in loop alone: the webview is untrusted, and 'setOption' passes the validator."""
        if self.acp is None:  # (a typed attribute: None, never undefined)
            self.log.warn('Panel: ignored an option choice: no ACP agent answers here ("' + option[:80] + '")')
            return False
        offered = [picker for picker in self.acp.panel_options(self.conversation) if picker['id'] == option]
        if len(offered) == 0 or not (value in [item['id'] for item in offered[0]['items']]):
            self.log.warn('Panel: ignored a choice the agent does not offer ("' + option[:80] + '")')
            self.post_options()
            return False
        try:
            await self.acp.options_changed(self.conversation, [{'optionId': option, 'value': value}])
        except JsError as error:
            self.log.warn('Panel: setting the ' + option + ' failed: ' + error_message(error))
        self.save()
        self.post_options()
        return True

    def select_backend(self, choice: str) -> bool:
        """The user picked who answers the next new conversation; refused (logged) for a choice not offered, or
        while the conversation is locked to its own."""
        if is_none(self.acp):
            return False
        state = self.backend_state()
        if state['locked']:
            self.log.warn('Panel: this conversation keeps its agent; New chat to choose another')
            self.post_backends()
            return False
        if not (choice in [offered['id'] for offered in state['choices']]):
            self.log.warn('Panel: ignored an agent choice that is not offered ("' + choice[:80] + '")')
            self.post_backends()
            return False
        self.backend_choice = choice
        self.post_backends()
        return True

    def post_state(self) -> None:
        turn = self.turn
        running = turn is not None  # (self.running, with `turn` known not None below)
        messages = self.conversation.messages
        if turn is not None:
            messages = [message for message in messages if message is not turn.assistant]
        self.post({'type': 'state', 'messages': messages, 'running': running,
                   'current': None if turn is None else turn.assistant,
                   'model': self.host.model(), 'endpoint': self.host.endpoint()})
        self.post_backends()
        for question in self.questions.posts():  # a card still waiting when the webview was rebuilt
            self.post(question)
        self.post_changes()

    def post_changes(self, only_news: bool = False) -> None:
        """The conversation's pending changes by turn (the change log's, through the host; None: no change log,
        nothing to post). `only_news`: not when the webview has them already (the change log's listener: most
        changes are another conversation's or another client's)."""
        turns = self.host.turn_changes(self.conversation.id)
        if is_none(turns):
            return
        text = dump_json(turns)  # (a conversation shown anew is posted whole by post_state)
        if only_news and text == self.changes_posted:
            return
        self.changes_posted = text
        self.post({'type': 'changes', 'turns': turns})

    def post_models(self) -> None:
        self.post({'type': 'models', 'models': self.models, 'current': self.host.model(),
                   'endpoint': self.host.endpoint(), 'error': self.models_error})

    async def refresh_models(self) -> 'List[str]':
        try:
            models = await self.host.list_models()
            self.models = [name for name in models if json_type(name) == 'string']
            self.models_error = None
        except JsError as error:
            self.models = []
            self.models_error = error_message(error)
            self.log.warn('Panel: could not list models: ' + self.models_error)
            described = describe_error(error)
            if is_none(self.acp) or self.backend_state()['current'] == BUILTIN:  # (an agent brings its own model)
                self.post({'type': 'error', 'message': self.models_error, 'retry': 'models', 'settings': True,
                           'apiKey': described['apiKey'], 'setup': None})
        self.post_models()
        return self.models

    async def send(self, text: str, images: 'Optional[str]' = None) -> 'Optional[AssistantMessage]':
        """`images`: the JSON text of the images the user attached (core/acp/prompt_content.py panel_images), or None."""
        if self.running:
            self.log.warn('Panel: ignored a message sent while a reply is still running')
            return None
        status = self.conversation.status()
        if status == 'in_progress' or status == 'needs_input':  # a chat session is answering in it
            self.post({'type': 'error', 'message': 'This conversation is still answering in a Hermes chat session. '
                       'Wait for that reply, or stop it there, then send again.', 'retry': False,
                       'settings': False, 'apiKey': False, 'setup': None})
            return None
        backend = self._backend()
        if backend['kind'] == 'missing':
            self.post({'type': 'error', 'message': backend['notice'], 'retry': False, 'settings': False,
                       'apiKey': False, 'setup': None})
            return None
        if backend['kind'] == 'acp':
            return await self._run_acp(backend['spec'], text, None, images)
        if not is_none(images):
            self.post({'type': 'error', 'message': 'Images go only to an ACP agent that reads them (choose one in '
                       'Agent, in a new chat): the message was sent without them.', 'retry': False,
                       'settings': False, 'apiKey': False, 'setup': None})
        turn_id = new_turn_id(last_turn(self.conversation.messages))
        user = {'role': 'user', 'text': text, 'turn': turn_id}  # type: UserMessage
        self.conversation.add(user)
        self.post({'type': 'userMessage', 'message': user})
        notice = None if is_none(self.acp) else self.acp.notice_once(self.conversation, backend['notice'])
        return await self._run(text, user['turn'], notice)

    def _backend(self) -> 'JsonObject':
        """Who answers the next turn (core/acp/backends.py: {'kind': 'builtin' | 'acp' | 'missing', ...})."""
        if is_none(self.acp):
            return {'kind': 'builtin', 'notice': None}
        wanted = None
        if is_none(self.conversation.acp) and len(self.conversation.messages) == 0:
            wanted = self.backend_state()['current']
        return self.acp.backend_for(self.conversation, wanted)

    async def retry(self) -> 'Optional[AssistantMessage]':
        """Run the last user message again after a failed reply (the failed reply is dropped)."""
        messages = self.conversation.messages
        count = len(messages)
        if self.running or count < 2:
            return None
        last, before = messages[count - 1], messages[count - 2]
        if last['role'] != 'assistant' or before['role'] != 'user':
            return None
        if last['status'] != 'error':  # (a test of its own: the type checker knows `last` is a reply only here)
            return None
        self.conversation.messages = messages[:count - 1]
        self.post_state()
        backend = self._backend()
        if backend['kind'] == 'acp':
            return await self._run_acp(backend['spec'], before['text'], before)
        return await self._run(before['text'], turn_of(before))

    def stop(self) -> None:
        turn = self.turn
        if is_none(turn):
            return
        turn.cancel.cancel('Stopped by the user')  # an ACP turn: session/cancel (host/acp/service.py)
        if turn.acp:
            return

        def force_end() -> None:
            if not turn.ended:
                self.log.warn('Panel: the agent loop did not stop within ' + str(FORCE_END_MS) + ' ms; '
                              'ending the turn')
                self._finish(turn, None)
        turn.timer = set_timer(force_end, FORCE_END_MS)

    def new_chat(self) -> None:
        turn = self.turn
        if turn is not None:  # running
            turn.cancel.cancel('New chat')
            turn.ended = True
            self._clear_timer(turn)
            self.turn = None
            self.questions.drop_all()
        self.conversation = Conversation()
        self.save()
        self.post_state()

    def show(self, conversation: Conversation) -> bool:
        """Continue another stored conversation here. Refused (False) while a reply runs."""
        if self.running:
            return False
        self.conversation = conversation
        self.save()
        self.post_state()
        return True

    async def _run(self, text: str, turn_id: 'Optional[str]' = None,
                   notice: 'Optional[str]' = None) -> 'AssistantMessage':
        self.turns += 1
        assistant = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}  # type: AssistantMessage
        turn = Turn(self.turns, text, assistant, self.make_cancel(), turn_id)
        self.turn = turn
        self.conversation.add(assistant)
        self.conversation.model = self.host.model()
        self.conversation.last_started = now_ms()
        self.conversation.last_ended = None
        self.post({'type': 'turnStarted'})
        if not is_none(notice):  # once per conversation: how to get Hermes Agent, or why none starts here
            self.post({'type': 'notice', 'text': notice})
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

    async def _run_acp(self, spec: 'JsonObject', text: str, user: 'Optional[UserMessage]' = None,
                       images: 'Optional[str]' = None) -> 'AssistantMessage':
        """One turn of the conversation's ACP agent (core/acp/conversation.py, as a chat session runs it), shown
        through PanelAcpView; `user`: the prompt again (Retry). Only with an ACP runner (`_backend` says 'acp')."""
        assert self.acp is not None  # (Transcrypt drops asserts: for the type checker and the CPython tests)
        turns = self.acp.turns
        again = user  # type: Any  # (a stored UserMessage; begin takes the message as stored JSON)
        begun = turns.begin(self.conversation, text, spec['name'], PANEL_ORIGIN, again)
        self.turns += 1
        turn = Turn(self.turns, text, begun['reply'], self.make_cancel(), begun['user']['turn'])
        turn.acp = True
        self.turn = turn
        if is_none(user):
            self.post({'type': 'userMessage', 'message': begun['user']})
        self.post({'type': 'turnStarted'})
        self.save()
        self.post_backends()  # locked to this agent from now on
        conversation = self.conversation
        blocks = [{'type': 'text', 'text': text}]
        if not is_none(images):  # (the agent gets those it reads: host/acp/service.py fits them)
            attached = panel_images(images)
            for block in attached['images']:
                blocks.append(block)
            for problem in attached['problems']:
                self.post({'type': 'notice', 'text': problem})
        try:
            ended = await turns.run(spec, conversation, begun, blocks,
                                    PanelAcpView(self, turn, self.questions), turn.cancel, self.questions.ask,
                                    PANEL_ORIGIN, self.questions.elicit)
        except JsError as error:
            ended = {'failure': {'message': spec['name'] + ' failed: ' + error_message(error), 'setup': False}}
            end_reply(begun['reply'], 'error', ended['failure']['message'])
        self.questions.drop_all()
        if turn.ended:  # New chat ended it here: the conversation was stored as it ended
            return begun['reply']
        turn.ended = True
        if self.turn is turn:
            self.turn = None
        failure = ended['failure']
        if not is_none(failure):
            self.post({'type': 'error', 'message': failure['message'], 'retry': 'turn', 'settings': False,
                       'apiKey': False, 'setup': sign_in_title(spec['name']) if failure['setup'] else None})
        elif ended['empty']:
            self.post({'type': 'notice', 'text': no_answer_text(spec['name'])})
        self.post({'type': 'turnEnded', 'status': begun['reply']['status'], 'message': begun['reply']})
        self.post_backends()
        self.save()
        return begun['reply']

    def _finish(self, turn: Turn, result: 'Optional[JsonObject]') -> None:
        if turn.ended:
            return
        turn.ended = True
        self._clear_timer(turn)
        assistant = turn.assistant
        error_kind = None
        if not is_none(turn.error):
            error_kind = describe_error(turn.error)['kind']
        if turn.cancel.cancelled or error_kind == 'cancelled':
            end_reply(assistant, 'stopped')
            remember_turn(self.conversation, turn.user_text, assistant, get_key(result, 'history'))
        elif not is_none(turn.error):
            described = describe_error(turn.error)
            end_reply(assistant, 'error', described['message'])
            self.log.warn('Panel: the reply failed: ' + described['message'])
            self.post({'type': 'error', 'message': described['message'], 'retry': 'turn',
                       'settings': described['settings'], 'apiKey': described['apiKey'], 'setup': None})
        else:
            end_reply(assistant, 'done')
            remember_turn(self.conversation, turn.user_text, assistant, get_key(result, 'history'))
        self.conversation.last_ended = now_ms()
        if self.turn is turn:
            self.turn = None
        self.post({'type': 'turnEnded', 'status': assistant['status'], 'message': assistant})
        self.save()

    def _clear_timer(self, turn: Turn) -> None:
        if not is_none(turn.timer):
            clear_timer(turn.timer)
            turn.timer = None


# __pragma__('skip')
def _is_an_event_sink(sink: PanelSink) -> EventSink:  # the type checker holds PanelSink to contracts/events.py
    return sink
# __pragma__('noskip')
