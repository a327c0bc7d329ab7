"""The side panel over the shared agent loop: each message the user sends is one run of the LLM
service (host/llm_service.py) with the conversation's history; models come from its /models."""
# __pragma__('tconv')
from hermes.core.cancellation import Cancellation
from hermes.ui.panel.view import register_panel
# __pragma__('skip')
from typing import TYPE_CHECKING, Dict, List, Optional
from hermes.contracts.chat import History
from hermes.core.agent_loop import SinkArgument
from hermes.core.chat.conversations import ConversationStore
from hermes.host.changes.log import ChangeLog
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
from hermes.ui.panel.view import LatePanel
if TYPE_CHECKING:
    from hermes.ui.panel.backends import PanelAgents  # (a module of the controller's part)
    from vscode import ExtensionContext
# __pragma__('noskip')


def register_agent_panel(context: 'ExtensionContext', log: 'Log', llm: 'LlmService', store: 'ConversationStore',
                         changes: 'Optional[ChangeLog]' = None,
                         acp: 'Optional[PanelAgents]' = None) -> 'LatePanel':
    """`acp`: the ACP agents' runner the chat sessions use (ui/acp/session.py), so the panel offers them too."""
    async def run_turn(history: 'History', user_text: str, sink: 'SinkArgument',
                       cancellation: 'Cancellation') -> 'Dict[str, History]':
        history.append({'role': 'user', 'content': user_text})
        await llm.run(history, sink, cancellation)  # extends `history` in place, errors go to the sink
        return {'history': history}

    async def list_models() -> 'List[str]':
        return await llm.list_models()

    return register_panel(context, log, run_turn, list_models, store, Cancellation, changes, acp)
