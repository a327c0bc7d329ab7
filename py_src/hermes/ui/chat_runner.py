"""One agent run on a chosen model of the configured endpoint, for the native chat front ends.

The @hermes participant runs on the model picked in VS Code's model picker when that is a Hermes
model (`request.model`), and the Hermes language model runs on whichever of its models VS Code
asked for; both may differ from `hermes.llm.model`. The configured model goes through the LLM
service's own loop; another model gets its own loop, on the same client, tools and settings, kept
while the settings stay the same (so what 'auto' tool calling learned about it sticks)."""
# __pragma__('tconv')
from hermes.js import is_none
from hermes.core.agent_loop import AgentLoop
from hermes.host.llm_service import llm_settings
from hermes.host.workspace_context import gather_workspace_context


class ModelRunner:
    def __init__(self, llm, registry):
        self.llm = llm
        self.registry = registry
        self._loops = {}
        self._client = None

    async def run(self, history, sink, cancellation, model=None):
        current = llm_settings()
        if is_none(model) or model == '' or model == current['model']:
            return await self.llm.run(history, sink, cancellation)
        loop = await self._loop_for(model, current)
        return await loop.run(history, sink, cancellation, gather_workspace_context())

    async def _loop_for(self, model, current):
        client = await self.llm.client()
        if client is not self._client:
            self._client = client
            self._loops = {}
        key = model + '\n' + current['tool_calling'] + '\n' + str(current['max_iterations'])
        if not (key in self._loops):
            self._loops[key] = AgentLoop(client, self.registry, {
                'model': model, 'tool_calling': current['tool_calling'], 'max_iterations': current['max_iterations']})
        return self._loops[key]
