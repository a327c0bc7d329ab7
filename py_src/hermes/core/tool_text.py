"""The ```tool text protocol, for models and servers without native tool calling.

The system prompt describes the tools and asks for calls as fenced blocks:

    ```tool
    {"name": "editor_get_open_tabs", "arguments": {}}
    ```

`parse_tool_blocks` is tolerant of what small models actually write: the fence tagged `tool`,
`tool_call`, `tool_use` or `json` (a `json` block counts only if it looks like a call), a missing
closing fence at the end of the reply, a list of calls in one block, `parameters` for `arguments`,
arguments given as a JSON string, trailing commas. What it still cannot read becomes an entry in
`errors`, which the loop turns into a correction message for the model instead of failing.
Results go back as one user message (`results_message`).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.core.tools import Tool  # (no cycle: core/tools.py does not import this module)
from hermes.contracts.chat import ChatMessage
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.js.json import dump_json, parse_json
from hermes.js.text import native_regex, regex_replace_all
from hermes.core.values import json_type, is_object, get_key, has_key
from hermes.core.strip_chars import lstrip_chars

FENCE = '```'
CALL_TAGS = ['tool', 'tool_call', 'tool_code', 'tool_use', 'tools', 'function_call']
RESULTS_HEADER = 'Tool results:'
CORRECTION_HEADER = 'Your tool call could not be read:'
_TRAILING_COMMA = native_regex(',(?=\\s*[}\\]])', 'g')  # a comma right before } or ]


def protocol_prompt(tools: 'List[Tool]') -> str:
    """The system-prompt section that teaches the protocol and lists the tools with their schemas."""
    lines = [
        '## Tools',
        'You can call tools to look at and change the workspace. To call a tool, reply with a fenced '
        'block tagged `tool` that holds one JSON object with the tool\'s "name" and its "arguments":',
        '',
        '```tool',
        '{"name": "tool_name", "arguments": {"parameter": "value"}}',
        '```',
        '',
        'Rules: one call per block; several blocks in one reply run in order. Use only the tools listed '
        'below, with arguments that match their JSON Schema. After your tool blocks, stop and wait: the '
        'results come back in the next message, starting with "' + RESULTS_HEADER + '". Never invent '
        'results. When you have what you need, answer the user in plain text without a tool block.',
        '',
        'Available tools:',
    ]
    for tool in tools:
        lines.append('')
        lines.append('### ' + tool.name)
        if tool.description:
            lines.append(tool.description)
        lines.append('Arguments (JSON Schema): ' + dump_json(tool.input_schema))
    return '\n'.join(lines)


def render_call_block(name: str, arguments: 'Json') -> str:
    """A call as the model would have written it (for replaying native history in text mode)."""
    if json_type(arguments) == 'string':
        parsed = None
        try:
            parsed = parse_json(arguments) if arguments.strip() != '' else {}
        except ValueError:
            parsed = None
        arguments = parsed if is_object(parsed) else arguments
    return FENCE + 'tool\n' + dump_json({'name': name, 'arguments': arguments}) + '\n' + FENCE


def parse_tool_blocks(text: str) -> 'Dict[str, Any]':
    """{'calls': [{'name', 'arguments'}], 'errors': [text], 'text': the reply without the call blocks}."""
    calls = []  # type: List[JsonObject]
    errors = []  # type: List[str]
    kept = []
    position = 0
    length = len(text)
    while position < length:
        start = _find_fence_start(text, position)
        if start < 0:
            kept.append(text[position:])
            break
        line_end = text.find('\n', start)
        if line_end < 0:
            line_end = length
        tag = text[start + 3:line_end].strip().lower()
        close = _find_fence_end(text, line_end)
        body_end = length if close < 0 else close
        after = length if close < 0 else close + 3
        body = text[line_end + 1:body_end] if line_end < length else ''
        if tag in CALL_TAGS:
            _read_block(body, calls, errors)
            kept.append(text[position:start])
        elif tag == 'json' and _looks_like_call(body):
            _read_block(body, calls, errors)
            kept.append(text[position:start])
        else:
            kept.append(text[position:after])  # ordinary code: keep it
        position = after
    return {'calls': calls, 'errors': errors, 'text': ''.join(kept).strip()}


def _find_fence_start(text: str, position: int) -> int:
    """The next ``` that opens a line (or the text)."""
    while True:
        found = text.find(FENCE, position)
        if found < 0:
            return -1
        if found == 0 or text[found - 1] == '\n' or _only_spaces_before(text, found):
            return found
        position = found + 3


def _only_spaces_before(text: str, index: int) -> bool:
    # Not text.rfind('\n', 0, index): Transcrypt's rfind(sub, start) is JS lastIndexOf(sub, start),
    # which searches backwards from `start`, and it ignores `end`.
    line_start = text[:index].rfind('\n') + 1
    return text[line_start:index].strip() == ''


def _find_fence_end(text: str, body_start: int) -> int:
    position = body_start
    while True:
        found = text.find(FENCE, position)
        if found < 0:
            return -1
        if _only_spaces_before(text, found):
            return found
        position = found + 3


def _looks_like_call(body: str) -> bool:
    value = _parse_lenient(body)
    items = value if json_type(value) == 'array' else [value]
    return len(items) > 0 and is_object(items[0]) and has_key(items[0], 'name') and (
        has_key(items[0], 'arguments') or has_key(items[0], 'parameters'))


def _parse_lenient(body: str) -> 'Json':
    text = body.strip()
    if text == '':
        return None
    try:
        return parse_json(text)
    except ValueError:
        pass
    repaired = regex_replace_all(_TRAILING_COMMA, text, '')
    try:
        return parse_json(repaired)
    except ValueError:
        return None


def _read_block(body: str, calls: 'List[JsonObject]', errors: 'List[str]') -> None:
    text = body.strip()
    if text == '':
        errors.append('An empty ```tool block: put {"name": ..., "arguments": {...}} inside it.')
        return
    value = _parse_lenient(text)
    if value is None:
        value = _parse_json_lines(text)
    if value is None:
        errors.append('This is not valid JSON:\n' + _clip(text, 400) + '\nWrite exactly one JSON object '
                      'like {"name": "tool_name", "arguments": {...}}, with double quotes and no comments.')
        return
    items = value if json_type(value) == 'array' else [value]
    for item in items:
        call = _call_of(item)
        if call['error'] is None:
            calls.append({'name': call['name'], 'arguments': call['arguments']})
        else:
            errors.append(call['error'])


def _parse_json_lines(text: str) -> 'Optional[List[Json]]':
    """Several JSON objects in one block, one per line."""
    values = []
    for line in text.split('\n'):
        if line.strip() == '':
            continue
        value = _parse_lenient(line)
        if value is None:
            return None
        values.append(value)
    return values if len(values) > 0 else None


def _call_of(item: 'Json') -> 'JsonObject':
    if not is_object(item):
        return {'error': 'A tool call must be a JSON object with "name" and "arguments", not ' +
                _clip(dump_json(item), 100) + '.'}
    name = get_key(item, 'name')
    if json_type(name) != 'string' or name == '':
        fn = get_key(item, 'function')  # {"function": {"name", "arguments"}} as in OpenAI's format
        if is_object(fn):
            return _call_of(fn)
        return {'error': 'A tool call needs a "name" (a string): ' + _clip(dump_json(item), 200)}
    arguments = get_key(item, 'arguments', get_key(item, 'parameters', {}))
    if json_type(arguments) == 'string':
        try:
            arguments = parse_json(arguments) if arguments.strip() != '' else {}
        except ValueError:
            return {'error': 'The "arguments" of ' + name + ' are not valid JSON: ' + _clip(arguments, 200)}
    if arguments is None:
        arguments = {}
    if not is_object(arguments):
        return {'error': 'The "arguments" of ' + name + ' must be a JSON object, not ' + json_type(arguments) + '.'}
    return {'error': None, 'name': name, 'arguments': arguments}


def correction_message(errors: 'List[str]') -> 'ChatMessage':
    """The user message that tells the model what to fix."""
    return {'role': 'user', 'content': CORRECTION_HEADER + '\n' + '\n'.join(['- ' + error for error in errors]) +
            '\nSend the corrected ```tool block, or answer without tools.'}


def results_message(results: 'List[JsonObject]') -> 'ChatMessage':
    """Tool results as one user message: results = [{'name', 'id', 'text', 'is_error'}]."""
    parts = [RESULTS_HEADER]
    for result in results:
        status = 'error' if result['is_error'] else 'ok'
        parts.append('')
        parts.append('```tool_result name=' + result['name'] + ' id=' + result['id'] + ' status=' + status)
        parts.append(result['text'])
        parts.append(FENCE)
    parts.append('')
    parts.append('Continue: call more tools with ```tool blocks, or answer the user.')
    return {'role': 'user', 'content': '\n'.join(parts)}


class ToolBlockFilter:
    """Passes a streamed reply's text through while holding back ```tool blocks (the UI shows those
    as tool calls, not text). `feed(delta)` and `finish()` return the text to show now. Text is held
    only while the current line could still turn out to be a fence; ordinary code blocks pass."""

    def __init__(self) -> None:
        self._pending = ''
        self._state = 'text'  # 'text', 'code' (an ordinary fence: shown) or 'tool' (hidden)
        self._line_started = False  # part of the current line was already let through

    def feed(self, delta: str) -> str:
        self._pending = self._pending + delta
        return self._drain(False)

    def finish(self) -> str:
        return self._drain(True)

    def _drain(self, final: bool) -> str:
        shown = []
        while len(self._pending) > 0:
            newline = self._pending.find('\n')
            if newline < 0:
                partial = self._pending
                if final or self._line_started or not _could_be_fence(partial):
                    if self._state != 'tool':
                        shown.append(partial)
                    self._pending = ''
                    self._line_started = not final
                break
            line = self._pending[:newline + 1]
            self._pending = self._pending[newline + 1:]
            fence = not self._line_started and lstrip_chars(line, ' ').startswith(FENCE)
            self._line_started = False
            if not fence:
                if self._state != 'tool':
                    shown.append(line)
            elif self._state == 'text':
                tag = line.strip()[3:].strip().lower()
                if tag in CALL_TAGS:
                    self._state = 'tool'
                else:
                    self._state = 'code'
                    shown.append(line)
            elif self._state == 'code':
                if line.strip() == FENCE:
                    self._state = 'text'
                shown.append(line)
            else:  # the end of a tool block
                self._state = 'text'
        return ''.join(shown)


def _could_be_fence(partial: str) -> bool:
    start = lstrip_chars(partial, ' ')
    return start == '' or FENCE.startswith(start) or start.startswith(FENCE)


def _clip(text: 'Optional[str]', limit: int) -> str:
    if text is None:
        return ''
    return text if len(text) <= limit else text[:limit] + '…'
