"""Who answers the side panel's conversation (the built-in loop or an ACP agent, `backends` to the webview) and the
agent's options as pickers above the input. Only with the ACP agents' runner; without one the panel offers no choice.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List, Optional, Protocol, TypedDict
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.panel import BackendChoice
from hermes.core.acp.conversation import AcpConversations
from hermes.core.chat.conversations import Conversation
from hermes.ui.acp.chat import DiffDocuments


class PanelAgents(Protocol):
    """What the panel asks of the ACP agents' runner: ui/acp/session.py AcpSessionRunner, or its stand-in from
    activation on, ui/acp/late.py LateAcpSessions (which makes the runner on first use)."""

    @property
    def turns(self) -> AcpConversations: ...

    @property
    def documents(self) -> Optional[DiffDocuments]: ...

    def backend_for(self, conversation: Conversation, wanted: Optional[str] = None) -> JsonObject: ...

    def notice_once(self, conversation: Conversation, notice: Optional[str]) -> Optional[str]: ...

    def on_offered(self, callback: Callable[[], None]) -> None: ...

    def on_chosen(self, callback: Callable[[Conversation], None]) -> None: ...

    def panel_options(self, conversation: Conversation) -> List[JsonObject]: ...

    async def options_changed(self, conversation: Conversation, updates: Json) -> bool: ...

    def choices(self) -> JsonObject: ...

    def commands(self, conversation: Conversation, choice: Optional[str]) -> List[JsonObject]: ...


class BackendState(TypedDict):
    choices: List[BackendChoice]
    current: str
    locked: bool
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.core.acp.backends import BUILTIN, choice_of_agent
from hermes.ui.panel.state import PanelState


class PanelBackends:
    """`acp`: the ACP agents' runner (None: the built-in loop only, no choice shown). `choice`: the user's for new
    conversations (None: hermes.agent.backend's). Both typed attributes: None, never undefined (`is None`)."""

    def __init__(self, state: PanelState, acp: 'Optional[PanelAgents]') -> None:
        self.state = state
        self.acp = acp
        self.choice = None  # type: Optional[str]
        if acp is not None and getattr(acp, 'on_chosen', None) is not None:
            # the agent's options, as pickers above the input: anew when the agent offers others or its values change
            acp.on_chosen(lambda conversation: self.post_options() if conversation is self.state.conversation else None)
            acp.on_offered(lambda: self.post_options())

    def backend_state(self) -> 'BackendState':
        """{'choices', 'current', 'locked'}: a conversation keeps who answered it (an ACP agent, or the built-in
        loop once it has messages); a new one takes the user's choice, else hermes.agent.backend's. Only with an ACP
        runner (its callers ask first)."""
        assert self.acp is not None  # (Transcrypt drops asserts: for the type checker and the CPython tests)
        offered = self.acp.choices()
        conversation = self.state.conversation
        acp = conversation.acp
        if acp is not None:
            return {'choices': offered['choices'], 'current': choice_of_agent(acp['agent']), 'locked': True}
        if len(conversation.messages) > 0:
            return {'choices': offered['choices'], 'current': BUILTIN, 'locked': True}
        current = offered['default'] if self.choice is None else self.choice
        return {'choices': offered['choices'], 'current': current, 'locked': False}

    def builtin_answers(self) -> bool:
        """The built-in loop answers this conversation (it uses the model the panel lists; an agent has its own)."""
        return self.acp is None or self.backend_state()['current'] == BUILTIN

    def post_backends(self) -> None:
        if self.acp is None:
            return
        state = self.backend_state()
        conversation = self.state.conversation
        self.state.post({'type': 'backends', 'choices': state['choices'], 'current': state['current'],
                         'locked': state['locked'], 'usage': getattr(conversation, 'acp_usage', None)})
        commands = self.acp.commands(conversation, state['current'])  # type: Any  # (records the agent sent, read)
        self.state.post({'type': 'commands', 'commands': commands})
        self.post_options()

    def post_options(self) -> None:
        """The conversation's agent options (mode, model, config options) as the panel's pickers."""
        if self.acp is None or getattr(self.acp, 'panel_options', None) is None:
            return
        options = self.acp.panel_options(self.state.conversation)  # type: Any  # (core/acp/options.py's picker records)
        self.state.post({'type': 'options', 'options': options})

    async def set_option(self, option: str, value: str) -> bool:
        """A picker's choice: one the agent offers (else refused, logged), kept with the conversation and set on its
        session (session/set_config_option, or the deprecated set_mode/set_model) as a chat session's input area does.
        Refused too on the built-in loop alone: the webview is untrusted, and 'setOption' passes the validator."""
        log = self.state.log
        if self.acp is None:  # (a typed attribute: None, never undefined)
            log.warn('Panel: ignored an option choice: no ACP agent answers here ("' + option[:80] + '")')
            return False
        conversation = self.state.conversation
        offered = [picker for picker in self.acp.panel_options(conversation) if picker['id'] == option]
        if len(offered) == 0 or not (value in [item['id'] for item in offered[0]['items']]):
            log.warn('Panel: ignored a choice the agent does not offer ("' + option[:80] + '")')
            self.post_options()
            return False
        try:
            await self.acp.options_changed(conversation, [{'optionId': option, 'value': value}])
        except JsError as error:
            log.warn('Panel: setting the ' + option + ' failed: ' + error_message(error))
        self.state.save()
        self.post_options()
        return True

    def select_backend(self, choice: str) -> bool:
        """The user picked who answers the next new conversation; refused (logged) for a choice not offered, or
        while the conversation is locked to its own."""
        if self.acp is None:
            return False
        state = self.backend_state()
        if state['locked']:
            self.state.log.warn('Panel: this conversation keeps its agent; New chat to choose another')
            self.post_backends()
            return False
        if not (choice in [offered['id'] for offered in state['choices']]):
            self.state.log.warn('Panel: ignored an agent choice that is not offered ("' + choice[:80] + '")')
            self.post_backends()
            return False
        self.choice = choice
        self.post_backends()
        return True

    def next_turn(self) -> 'JsonObject':
        """Who answers the next turn (core/acp/backends.py: {'kind': 'builtin' | 'acp' | 'missing', ...})."""
        if self.acp is None:
            return {'kind': 'builtin', 'notice': None}
        wanted = None
        conversation = self.state.conversation
        if conversation.acp is None and len(conversation.messages) == 0:
            wanted = self.backend_state()['current']
        return self.acp.backend_for(conversation, wanted)
