"""One turn at a time in the side panel: Send and Retry hand it to who answers the conversation (the built-in loop,
ui/panel/builtin_turn.py, or its ACP agent, ui/panel/agent_turn.py), Stop cancels it; New chat and Show replace the
conversation (Show only between turns)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Optional
from hermes.contracts.conversations import AssistantMessage, UserMessage
# __pragma__('noskip')
from hermes.core.changes.checkpoints import new_turn_id, last_turn, turn_of
from hermes.core.chat.conversations import Conversation
from hermes.ui.acp.panel import PanelQuestions
from hermes.ui.panel.agent_turn import AgentTurns
from hermes.ui.panel.backends import PanelBackends
from hermes.ui.panel.builtin_turn import BuiltinTurns
from hermes.ui.panel.page import PanelPage
from hermes.ui.panel.state import PanelState


class PanelTurns:
    """`agent_turns`: None without the ACP agents' runner (then `backends` always answers 'builtin')."""

    def __init__(self, state: PanelState, backends: PanelBackends, page: PanelPage, questions: PanelQuestions,
                 builtin: BuiltinTurns, agent_turns: 'Optional[AgentTurns]') -> None:
        self.state = state
        self.backends = backends
        self.page = page
        self.questions = questions
        self.builtin = builtin
        self.agent_turns = agent_turns

    async def send(self, text: str, images: 'Optional[str]' = None) -> 'Optional[AssistantMessage]':
        """`images`: the JSON text of the images the user attached (core/acp/prompt_content.py panel_images), or None."""
        state = self.state
        if state.running:
            state.log.warn('Panel: ignored a message sent while a reply is still running')
            return None
        status = state.conversation.status()
        if status == 'in_progress' or status == 'needs_input':  # a chat session is answering in it
            state.post({'type': 'error', 'message': 'This conversation is still answering in a Hermes chat session. '
                        'Wait for that reply, or stop it there, then send again.', 'retry': False,
                        'settings': False, 'apiKey': False, 'setup': None})
            return None
        backend = self.backends.next_turn()
        if backend['kind'] == 'missing':
            state.post({'type': 'error', 'message': backend['notice'], 'retry': False, 'settings': False,
                        'apiKey': False, 'setup': None})
            return None
        if backend['kind'] == 'acp':
            assert self.agent_turns is not None  # ('acp' only with a runner; Transcrypt drops asserts)
            return await self.agent_turns.run(backend['spec'], text, None, images)
        if images is not None:
            state.post({'type': 'error', 'message': 'Images go only to an ACP agent that reads them (choose one in '
                        'Agent, in a new chat): the message was sent without them.', 'retry': False,
                        'settings': False, 'apiKey': False, 'setup': None})
        turn_id = new_turn_id(last_turn(state.conversation.messages))
        user = {'role': 'user', 'text': text, 'turn': turn_id}  # type: UserMessage
        state.conversation.add(user)
        state.post({'type': 'userMessage', 'message': user})
        acp = self.backends.acp
        notice = None if acp is None else acp.notice_once(state.conversation, backend['notice'])
        return await self.builtin.run(text, user['turn'], notice)

    async def retry(self) -> 'Optional[AssistantMessage]':
        """Run the last user message again after a failed reply (the failed reply is dropped)."""
        state = self.state
        messages = state.conversation.messages
        count = len(messages)
        if state.running or count < 2:
            return None
        last, before = messages[count - 1], messages[count - 2]
        if last['role'] != 'assistant' or before['role'] != 'user':
            return None
        if last['status'] != 'error':  # (a test of its own: the type checker knows `last` is a reply only here)
            return None
        state.conversation.messages = messages[:count - 1]
        self.page.post_state()
        backend = self.backends.next_turn()
        if backend['kind'] == 'acp':
            assert self.agent_turns is not None  # ('acp' only with a runner; Transcrypt drops asserts)
            return await self.agent_turns.run(backend['spec'], before['text'], before)
        return await self.builtin.run(before['text'], turn_of(before))

    def stop(self) -> None:
        turn = self.state.turn
        if turn is None:
            return
        turn.cancel.cancel('Stopped by the user')  # an ACP turn: session/cancel (host/acp/turn_runner.py)
        if turn.acp:
            return
        self.builtin.stop(turn)

    def new_chat(self) -> None:
        state = self.state
        turn = state.turn
        if turn is not None:  # running
            turn.cancel.cancel('New chat')
            turn.ended = True
            turn.clear_timer()
            state.turn = None
            self.questions.drop_all()
        state.conversation = Conversation()
        state.save()
        self.page.post_state()

    def show(self, conversation: Conversation) -> bool:
        """Continue another stored conversation here. Refused (False) while a reply runs."""
        state = self.state
        if state.running:
            return False
        state.conversation = conversation
        state.save()
        self.page.post_state()
        return True
