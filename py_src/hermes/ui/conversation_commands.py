"""Commands over the stored conversations, for when the chat sessions list is not the way in (a VS Code
without the proposal) or to cross over: `hermes.continueInPanel` shows a conversation in the side panel
(a chat session's too), `hermes.deleteConversation` removes one (VS Code's sessions list can archive
but not delete). Both take a session item or its URI (the sessions list's context menu), else ask
with a quick pick, newest first."""
# __pragma__('tconv')
from hermes.js.clock import local_time_text
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none
from hermes.core.values import json_type
from hermes.core.chat_messages import prop
from hermes.core.chat_sessions import SESSION_TYPE, conversation_id
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Optional
from hermes.core.conversations import Conversation, ConversationStore
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

CONTINUE_COMMAND = 'hermes.continueInPanel'
DELETE_COMMAND = 'hermes.deleteConversation'


def _named(store: 'ConversationStore', argument: Any) -> 'Optional[Conversation]':
    """The conversation a command argument names (a ChatSessionItem or a `hermes:` URI), or None."""
    resource = prop(argument, 'resource')
    uri = argument if is_none(resource) else resource
    if is_none(uri) or prop(uri, 'scheme') != SESSION_TYPE or json_type(prop(uri, 'path')) != 'string':
        return None
    return store.get(conversation_id(uri.path))


async def _chosen(store: 'ConversationStore', argument: Any, place_holder: str) -> 'Optional[Conversation]':
    conversation = _named(store, argument)
    if not is_none(conversation):
        return conversation
    listed = store.newest_first()
    if len(listed) == 0:
        vscode.window.showInformationMessage('Hermes: there are no stored conversations yet.')
        return None
    picks = [{'label': item.title, 'description': local_time_text(item.updated or 0), 'id': item.id}
             for item in listed]
    picked = await vscode.window.showQuickPick(picks, {'placeHolder': place_holder})
    return None if is_none(picked) else store.get(picked['id'])


def register_conversation_commands(context: 'ExtensionContext', log: 'Log', store: 'ConversationStore', panel: Any,
                                   agents: Any = None) -> None:
    """`agents`: host/acp_service.py AcpService (a deleted conversation's agent session is ended through its agent)."""
    async def continue_in_panel(argument: Any = None) -> bool:
        conversation = await _chosen(store, argument, 'Which conversation should the side panel continue?')
        if is_none(conversation):
            return False
        if not panel.show(conversation):
            vscode.window.showWarningMessage('Hermes: the side panel is still answering; stop it or wait, then try '
                                             'again.')
            return False
        await vscode.commands.executeCommand('hermes.openPanel')
        log.info('Panel: continuing "' + conversation.title + '"')
        return True

    async def delete_conversation(argument: Any = None) -> bool:
        conversation = await _chosen(store, argument, 'Which conversation should be deleted?')
        if is_none(conversation):
            return False
        status = conversation.status()
        if status == 'in_progress' or status == 'needs_input':
            vscode.window.showWarningMessage('Hermes: "' + conversation.title + '" is still answering; stop it first.')
            return False
        store.remove(conversation.id)
        if panel.conversation is conversation:
            panel.new_chat()
        log.info('Conversations: deleted "' + conversation.title + '"')
        session = conversation.acp
        if not is_none(agents) and not is_none(session) and session['sessionId'] != '':
            done = await agents.end_session(session['agent'], session['sessionId'])
            if len(done) > 0:
                log.info('Conversations: ' + session['agent'] + ' ' + ' and '.join(done) + ' its session')
        return True

    context.subscriptions.push(vscode.commands.registerCommand(CONTINUE_COMMAND, to_js_callback(continue_in_panel)))
    context.subscriptions.push(vscode.commands.registerCommand(DELETE_COMMAND, to_js_callback(delete_conversation)))
