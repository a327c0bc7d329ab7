"""The side panel's logic, free of vscode: it makes the panel's parts and hands each webview message to the one that
acts on it. `ui/panel/view.py` wires it to a real WebviewView and VS Code (`PanelHost`); this module is a part loaded
on first use (hermes/lazy_parts.py), with the modules only it imports:

- ui/panel/state.py: the conversation shown and the turn running (PanelState, Turn), shared by the parts below;
- ui/panel/turns.py: Send, Retry, Stop, New chat, Show (PanelTurns), through ui/panel/builtin_turn.py (the built-in
  agent loop, its event sink) or ui/panel/agent_turn.py (the conversation's ACP agent);
- ui/panel/backends.py: who answers (the built-in loop or an ACP agent) and the agent's options as pickers;
- ui/panel/models.py: the model picker; ui/panel/page.py: what a rebuilt webview is shown whole;
- ui/acp/panel.py: an ACP turn's posts (PanelAcpView) and the questions waiting for the user (PanelQuestions).

What the webview is told (`post`) is declared in contracts/panel.py `ToWebview` (mypy checks every post;
media/panel/main.js has one handler per kind, checked by tsc against the generated protocol.d.ts). What it sends is
validated by ui/panel/protocol.py before `handle` acts on it.

The conversation (core/chat/conversations.py) goes to the host's `save(conversation)` when a turn starts,
waits for a confirmation and ends: the host keeps it in the conversation store shared with VS Code's
chat sessions, and `show(conversation)` switches the panel to another stored conversation.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, List, Optional, Union
from hermes.contracts.json import Json
from hermes.contracts.panel import ToWebview
from hermes.host.log import Log
from hermes.ui.panel.backends import PanelAgents
if TYPE_CHECKING:
    from hermes.ui.panel.view import PanelHost, RunTurn  # (it imports this module's types)
# __pragma__('noskip')
from hermes.js.errors import error_message
from hermes.core.values import json_type, get_key
from hermes.core.cancellation import Cancellation
from hermes.core.chat.conversations import Conversation
from hermes.core.acp.backends import HERMES_NAME
from hermes.ui.acp.panel import PanelQuestions
from hermes.ui.panel.agent_turn import AgentTurns
from hermes.ui.panel.backends import PanelBackends
from hermes.ui.panel.builtin_turn import BuiltinTurns
from hermes.ui.panel.models import PanelModels
from hermes.ui.panel.page import PanelPage
from hermes.ui.panel.protocol import parse_webview_message, ProtocolError
from hermes.ui.panel.state import PanelState
from hermes.ui.panel.turns import PanelTurns
TURN_ACTIONS = ['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']  # PanelHost.turn_action runs them


class PanelController:
    """`host` does what needs VS Code (ui/panel/view.py PanelHost: post, save, the models and settings, code
    insertion, the turns' changes and their buttons, the agents' diffs and sign-in). `run_turn(history, user_text,
    sink, cancel)` runs one turn of the built-in loop (ui/panel/builtin_turn.py); `make_cancel()` makes its `cancel`.
    `stored`: a Conversation, or its data. `acp`: the ACP agents' runner (None: the built-in loop only)."""

    def __init__(self, host: 'PanelHost', log: 'Log', run_turn: 'RunTurn', stored: 'Union[Conversation, Json]' = None,
                 make_cancel: 'Optional[Callable[[], Cancellation]]' = None,
                 acp: 'Optional[PanelAgents]' = None) -> None:
        cancel = Cancellation if make_cancel is None else make_cancel  # type: Callable[[], Cancellation]
        conversation = stored if isinstance(stored, Conversation) else Conversation.restore(stored)  # type: Conversation
        self.host = host
        self.log = log
        self.state = PanelState(host, log, conversation)
        self.questions = PanelQuestions(self.state.post, log)
        self.backends = PanelBackends(self.state, acp)
        self.models = PanelModels(self.state, self.backends)
        self.page = PanelPage(self.state, self.backends, self.questions)
        agent_turns = None if acp is None else AgentTurns(self.state, acp, self.backends, self.questions, cancel)
        self.turns = PanelTurns(self.state, self.backends, self.page, self.questions,
                                BuiltinTurns(self.state, run_turn, cancel), agent_turns)

    # What ui/panel/view.py asks of the panel (LatePanel, the store's and the settings' listeners)
    @property
    def conversation(self) -> 'Conversation':
        return self.state.conversation

    @property
    def running(self) -> bool:
        return self.state.running

    def post(self, message: 'ToWebview') -> None:
        self.state.post(message)

    def post_state(self) -> None:
        self.page.post_state()

    def post_changes(self, only_news: bool = False) -> None:
        self.page.post_changes(only_news)

    def post_backends(self) -> None:
        self.backends.post_backends()

    async def refresh_models(self) -> 'List[str]':
        return await self.models.refresh()

    def new_chat(self) -> None:
        self.turns.new_chat()

    def show(self, conversation: Conversation) -> bool:
        return self.turns.show(conversation)

    async def handle(self, raw: 'Json') -> bool:
        """One message from the webview. Returns False when it was rejected (and logs why)."""
        try:
            message = parse_webview_message(raw)
        except ProtocolError as error:
            self.log.warn('Panel: ignored a message from the webview: ' + error_message(error))
            return False
        kind = message['type']
        host = self.host
        if kind == 'ready':
            self.page.post_state()
            await self.models.refresh()
        elif kind == 'send':
            await self.turns.send(message['text'])
        elif kind == 'setOption':
            await self.backends.set_option(message['option'], message['value'])
        elif kind == 'sendImages':
            await self.turns.send(message['text'], message['images'])
        elif kind == 'stop':
            self.turns.stop()
        elif kind == 'retry':
            await self.turns.retry()
        elif kind == 'newChat':
            self.turns.new_chat()
        elif kind == 'insertCode':
            await host.insert_code(message['code'])
        elif kind == 'copyCode':
            await host.copy_code(message['code'])
        elif kind == 'selectModel':
            await host.select_model(message['model'])
            self.models.post()
        elif kind == 'refreshModels':
            await self.models.refresh()
        elif kind == 'openSettings':
            await host.open_settings()
        elif kind == 'setApiKey':
            await host.set_api_key()
        elif kind in TURN_ACTIONS:
            conversation_id = self.state.conversation.id
            if conversation_id is None:  # (a filter with no session would match every session's changes)
                self.log.warn('Panel: ignored a turn action: this conversation is not stored, so it has no changes')
                return False
            await host.turn_action(kind, conversation_id, message['turn'])
        elif kind == 'selectBackend':
            self.backends.select_backend(message['backend'])
        elif kind == 'permissionAnswer':
            self.questions.answer(message['id'], message['option'])
        elif kind == 'elicitationAnswer':
            self.questions.answer_form(message['id'], message['action'], message['values'])
        elif kind == 'openPermissionDiff':
            await host.show_diffs(self.questions.diffs_of(message['id']), self.state.conversation.model or 'Agent')
        elif kind == 'setupAgent':
            agent = get_key(self.state.conversation.acp, 'agent')
            if await host.setup_agent(agent if json_type(agent) == 'string' else HERMES_NAME):
                await self.turns.retry()  # signed in: the turn that needed it runs again (when the last reply failed)
        return True
