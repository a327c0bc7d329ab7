""""Hermes Agent" in VS Code's model picker: a LanguageModelChatProvider (vendor `hermes`) over the
configured OpenAI-compatible endpoint.

- Models: the endpoint's own list (GET /models), the configured `hermes.llm.model` first, with the
  context window the server reports (Ollama's /api/show) or a conservative default, and tool calling
  unless the server says the model has none. The list is cached and refreshed (the change event
  fires) when `hermes.llm.*` settings or the API key change.
- A request with `options.tools` (agent mode, another extension's tools): VS Code's messages become
  OpenAI messages, the tools go to the LLM as native tools, text streams back as text parts and the
  model's calls are reported as LanguageModelToolCallParts for VS Code to run.
- A request without tools: the Hermes agent loop with Hermes's own tools answers it, and its text
  streams back.
- Token counts: core/context_budget.py's estimate (about four characters a token, errs high).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List
from hermes.contracts.events import EventSink
from typing import Optional
from hermes.contracts.chat import History
from hermes.contracts.json import Json, JsonObject
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.contracts.mcp import CallToolResult
# __pragma__('noskip')
from hermes.js.errors import error_message, js_error, JsError, raise_js, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.timers import clear_timer, set_timer
from hermes.core.values import json_type, is_object, get_key, copyable_keys
from hermes.core.cancellation import Cancellation
from hermes.core.llm_wire import DEFAULT_CONTEXT_TOKENS, LlmError, chat_request
from hermes.core.chat.messages import prop, to_openai, openai_tools_from_vscode, tool_call_parts, estimate_request_tokens
from hermes.core.chat.prompts import VENDOR, VENDOR_DISPLAY_NAME
from hermes.host.llm_service import llm_settings, loop_options, API_KEY_SECRET
from hermes.host.settings import on_settings_changed
from hermes.host.chat.host import VsCodeParts

LIST_TIMEOUT_MS = 5000
INFO_LIMIT = 12  # models whose context window is asked for (one request each on Ollama)
REPLY_TOKENS = 2048
TOOL_MODE_REQUIRED = 2  # vscode.LanguageModelChatToolMode.Required
MODEL_OPTIONS = ['temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'stop', 'seed', 'presence_penalty',
                 'frequency_penalty']


def model_information(name: str, info: Any, endpoint: str, configured: str,
                      context_tokens: 'Optional[int]' = None) -> 'JsonObject':
    """A LanguageModelChatInformation (dict) for model `name`; `info` from the client's model_info;
    `context_tokens` (hermes.llm.contextLength, when set) overrides what the server reports."""
    context = get_key(info, 'context_length') if is_object(info) else None  # type: Any
    if context_tokens is not None:
        context = context_tokens
    known = json_type(context) == 'integer' and context > 0
    if not known:
        context = DEFAULT_CONTEXT_TOKENS
    output = min(REPLY_TOKENS, context // 4)
    tools = not (is_object(info) and get_key(info, 'supports_tools') is False)
    colon = name.find(':')
    tooltip = name + ' at ' + endpoint + ' (' + VENDOR_DISPLAY_NAME + ('; the model set in hermes.llm.model' if name == configured
                                                                      else '') + ')' + \
        ('' if known else '; context window not reported by the server, assuming ' + str(context) + ' tokens') + \
        ('' if tools else '; this model cannot call tools')
    return {
        'id': name,
        'name': name,
        'family': name[:colon] if colon > 0 else name,
        'version': name[colon + 1:] if colon > 0 else 'latest',
        'detail': VENDOR_DISPLAY_NAME,
        'tooltip': tooltip,
        'maxInputTokens': context - output,
        'maxOutputTokens': output,
        # imageInput: VS Code lets an image into a chat request only when the selected model says it reads images, and
        # in a Hermes session that is this model even when an ACP agent answers: the agent gets the image when it
        # reads images (core/acp/prompt_content.py fit_prompt; else a note says it was not sent). Where this model itself
        # answers, an image is a placeholder that says so (core/chat/messages.py), never sent to the endpoint.
        'capabilities': {'toolCalling': tools, 'imageInput': True},
        'isUserSelectable': True,
    }


class TextSink:
    """The answer's text, and nothing else, for VS Code's language-model response."""

    def __init__(self, report: 'Callable[[str], None]') -> None:
        self.report = report

    def on_text(self, text: str) -> None:
        if json_type(text) == 'string' and text != '':
            self.report(text)

    def on_iteration(self, number: int) -> None:
        return None

    def on_tool_call(self, call: 'ShownCall') -> None:
        return None

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        return None

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_tool_confirmation(self, call: 'ShownCall', state: 'ConfirmationState') -> None:
        return None

    def change_author(self) -> 'Optional[ChangeAuthor]':
        """VS Code's chat running the Hermes language model with Hermes's own tools."""
        return {'client': 'Hermes language model', 'session': None, 'turn': None}

    def on_notice(self, message: str) -> None:
        return None

    def on_error(self, error: Exception) -> None:
        return None

    def on_done(self, outcome: 'Outcome') -> None:
        return None


class HermesLanguageModel:
    """The provider's logic; `parts` is core/chat/messages.py's factory (VsCodeParts in VS Code)."""

    def __init__(self, llm: 'LlmService', parts: Any, log: 'Optional[Log]' = None) -> None:
        self.llm = llm
        self.parts = parts
        self.log = log
        self._models = None  # type: Optional[List[JsonObject]]

    def forget(self) -> None:
        self._models = None

    # -------------------------------------------------------------------------------- models

    async def information(self, options: Any = None, token: Any = None) -> 'List[JsonObject]':
        if self._models is None:
            self._models = await self._load_models()
            if self.log is not None:
                # VS Code runs no chat request (a participant's or a session's) until it has a model: this line
                # says a window (a new one, a reload) can take requests.
                self.log.info('Hermes models: ' + ', '.join([model['id'] for model in self._models]) +
                              ' given to VS Code')
        return self._models

    async def _load_models(self) -> 'List[JsonObject]':
        current = llm_settings()
        configured = current['model']
        names = [configured]
        cancellation = Cancellation()
        timer = set_timer(lambda: cancellation.cancel('timeout'), LIST_TIMEOUT_MS)
        try:
            listed = await self.llm.list_models(cancellation)
            for name in listed:
                if json_type(name) == 'string' and not (name in names):
                    names.append(name)
        except JsError as error:
            if self.log is not None:
                self.log.info('Hermes models: listing ' + current['endpoint'] + '/models failed (' +
                              error_message(error) + '); offering ' + configured)
        clear_timer(timer)
        client = await self.llm.client()
        models = []  # type: List[JsonObject]
        for index in range(len(names)):
            info = None  # type: Any
            if index < INFO_LIMIT:
                try:
                    info = await client.model_info(names[index])
                except JsError:
                    info = None
            models.append(model_information(names[index], info, current['endpoint'], configured,
                                            loop_options(names[index])['context_tokens']))
        return models

    # -------------------------------------------------------------------------------- requests

    async def respond(self, model: Any, messages: Any, options: Any, progress: Any, token: Any) -> None:
        cancellation = Cancellation()
        subscription = None
        if token is not None:
            if token.isCancellationRequested:
                return None
            subscription = token.onCancellationRequested(lambda event: cancellation.cancel('Cancelled in VS Code.'))
        model_id = prop(model, 'id')
        history = to_openai(messages)
        tools = openai_tools_from_vscode(prop(options, 'tools'))
        try:
            if len(tools) > 0:
                await self._with_tools(model_id, history, tools, options, progress, cancellation)
            else:
                await self._with_hermes(model_id, history, progress, cancellation)
        finally:
            if subscription is not None:
                subscription.dispose()
        return None

    async def _with_tools(self, model_id: str, history: 'List[Any]', tools: 'List[JsonObject]', options: Any,
                          progress: Any, cancellation: 'Cancellation') -> None:
        """VS Code runs the tools: one completion, its calls reported as parts."""
        tool_choice = 'required' if prop(options, 'toolMode') == TOOL_MODE_REQUIRED else 'auto'
        body = chat_request(model_id, history, tools, tool_choice, True, _model_options(prop(options, 'modelOptions')))
        client = await self.llm.client()
        parts = self.parts

        def on_delta(delta: str) -> None:
            progress.report(parts.text(delta))
        try:
            turn = await client.stream_chat(body, on_delta, cancellation)
        except LlmError as error:
            if error.kind == 'cancelled' or cancellation.cancelled:
                return
            raise_js(js_error(error.message))
        calls = tool_call_parts(get_key(turn, 'tool_calls'), parts)
        for problem in calls['errors']:
            if self.log is not None:
                self.log.warn('Hermes model ' + model_id + ': ' + problem)
        for part in calls['parts']:
            progress.report(part)

    async def _with_hermes(self, model_id: str, history: 'History', progress: Any,
                           cancellation: 'Cancellation') -> None:
        """No tools offered: the Hermes loop answers with its own tools."""
        parts = self.parts
        outcome = await self.llm.run(history, TextSink(lambda text: progress.report(parts.text(text))), cancellation,
                                     model_id)
        if outcome['stopped'] == 'error' and not cancellation.cancelled:
            raise_js(js_error(outcome['error'] or 'The Hermes agent failed.'))

    def token_count(self, model: Any, text: Any, token: Any = None) -> int:
        return estimate_request_tokens(text)


def _model_options(options: Any) -> 'Optional[JsonObject]':
    """The OpenAI parameters a caller may pass in `modelOptions` (others are ignored)."""
    if not is_object(options):
        return None
    extra = {}  # type: JsonObject
    for key in copyable_keys(options):
        if key in MODEL_OPTIONS:
            extra[key] = options[key]
    return extra


def register_lm_provider(context: 'ExtensionContext', log: 'Log',
                         llm: 'LlmService') -> 'Optional[HermesLanguageModel]':
    if vscode.lm is None or vscode.lm.registerLanguageModelChatProvider is None:
        return None
    model = HermesLanguageModel(llm, VsCodeParts(), log)
    changed = new(vscode.EventEmitter)  # type: Any
    context.subscriptions.push(changed)

    def refresh() -> None:
        model.forget()
        changed.fire(None)
    on_settings_changed(context, 'llm', refresh)
    on_secret = context.secrets.onDidChange
    if on_secret is not None:
        def secret_changed(event: Any) -> None:
            if event is None or event.key == API_KEY_SECRET:
                refresh()
        context.subscriptions.push(on_secret(secret_changed))
    provider = {
        'onDidChangeLanguageModelChatInformation': changed.event,
        'provideLanguageModelChatInformation': to_js_callback(model.information),
        'provideLanguageModelChatResponse': to_js_callback(model.respond),
        'provideTokenCount': to_js_callback(model.token_count),
    }
    context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider))
    # VS Code asks a provider for its models only when something selects them or the provider says they
    # changed: say so once (after the registration, on the same channel), so the models are in the model
    # picker before anyone asks (seen in code-server 1.139 without Copilot: otherwise the picker stays empty).
    changed.fire(None)
    return model


# __pragma__('skip')
def _is_an_event_sink(sink: TextSink) -> EventSink:  # the type checker holds TextSink to contracts/events.py
    return sink
# __pragma__('noskip')
