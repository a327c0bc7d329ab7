"""Commands over the stored conversations, for when the chat sessions list is not the way in (a VS Code
without the proposal) or to cross over: `hermes.continueInPanel` shows a conversation in the side panel
(a chat session's too), `hermes.deleteConversation` removes one (VS Code's sessions list can archive
but not delete), `hermes.forkConversation` forks one an ACP agent answers (ACP's `session/fork`, unstable:
where the agent offers `sessionCapabilities.fork`) into a new conversation with the same history and a new agent
session — the whole conversation: ACP forks a session as it stands, not at an earlier turn. Each takes a session
item or its URI (the sessions list's context menu), else asks with a quick pick, newest first."""
# __pragma__('tconv')
from hermes.js.clock import local_time_text
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.core.values import json_type
from hermes.core.chat.messages import prop
from hermes.core.chat.sessions import SESSION_TYPE, conversation_id
from hermes.core.acp.backends import AcpAgentError
from hermes.core.chat.conversations import Conversation
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Optional
from hermes.core.chat.conversations import ConversationStore
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')

CONTINUE_COMMAND = 'hermes.continueInPanel'
DELETE_COMMAND = 'hermes.deleteConversation'
FORK_COMMAND = 'hermes.forkConversation'
FORK_ORIGIN = 'fork'


def fork_title(title: str) -> str:
    """The title of a fork: 'Fork of …' (a fork of a fork stays one prefix)."""
    return title if title.startswith('Fork of ') else 'Fork of ' + title


def _named(store: 'ConversationStore', argument: Any) -> 'Optional[Conversation]':
    """The conversation a command argument names (a ChatSessionItem or a `hermes:` URI), or None."""
    resource = prop(argument, 'resource')
    uri = argument if resource is None else resource
    if uri is None or prop(uri, 'scheme') != SESSION_TYPE or json_type(prop(uri, 'path')) != 'string':
        return None
    return store.get(conversation_id(uri.path))


async def _chosen(store: 'ConversationStore', argument: Any, place_holder: str) -> 'Optional[Conversation]':
    conversation = _named(store, argument)
    if conversation is not None:
        return conversation
    listed = store.newest_first()
    if len(listed) == 0:
        vscode.window.showInformationMessage('Hermes: there are no stored conversations yet.')
        return None
    picks = [{'label': item.title, 'description': local_time_text(item.updated or 0), 'id': item.id}
             for item in listed]
    picked = await vscode.window.showQuickPick(picks, {'placeHolder': place_holder})
    return None if picked is None else store.get(picked['id'])


def register_conversation_commands(context: 'ExtensionContext', log: 'Log', store: 'ConversationStore', panel: Any,
                                   agents: Any = None) -> None:
    """`agents`: what ends and forks an agent's sessions, `end_session` / `fork_session` (ui/acp/late.py
    LateAcpSessions, which passes them to host/acp/agent_sessions.py AgentSessions): a deleted conversation's agent session is
    ended through its agent."""
    async def continue_in_panel(argument: Any = None) -> bool:
        conversation = await _chosen(store, argument, 'Which conversation should the side panel continue?')
        if conversation is None:
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
        if conversation is None:
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
        if agents is not None and session is not None and session['sessionId'] != '':
            done = await agents.end_session(session['agent'], session['sessionId'])
            if len(done) > 0:
                log.info('Conversations: ' + session['agent'] + ' ' + ' and '.join(done) + ' its session')
        return True

    async def fork_conversation(argument: Any = None) -> 'Optional[str]':
        """A new conversation with the history of the chosen one, answered in a new agent session forked from its
        (session/fork). Returns the new conversation's id, or None (said in a message)."""
        conversation = await _chosen(store, argument, 'Which conversation should be forked?')
        if conversation is None:
            return None
        session = conversation.acp
        if agents is None or session is None:
            vscode.window.showWarningMessage('Hermes: only a conversation an ACP agent answers can be forked ("' +
                                             conversation.title + '" has no agent session).')
            return None
        status = conversation.status()
        if status == 'in_progress' or status == 'needs_input':
            vscode.window.showWarningMessage('Hermes: "' + conversation.title + '" is still answering; fork it when '
                                             'its turn has ended.')
            return None
        try:
            session_id = await agents.fork_session(session['agent'], session['sessionId'])
        except AcpAgentError as error:
            vscode.window.showErrorMessage('Hermes: ' + error.message)
            log.warn('Conversations: forking "' + conversation.title + '" failed: ' + error.message)
            return None
        fork = store.create(FORK_ORIGIN)
        fork.messages = Conversation.restore(conversation.to_data()).messages  # (a copy, checked as a stored one)
        fork.title = fork_title(conversation.title)
        fork.model = conversation.model
        fork.acp = {'agent': session['agent'], 'sessionId': session_id}
        for option in ['mode', 'model']:  # the choices made in the input area go on with it
            if option in session:
                fork.acp[option] = session[option]
        store.put(fork, FORK_ORIGIN)
        log.info('Conversations: forked "' + conversation.title + '" (' + session['agent'] + ' session ' + session_id +
                 ')')
        vscode.window.showInformationMessage('Hermes: "' + fork.title + '" is in the sessions list, with the '
                                             'history so far; it goes on apart from "' + conversation.title + '".')
        return fork.id

    context.subscriptions.push(vscode.commands.registerCommand(FORK_COMMAND, to_js_callback(fork_conversation)))
    context.subscriptions.push(vscode.commands.registerCommand(CONTINUE_COMMAND, to_js_callback(continue_in_panel)))
    context.subscriptions.push(vscode.commands.registerCommand(DELETE_COMMAND, to_js_callback(delete_conversation)))
