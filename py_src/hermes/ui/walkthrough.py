"""The "Get started with Hermes" walkthrough (package.json `contributes.walkthroughs`): its steps complete by
themselves when the user has done what they explain — a terminal agent connected to a door, an agent (Hermes
Agent, another ACP agent or the built-in loop) answered in this window, an MCP client connected — through the
context keys set here (a step also completes on its own command: Copy MCP Config, Open Chat Panel)."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.values import get_key
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.host.doors.late import LateDoors
from hermes.host.mcp.service import McpService
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

TERMINAL_AGENT_CONTEXT = 'hermes.walkthrough.terminalAgentConnected'
AGENT_ANSWERED_CONTEXT = 'hermes.walkthrough.agentAnswered'
MCP_CLIENT_CONTEXT = 'hermes.walkthrough.mcpClientConnected'


class Walkthrough:
    def __init__(self) -> None:
        self.done = []  # type: List[str]  # the context keys set (each once: VS Code keeps a completed step completed)

    def mark(self, key: str) -> None:
        if key in self.done:
            return
        self.done.append(key)
        vscode.commands.executeCommand('setContext', key, True)

    def conversation_changed(self, conversation: 'Optional[Conversation]', origin: Any = None) -> None:
        if conversation is None:
            return
        for message in conversation.messages:
            if get_key(message, 'role') == 'assistant' and get_key(message, 'status') == 'done':
                self.mark(AGENT_ANSWERED_CONTEXT)
                return


def register_walkthrough(context: 'ExtensionContext', conversations: 'ConversationStore', doors: 'LateDoors',
                         mcp: 'McpService') -> 'Walkthrough':
    """Listens to the conversation store, the doors and the MCP server for what completes each step."""
    walkthrough = Walkthrough()
    unsubscribe = conversations.on_change(walkthrough.conversation_changed)
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(unsubscribe)))

    def doors_changed(*ignored: Any) -> None:
        if len(doors.describe()) > 0:
            walkthrough.mark(TERMINAL_AGENT_CONTEXT)
    doors.on_change(doors_changed)

    def clients_changed(count: int) -> None:
        if count > 0:
            walkthrough.mark(MCP_CLIENT_CONTEXT)
    mcp.client_listeners.append(clients_changed)
    return walkthrough
