"""A turn of the side panel's conversation answered by its ACP agent: core/acp/conversation.py runs it as a chat
session's, ui/acp/panel.py PanelAcpView posts it and PanelQuestions asks the user what the agent asks."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Optional
from hermes.contracts.conversations import AssistantMessage, UserMessage
from hermes.contracts.json import JsonObject
from hermes.core.cancellation import Cancellation
from hermes.ui.panel.backends import PanelAgents
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.core.acp.prompt_content import panel_images
from hermes.core.acp.sign_in import sign_in_title
from hermes.core.acp.conversation import no_answer_text
from hermes.core.chat.conversations import end_reply
from hermes.ui.acp.panel import PanelAcpView, PanelQuestions
from hermes.ui.panel.backends import PanelBackends
from hermes.ui.panel.origin import PANEL_ORIGIN
from hermes.ui.panel.state import PanelState, Turn


class AgentTurns:
    def __init__(self, state: PanelState, acp: 'PanelAgents', backends: PanelBackends, questions: PanelQuestions,
                 make_cancel: 'Callable[[], Cancellation]') -> None:
        self.state = state
        self.acp = acp
        self.backends = backends
        self.questions = questions
        self.make_cancel = make_cancel

    async def run(self, spec: 'JsonObject', text: str, user: 'Optional[UserMessage]' = None,
                  images: 'Optional[str]' = None) -> 'AssistantMessage':
        """One turn of the conversation's ACP agent (core/acp/conversation.py, as a chat session runs it), shown
        through PanelAcpView; `user`: the prompt again (Retry); `images`: the JSON text of the images the user
        attached (core/acp/prompt_content.py panel_images), or None."""
        state = self.state
        turns = self.acp.turns
        conversation = state.conversation
        again = user  # type: Any  # (a stored UserMessage; begin takes the message as stored JSON)
        begun = turns.begin(conversation, text, spec['name'], PANEL_ORIGIN, again)
        turn = Turn(state.next_number(), text, begun['reply'], self.make_cancel(), begun['user']['turn'])
        turn.acp = True
        state.begin(turn)
        if user is None:
            state.post({'type': 'userMessage', 'message': begun['user']})
        state.post({'type': 'turnStarted'})
        state.save()
        self.backends.post_backends()  # locked to this agent from now on
        blocks = [{'type': 'text', 'text': text}]
        if images is not None:  # (the agent gets those it reads: host/acp/turn_runner.py fits them)
            attached = panel_images(images)
            for block in attached['images']:
                blocks.append(block)
            for problem in attached['problems']:
                state.post({'type': 'notice', 'text': problem})
        try:
            ended = await turns.run(spec, conversation, begun, blocks,
                                    PanelAcpView(state, turn, self.questions), turn.cancel, self.questions.ask,
                                    PANEL_ORIGIN, self.questions.elicit)
        except JsError as error:
            ended = {'failure': {'message': spec['name'] + ' failed: ' + error_message(error), 'setup': False}}
            end_reply(begun['reply'], 'error', ended['failure']['message'])
        self.questions.drop_all()
        if turn.ended:  # New chat ended it here: the conversation was stored as it ended
            return begun['reply']
        turn.ended = True
        state.end(turn)
        failure = ended['failure']
        if failure is not None:
            state.post({'type': 'error', 'message': failure['message'], 'retry': 'turn', 'settings': False,
                        'apiKey': False, 'setup': sign_in_title(spec['name']) if failure['setup'] else None})
        elif ended['empty']:
            state.post({'type': 'notice', 'text': no_answer_text(spec['name'])})
        state.post({'type': 'turnEnded', 'status': begun['reply']['status'], 'message': begun['reply']})
        self.backends.post_backends()
        state.save()
        return begun['reply']
