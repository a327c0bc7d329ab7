"""A turn of the side panel's conversation through the built-in agent loop: `run_turn` (ui/panel/view.py `RunTurn`)
runs it, `PanelSink` hears its events, Stop cancels it and ends it after FORCE_END_MS if the loop does not."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Callable, Optional
from hermes.contracts.conversations import AssistantMessage, ToolPart
from hermes.contracts.events import EventSink
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.contracts.mcp import CallToolResult
from hermes.core.cancellation import Cancellation
from hermes.ui.panel.view import RunTurn
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError
from hermes.js.timers import set_timer
from hermes.core.values import json_type, get_key
from hermes.core.tools import WAITING, CONFIRMED
from hermes.core.changes.checkpoints import change_author
from hermes.core.chat.conversations import add_tool, append_text, end_reply, find_tool, finish_tool, remember_turn
from hermes.ui.panel.errors import describe_error
from hermes.ui.panel.state import PanelState, Turn
FORCE_END_MS = 3000
"""After Stop, the loop has this long to wind down before the panel ends the turn by itself. (An ACP agent's turn
needs no such timer: the ACP client ends it at most 10 s after session/cancel, net/acp/agent.py.)"""


class PanelSink:
    """The agent loop's event sink for one turn (contracts/events.py EventSink): every event
    updates the stored reply and the webview. Events after the turn ended (a loop still winding down
    after Stop) are ignored."""

    def __init__(self, state: PanelState, turn: Turn) -> None:
        self.state = state
        self.turn = turn

    def _live(self) -> bool:
        return not self.turn.ended

    def on_iteration(self, number: int) -> None:
        return None

    def change_author(self) -> 'Optional[ChangeAuthor]':
        """The change log names this conversation and turn for the files the turn's tools change."""
        return change_author(self.state.conversation.id, self.turn.turn_id)

    def on_text(self, delta: str) -> None:
        if not self._live() or json_type(delta) != 'string' or delta == '':
            return
        append_text(self.turn.assistant, delta)
        self.state.post({'type': 'textDelta', 'text': delta})

    def on_tool_call(self, call: 'ShownCall') -> None:
        """{'id', 'name', 'arguments'}: a tool is about to run."""
        if not self._live():
            return
        part = add_tool(self.turn.assistant, call)
        self.state.conversation.note_changes(call)
        self.state.post({'type': 'toolStarted', 'id': part['id'], 'name': part['name'],
                         'arguments': part['arguments']})

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_tool_confirmation(self, call: 'ShownCall', state: 'ConfirmationState') -> None:
        """The card waits while the gate asks the user, and runs again once the user allowed the call."""
        if state != WAITING and state != CONFIRMED:
            return
        part = self._tool(get_key(call, 'id'))
        if part is None or not self._live():
            return
        waiting = state == WAITING
        part['status'] = 'waiting' if waiting else 'running'
        self.state.post({'type': 'toolWaiting' if waiting else 'toolRunning', 'id': part['id']})
        self.state.save()  # the sessions list shows who waits for the user

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        part = self._tool(get_key(call, 'id'))
        if part is None or not self._live():
            return
        finish_tool(part, result)
        self.state.post({'type': 'toolResult', 'id': part['id'], 'isError': part['status'] == 'error',
                         'result': part['result']})

    def on_notice(self, message: str) -> None:
        if json_type(message) == 'string':
            self.state.log.info('Panel: ' + message)

    def on_error(self, error: Exception) -> None:
        if self._live():
            self.turn.error = error

    def on_done(self, outcome: 'Outcome') -> None:
        return None

    def _tool(self, call_id: 'Json') -> 'Optional[ToolPart]':
        return find_tool(self.turn.assistant, call_id)


class BuiltinTurns:
    """`run_turn(history, user_text, sink, cancel)` runs one turn of the shared loop and returns None or
    {'history': [...]}, the LLM history after it; `make_cancel()` makes its `cancel` (core.cancellation.Cancellation
    for the real loop)."""

    def __init__(self, state: PanelState, run_turn: 'RunTurn', make_cancel: 'Callable[[], Cancellation]') -> None:
        self.state = state
        self.run_turn = run_turn
        self.make_cancel = make_cancel

    async def run(self, text: str, turn_id: 'Optional[str]' = None,
                  notice: 'Optional[str]' = None) -> 'AssistantMessage':
        state = self.state
        conversation = state.conversation
        assistant = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}  # type: AssistantMessage
        turn = Turn(state.next_number(), text, assistant, self.make_cancel(), turn_id)
        state.begin(turn)
        conversation.add(assistant)
        conversation.model = state.host.model()
        conversation.last_started = now_ms()
        conversation.last_ended = None
        state.post({'type': 'turnStarted'})
        if notice is not None:  # once per conversation: how to get Hermes Agent, or why none starts here
            state.post({'type': 'notice', 'text': notice})
        state.save()
        history = conversation.history[:]
        result = None
        try:
            result = await self.run_turn(history, text, PanelSink(state, turn), turn.cancel)
        except JsError as error:
            if not turn.cancel.cancelled:
                turn.error = error
        self.finish(turn, result)
        return assistant

    def stop(self, turn: Turn) -> None:
        """After Stop (`turn` cancelled): the loop has FORCE_END_MS to end the turn, else the panel ends it."""
        def force_end() -> None:
            if not turn.ended:
                self.state.log.warn('Panel: the agent loop did not stop within ' + str(FORCE_END_MS) + ' ms; '
                                    'ending the turn')
                self.finish(turn, None)
        turn.timer = set_timer(force_end, FORCE_END_MS)

    def finish(self, turn: Turn, result: 'Optional[JsonObject]') -> None:
        if turn.ended:
            return
        turn.ended = True
        turn.clear_timer()
        state = self.state
        assistant = turn.assistant
        error_kind = None
        if turn.error is not None:
            error_kind = describe_error(turn.error)['kind']
        if turn.cancel.cancelled or error_kind == 'cancelled':
            end_reply(assistant, 'stopped')
            remember_turn(state.conversation, turn.user_text, assistant, get_key(result, 'history'))
        elif turn.error is not None:
            described = describe_error(turn.error)
            end_reply(assistant, 'error', described['message'])
            state.log.warn('Panel: the reply failed: ' + described['message'])
            state.post({'type': 'error', 'message': described['message'], 'retry': 'turn',
                        'settings': described['settings'], 'apiKey': described['apiKey'], 'setup': None})
        else:
            end_reply(assistant, 'done')
            remember_turn(state.conversation, turn.user_text, assistant, get_key(result, 'history'))
        state.conversation.last_ended = now_ms()
        state.end(turn)
        self.state.post({'type': 'turnEnded', 'status': assistant['status'], 'message': assistant})
        state.save()


# __pragma__('skip')
def _is_an_event_sink(sink: PanelSink) -> EventSink:  # the type checker holds PanelSink to contracts/events.py
    return sink
# __pragma__('noskip')
