"""The ACP agents behind the chat sessions and the side panel, registered at activation and made on first use: the
runner (ui/acp/session.py AcpSessionRunner, over host/acp/services.py with its turns, options, sign-in, consent and
diff documents) is a part loaded the first time a chat session, the panel or a command needs it (a window that never
opens a chat or the panel never loads it). `LateAcpSessions` stands in for the runner from activation on: its
methods make the runner and pass the call on; what front ends hand it while they register (listeners, the native
edits, whether VS Code offers the agents' commands, the cost status) is handed on when the runner is made."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.parts import load_part
from hermes.core.acp.backends import SETUP_COMMAND, SIGN_IN_COMMAND, SIGN_OUT_COMMAND
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence
from hermes.contracts.json import Json, JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.acp.conversation import AcpConversations
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.host.acp.agents import AcpAgents
from hermes.host.acp.services import AcpServices
from hermes.host.changes.log import ChangeLog
from hermes.host.changes.window_index import WindowIndex
from hermes.host.log import Log
from hermes.host.mcp.service import McpService
from hermes.ui.acp.chat import ChatStream, DiffDocuments
from hermes.ui.acp.session import AcpSessionRunner, AgentCommand
from hermes.ui.changes.native_edits import NativeEdits
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


class LateAcpSessions:
    def __init__(self, make_runner: 'Callable[[], AcpSessionRunner]',
                 make_commands: 'Callable[[AcpServices], Dict[str, AgentCommand]]') -> None:
        """`make_runner()`: the runner (loads its part); `make_commands(services)`: the sign-in commands' handlers."""
        self.make_runner = make_runner
        self.make_commands = make_commands
        self.loaded = None  # type: Optional[AcpSessionRunner]  # the runner, once made
        self.handlers = None  # type: Optional[Dict[str, AgentCommand]]  # the sign-in commands' handlers, once one ran
        self.offered_listeners = []  # type: List[Callable[[], None]]
        self.chosen_listeners = []  # type: List[Callable[[Conversation], None]]
        self.native = None  # type: Optional[NativeEdits]  # set by the chat sessions at activation (ui/chat/sessions.py)
        self.commands_offered = False  # likewise
        self.costs = None  # type: Any  # ui/chat/cost_status.py CostStatus: fed by the runner's turns

    def runner(self) -> 'AcpSessionRunner':
        if self.loaded is None:
            runner = self.make_runner()
            runner.native = self.native
            runner.commands_offered = self.commands_offered
            runner.turns.costs = self.costs
            for listener in self.offered_listeners:
                runner.on_offered(listener)
            for chosen in self.chosen_listeners:
                runner.on_chosen(chosen)
            self.loaded = runner
            return runner
        return self.loaded

    # Listening does not make the runner: no agent offers or chooses anything before it exists.
    def on_offered(self, callback: 'Callable[[], None]') -> None:
        self.offered_listeners.append(callback)
        if self.loaded is not None:
            self.loaded.on_offered(callback)

    def on_chosen(self, callback: 'Callable[[Conversation], None]') -> None:
        self.chosen_listeners.append(callback)
        if self.loaded is not None:
            self.loaded.on_chosen(callback)

    @property
    def turns(self) -> 'AcpConversations':
        return self.runner().turns

    @property
    def documents(self) -> 'Optional[DiffDocuments]':
        return self.runner().documents

    @property
    def services(self) -> 'AcpServices':
        return self.runner().services

    def backend_for(self, conversation: 'Conversation', wanted: 'Optional[str]' = None) -> 'JsonObject':
        return self.runner().backend_for(conversation, wanted)

    def notice_once(self, conversation: 'Conversation', notice: 'Optional[str]') -> 'Optional[str]':
        return self.runner().notice_once(conversation, notice)

    def option_groups(self) -> 'List[JsonObject]':
        return self.runner().option_groups()

    def panel_options(self, conversation: 'Conversation') -> 'List[JsonObject]':
        return self.runner().panel_options(conversation)

    def option_values(self, conversation: 'Conversation') -> 'JsonObject':
        return self.runner().option_values(conversation)

    async def options_changed(self, conversation: 'Conversation', updates: 'Json') -> bool:
        return await self.runner().options_changed(conversation, updates)

    def choices(self) -> 'JsonObject':
        return self.runner().choices()

    def commands(self, conversation: 'Conversation', choice: 'Optional[str]') -> 'List[JsonObject]':
        return self.runner().commands(conversation, choice)

    async def respond(self, spec: 'Spec', conversation: 'Conversation', request: Any, stream: 'ChatStream',
                      token: Any) -> 'JsonObject':
        return await self.runner().respond(spec, conversation, request, stream, token)

    def session_commands(self, conversation: 'Optional[Conversation]') -> 'List[JsonObject]':
        return self.runner().session_commands(conversation)

    async def import_listed(self) -> int:
        return await self.runner().import_listed()

    def needs_replay(self, conversation: 'Conversation') -> bool:
        return self.runner().needs_replay(conversation)

    async def replay(self, conversation: 'Conversation') -> bool:
        return await self.runner().replay(conversation)

    # What ui/chat/conversation_commands.py asks of the agents (a deleted conversation's session ended, a session forked)
    async def end_session(self, agent: str, session_id: 'Json') -> 'List[str]':
        return await self.runner().sessions.end_session(agent, session_id)

    async def fork_session(self, agent: str, session_id: 'Json') -> str:
        return await self.runner().sessions.fork_session(agent, session_id)

    async def run_command(self, command: str, args: 'Sequence[Any]') -> bool:
        handlers = self.handlers
        if handlers is None:
            handlers = self.make_commands(self.runner().services)
            self.handlers = handlers
        return await handlers[command](*args)


def register_acp_sessions(context: 'ExtensionContext', log: 'Log', mcp: 'Optional[McpService]', agents: 'AcpAgents',
                          store: 'ConversationStore', change_log: 'Optional[ChangeLog]' = None,
                          window_index: 'Optional[WindowIndex]' = None) -> LateAcpSessions:
    """The runner's stand-in and the sign-in commands ("Sign In to an Agent", "Sign Out of an Agent", the setup button
    of earlier versions), registered now; the runner is made on first use (with `window_index`, the window's index of
    the workspace its turns' spans start from)."""
    def make_runner() -> 'AcpSessionRunner':
        runner = load_part('hermes.ui.acp.session').make_acp_sessions(context, log, mcp, agents, store, change_log,
                                                                     window_index)  # type: AcpSessionRunner
        return runner

    def make_commands(services: 'AcpServices') -> 'Dict[str, AgentCommand]':
        handlers = load_part('hermes.ui.acp.session').acp_commands(services.choice, services.processes,
                                                                   log)  # type: Dict[str, AgentCommand]
        return handlers
    late = LateAcpSessions(make_runner, make_commands)

    def command_handler(command: str) -> 'AgentCommand':
        async def run(*args: Any) -> bool:
            return await late.run_command(command, args)
        return run
    for command in [SIGN_IN_COMMAND, SIGN_OUT_COMMAND, SETUP_COMMAND]:
        context.subscriptions.push(vscode.commands.registerCommand(command, to_js_callback(command_handler(command))))
    return late
