"""Which part of a text a tool returns: a 1-based line range, capped by lines and characters, with an
explicit note of what was left out so the model knows to ask for more (and how)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
# __pragma__('noskip')
from hermes.core.tools import ToolError

MAX_LINES = 2000
MAX_CHARS = 100000


def split_lines(text: str) -> 'List[str]':
    """The lines of `text` without their '\\n' (a '\\r' stays: CRLF text keeps its line endings).
    A final newline does not start another line; the empty text has no lines."""
    if text == '':
        return []
    lines = text.split('\n')
    if text.endswith('\n'):
        lines.pop()
    return lines


def count_lines(text: str) -> int:
    """len(split_lines(text)), without making a string per line (a 10 MB file has 250,000)."""
    if text == '':
        return 0
    count = 0
    found = text.find('\n')
    while found != -1:
        count += 1
        found = text.find('\n', found + 1)
    return count if text.endswith('\n') else count + 1


def line_window(text: str, start_line: 'Optional[int]' = None, end_line: 'Optional[int]' = None,
                max_lines: int = MAX_LINES, max_chars: int = MAX_CHARS) -> 'Dict[str, Any]':
    """{'text', 'start', 'end', 'total', 'note'} for lines start..end (1-based, inclusive) of `text`.
    `end` is the last line actually returned; `note` says what was cut, or is None.
    Only the returned lines are cut out of `text` (measured: splitting a 10 MB file into lines and
    collecting them was most of a file_read)."""
    total = count_lines(text)
    start = 1 if start_line is None else start_line
    last = total if end_line is None else min(end_line, total)
    if start < 1:
        raise ToolError('start_line must be 1 or more (lines are numbered from 1).')
    if total == 0:
        return {'text': '', 'start': 0, 'end': 0, 'total': 0, 'note': None}
    if start > total:
        raise ToolError('start_line ' + str(start) + ' is past the end: the file has ' + str(total) + ' lines.')
    if last < start:
        raise ToolError('end_line ' + str(end_line) + ' is before start_line ' + str(start) + '.')
    kept = []  # type: List[str]
    size = 0
    index = start - 1
    cut_line = None
    position = 0
    for _ in range(index):
        position = text.find('\n', position) + 1
    while index < last:
        if len(kept) >= max_lines:
            break
        line_end = text.find('\n', position)
        line = text[position:] if line_end == -1 else text[position:line_end]
        position = line_end + 1
        if size + len(line) + 1 > max_chars:
            if len(kept) == 0:  # one enormous line (minified code): return its beginning
                kept.append(line[:max_chars])
                cut_line = {'line': index + 1, 'more': len(line) - max_chars}
                index += 1
            break
        kept.append(line)
        size += len(line) + 1
        index += 1
    end = start + len(kept) - 1
    note = None
    remaining = last - end
    if cut_line is not None:
        note = ('[truncated: line ' + str(cut_line['line']) + ' has ' + str(cut_line['more']) +
                ' more characters]')
    if remaining > 0:
        more = ('[truncated: ' + str(remaining) + ' more lines (' + str(end + 1) + '-' + str(last) + ' of ' +
                str(total) + '); continue with start_line=' + str(end + 1) + ']')
        note = more if note is None else note + '\n' + more
    return {'text': '\n'.join(kept), 'start': start, 'end': end, 'total': total, 'note': note}


def render_window(label: str, window: 'Dict[str, Any]', extra: 'Optional[str]' = None) -> str:
    """The text a reading tool returns: one header line, the lines, then the truncation note."""
    if window['total'] == 0:
        header = label + ' (empty)'
    else:
        header = (label + ' (lines ' + str(window['start']) + '-' + str(window['end']) + ' of ' +
                  str(window['total']) + ')')
    if extra is not None:
        header = header + ' ' + extra
    parts = [header, window['text']]
    if window['note'] is not None:
        parts.append(window['note'])
    return '\n'.join(parts)
