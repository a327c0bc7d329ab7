"""What the agent loop (core/agent_loop.py) asks the model for each reply: the system prompt with the workspace, the
history fitted to the context window (older messages left out, long tool results shortened, the current request
kept), and the tools offered — all of them, compact definitions, or only the essential ones when even those do not
fit. The context window is the setting's, else what the server reports (the model's info, read once per loop). And
the history as the loop's tool protocol sends it (`render_history`)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TypedDict
from hermes.contracts.chat import ChatMessage, ChatRequest, History, ModelInfo
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ToolMode
from hermes.core.tools import Tool, ToolRegistry
if TYPE_CHECKING:
    from hermes.core.agent_loop import LlmClient, Sinks  # (it imports this module)


class ToolOffer(TypedDict):
    tools: List[Tool]
    compact: bool  # definitions without descriptions (core/llm_wire.py openai_tool)
# __pragma__('noskip')
from hermes.js.errors import JsError
from hermes.js.json import dump_json
from hermes.core.values import json_type, is_object, get_key
from hermes.core.cancellation import Cancellation, CANCELLED
from hermes.core.llm_wire import DEFAULT_CONTEXT_TOKENS, chat_request, openai_tools, assistant_message, tool_message
from hermes.core.tool_text import parse_tool_blocks, render_call_block, results_message
from hermes.core.context_budget import fit_messages, estimate_tools_tokens
from hermes.core.system_prompt import build_system_prompt


class LoopRequests:
    """One loop's requests: `client` may tell the model's info (`model_info`, optional), `registry` holds the tools,
    `options` are the loop's (core/agent_loop.py DEFAULTS: model, context_tokens, reply_tokens, instructions)."""

    def __init__(self, client: 'LlmClient', registry: 'ToolRegistry', options: 'Dict[str, Any]') -> None:
        self._client = client
        self._registry = registry
        self._options = options
        self._model_info = None  # type: Optional[ModelInfo]
        self._model_info_read = False
        self._warned_tools_overflow = False
        self._tool_token_cache = {}  # type: Dict[str, int]

    async def model_info(self, cancellation: Cancellation) -> 'Optional[ModelInfo]':
        """The model's info (context length, tool support), asked of the client once; None when it cannot tell."""
        if self._model_info_read:
            return self._model_info
        self._model_info_read = True
        reader = getattr(self._client, 'model_info', None)  # optional: a client may not tell
        if reader is None or cancellation.cancelled:
            return None
        try:
            info = await cancellation.race(self._client.model_info(self._options['model']))
        except JsError:
            info = None
        self._model_info = None if info is CANCELLED else info
        return self._model_info

    def _context_tokens(self) -> int:
        configured = self._options['context_tokens']
        if json_type(configured) == 'integer' and configured > 0:
            return configured
        info = self._model_info
        if is_object(info) and json_type(get_key(info, 'context_length')) == 'integer':
            return get_key(info, 'context_length')
        return DEFAULT_CONTEXT_TOKENS

    async def request(self, history: 'History', mode: 'Optional[ToolMode]', keep_from: int, workspace: 'Json',
                      last_chance: bool, events: 'Sinks') -> 'ChatRequest':
        """The body of the next request: `history` from `keep_from` on is never left out; `last_chance` asks for an
        answer without tools."""
        context = self._context_tokens()
        offer = self._tools_to_offer(context, events)
        tools = offer['tools']
        text_protocol = mode == 'text'
        instructions = self._options['instructions']
        if last_chance and mode != 'none':
            note = ('This is your last step: answer the user now, without calling tools.')
            instructions = note if instructions is None else instructions + '\n\n' + note
        system = {'role': 'system', 'content': build_system_prompt(workspace, tools, text_protocol, instructions)}  # type: ChatMessage
        native_tools = openai_tools(tools, offer['compact']) if mode == 'native' else None
        reply = min(self._options['reply_tokens'], context // 4)
        budget = context - reply - estimate_tools_tokens(native_tools)
        fitted = fit_messages(system, history, budget, keep_from)
        if fitted['dropped'] > 0 or fitted['trimmed'] > 0:
            events.emit(lambda sink: sink.on_notice('To fit the model\'s context (' + str(context) + ' tokens), ' +
                  str(fitted['dropped']) + ' older messages were left out and ' + str(fitted['trimmed']) +
                  ' long tool results shortened.'))
        messages = [fitted['messages'][0]]
        messages.extend(render_history(fitted['messages'][1:], mode))  # no list `+` in JS
        tool_choice = 'none' if last_chance else 'auto'
        return chat_request(self._options['model'], messages, native_tools, tool_choice)

    def _tools_to_offer(self, context: int, events: 'Sinks') -> 'ToolOffer':
        """Every tool when their definitions fit in half the context; else compact definitions; else
        only the essential tools, compact. The user is told once per loop, with what to change."""
        tools = self._registry.list()
        limit = context // 2
        if self._definition_tokens(tools, False) <= limit:
            return {'tools': tools, 'compact': False}
        if self._definition_tokens(tools, True) <= limit:
            return {'tools': tools, 'compact': True}
        essentials = [tool for tool in tools if tool.essential]
        if not self._warned_tools_overflow:
            self._warned_tools_overflow = True  # once per loop: the same advice every turn is noise
            events.emit(lambda sink: sink.on_notice('The model\'s context (' + str(context) + ' tokens) is too small for all ' +
                  str(len(tools)) + ' tools, so only ' + str(len(essentials)) + ' essential ones are offered. '
                  'Give the model a larger context (for Ollama: OLLAMA_CONTEXT_LENGTH=32768 ollama serve) and set '
                  '"hermes.llm.contextLength" to match.'))
        return {'tools': essentials, 'compact': True}

    def _definition_tokens(self, tools: 'List[Tool]', compact: bool) -> int:
        """Estimated once per tool set (the registry rarely changes between requests)."""
        key = ('compact:' if compact else 'full:') + ','.join([tool.name for tool in tools])
        if key not in self._tool_token_cache:
            self._tool_token_cache[key] = estimate_tools_tokens(openai_tools(tools, compact))
        return self._tool_token_cache[key]
def render_history(history: 'History', mode: 'Optional[ToolMode]') -> 'List[ChatMessage]':
    """The history as the current mode sends it: clean OpenAI messages (no `hermes_` keys); in text
    mode tool calls become ```tool blocks and results a user message."""
    messages = []  # type: List[ChatMessage]
    index = 0
    count = len(history)
    while index < count:
        message = history[index]
        role = get_key(message, 'role')
        if role == 'tool':
            if mode == 'text':
                results = []  # type: List[JsonObject]
                while index < count and get_key(history[index], 'role') == 'tool':
                    item = history[index]
                    results.append({'name': get_key(item, 'hermes_tool', 'tool'), 'id': get_key(item, 'tool_call_id', ''),
                                    'text': _content_text(get_key(item, 'content', '')),
                                    'is_error': get_key(item, 'hermes_is_error') is True})
                    index += 1
                messages.append(results_message(results))
                continue
            messages.append(tool_message(get_key(message, 'tool_call_id', ''), get_key(message, 'content', '')))
        elif role == 'assistant':
            messages.append(_render_assistant(message, mode))
        else:
            clean = {'role': role, 'content': get_key(message, 'content', '')}  # type: ChatMessage
            if json_type(get_key(message, 'name')) == 'string':
                clean['name'] = message['name']
            messages.append(clean)
        index += 1
    return messages


def _render_assistant(message: 'ChatMessage', mode: 'Optional[ToolMode]') -> 'ChatMessage':
    content = get_key(message, 'content', '')
    content = '' if content is None else content
    calls = get_key(message, 'tool_calls', [])
    calls = [] if json_type(calls) != 'array' else calls
    raw_text = get_key(message, 'hermes_text_protocol') is True
    if mode == 'text':
        if raw_text or len(calls) == 0:
            return {'role': 'assistant', 'content': content}
        blocks = [render_call_block(call['function']['name'], call['function']['arguments']) for call in calls]
        return {'role': 'assistant', 'content': (content + '\n\n' if content != '' else '') + '\n'.join(blocks)}
    if raw_text:
        content = parse_tool_blocks(content)['text']
    clean = assistant_message(content, calls)
    return clean


def _content_text(content: 'Json') -> str:
    return content if json_type(content) == 'string' else dump_json(content)
