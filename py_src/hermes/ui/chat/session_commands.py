"""An ACP agent's slash commands offered by VS Code itself in a Hermes chat session: typing "/" in the session's
input lists them (with their descriptions) beside the session's own commands.

VS Code 1.139 gives a chat session's participant only the `commands` of its package.json contribution. What it does
offer per session, at run time, is the `chatSessionCustomizationProvider` proposal: a session type's provider lists
"customizations" per session resource, and VS Code's "/" completion shows the `Prompt` ones as slash commands (for a
session whose contribution declares `supportsPromptAttachments`). An agent's command has no prompt file: its item
names an `agent-builtin:` resource, VS Code's own scheme for an agent's built-in commands, so VS Code attaches
nothing and sends the typed "/name input" to the participant as the prompt's text — which is how ACP runs commands.

Where the proposal is missing (another VS Code, the test shim) nothing is registered and the chat session says the
commands once in its response instead (core/acp/commands.py `commands_hint`).
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.acp.commands import commands_key
from hermes.core.values import get_key
from hermes.core.chat.sessions import SESSION_TYPE, session_contribution

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol
from hermes.contracts.json import JsonObject
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import CancellationToken, EventEmitter, ExtensionContext, Uri


class AgentCommands(Protocol):
    """What this module asks of the ACP sessions' runner (ui/acp/session.py AcpSessionRunner)."""
    def session_commands(self, conversation: Optional[Conversation]) -> List[JsonObject]: ...


class KnownConversations(Protocol):
    """What it asks of the chat sessions (ui/chat/sessions.py): the conversation a session resource shows, if any."""
    def known_conversation(self, resource: 'Uri') -> Optional[Conversation]: ...
# __pragma__('noskip')

BUILTIN_SCHEME = 'agent-builtin'  # VS Code: a customization without a file (it parses no prompt file for it)


def command_items(commands: 'List[JsonObject]', kinds: 'Any') -> 'List[JsonObject]':  # (kinds: the stub has no proposal)
    """The commands as VS Code's customization items (`kinds`: vscode.ChatSessionCustomizationType). A command the
    session contributes itself (/help …) is left out: VS Code lists that one already, and sends it to the agent the
    same way (ui/acp/session.py `prompt_blocks`)."""
    contributed = [command['name'] for command in session_contribution()[0]['commands']]
    return [{'uri': vscode.Uri.js_from({'scheme': BUILTIN_SCHEME, 'path': '/' + SESSION_TYPE + '/' + command['name']}),
             'type': kinds.Prompt, 'name': command['name'],
             'description': command['description'] + (' ‹' + command['hint'] + '›' if command['hint'] != '' else ''),
             'source': 'builtin', 'userInvocable': True}
            for command in commands if not (command['name'] in contributed)]


def register_session_commands(context: 'ExtensionContext', acp: 'AgentCommands', sessions: 'KnownConversations',
                              store: 'ConversationStore', log: 'Log') -> bool:
    """Offer each session's agent commands to VS Code's "/" completion. Returns False where this VS Code has no
    way to (the chat then says them instead)."""
    try:  # (VS Code's proposal getters throw for an extension the proposal is not enabled for)
        register = None if vscode.chat is None else getattr(vscode.chat, 'registerChatSessionCustomizationProvider',
                                                              None)
        kinds = getattr(vscode, 'ChatSessionCustomizationType', None)
    except JsError as error:
        log.info('Chat sessions: the agent\'s commands are said in the chat (' + error_message(error) + ')')
        return False
    if register is None or kinds is None:
        return False
    changed = new(vscode.EventEmitter)  # type: EventEmitter[None]
    context.subscriptions.push(changed)
    listed = {}  # type: Dict[str, str]  # conversation id → the commands_key VS Code was last told about

    def provide(resource: 'Uri', token: 'Optional[CancellationToken]' = None) -> 'List[JsonObject]':
        try:
            conversation = sessions.known_conversation(resource)  # (asking makes no conversation)
            if conversation is None:
                return command_items(acp.session_commands(None), kinds)
            commands = acp.session_commands(conversation)
            if conversation.id is not None:  # (a stored conversation always has one)
                listed[conversation.id] = commands_key(commands)
            return command_items(commands, kinds)
        except JsError as error:
            log.warn('Chat sessions: listing the agent\'s commands failed: ' + error_message(error))
            return []

    def store_changed(conversation: 'Optional[Conversation]', origin: 'Any' = None) -> None:
        # VS Code caches the lists until told: tell it when a conversation's commands are no longer those it was
        # given (or, for one it has not asked about, none)
        if conversation is None or conversation.id is None:  # (a stored conversation always has an id)
            return
        key = commands_key(acp.session_commands(conversation))
        if get_key(listed, conversation.id, '') != key:
            listed[conversation.id] = key  # (told once per change; VS Code asks again)
            changed.fire(None)
    unsubscribe = store.on_change(store_changed)
    context.subscriptions.push(new(vscode.Disposable, unsubscribe))
    try:
        context.subscriptions.push(vscode.chat.registerChatSessionCustomizationProvider(
            SESSION_TYPE, {'label': 'Hermes Agent', 'iconId': 'hubot', 'supportedTypes': [kinds.Prompt]},
            {'provideChatSessionCustomizations': to_js_callback(provide), 'onDidChange': changed.event}))
    except JsError as error:
        log.info('Chat sessions: the agent\'s commands are said in the chat (' + error_message(error) + ')')
        return False
    log.info('Chat sessions: the agent\'s slash commands are offered in the session\'s "/" completion')
    return True
