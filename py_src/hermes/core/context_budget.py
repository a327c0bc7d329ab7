"""Token estimates and fitting a conversation into the model's context window.

The estimate needs no tokenizer: about four characters per token for ASCII text (English and code
tokenize at 3.5–4.5 characters in the BPE vocabularies of Llama, Qwen and GPT), one token per
non-ASCII character (CJK and emoji are at least that), plus a few tokens of framing per message.
It errs high, which is the safe side for a budget.

`fit_messages` keeps the system prompt and the latest turn whole, always. To make room it first
shortens oversized tool results in older turns (oldest first), then drops whole older turns, oldest
first: a turn (a user message and everything after it until the next user message) goes as a
unit, so an assistant message with tool calls never loses its tool results.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.chat import ChatMessage
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.js.text import native_regex, regex_count
from hermes.core.values import json_type, get_key
from hermes.core.output_text import cap_chars

MESSAGE_OVERHEAD = 4
_NON_ASCII = native_regex('[^\\x00-\\x7f]', 'g')
FOR_CONTEXT = ' to fit the model\'s context'  # the truncation note's reason (core/output_text.py cap_chars)
TOOL_RESULT_KEEP_TOKENS = 200  # what an old, oversized tool result is cut down to


def estimate_text_tokens(text: 'Optional[str]') -> int:
    if text is None or len(text) == 0:
        return 0
    non_ascii = regex_count(_NON_ASCII, text)
    ascii_chars = len(text) - non_ascii
    return (ascii_chars + 3) // 4 + non_ascii


def estimate_message_tokens(message: 'ChatMessage') -> int:
    tokens = MESSAGE_OVERHEAD
    content = get_key(message, 'content')
    if json_type(content) == 'string':
        tokens += estimate_text_tokens(content)
    elif content is not None:
        tokens += estimate_text_tokens(dump_json(content))
    calls = get_key(message, 'tool_calls')
    if json_type(calls) == 'array':
        for call in calls:
            fn = get_key(call, 'function', {})
            tokens += 6 + estimate_text_tokens(get_key(fn, 'name', '')) + \
                estimate_text_tokens(get_key(fn, 'arguments', ''))
    return tokens


def estimate_tokens(messages: 'List[ChatMessage]') -> int:
    total = 0
    for message in messages:
        total += estimate_message_tokens(message)
    return total


def estimate_tools_tokens(tools: 'Optional[List[JsonObject]]') -> int:
    """What native tool definitions cost in the prompt (servers render them into it)."""
    if tools is None or len(tools) == 0:
        return 0
    return estimate_text_tokens(dump_json(tools))


def turn_starts(messages: 'List[ChatMessage]') -> 'List[int]':
    """Indexes of the user messages that open turns."""
    starts = []  # type: List[int]
    for index in range(len(messages)):
        if get_key(messages[index], 'role') == 'user':
            starts.append(index)
    return starts


def fit_messages(system: 'ChatMessage', history: 'List[ChatMessage]', budget: int,
                 keep_from: 'Optional[int]' = None) -> 'Dict[str, Any]':
    """{'messages': [system] + what fits of history, 'trimmed': n results shortened, 'dropped': n
    messages left out, 'tokens': the estimate}. `keep_from` is where the latest turn starts in
    `history` (default: the last user message); nothing from there on is changed. `history` itself
    is never modified."""
    if keep_from is None:
        starts = turn_starts(history)
        keep_from = starts[len(starts) - 1] if len(starts) > 0 else 0
    sizes = [estimate_message_tokens(message) for message in history]
    total = estimate_message_tokens(system)
    for size in sizes:
        total += size
    messages = history[:]
    trimmed = 0
    dropped = 0
    if total > budget:  # 1. shorten big tool results of older turns, oldest first
        keep_tokens = TOOL_RESULT_KEEP_TOKENS
        for index in range(keep_from):
            if total <= budget:
                break
            message = messages[index]
            if get_key(message, 'role') != 'tool' or sizes[index] <= keep_tokens + MESSAGE_OVERHEAD + 20:
                continue
            shorter = _shortened(message, keep_tokens * 4)
            new_size = estimate_message_tokens(shorter)
            total -= sizes[index] - new_size
            sizes[index] = new_size
            messages[index] = shorter
            trimmed += 1
    first = 0
    if total > budget:  # 2. drop whole older turns, oldest first
        first = _first_kept(sizes, total, budget, keep_from, turn_starts(messages))
        for index in range(first):
            total -= sizes[index]
        dropped = first
    kept = messages[first:]
    messages = [system]
    messages.extend(kept)  # no list `+` in JS (Transcrypt without opov)
    return {'messages': messages, 'trimmed': trimmed, 'dropped': dropped, 'tokens': total}


def _first_kept(sizes: 'List[int]', total: int, budget: int, keep_from: int, starts: 'List[int]') -> int:
    """The first history index to keep: the earliest turn start after dropping just enough."""
    boundaries = [index for index in starts if index <= keep_from]
    if not (keep_from in boundaries):
        boundaries.append(keep_from)
    removed = 0
    previous = 0
    for boundary in boundaries:
        for index in range(previous, boundary):
            removed += sizes[index]
        previous = boundary
        if total - removed <= budget or boundary == keep_from:
            return boundary
    return keep_from


def _shortened(message: 'Any', keep_chars: int) -> 'ChatMessage':  # (Any: read by key names in a list)
    content = get_key(message, 'content', '')
    if json_type(content) != 'string':
        content = dump_json(content)
    if len(content) <= keep_chars:
        return message
    copy = {}  # type: Any  # a ChatMessage, built key by key
    for key in ['role', 'tool_call_id', 'name']:
        if get_key(message, key) is not None:
            copy[key] = message[key]
    copy['content'] = cap_chars(content, keep_chars, FOR_CONTEXT)
    return copy
