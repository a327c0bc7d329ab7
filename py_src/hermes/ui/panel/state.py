"""What the side panel's parts share (ui/panel/controller.py makes one PanelState and hands it to each): the
conversation shown, the turn running in it (one at a time), and the host's `post` and `save` for them."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
from hermes.contracts.conversations import AssistantMessage
from hermes.contracts.node import TimerHandle
from hermes.contracts.panel import ToWebview
from hermes.core.cancellation import Cancellation
from hermes.host.log import Log
if TYPE_CHECKING:
    from hermes.ui.panel.view import PanelHost  # (the view imports the controller's types)
# __pragma__('noskip')
from hermes.js.timers import clear_timer
from hermes.core.chat.conversations import Conversation


class Turn:
    """One turn of the panel's conversation, the built-in loop's or an ACP agent's."""

    def __init__(self, number: int, user_text: str, assistant: 'AssistantMessage', cancel: 'Cancellation',
                 turn_id: 'Optional[str]' = None) -> None:
        self.number = number
        self.turn_id = turn_id  # the checkpoint id on the user message (core/changes/checkpoints.py)
        self.user_text = user_text
        self.assistant = assistant
        self.cancel = cancel
        self.error = None  # type: Optional[Exception]
        self.ended = False
        self.timer = None  # type: Optional[TimerHandle]  # after Stop: ends the turn if the loop does not
        self.acp = False  # an ACP agent's turn (Stop sends session/cancel and waits for its end)

    def clear_timer(self) -> None:
        if self.timer is not None:
            clear_timer(self.timer)
            self.timer = None


class PanelState:
    """`host`: ui/panel/view.py PanelHost (what needs VS Code); `conversation`: the one shown (new chat and show
    replace it); `turn`: the one running, None between turns; `turns`: how many this panel ran."""

    def __init__(self, host: 'PanelHost', log: 'Log', conversation: 'Conversation') -> None:
        self.host = host
        self.log = log
        self.conversation = conversation
        self.turn = None  # type: Optional[Turn]
        self.turns = 0

    def post(self, message: 'ToWebview') -> None:
        self.host.post(message)

    def save(self) -> None:
        self.host.save(self.conversation)

    @property
    def running(self) -> bool:
        return self.turn is not None

    def begin(self, turn: Turn) -> None:
        self.turn = turn

    def next_number(self) -> int:
        self.turns += 1
        return self.turns

    def end(self, turn: Turn) -> None:
        """`turn` is over (its own ending, Stop's timer, or New chat's): the panel takes the next one."""
        if self.turn is turn:
            self.turn = None
