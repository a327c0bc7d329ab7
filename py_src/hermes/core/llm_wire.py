"""The OpenAI Chat Completions wire format, free of I/O: request bodies, the streamed chunks folded
into one assistant turn, and the error type the LLM client raises and the agent loop reads.

A streamed turn arrives as SSE events whose data is a `chat.completion.chunk` (or `[DONE]`):
`choices[0].delta.content` carries text pieces; `choices[0].delta.tool_calls` carries tool calls
by `index`, the id and name in the first piece and the JSON arguments in any number of pieces,
several calls interleaved; `finish_reason` and (with `stream_options.include_usage`) `usage`
arrive at the end. Servers differ at the edges (a missing index, a name repeated in every piece,
arguments as an object, an `error` object mid-stream); `StreamAccumulator` takes all of them.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.chat import ChatMessage, ChatRequest, LlmTurn, ToolCallMessage, Usage
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import LlmErrorKind
from hermes.core.tools import Tool
# __pragma__('noskip')
from hermes.js.json import dump_json, parse_json, parse_json_plain
from hermes.core.values import json_type, is_object, get_key, copyable_keys
from hermes.core.settings_spec import default_of


class LlmError(Exception):
    """What went wrong talking to the LLM, in words for the user (`str(error)`).

    `kind`: 'unreachable', 'timeout', 'auth', 'model_not_found', 'endpoint_not_found',
    'tools_unsupported', 'rate_limited', 'server', 'bad_request', 'stream_cut', 'protocol',
    'cancelled'. `partial` is the turn assembled before a stream broke (see StreamAccumulator.turn),
    so what arrived is kept."""

    def __init__(self, message: str, kind: 'LlmErrorKind' = 'server', status: 'Optional[int]' = None,
                 partial: 'Optional[LlmTurn]' = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.status = status
        self.partial = partial

    def __str__(self) -> str:
        return self.message


# ------------------------------------------------------------------------------------------ requests

DEFAULT_ENDPOINT = default_of('llm.endpoint')
DEFAULT_CONTEXT_TOKENS = 8192  # a model's context when neither the server nor the options say


def normalize_endpoint(endpoint: 'Optional[str]') -> str:
    """'http://h:1/v1/chat/completions/' → 'http://h:1/v1' (None or empty: the setting's default). Here, not in
    net/llm_client.py, since the settings read it at start-up and the client loads on first use (js/parts.py)."""
    text = (endpoint or DEFAULT_ENDPOINT).strip()
    while text.endswith('/'):
        text = text[:len(text) - 1]
    for suffix in ['/chat/completions', '/completions']:
        if text.endswith(suffix):
            text = text[:len(text) - len(suffix)]
    return text


def openai_tool(tool: 'Tool', compact: bool = False) -> 'JsonObject':
    """A registry Tool in the OpenAI function format. `compact`: the description's first sentence and
    no per-parameter descriptions (about half the tokens, for models with a small context)."""
    description = tool.description or ''
    parameters = tool.input_schema
    if compact:
        description = first_sentence(description)
        parameters = without_descriptions(parameters)
    return {'type': 'function', 'function': {'name': tool.name, 'description': description,
                                             'parameters': parameters}}


def openai_tools(tools: 'List[Tool]', compact: bool = False) -> 'List[JsonObject]':
    return [openai_tool(tool, compact) for tool in tools]


def first_sentence(text: str) -> str:
    end = text.find('. ')
    return text if end < 0 else text[:end + 1]


def without_descriptions(schema: 'Json') -> 'Json':
    """A copy of a JSON schema without 'description' keys (names and types carry the meaning)."""
    kind = json_type(schema)
    if kind == 'array':
        return [without_descriptions(item) for item in schema]
    if kind != 'object':
        return schema
    copy = {}  # type: JsonObject
    for key in copyable_keys(schema):
        if key != 'description':
            copy[key] = without_descriptions(schema[key])
    return copy


def chat_request(model: str, messages: 'List[JsonObject]', tools: 'Optional[List[JsonObject]]' = None,
                 tool_choice: 'Optional[str]' = None, include_usage: bool = True,
                 extra: 'Optional[JsonObject]' = None) -> 'ChatRequest':
    """The body of a streaming POST /chat/completions. `tools` are already in OpenAI format."""
    body = {'model': model, 'messages': messages, 'stream': True}
    if include_usage:
        body['stream_options'] = {'include_usage': True}
    if tools is not None and len(tools) > 0:
        body['tools'] = tools
        body['tool_choice'] = 'auto' if tool_choice is None else tool_choice
    if extra is not None:
        for key in copyable_keys(extra):
            body[key] = extra[key]
    return body


def tool_call_message(call_id: str, name: str, arguments_text: str) -> 'ToolCallMessage':
    return {'id': call_id, 'type': 'function', 'function': {'name': name, 'arguments': arguments_text}}


def assistant_message(content: 'Optional[str]', tool_calls: 'Optional[List[ToolCallMessage]]' = None) -> 'ChatMessage':
    """An assistant message for the history. Content is '' rather than null when there are tool
    calls: some servers (older llama.cpp, some proxies) reject a null content."""
    message = {'role': 'assistant', 'content': '' if content is None else content}  # type: ChatMessage
    if tool_calls is not None and len(tool_calls) > 0:
        message['tool_calls'] = tool_calls
    return message


def tool_message(call_id: str, content: 'Json') -> 'ChatMessage':
    return {'role': 'tool', 'tool_call_id': call_id, 'content': content}


def parse_arguments(text: 'Json') -> 'Dict[str, Any]':
    """The JSON arguments of a tool call → {'value': dict} or {'error': why}. Empty means {}."""
    if json_type(text) == 'object':
        return {'value': text}
    if text is None or (json_type(text) == 'string' and text.strip() == ''):
        return {'value': {}}
    if json_type(text) != 'string':
        return {'error': 'the arguments are not a JSON object'}
    try:
        value = parse_json(text)
    except ValueError as error:
        return {'error': 'invalid JSON (' + str(error) + ')'}
    if json_type(value) == 'string':  # double-encoded by some models
        try:
            value = parse_json(value)
        except ValueError:
            pass
    if not is_object(value):
        return {'error': 'the arguments must be a JSON object, got ' + json_type(value)}
    return {'value': value}


# ------------------------------------------------------------------------------------------ streams

DONE = '[DONE]'


class StreamAccumulator:
    """Folds the data of a stream's SSE events into one turn. `feed_data(text)` returns the text
    delta the event carried ('' if none); `turn()` is the result so far."""

    def __init__(self, call_id_prefix: str = 'hermes_call_') -> None:
        self.parts = []  # type: List[str]
        self.calls = []  # type: List[Dict[str, Any]]  # by index: {'id', 'name', 'arguments' (pieces)}
        self.finish_reason = None  # type: Optional[str]
        self.usage = None  # type: Optional[Usage]
        self.model = None  # type: Optional[str]
        self.error = None  # type: Optional[str]  # an error the server reported inside the stream
        self.done = False
        self.chunks = 0
        self._prefix = call_id_prefix
        self._last_index = -1

    def feed_data(self, data: str, event_type: str = 'message') -> str:
        text = data.strip()
        if text == DONE:
            self.done = True
            return ''
        if text == '':
            return ''
        try:
            chunk = parse_json_plain(text)  # the hot path: read only through values.py helpers
        except ValueError:
            if event_type == 'error':
                self.error = text
                return ''
            raise LlmError('The LLM sent a stream event that is not JSON: ' + text[:200], 'protocol')
        if event_type == 'error':
            self.error = _error_text(chunk) or text[:300]
            return ''
        return self.feed_chunk(chunk)

    def feed_chunk(self, chunk: 'Json') -> str:
        if not is_object(chunk):
            return ''
        self.chunks += 1
        error = get_key(chunk, 'error')
        if error is not None:
            self.error = _error_text(chunk) or dump_json(error)
            return ''
        model = get_key(chunk, 'model')
        if json_type(model) == 'string':
            self.model = model
        usage = get_key(chunk, 'usage')
        if is_object(usage):
            self.usage = usage
        choices = get_key(chunk, 'choices')
        if json_type(choices) != 'array' or len(choices) == 0:
            return ''
        choice = choices[0]
        if not is_object(choice):
            return ''
        reason = get_key(choice, 'finish_reason')
        if json_type(reason) == 'string':
            self.finish_reason = reason
        delta = get_key(choice, 'delta')
        if not is_object(delta):
            delta = get_key(choice, 'message')  # a server that sends whole messages
        if not is_object(delta):
            return ''
        calls = get_key(delta, 'tool_calls')
        if json_type(calls) == 'array':
            for position in range(len(calls)):
                self._add_call_piece(calls[position], position)
        content = get_key(delta, 'content')
        if json_type(content) == 'string' and content != '':
            self.parts.append(content)
            return content
        return ''

    def _add_call_piece(self, piece: 'Json', position: int) -> None:
        if not is_object(piece):
            return
        call_id = get_key(piece, 'id')
        has_id = json_type(call_id) == 'string' and call_id != ''
        index = get_key(piece, 'index')
        if json_type(index) != 'integer' or index < 0 or index > 1000:
            # No index: a piece with a new id opens a new call; one without continues the last.
            index = self._index_for_id(call_id) if has_id else (self._last_index if self._last_index >= 0 else position)
        while len(self.calls) <= index:
            self.calls.append({'id': None, 'name': '', 'arguments': []})
        call = self.calls[index]
        self._last_index = index
        if has_id and call['id'] is None:
            call['id'] = call_id
        fn = get_key(piece, 'function')
        if not is_object(fn):
            return
        name = get_key(fn, 'name')
        if json_type(name) == 'string' and name != '' and name != call['name']:
            call['name'] = call['name'] + name
        arguments = get_key(fn, 'arguments')
        if json_type(arguments) == 'string':
            call['arguments'].append(arguments)
        elif is_object(arguments):
            call['arguments'] = [dump_json(arguments)]

    def _index_for_id(self, call_id: 'Json') -> int:
        for index in range(len(self.calls)):
            if self.calls[index]['id'] == call_id:
                return index
        return len(self.calls)

    @property
    def content(self) -> str:
        return ''.join(self.parts)

    def tool_calls(self) -> 'List[ToolCallMessage]':
        """The calls in OpenAI message format; ids are generated where the server sent none."""
        result = []
        for index in range(len(self.calls)):
            call = self.calls[index]
            if call['name'] == '' and len(call['arguments']) == 0:
                continue
            call_id = call['id'] if call['id'] is not None else self._prefix + str(index)
            result.append(tool_call_message(call_id, call['name'], ''.join(call['arguments'])))
        return result

    def turn(self) -> 'LlmTurn':
        return {
            'content': self.content,
            'tool_calls': self.tool_calls(),
            'finish_reason': self.finish_reason,
            'usage': self.usage,
            'model': self.model,
        }


def _error_text(value: 'Json') -> 'Optional[str]':
    """The message of an OpenAI-style error object ({"error": {"message"}} or {"error": "text"})."""
    if not is_object(value):
        return None
    error = get_key(value, 'error', value)
    if json_type(error) == 'string':
        return error
    message = get_key(error, 'message')
    if json_type(message) == 'string' and message != '':
        return message
    detail = get_key(value, 'detail')
    if json_type(detail) == 'string':
        return detail
    return None


def error_text_of_body(text: 'Optional[str]') -> 'Optional[str]':
    """The server's own explanation in an error response body (JSON or plain text), or None."""
    if text is None:
        return None
    stripped = text.strip()
    if stripped == '':
        return None
    try:
        body = parse_json(stripped)
    except ValueError:
        body = None
    message = _error_text(body)
    if message is not None:
        return message
    return stripped if len(stripped) <= 300 else stripped[:300] + '…'


def add_usage(total: 'Optional[Usage]', usage: 'Json') -> 'Optional[Usage]':
    """Sum token counts across the turns of one run."""
    if not is_object(usage):
        return total
    if total is None:
        total = {'prompt_tokens': 0, 'completion_tokens': 0, 'total_tokens': 0}
    sums = total  # type: Any  # (a Usage, summed key by key)
    for key in ['prompt_tokens', 'completion_tokens', 'total_tokens']:
        value = get_key(usage, key)
        if json_type(value) == 'integer' or json_type(value) == 'number':
            sums[key] = sums[key] + value
    return total
