"""The embedded agent's host side: the LLM client built from settings and the API key, and the
shared agent loop over the extension's one tool registry. Front ends (panel, @hermes, the language
model provider) ask this service for a run; they never build clients or loops themselves.

    outcome = await llm.run(history, sink, cancellation, model)   # workspace context gathered here
    models = await llm.list_models()

Settings are read when a run starts, so a change applies to the next request without a reload.
The API key lives in VS Code's SecretStorage under API_KEY_SECRET (command `hermes.setApiKey`), next to
the endpoint it was set for (API_KEY_ENDPOINT_SECRET): the key is only ever sent there. Pointing
`hermes.llm.endpoint` somewhere else sends no key until the user sets one again (docs/SECURITY.md).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Dict, List, Optional, TypedDict
from hermes.contracts.chat import History
from hermes.contracts.json import Json
from hermes.contracts.loop import LoopOptions, Outcome
from hermes.core.agent_loop import AgentLoop, SinkArgument
from hermes.net.llm_client import LlmClient
from hermes.core.cancellation import Cancellation
from hermes.core.tools import ToolRegistry
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext, SecretStorageChangeEvent


class LlmSettings(TypedDict):
    endpoint: str  # normalized (net/llm_client.py normalize_endpoint)
    model: str
    extra_headers: Json  # `hermes.llm.extraHeaders`: an object of header names and values
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.js.parts import load_part
from hermes.core.llm_wire import normalize_endpoint
from hermes.host.settings import setting
from hermes.host.workspace_context import gather_workspace_context

API_KEY_SECRET = 'hermes.llm.apiKey'
API_KEY_ENDPOINT_SECRET = 'hermes.llm.apiKeyEndpoint'


def llm_settings() -> 'LlmSettings':
    """Where the LLM is and how to reach it (the API key aside)."""
    return {
        'endpoint': normalize_endpoint(setting('llm.endpoint')),
        'model': setting('llm.model'),
        'extra_headers': setting('llm.extraHeaders'),
    }


def loop_options(model: 'Optional[str]' = None) -> 'LoopOptions':
    """The AgentLoop options for a run on `model` (default: `hermes.llm.model`): the one place where
    settings become loop options, for every front end (panel, @hermes, chat sessions, the language model
    provider). `hermes.llm.contextLength` 0 means what the server reports."""
    context_length = setting('llm.contextLength')
    return {
        'model': setting('llm.model') if model is None or model == '' else model,
        'tool_calling': setting('llm.toolCalling'),
        'max_iterations': setting('agent.maxIterations'),
        'context_tokens': context_length if context_length > 0 else None,
    }


def options_key(options: 'LoopOptions') -> str:
    """Loops are kept while their options stay the same (so what 'auto' tool calling learned sticks)."""
    return dump_json(options)


class LlmService:
    def __init__(self, context: 'ExtensionContext', log: 'Optional[Log]', registry: 'ToolRegistry',
                 client_options: 'Json' = None) -> None:
        self.context = context
        self.log = log
        self.registry = registry
        self.client_options = client_options
        self._api_key = None  # type: Optional[str]
        self._key_endpoint = None  # type: Optional[str]
        self._key_loaded = False
        self._client = None  # type: Optional[LlmClient]
        self._client_key = None  # type: Optional[str]
        self._loops = {}  # type: Dict[str, AgentLoop]

    # ---------------------------------------------------------------------------- the API key

    async def api_key(self) -> 'Optional[str]':
        """The stored key when the current endpoint is the one it was set for; else None (not sent)."""
        secrets = self.context.secrets
        endpoint = llm_settings()['endpoint']
        if not self._key_loaded:
            value = await secrets.js_get(API_KEY_SECRET)
            self._api_key = None if value is None or value == '' else value
            bound = await secrets.js_get(API_KEY_ENDPOINT_SECRET)
            if self._api_key is not None and (bound is None or bound == ''):
                bound = endpoint  # a key stored before keys were bound: it was meant for today's endpoint
                await secrets.store(API_KEY_ENDPOINT_SECRET, bound)
            self._key_endpoint = bound
            self._key_loaded = True
        if self._api_key is None:
            return None
        if self._key_endpoint != endpoint:
            if self.log is not None:
                self.log.warn('The API key was set for ' + str(self._key_endpoint) + ', not for ' + endpoint +
                              ': it is not sent. Set a key for this endpoint with "Hermes: Set API Key".')
            return None
        return self._api_key

    async def set_api_key(self, value: 'Optional[str]') -> None:
        """Store (or, with '' / None, remove) the API key, bound to the current endpoint; the next request
        uses it."""
        if value is None or value == '':
            await self.context.secrets.delete(API_KEY_SECRET)
            await self.context.secrets.delete(API_KEY_ENDPOINT_SECRET)
        else:
            await self.context.secrets.store(API_KEY_SECRET, value)
            await self.context.secrets.store(API_KEY_ENDPOINT_SECRET, llm_settings()['endpoint'])
        self.forget_api_key()

    def forget_api_key(self) -> None:
        """The secret changed elsewhere (another window): read it again on the next request."""
        self._key_loaded = False
        self._api_key = None
        self._client = None

    # ---------------------------------------------------------------------------- client and loop

    async def client(self) -> 'LlmClient':
        current = llm_settings()
        key = await self.api_key()
        signature = current['endpoint'] + '\n' + (key or '') + '\n' + dump_json(current['extra_headers'])
        if self._client is None or self._client_key != signature:
            # the client (net/llm_client.py) and the loop (core/agent_loop.py) load with the first run (js/parts.py)
            self._client = load_part('hermes.net.llm_client').LlmClient(current['endpoint'], key,
                                                                        current['extra_headers'], self.client_options)
            self._client_key = signature
            self._loops = {}
        return self._client

    async def loop(self, model: 'Optional[str]' = None) -> 'AgentLoop':
        """The agent loop for `model` (default: the configured one) on the current settings; one loop per
        model, kept while its options stay the same."""
        client = await self.client()
        options = loop_options(model)
        key = options_key(options)
        if not (key in self._loops):
            self._loops[key] = load_part('hermes.core.agent_loop').AgentLoop(client, self.registry, options)
        return self._loops[key]

    async def run(self, history: 'History', sink: 'SinkArgument' = None, cancellation: 'Optional[Cancellation]' = None,
                  model: 'Optional[str]' = None, workspace: 'Json' = None) -> 'Outcome':
        """One agent run over `history` (extended in place) on `model` (default: `hermes.llm.model`);
        see core/agent_loop.py."""
        loop = await self.loop(model)
        if workspace is None:
            workspace = gather_workspace_context()
        outcome = await loop.run(history, sink, cancellation, workspace)
        if outcome['stopped'] == 'error' and self.log is not None:
            self.log.warn('LLM run failed: ' + str(outcome['error']))
        return outcome

    async def list_models(self, cancellation: 'Optional[Cancellation]' = None) -> 'List[str]':
        client = await self.client()
        return await client.list_models(cancellation)

    def describe(self) -> str:
        current = llm_settings()
        return current['model'] + ' at ' + current['endpoint']


def register_llm_service(context: 'ExtensionContext', log: 'Optional[Log]', registry: 'ToolRegistry') -> LlmService:
    service = LlmService(context, log, registry)
    on_change = context.secrets.onDidChange
    if on_change is not None:
        def changed(event: 'Optional[SecretStorageChangeEvent]') -> None:
            if event is None or event.key == API_KEY_SECRET:
                service.forget_api_key()
        context.subscriptions.push(on_change(changed))
    return service
