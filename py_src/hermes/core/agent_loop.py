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
every mode (text-mode replies carry `hermes_text_protocol`); `render_history` (core/loop_requests.py) turns it into what
the current mode sends. Keys starting with `hermes_` never leave the extension.

The client: `await client.stream_chat(body, on_text_delta, cancellation)` → a turn dict
(core/llm_wire.py `StreamAccumulator.turn`), raising `LlmError`; optionally
`await client.model_info(model)` → {'context_length', 'supports_tools'} or None.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, Protocol, Union
from hermes.contracts.chat import ChatMessage, ChatRequest, History, LlmTurn, ModelInfo, ToolCallMessage
from hermes.contracts.events import EventSink
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, LoopOptions, Outcome, RecordedReply, ToolMode
from hermes.core.tools import ToolRegistry

SinkArgument = Union[EventSink, List[EventSink], None]


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
from hermes.core.values import json_type, is_object, get_key
from hermes.core.cancellation import Cancellation
from hermes.core.llm_wire import LlmError, assistant_message, tool_call_message, add_usage
from hermes.core.tool_text import parse_tool_blocks, correction_message, ToolBlockFilter
from hermes.core.settings_spec import default_of, declaration
from hermes.core.loop_requests import LoopRequests
from hermes.core.loop_tools import CANCELLED_TEXT, run_tools, tool_result_message

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
GENERATED_ID_PREFIX = 'hermes_call_'


class Sinks:
    """The sinks that hear one run (contracts/events.py EventSink: the one list of events). Each event reaches
    each sink on its own: one that raises, or a plain JS object without that method, stops neither the others
    nor the loop."""

    def __init__(self, sinks: 'SinkArgument') -> None:
        given = sinks  # type: Any  # one sink, a list of them, or None
        self.sinks = [] if given is None else (given if json_type(given) == 'array' else [given])  # type: List[EventSink]
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
            if named is not None:
                chosen = named
        if chosen is None:
            return fallback
        if get_key(chosen, 'turn') is None:
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
                if value is not None:
                    self.options[key] = value
        if not (self.options['tool_calling'] in MODES):
            self.options['tool_calling'] = 'auto'
        self.text_fallback = False  # auto mode learned that native tool calls don't work here
        self.requests = LoopRequests(client, registry, self.options)
        self._runs = 0  # runs so far: a turn id for the change log when the front end names none

    # ------------------------------------------------------------------------------------ a run

    async def run(self, history: 'History', sink: 'SinkArgument' = None, cancellation: 'Optional[Cancellation]' = None,
                  workspace: 'Json' = None) -> 'Outcome':
        events = Sinks(sink)
        self._runs = self._runs + 1
        # A turn id unique across windows and reloads when the front end names none: the time and this loop's count.
        events.author = events.change_author({'client': 'Hermes', 'session': None,
                                              'turn': 'run-' + str(round(now_ms())) + '-' + str(self._runs)})
        cancellation = Cancellation() if cancellation is None else cancellation
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
        if turn is None:
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
        await run_tools(self.registry, calls, run.history, run.events, run.cancellation,
                        self.options['max_tool_result_chars'])
        if len(errors) > 0:
            run.history.append(_correction(errors))
        if run.cancellation.cancelled:
            run.outcome['stopped'] = 'cancelled'
            return False
        return True

    async def _stream_reply(self, run: _Run, last_chance: bool) -> 'Optional[LlmTurn]':
        """Ask the model and stream its text to the sink: the turn dict; RETRY when 'auto' just switched to the
        text protocol before anything was shown; None when the run ended (error or cancel, recorded)."""
        body = await self.requests.request(run.history, run.mode, run.keep_from, run.workspace, last_chance,
                                           run.events)
        text_filter = ToolBlockFilter() if run.mode == 'text' else None
        streamed = {'any': False}

        def on_delta(delta: str) -> None:
            streamed['any'] = True
            shown = delta if text_filter is None else text_filter.feed(delta)
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
        if text_filter is not None:
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
            run.history.append(tool_result_message(call, 'Not run: Hermes stopped after ' + limit +
                                                    ' model replies (hermes.agent.maxIterations).', True))
        _fail(run.outcome, run.events, LlmError('Stopped after ' + limit + ' model replies without a final answer. '
                                                'Raise hermes.agent.maxIterations, or ask again to continue.',
                                                'max_iterations'))
        run.outcome['stopped'] = 'max_iterations'

    # ------------------------------------------------------------------------------------ requests

    async def _initial_mode(self, events: Sinks, cancellation: Cancellation) -> 'ToolMode':
        info = await self.requests.model_info(cancellation)  # also sizes the context budget
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

    def _keep_partial(self, history: 'History', error: LlmError, text_filter: 'Optional[ToolBlockFilter]',
                      events: Sinks, mode: 'Optional[ToolMode]') -> None:
        """A reply cut short: keep the text that arrived (tool calls in pieces are dropped)."""
        if text_filter is not None:
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
            if self.registry.get(call['name']) is None:
                return False
        return True


def _correction(errors: 'List[str]') -> 'ChatMessage':
    message = correction_message(errors)
    message['hermes_correction'] = True
    return message


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
            history.append(tool_result_message(call, CANCELLED_TEXT, True))


def _fail(outcome: 'Outcome', events: Sinks, error: LlmError) -> None:
    outcome['stopped'] = 'error'
    outcome['error'] = error.message
    outcome['error_kind'] = error.kind
    events.emit(lambda sink: sink.on_error(error))
