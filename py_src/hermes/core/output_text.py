"""Text that tools hand back to a model: escape sequences stripped, size capped with a note that says
how much was left out (so the model knows to narrow its request rather than trust a partial answer).
The one home of "cut and note": `cap_chars` (a plain cut), `cap_head`/`cap_tail` (at a line end, for output),
`cap_list`; text_window.py's `line_window` cuts by lines for the reading tools.
Pure string logic, the same in CPython and in the bundle."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional, Tuple
from hermes.contracts.mcp import CallToolResult
# __pragma__('noskip')
from hermes.js.text import native_regex, regex_replace_all
from hermes.core.text_window import count_lines

ESC = '\x1b'
BEL = '\x07'
# OSC (title, hyperlinks, VS Code's 633 shell-integration marks) ended by BEL or ESC \; DCS/SOS/PM/APC
# strings; CSI sequences (colours, cursor moves); two-character escapes; charset selection.
_ESCAPES = native_regex(
    ESC + '\\][^' + BEL + ESC + ']*(?:' + BEL + '|' + ESC + '\\\\)'
    '|' + ESC + '[PX^_][^' + ESC + ']*' + ESC + '\\\\'
    '|' + ESC + '\\[[0-?]*[ -/]*[@-~]'
    '|' + ESC + '[()][0-9A-Za-z]'
    '|' + ESC + '[@-_=>]', 'g')
_CONTROLS = native_regex('[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]', 'g')


def strip_ansi(text: str) -> str:
    """Terminal output as plain text: escape sequences and control characters removed, CRLF as LF,
    and a line rewritten with carriage returns (a progress bar) reduced to what was left on screen."""
    text = regex_replace_all(_ESCAPES, text, '')
    text = regex_replace_all(_CONTROLS, text.replace(ESC, ''), '')
    lines = text.replace('\r\n', '\n').split('\n')
    cleaned = []
    for line in lines:
        if '\r' in line:
            parts = [part for part in line.split('\r') if part != '']
            line = parts[len(parts) - 1] if len(parts) > 0 else ''
        cleaned.append(line)
    return '\n'.join(cleaned)


def cap_chars(text: str, limit: int, why: str = '', next_step: str = '') -> str:
    """The first `limit` characters of `text`, then a note on its own line of how many more there were and, when
    `why` is given, why it was cut, and when `next_step` is, what to ask for instead: '[truncated: 40 more
    characters]', '[truncated to fit the model's context: 40 more characters]', '[truncated: 40 more characters;
    ask for a narrower key]'. Every plain "cut and note" goes through here: a tool's result entering the loop's
    history, an old one shortened to fit the context, a conversation's card, a long selection, a command's return
    value, a large settings section, a prompt's selection or #file reference, a stored turn of @hermes."""
    if len(text) <= limit:
        return text
    return text[:limit] + cut_note(text, limit, why, next_step)


def cut_note(text: str, limit: int, why: str = '', next_step: str = '') -> str:
    """The note `cap_chars` puts after the first `limit` characters of `text` (a newline first), or '' when
    nothing is cut: for a caller that places the note itself (after a code fence that holds the cut text)."""
    if len(text) <= limit:
        return ''
    return ('\n[truncated' + why + ': ' + str(len(text) - limit) + ' more characters' +
            ('; ' + next_step if next_step != '' else '') + ']')


def cap_head(text: str, limit: int) -> str:
    """The start of `text`, at most `limit` characters (cut at a line end when one is near), plus a
    note naming what was left out."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rfind('\n')  # (JS rfind takes no end argument)
    if cut < limit // 2:
        cut = limit
    else:
        cut = cut + 1
    rest = text[cut:]
    return (text[:cut] + ('' if text[:cut].endswith('\n') else '\n') + '… (truncated: ' + str(count_lines(rest)) +
            ' more lines, ' + str(len(rest)) + ' more characters)')


def cap_tail(text: str, limit: int) -> str:
    """The end of `text` (the most recent output), at most `limit` characters, after a note naming
    what was left out before it."""
    if len(text) <= limit:
        return text
    start = len(text) - limit
    newline = text.find('\n', start)
    if newline != -1 and newline - start < limit // 2:
        start = newline + 1
    dropped = text[:start]
    return ('… (truncated: ' + str(count_lines(dropped)) + ' earlier lines, ' + str(len(dropped)) +
            ' characters omitted)\n' + text[start:])


def cap_list(items: 'List[Any]', limit: int) -> 'Tuple[List[Any], Optional[str]]':
    """(the first `limit` items, a note about the rest or None)."""
    if len(items) <= limit:
        return items, None
    return items[:limit], '… (truncated: ' + str(len(items) - limit) + ' more)'


def text_and_data(text: str, data: 'Any', is_error: bool = False) -> 'CallToolResult':
    """A CallToolResult whose text is what a model reads and whose structuredContent is the same
    answer as data (for programs and tests)."""
    return {'content': [{'type': 'text', 'text': text}], 'structuredContent': data, 'isError': is_error}
