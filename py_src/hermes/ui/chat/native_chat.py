"""Hermes in VS Code's own chat: the @hermes participant, the "Hermes Agent" language model, every
Hermes tool as a language-model tool, and Hermes chat sessions (the "+" menu; `acp`: the ACP agents that answer
them when installed, ui/acp/session.py). Each part is skipped on a VS Code without its API."""
# __pragma__('tconv')
from hermes.host.llm_service import llm_settings
from hermes.ui.chat.participant import register_chat_participant
from hermes.ui.chat.lm_provider import register_lm_provider
from hermes.ui.lm_tools import register_lm_tools
from hermes.ui.chat.sessions import register_chat_sessions
from hermes.ui.changes.native_edits import register_native_edits
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, Optional
from hermes.core.chat.conversations import ConversationStore
from hermes.core.tools import ToolRegistry
from hermes.host.changes.log import ChangeLog
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
from hermes.ui.acp.late import LateAcpSessions
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


def register_native_chat(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry', llm: 'LlmService',
                         conversations: 'ConversationStore', acp: 'Optional[LateAcpSessions]' = None,
                         changes: 'Optional[ChangeLog]' = None) -> 'Dict[str, Any]':
    """Each part by name (None where this VS Code lacks its API)."""
    def describe_model(model: 'Optional[str]' = None) -> str:
        return llm.describe() if model is None else model + ' at ' + llm_settings()['endpoint']
    native = register_native_edits(context, changes, log)  # turns' writes in VS Code's own chat editing
    return {
        'tools': register_lm_tools(context, log, registry),
        'participant': register_chat_participant(context, log, registry, llm, describe_model, native),
        'model': register_lm_provider(context, log, llm),
        'sessions': register_chat_sessions(context, log, registry, llm, describe_model, conversations, acp, changes,
                                           native),
        'native_edits': native,
    }
