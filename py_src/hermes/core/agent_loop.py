"""The tool-calling loop shared by the side panel, the @hermes participant and the Hermes language
model. It takes an LLM client, the tool registry and an event sink, and knows nothing of VS Code.

    loop = AgentLoop(client, registry, {'model': 'qwen2.5:7b', 'tool_calling': 'auto'})
    history.append({'role': 'user', 'content': 'What is open?'})
    outcome = await loop.run(history, sink, cancellation, workspace)

One run: build the messages (system prompt with the workspace, the history fitted to the context
window), stream the model's reply, run the tools it asked for through the registry (so the same
argument validation and confirmation gate as MCP apply), feed the results back, and repeat until the
model answers without tools or `max_iterations` replies were requested. `history` is the
conversation in OpenAI's message format and is extended in place; whatever happens (an error, a
cancel), an assistant message with tool calls is always followed by one tool message per call.

Tool calling (`tool_calling`): 'native' sends `tools` and reads `tool_calls`; 'text' describes the
tools in the system prompt and reads ```tool blocks (core/tool_text.py); 'auto' starts native and
switches to text for good when the server rejects `tools`, the server says the model has no tool
support, or the model answers with ```tool blocks anyway. The history stays in the native shape in
every mode (text-mode replies carry `hermes_text_protocol`); `render_history` turns it into what
the current mode sends. Keys starting with `hermes_` never leave the extension.

The client: `await client.stream_chat(body, on_text_delta, cancellation)` → a turn dict
(core/llm_wire.py `StreamAccumulator.turn`), raising `LlmError`; optionally
`await client.model_info(model)` → {'context_length', 'supports_tools'} or None.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, Protocol, TypedDict, Union
from hermes.contracts.chat import ChatMessage, ChatRequest, History, LlmTurn, ModelInfo, ToolCallMessage
from hermes.contracts.events import EventSink
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, LoopOptions, Outcome, RecordedReply, ShownCall, ToolMode
from hermes.contracts.mcp import CallToolResult
from hermes.core.tools import Tool, ToolRegistry

SinkArgument = Union[EventSink, List[EventSink], None]


class ToolOffer(TypedDict):
    tools: List[Tool]
    compact: bool  # definitions without descriptions (core/llm_wire.py openai_tool)


class LlmClient(Protocol):
    """What the loop needs of net/llm_client.py LlmClient (a test hands it a scripted one, which may leave
    `model_info` out: the loop reads it only when present)."""

    def stream_chat(self, body: ChatRequest, on_delta: Callable[[str], None],
                    cancellation: 'Cancellation') -> Awaitable[LlmTurn]: ...

    def model_info(self, model: str) -> Awaitable[Optional[ModelInfo]]: ...
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.objects import is_none
from hermes.core.values import json_type, is_object, get_key, has_key
from hermes.core.tools import ToolCall, error_result, result_text, marked_error
from hermes.core.cancellation import Cancellation, CANCELLED
from hermes.core.llm_wire import (DEFAULT_CONTEXT_TOKENS, LlmError, chat_request, openai_tools, assistant_message,
                                  tool_message, tool_call_message, parse_arguments, add_usage)
from hermes.core.tool_text import (parse_tool_blocks, render_call_block, results_message, correction_message,
                                   ToolBlockFilter)
from hermes.core.context_budget import fit_messages, estimate_tools_tokens, FOR_CONTEXT
from hermes.core.output_text import cap_chars
from hermes.core.system_prompt import build_system_prompt
from hermes.core.settings_spec import default_of, declaration

DEFAULTS = {
    'model': default_of('llm.model'),
    'tool_calling': default_of('llm.toolCalling'),
    'max_iterations': default_of('agent.maxIterations'),
    'context_tokens': None,  # None: what the server reports (Ollama), else DEFAULT_CONTEXT_TOKENS
    'reply_tokens': 2048,  # kept free for the reply (at most a quarter of the context)
    'max_tool_result_chars': 24000,
    'instructions': None,
}
MODES = declaration('llm.toolCalling')['enum']
CANCELLED_TEXT = 'Cancelled by the user before this tool finished.'
GENERATED_ID_PREFIX = 'hermes_call_'


class Sinks:
    """The sinks that hear one run (contracts/events.py EventSink: the one list of events). Each event reaches
    each sink on its own: one that raises, or a plain JS object without that method, stops neither the others
    nor the loop."""

    def __init__(self, sinks: 'SinkArgument') -> None:
        given = sinks  # type: Any  # one sink, a list of them, or None
        self.sinks = [] if is_none(given) else (given if json_type(given) == 'array' else [given])  # type: List[EventSink]
        self.author = None  # type: Optional[ChangeAuthor]  # the change log's author of this run's writes (set by run)

    def emit(self, deliver: 'Callable[[EventSink], None]') -> None:
        for sink in self.sinks:
            try:
                deliver(sink)
            except JsError:
                pass

    def change_author(self, fallback: 'ChangeAuthor') -> 'ChangeAuthor':
        """The author the LAST sink that names one gives (`change_author()`: a listener added after the front
        end's own sink is the more specific, e.g. a chat session recording an @hermes-style turn), with
        `fallback`'s turn when it names none; `fallback` when no sink names one (or it fails)."""
        chosen = None  # type: Any
        for sink in self.sinks:
            try:
                named = sink.change_author()
            except JsError:  # (a plain JS object without the method too)
                named = None
            if not is_none(named):
                chosen = named
        if is_none(chosen):
            return fallback
        if is_none(get_key(chosen, 'turn')):
            return {'client': get_key(chosen, 'client'), 'session': get_key(chosen, 'session'),
                    'turn': fallback['turn']}
        return chosen


class _Run:
    """What one run carries from one iteration to the next."""

    def __init__(self, history: 'History', events: Sinks, cancellation: Cancellation, workspace: 'Json',
                 outcome: 'Outcome') -> None:
        self.history = history
        self.events = events
        self.cancellation = cancellation
        self.workspace = workspace
        self.outcome = outcome
        self.keep_from = _last_user_index(history)  # the current request is never trimmed away
        self.mode = None  # type: Optional[ToolMode]
        self.iteration = 0


RETRY = {'retry': True}  # type: Any  # _stream_reply: ask for the same reply again (see there)


class AgentLoop:
    def __init__(self, client: 'LlmClient', registry: 'ToolRegistry', options: 'Optional[LoopOptions]' = None) -> None:
        self.client = client
        self.registry = registry
        self.options = {}  # type: Dict[str, Any]
        for key in DEFAULTS.keys():
            self.options[key] = DEFAULTS[key]
        if is_object(options):
            for key in DEFAULTS.keys():
                value = get_key(options, key)
                if not is_none(value):
                    self.options[key] = value
        if not (self.options['tool_calling'] in MODES):
            self.options['tool_calling'] = 'auto'
        self.text_fallback = False  # auto mode learned that native tool calls don't work here
        self._model_info = None  # type: Optional[ModelInfo]
        self._warned_tools_overflow = False
        self._tool_token_cache = {}  # type: Dict[str, int]
        self._model_info_read = False
        self._runs = 0  # runs so far: a turn id for the change log when the front end names none

    # ------------------------------------------------------------------------------------ a run

    async def run(self, history: 'History', sink: 'SinkArgument' = None, cancellation: 'Optional[Cancellation]' = None,
                  workspace: 'Json' = None) -> 'Outcome':
        events = Sinks(sink)
        self._runs = self._runs + 1
        # A turn id unique across windows and reloads when the front end names none: the time and this loop's count.
        events.author = events.change_author({'client': 'Hermes', 'session': None,
                                              'turn': 'run-' + str(round(now_ms())) + '-' + str(self._runs)})
        cancellation = Cancellation() if is_none(cancellation) else cancellation
        outcome = {'text': '', 'stopped': None, 'iterations': 0, 'usage': None, 'mode': None, 'error': None,
                   'error_kind': None}  # type: Outcome
        run = _Run(history, events, cancellation, workspace, outcome)
        try:
            run.mode = await self._initial_mode(events, cancellation)
            while await self._iteration(run):
                pass
        except JsError as error:  # a bug, not an LLM failure: still end the run cleanly
            _fail(outcome, events, LlmError('Hermes failed: ' + error_message(error), 'internal'))
        _close_dangling_calls(history)
        events.emit(lambda sink: sink.on_done(outcome))
        return outcome

    async def _iteration(self, run: _Run) -> bool:
        """One model reply and the tools it asked for. True: ask the model again; False: the run is over
        (`run.outcome['stopped']` says why)."""
        run.outcome['mode'] = run.mode
        if run.cancellation.cancelled:
            run.outcome['stopped'] = 'cancelled'
            return False
        run.iteration += 1
        run.outcome['iterations'] = run.iteration
        last_chance = run.iteration >= self.options['max_iterations']
        run.events.emit(lambda sink: sink.on_iteration(run.iteration))
        turn = await self._stream_reply(run, last_chance)
        if turn is RETRY:
            run.iteration -= 1  # the same reply again, now in the text protocol
            return True
        if is_none(turn):
            return False
        reply = self._record_reply(run, turn)
        calls = reply['calls']
        errors = reply['errors']
        if len(calls) == 0:
            if len(errors) > 0 and not last_chance:
                run.history.append(_correction(errors))
                run.events.emit(lambda sink: sink.on_notice('The model\'s tool call could not be read; asking it to fix it.'))
                return True
            run.outcome['stopped'] = 'done'
            return False
        if last_chance:
            self._cut_at_last_iteration(run, calls)
            return False
        await self._run_tools(calls, run.history, run.events, run.cancellation)
        if len(errors) > 0:
            run.history.append(_correction(errors))
        if run.cancellation.cancelled:
            run.outcome['stopped'] = 'cancelled'
            return False
        return True

    async def _stream_reply(self, run: _Run, last_chance: bool) -> 'Optional[LlmTurn]':
        """Ask the model and stream its text to the sink: the turn dict; RETRY when 'auto' just switched to the
        text protocol before anything was shown; None when the run ended (error or cancel, recorded)."""
        body = await self._request(run.history, run.mode, run.keep_from, run.workspace, last_chance, run.events)
        text_filter = ToolBlockFilter() if run.mode == 'text' else None
        streamed = {'any': False}

        def on_delta(delta: str) -> None:
            streamed['any'] = True
            shown = delta if is_none(text_filter) else text_filter.feed(delta)
            if shown != '':
                run.events.emit(lambda sink: sink.on_text(shown))
        try:
            turn = await self.client.stream_chat(body, on_delta, run.cancellation)
        except LlmError as error:
            if (error.kind == 'tools_unsupported' and run.mode == 'native' and
                    self.options['tool_calling'] == 'auto' and not streamed['any']):
                run.mode = self._fall_back_to_text(run.events, 'the server refused native tool calls (' +
                                                   error.message + ')')
                return RETRY
            self._keep_partial(run.history, error, text_filter, run.events, run.mode)
            if error.kind == 'cancelled' or run.cancellation.cancelled:
                run.outcome['stopped'] = 'cancelled'
            else:
                _fail(run.outcome, run.events, error)
            return None
        if not is_none(text_filter):
            rest = text_filter.finish()
            if rest != '':
                run.events.emit(lambda sink: sink.on_text(rest))
        run.outcome['usage'] = add_usage(run.outcome['usage'], get_key(turn, 'usage'))
        return turn

    def _record_reply(self, run: _Run, turn: 'LlmTurn') -> 'RecordedReply':
        """The reply as an assistant message in the history (tool calls read natively or from ```tool blocks,
        with ids that are unique in the conversation): {'calls', 'errors'} (blocks that could not be read)."""
        content = get_key(turn, 'content', '') or ''
        calls = get_key(turn, 'tool_calls', []) or []
        errors = []
        text_reply = run.mode == 'text'
        if (run.mode != 'text' and len(calls) == 0 and self.options['tool_calling'] == 'auto' and
                content.find('```') >= 0):
            parsed = parse_tool_blocks(content)
            if len(parsed['calls']) > 0 and self._all_known(parsed['calls']):
                run.mode = self._fall_back_to_text(run.events, 'the model wrote ```tool blocks instead of native '
                                                               'tool calls')
                run.outcome['mode'] = run.mode
                text_reply = True
        if text_reply:
            parsed = parse_tool_blocks(content)
            calls = []
            for item in parsed['calls']:
                calls.append(tool_call_message(GENERATED_ID_PREFIX + str(len(calls)), item['name'],
                                               dump_json(item['arguments'])))
            errors = parsed['errors']
            answer = parsed['text']
        else:
            answer = content
        calls = _with_unique_ids(calls, len(run.history))
        message = assistant_message(content, calls)
        if text_reply:
            message['hermes_text_protocol'] = True
        run.history.append(message)
        run.outcome['text'] = answer
        return {'calls': calls, 'errors': errors}

    def _cut_at_last_iteration(self, run: _Run, calls: 'List[ToolCallMessage]') -> None:
        """The last reply still asked for tools: answer each call (so the history stays well-formed) and stop."""
        limit = str(self.options['max_iterations'])
        for call in calls:
            run.history.append(_tool_result_message(call, 'Not run: Hermes stopped after ' + limit +
                                                    ' model replies (hermes.agent.maxIterations).', True))
        _fail(run.outcome, run.events, LlmError('Stopped after ' + limit + ' model replies without a final answer. '
                                                'Raise hermes.agent.maxIterations, or ask again to continue.',
                                                'max_iterations'))
        run.outcome['stopped'] = 'max_iterations'

    async def _run_tools(self, calls: 'List[ToolCallMessage]', history: 'History', events: Sinks,
                         cancellation: Cancellation) -> None:
        for call in calls:
            name = call['function']['name']
            parsed = parse_arguments(call['function']['arguments'])
            shown = {'id': call['id'], 'name': name,
                     'arguments': parsed['value'] if has_key(parsed, 'value') else call['function']['arguments']}  # type: ShownCall
            if cancellation.cancelled:
                result = error_result(CANCELLED_TEXT)
            else:
                events.emit(lambda sink: sink.on_tool_call(shown))
                if has_key(parsed, 'error'):
                    result = error_result('Invalid arguments for tool \'' + name + '\': ' + parsed['error'] +
                                          '. Call it again with the arguments as one JSON object.')
                else:
                    result = await self._call_tool(name, parsed['value'], cancellation, events, shown)
            text = cap_chars(result_text(result), self.options['max_tool_result_chars'], FOR_CONTEXT)
            history.append(_tool_result_message(call, text, result['isError'] is True))
            events.emit(lambda sink: sink.on_tool_result(shown, result))

    async def _call_tool(self, name: str, arguments: 'JsonObject', cancellation: Cancellation, events: Sinks,
                         shown: 'ShownCall') -> 'CallToolResult':
        if cancellation.cancelled:  # cancelled while the call was announced: never start it (in JS, calling an
            return error_result(CANCELLED_TEXT)  # async function runs it up to its first await)
        def report(progress: float, total: 'Optional[float]', message: 'Optional[str]') -> None:
            text = str(progress) + ('/' + str(total) if not is_none(total) else '')
            events.emit(lambda sink: sink.on_tool_log(shown, 'progress', text + (' ' + message if not is_none(message) else '')))

        def log(level: str, message: str) -> None:
            events.emit(lambda sink: sink.on_tool_log(shown, level, message))
        tool_call = ToolCall(report, log)
        tool_call.author = events.author
        tool_call.on_confirmation(lambda state: events.emit(lambda sink: sink.on_tool_confirmation(shown, state)))
        unsubscribe = cancellation.on_cancel(lambda: tool_call.cancel('The user cancelled the request.'))
        try:
            result = await cancellation.race(self.registry.call(name, arguments, tool_call))
        except JsError as error:
            result = error_result('Tool \'' + name + '\' failed: ' + error_message(error))
        unsubscribe()
        if result is CANCELLED:
            return error_result(CANCELLED_TEXT)
        return result

    # ------------------------------------------------------------------------------------ requests

    async def _initial_mode(self, events: Sinks, cancellation: Cancellation) -> 'ToolMode':
        info = await self._read_model_info(cancellation)  # also sizes the context budget
        if len(self.registry.list()) == 0:
            return 'none'
        setting = self.options['tool_calling']
        if setting == 'text':
            return 'text'
        if setting == 'native':
            return 'native'
        if self.text_fallback:
            return 'text'
        if is_object(info) and get_key(info, 'supports_tools') is False:
            return self._fall_back_to_text(events, 'the server says ' + self.options['model'] +
                                           ' does not support tool calling')
        return 'native'

    def _fall_back_to_text(self, events: Sinks, why: str) -> 'ToolMode':
        self.text_fallback = True
        events.emit(lambda sink: sink.on_notice('Using the text tool protocol: ' + why + '.'))
        return 'text'

    async def _read_model_info(self, cancellation: Cancellation) -> 'Optional[ModelInfo]':
        if self._model_info_read:
            return self._model_info
        self._model_info_read = True
        reader = getattr(self.client, 'model_info', None)  # optional: a client may not tell
        if is_none(reader) or cancellation.cancelled:
            return None
        try:
            info = await cancellation.race(self.client.model_info(self.options['model']))
        except JsError:
            info = None
        self._model_info = None if info is CANCELLED else info
        return self._model_info

    def _context_tokens(self) -> int:
        configured = self.options['context_tokens']
        if json_type(configured) == 'integer' and configured > 0:
            return configured
        info = self._model_info
        if is_object(info) and json_type(get_key(info, 'context_length')) == 'integer':
            return get_key(info, 'context_length')
        return DEFAULT_CONTEXT_TOKENS

    async def _request(self, history: 'History', mode: 'Optional[ToolMode]', keep_from: int, workspace: 'Json',
                       last_chance: bool, events: Sinks) -> 'ChatRequest':
        context = self._context_tokens()
        offer = self._tools_to_offer(context, events)
        tools = offer['tools']
        text_protocol = mode == 'text'
        instructions = self.options['instructions']
        if last_chance and mode != 'none':
            note = ('This is your last step: answer the user now, without calling tools.')
            instructions = note if is_none(instructions) else instructions + '\n\n' + note
        system = {'role': 'system', 'content': build_system_prompt(workspace, tools, text_protocol, instructions)}  # type: ChatMessage
        native_tools = openai_tools(tools, offer['compact']) if mode == 'native' else None
        reply = min(self.options['reply_tokens'], context // 4)
        budget = context - reply - estimate_tools_tokens(native_tools)
        fitted = fit_messages(system, history, budget, keep_from)
        if fitted['dropped'] > 0 or fitted['trimmed'] > 0:
            events.emit(lambda sink: sink.on_notice('To fit the model\'s context (' + str(context) + ' tokens), ' +
                  str(fitted['dropped']) + ' older messages were left out and ' + str(fitted['trimmed']) +
                  ' long tool results shortened.'))
        messages = [fitted['messages'][0]]
        messages.extend(render_history(fitted['messages'][1:], mode))  # no list `+` in JS
        tool_choice = 'none' if last_chance else 'auto'
        return chat_request(self.options['model'], messages, native_tools, tool_choice)

    def _tools_to_offer(self, context: int, events: Sinks) -> 'ToolOffer':
        """Every tool when their definitions fit in half the context; else compact definitions; else
        only the essential tools, compact. The user is told once per loop, with what to change."""
        tools = self.registry.list()
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

    def _keep_partial(self, history: 'History', error: LlmError, text_filter: 'Optional[ToolBlockFilter]',
                      events: Sinks, mode: 'Optional[ToolMode]') -> None:
        """A reply cut short: keep the text that arrived (tool calls in pieces are dropped)."""
        if not is_none(text_filter):
            rest = text_filter.finish()
            if rest != '':
                events.emit(lambda sink: sink.on_text(rest))
        partial = error.partial
        content = get_key(partial, 'content', '') if is_object(partial) else ''
        if json_type(content) == 'string' and content != '':
            if mode == 'text':
                content = parse_tool_blocks(content)['text']
            if content != '':
                history.append(assistant_message(content))

    def _all_known(self, calls: 'List[JsonObject]') -> bool:
        for call in calls:
            if is_none(self.registry.get(call['name'])):
                return False
        return True


# ---------------------------------------------------------------------------------- history


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
    content = '' if is_none(content) else content
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


def _tool_result_message(call: 'ToolCallMessage', text: str, is_error: bool) -> 'ChatMessage':
    message = tool_message(call['id'], marked_error(text, is_error))
    message['hermes_tool'] = call['function']['name']
    message['hermes_is_error'] = is_error
    return message


def _correction(errors: 'List[str]') -> 'ChatMessage':
    message = correction_message(errors)
    message['hermes_correction'] = True
    return message


def _content_text(content: 'Json') -> str:
    return content if json_type(content) == 'string' else dump_json(content)


def _with_unique_ids(calls: 'List[ToolCallMessage]', salt: int) -> 'List[ToolCallMessage]':
    """Calls whose id the server left out get ids unique in this conversation."""
    result = []
    for index in range(len(calls)):
        call = calls[index]
        call_id = get_key(call, 'id')
        if json_type(call_id) != 'string' or call_id == '' or call_id.startswith(GENERATED_ID_PREFIX):
            call = tool_call_message('call_' + str(salt) + '_' + str(index), call['function']['name'],
                                     call['function']['arguments'])
        result.append(call)
    return result


def _last_user_index(history: 'History') -> int:
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if get_key(message, 'role') == 'user' and get_key(message, 'hermes_correction') is not True:
            return index
    return len(history)


def _close_dangling_calls(history: 'History') -> None:
    """Guarantee: every assistant tool call has a tool message after it (synthesized if not)."""
    index = len(history) - 1
    while index >= 0 and get_key(history[index], 'role') == 'tool':
        index -= 1
    if index < 0:
        return
    message = history[index]
    calls = get_key(message, 'tool_calls')
    if get_key(message, 'role') != 'assistant' or json_type(calls) != 'array':
        return
    answered = [get_key(item, 'tool_call_id') for item in history[index + 1:]]
    for call in calls:
        if not (call['id'] in answered):
            history.append(_tool_result_message(call, CANCELLED_TEXT, True))


def _fail(outcome: 'Outcome', events: Sinks, error: LlmError) -> None:
    outcome['stopped'] = 'error'
    outcome['error'] = error.message
    outcome['error_kind'] = error.kind
    events.emit(lambda sink: sink.on_error(error))
