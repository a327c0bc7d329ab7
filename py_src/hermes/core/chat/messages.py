"""VS Code's language-model messages ↔ OpenAI chat messages, free of VS Code and of I/O.

VS Code hands a language model provider `LanguageModelChatRequestMessage`s: a role (User 1,
Assistant 2, System 3 where the proposal is enabled), an optional name, and `content`, a list of
parts. The parts are class instances this module recognises by their fields, as VS Code's own
converters do:

    text         {value: str}                              LanguageModelTextPart
    tool call    {callId, name, input: object}             LanguageModelToolCallPart (assistant)
    tool result  {callId, content: [text | data | …]}      LanguageModelToolResultPart (user)
    data         {mimeType, data: bytes}                   LanguageModelDataPart (images, JSON, text)

OpenAI wants tool calls as `tool_calls` on the assistant message and each result as its own
`role: tool` message right after it, so a VS Code user message holding tool results becomes those
tool messages first and then (if it has text) a user message.

The other direction builds VS Code parts through a `factory` the host supplies (it owns the
`vscode` classes): `text(value)`, `tool_call(call_id, name, input)`, `tool_result(call_id, texts)`,
`message(role, parts, name)`. Tests use a factory of plain dicts.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List
from hermes.contracts.chat import ChatMessage
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.js.errors import JsError
from hermes.js.json import dump_json
from hermes.js.objects import or_none
from hermes.js.text import utf8_text
from hermes.core.values import json_type, is_object, get_key
from hermes.core.llm_wire import tool_call_message, assistant_message, tool_message, parse_arguments
from hermes.core.context_budget import estimate_tokens, estimate_text_tokens

ROLE_USER = 1
ROLE_ASSISTANT = 2
ROLE_SYSTEM = 3
IMAGE_PLACEHOLDER = '[image omitted: this model does not take images]'
TEXT_MIME_PREFIXES = ['text/', 'application/json', 'application/xml', 'application/javascript']


def prop(obj: 'Any', key: str) -> 'Any':
    """`obj[key]` for a dict or a class instance (VS Code's parts), None when absent (never undefined)."""
    if obj is None:
        return None
    # __pragma__('skip')
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)
    # __pragma__('noskip')
    return or_none(obj[key])


def _string(value: 'Any', fallback: str = '') -> str:
    return value if json_type(value) == 'string' else fallback


# ------------------------------------------------------------------------------------ parts

def part_kind(part: 'Any') -> str:
    """'text', 'tool_call', 'tool_result', 'data', or 'unknown' (thinking parts, prompt-tsx, …)."""
    if json_type(part) == 'string':
        return 'text'
    if part is None or json_type(part) != 'object':
        return 'unknown'
    call_id = prop(part, 'callId')
    if json_type(call_id) == 'string':
        if json_type(prop(part, 'name')) == 'string' and prop(part, 'input') is not None:
            return 'tool_call'
        if json_type(prop(part, 'content')) == 'array':
            return 'tool_result'
    if json_type(prop(part, 'mimeType')) == 'string' and prop(part, 'data') is not None:
        return 'data'
    if json_type(prop(part, 'value')) == 'string' and prop(part, 'id') is None:  # thinking parts carry an id
        return 'text'
    return 'unknown'


def part_text(part: 'Any') -> str:
    """The text a model should read for a text or data part ('' for anything else)."""
    if json_type(part) == 'string':
        return part
    kind = part_kind(part)
    if kind == 'text':
        return prop(part, 'value')
    if kind == 'data':
        return data_text(prop(part, 'mimeType'), prop(part, 'data'))
    return ''


def data_text(mime_type: str, data: 'Any') -> str:
    """A data part as text: decoded when it is text or JSON, a placeholder for images, '' for the
    markers VS Code sends as data (cache_control, stateful markers)."""
    mime = mime_type.lower()
    if mime.startswith('image/'):
        return IMAGE_PLACEHOLDER
    for prefix in TEXT_MIME_PREFIXES:
        if mime.startswith(prefix):
            if json_type(data) == 'string':
                return data
            try:
                return utf8_text([data])
            except JsError:
                return ''
    return ''


def tool_result_text(content: 'Any') -> str:
    """The content list of a tool result (text, data, prompt-tsx parts) as one text."""
    if json_type(content) != 'array':
        return ''
    texts = []
    for item in content:
        kind = part_kind(item)
        if kind == 'text' or kind == 'data':
            text = part_text(item)
        else:
            value = prop(item, 'value')
            text = '' if value is None else _string(value, dump_json(value))
        if text != '':
            texts.append(text)
    return '\n'.join(texts)


# ------------------------------------------------------------------------------------ VS Code → OpenAI

def to_openai(messages: 'Any') -> 'List[ChatMessage]':
    """VS Code request messages → OpenAI chat messages (a new list; the input is not changed).

    A tool result whose call is not in an earlier assistant message (VS Code trimmed the history)
    becomes user text, because OpenAI servers reject a `tool` message without its call."""
    result = []
    known_calls = []
    for message in messages or []:
        role = prop(message, 'role')
        content = prop(message, 'content')
        parts = content if json_type(content) == 'array' else ([content] if json_type(content) == 'string' else [])
        name = prop(message, 'name')
        if role == ROLE_ASSISTANT:
            texts = []
            calls = []
            for part in parts:
                kind = part_kind(part)
                if kind == 'tool_call':
                    call_id = prop(part, 'callId')
                    calls.append(tool_call_message(call_id, prop(part, 'name'), _arguments_text(prop(part, 'input'))))
                    known_calls.append(call_id)
                else:
                    text = part_text(part)
                    if text != '':
                        texts.append(text)
            if len(texts) == 0 and len(calls) == 0:
                continue
            result.append(assistant_message(''.join(texts), calls))
            continue
        texts = []
        orphans = []
        for part in parts:
            kind = part_kind(part)
            if kind == 'tool_result':
                call_id = prop(part, 'callId')
                text = tool_result_text(prop(part, 'content'))
                if call_id in known_calls:
                    result.append(tool_message(call_id, text))
                else:
                    orphans.append('Result of tool call ' + call_id + ':\n' + text)
            else:
                text = part_text(part)
                if text != '':
                    texts.append(text)
        if len(orphans) > 0:
            if len(texts) > 0:
                orphans.append(''.join(texts))
            texts = ['\n\n'.join(orphans)]
        if len(texts) == 0:
            continue
        clean = {'role': 'system' if role == ROLE_SYSTEM else 'user', 'content': ''.join(texts)}  # type: Any
        if json_type(name) == 'string' and name != '':
            clean['name'] = name
        result.append(clean)
    return result


def _arguments_text(value: 'Any') -> str:
    if json_type(value) == 'string':
        return value
    return dump_json({} if value is None else value)


def openai_tools_from_vscode(tools: 'Any') -> 'List[JsonObject]':
    """`options.tools` of a chat request (LanguageModelChatTool: name, description, inputSchema) →
    the OpenAI `tools` list. A tool without a schema takes an empty object."""
    result = []
    for tool in tools or []:
        name = prop(tool, 'name')
        if json_type(name) != 'string' or name == '':
            continue
        schema = prop(tool, 'inputSchema')
        if not is_object(schema):
            schema = {'type': 'object', 'properties': {}}
        result.append({'type': 'function', 'function': {'name': name, 'description': _string(prop(tool, 'description')),
                                                        'parameters': schema}})
    return result


def estimate_request_tokens(value: 'Any') -> int:
    """What `provideTokenCount` answers: a string, or one VS Code message."""
    if json_type(value) == 'string':
        return estimate_text_tokens(value)
    return estimate_tokens(to_openai([value]))


# ------------------------------------------------------------------------------------ OpenAI → VS Code

def from_openai(messages: 'Any', factory: 'Any') -> 'List[Any]':
    """OpenAI chat messages → VS Code messages built by `factory`. Tool messages following an
    assistant message are gathered into one user message of tool results (VS Code's shape); a
    system message becomes a user message unless the factory takes ROLE_SYSTEM (`factory.system`)."""
    result = []
    pending = []  # tool result parts waiting for the next user message
    for message in messages or []:
        role = get_key(message, 'role')
        if role == 'tool':
            pending.append(factory.tool_result(_string(get_key(message, 'tool_call_id')),
                                               [_content_text(get_key(message, 'content'))]))
            continue
        if len(pending) > 0 and role != 'user':
            result.append(factory.message(ROLE_USER, pending, None))
            pending = []
        name = get_key(message, 'name')
        name = name if json_type(name) == 'string' else None
        text = _content_text(get_key(message, 'content'))
        if role == 'assistant':
            parts = []
            if text != '':
                parts.append(factory.text(text))
            for part in tool_call_parts(get_key(message, 'tool_calls'), factory)['parts']:
                parts.append(part)
            result.append(factory.message(ROLE_ASSISTANT, parts, name))
        else:
            parts = pending
            pending = []
            if text != '':
                parts.append(factory.text(text))
            system = role == 'system' and getattr(factory, 'system', False) is True
            result.append(factory.message(ROLE_SYSTEM if system else ROLE_USER, parts, name))
    if len(pending) > 0:
        result.append(factory.message(ROLE_USER, pending, None))
    return result


def tool_call_parts(tool_calls: 'Any', factory: 'Any') -> 'Dict[str, List[Any]]':
    """OpenAI `tool_calls` → {'parts': [tool call parts], 'errors': [why, …]}. VS Code wants the
    input as an object: arguments that are not a JSON object become {} and an error is noted."""
    parts = []  # type: List[Any]
    errors = []  # type: List[Any]
    if json_type(tool_calls) != 'array':
        return {'parts': parts, 'errors': errors}
    for call in tool_calls:
        spec = get_key(call, 'function', {})
        name = _string(get_key(spec, 'name'))
        if name == '':
            continue
        parsed = parse_arguments(get_key(spec, 'arguments'))
        if 'error' in parsed:
            errors.append('The arguments for ' + name + ' could not be read: ' + parsed['error'])
            value = {}
        else:
            value = parsed['value']
        parts.append(factory.tool_call(_string(get_key(call, 'id'), 'call_' + str(len(parts))), name, value))
    return {'parts': parts, 'errors': errors}


def _content_text(content: 'Any') -> str:
    """OpenAI content (a string, null, or a list of content parts) as text."""
    if json_type(content) == 'string':
        return content
    if json_type(content) != 'array':
        return ''
    texts = []
    for item in content:
        if get_key(item, 'type') == 'text' and json_type(get_key(item, 'text')) == 'string':
            texts.append(item['text'])
        elif get_key(item, 'type') == 'image_url':
            texts.append(IMAGE_PLACEHOLDER)
    return ''.join(texts)


class DictFactory:
    """Plain-dict VS Code parts, for tests and for code that only needs their shape."""
    system = False

    def text(self, value: str) -> 'JsonObject':
        return {'value': value}

    def tool_call(self, call_id: str, name: str, value: 'Any') -> 'JsonObject':
        return {'callId': call_id, 'name': name, 'input': value}

    def tool_result(self, call_id: str, texts: 'List[str]') -> 'JsonObject':
        return {'callId': call_id, 'content': [{'value': text} for text in texts]}

    def message(self, role: int, parts: 'List[Any]', name: 'Any') -> 'JsonObject':
        message = {'role': role, 'content': parts}
        if name is not None:
            message['name'] = name
        return message
