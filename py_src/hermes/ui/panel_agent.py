"""The side panel over the shared agent loop: each message the user sends is one run of the LLM
service (host/llm_service.py) with the conversation's history; models come from its /models."""
# __pragma__('tconv')
from hermes.core.cancellation import Cancellation
from hermes.ui.panel import register_panel


def register_agent_panel(context, log, llm, store, changes=None, acp=None):
    """`acp`: the ACP agents' runner the chat sessions use (ui/acp_session.py), so the panel offers them too."""
    async def run_turn(history, user_text, sink, cancellation):
        history.append({'role': 'user', 'content': user_text})
        await llm.run(history, sink, cancellation)  # extends `history` in place, errors go to the sink
        return {'history': history}

    async def list_models():
        return await llm.list_models()

    return register_panel(context, log, run_turn, list_models, store, Cancellation, changes, acp)
