"""Text for a confirmation dialog that cannot mislead: characters that are invisible or reorder what is
shown (control characters, bidi overrides and isolates, zero-width and line-separator characters) are
written out as \\u{XXXX}, so the user reads exactly what the tool will receive."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
# __pragma__('noskip')
from hermes.core.values import json_type

HEX = '0123456789ABCDEF'
# [first, last] code point ranges that are shown escaped
INVISIBLE = [[0x0000, 0x001F], [0x007F, 0x009F], [0x00AD, 0x00AD], [0x061C, 0x061C], [0x115F, 0x1160],
             [0x180E, 0x180E], [0x200B, 0x200F], [0x2028, 0x202E], [0x2060, 0x206F], [0x3164, 0x3164],
             [0xFE00, 0xFE0F], [0xFEFF, 0xFEFF], [0xFFF9, 0xFFFB]]


def _hex(code: int) -> str:
    digits = ''
    while code > 0 or len(digits) < 4:
        digits = HEX[code % 16] + digits
        code = code // 16
    return digits


def _invisible(code: int) -> bool:
    for bounds in INVISIBLE:
        if code >= bounds[0] and code <= bounds[1]:
            return True
    return False


def escape_invisible(text: str, keep_newlines: bool = False) -> str:
    """`text` with every invisible or reordering character written as \\u{XXXX} (newlines kept if asked)."""
    parts = []
    for char in text:
        code = ord(char)
        if keep_newlines and char == '\n':
            parts.append(char)
        elif _invisible(code):
            parts.append('\\u{' + _hex(code) + '}')
        else:
            parts.append(char)
    return ''.join(parts)


def drop_invisible(text: str, keep_newlines: bool = False) -> str:
    """`text` with every invisible or reordering character replaced by a space (newlines kept if asked): for
    an agent's words shown as a label, where writing them out would only be noise."""
    kept = []  # type: List[str]
    for char in text:
        kept.append(char if keep_newlines and char == '\n' else ' ' if _invisible(ord(char)) else char)
    return ''.join(kept)


MAX_TITLE_CHARS = 200


def agent_title(value: 'Any') -> 'Optional[str]':
    """A title an agent gave (its session's, from `session_info_update` or `session/list`) as it may be stored and
    shown: one line, without invisible or reordering characters (dropped: a title has no use for them), at most
    MAX_TITLE_CHARS characters; None for no text."""
    if json_type(value) != 'string':
        return None
    kept = []  # type: List[str]
    for char in value:
        kept.append(' ' if _invisible(ord(char)) else char)
    title = ' '.join(''.join(kept).split())
    if title == '':
        return None
    return title if len(title) <= MAX_TITLE_CHARS else title[:MAX_TITLE_CHARS - 1] + '…'
