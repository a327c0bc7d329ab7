"""Turning a model's edit requests into exact text replacements, or into an error it can act on.

Two kinds of edit, both judged against the same original text (edits never see each other's
results, so their order does not matter):
- exact text: {'old_text', 'new_text', 'replace_all'?} — old_text must occur exactly once (or
  replace_all), else the error says how many times and on which lines it occurs;
- line range: {'start_line', 'end_line', 'new_text'} — lines start..end (1-based, inclusive) become
  new_text; end_line = start_line - 1 inserts before start_line; start_line = lines + 1 appends.
The result is a sorted list of {'start', 'end', 'text'} character offsets, none overlapping.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.core.tools import ToolError
from hermes.core.values import has_key, get_key
from hermes.core.text_window import count_lines

MAX_LISTED = 10


def line_starts(text: str) -> 'List[int]':
    """Offsets where each line begins (one entry per line; the empty text has one empty line)."""
    starts = [0]
    index = text.find('\n')
    while index != -1:
        starts.append(index + 1)
        index = text.find('\n', index + 1)
    return starts


def line_of(starts: 'List[int]', offset: int) -> int:
    """The 1-based line holding `offset` (binary search over line_starts)."""
    low, high = 0, len(starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low + 1


def occurrences(text: str, needle: str) -> 'List[int]':
    """Offsets of the non-overlapping occurrences of `needle` in `text`."""
    found = []
    index = text.find(needle)
    while index != -1:
        found.append(index)
        index = text.find(needle, index + len(needle))
    return found


def with_eol(value: str, eol: str) -> str:
    """Model text uses '\\n'; a CRLF document gets '\\r\\n' so matches and new lines fit it."""
    if eol == '\n':
        return value
    return value.replace('\r\n', '\n').replace('\n', eol)


def plan_edits(text: str, edits: 'List[JsonObject]', label: str = 'the file') -> 'List[JsonObject]':
    """The replacements `edits` ask for in `text`, sorted and checked; ToolError otherwise."""
    eol = '\r\n' if text.find('\r\n') != -1 else '\n'
    starts = line_starts(text)
    planned = []
    for number in range(len(edits)):
        edit = edits[number]
        prefix = 'edits[' + str(number) + ']: ' if len(edits) > 1 else ''
        if has_key(edit, 'old_text'):
            for replacement in _exact(text, starts, edit, eol, prefix, label):
                replacement['edit'] = number
                planned.append(replacement)
        elif has_key(edit, 'start_line'):
            replacement = _line_range(text, starts, edit, eol, prefix, label)
            replacement['edit'] = number
            planned.append(replacement)
        else:
            raise ToolError(prefix + 'an edit needs either old_text (exact text to replace) or start_line and '
                            'end_line (a range of lines to replace).')
    planned.sort(key=lambda item: item['start'])
    for index in range(1, len(planned)):
        before, after = planned[index - 1], planned[index]
        if after['start'] < before['end'] or (after['start'] == before['end'] and before['start'] == before['end']
                                              and after['start'] == after['end']):
            raise ToolError('edits[' + str(before['edit']) + '] and edits[' + str(after['edit']) + '] overlap (line ' +
                            str(line_of(starts, after['start'])) + '); merge them into one edit.')
    return planned


def _exact(text: str, starts: 'List[int]', edit: 'JsonObject', eol: str, prefix: str, label: str) -> 'List[JsonObject]':
    old = with_eol(edit['old_text'], eol)
    new = with_eol(edit['new_text'] if has_key(edit, 'new_text') else '', eol)
    if old == '':
        raise ToolError(prefix + 'old_text is empty. To insert text, use start_line/end_line (end_line = '
                        'start_line - 1 inserts before that line), or include neighbouring text in old_text.')
    found = occurrences(text, old)
    if len(found) == 0:
        raise ToolError(prefix + 'old_text was not found in ' + label + '. ' + _not_found_hint(text, starts, old))
    if len(found) > 1 and get_key(edit, 'replace_all') is not True:
        lines = [str(line_of(starts, offset)) for offset in found[:MAX_LISTED]]
        more = ', …' if len(found) > MAX_LISTED else ''
        raise ToolError(prefix + 'old_text occurs ' + str(len(found)) + ' times in ' + label + ' (at lines ' +
                        ', '.join(lines) + more + '). Include more surrounding text to make it unique, or set '
                        'replace_all to true to replace every occurrence.')
    return [{'start': offset, 'end': offset + len(old), 'text': new} for offset in found]


def _not_found_hint(text: str, starts: 'List[int]', old: str) -> str:
    """Why an exact match may have failed: whitespace, or only the first line matching."""
    trimmed = old.strip()
    if trimmed != '' and trimmed != old:
        found = occurrences(text, trimmed)
        if len(found) > 0:
            return ('It does occur when leading/trailing whitespace is ignored (line ' +
                    str(line_of(starts, found[0])) + '): copy the indentation and line breaks exactly.')
    first = old.split('\n')[0].strip()
    if first != '' and first != trimmed:
        found = occurrences(text, first)
        if len(found) > 0:
            lines = [str(line_of(starts, offset)) for offset in found[:MAX_LISTED]]
            return ('Its first line occurs at line(s) ' + ', '.join(lines) + ' but what follows differs. Read '
                    'the current text there and copy it exactly.')
    return 'Read the current text (file_read or editor_get_content) and copy old_text from it exactly.'


def _line_range(text: str, starts: 'List[int]', edit: 'JsonObject', eol: str, prefix: str, label: str) -> 'JsonObject':
    total = count_lines(text)
    start = edit['start_line']
    end = edit['end_line'] if has_key(edit, 'end_line') else start
    new = with_eol(edit['new_text'] if has_key(edit, 'new_text') else '', eol)
    if start < 1 or start > total + 1:
        raise ToolError(prefix + 'start_line ' + str(start) + ' is outside ' + label + ', which has ' + str(total) +
                        ' lines (use ' + str(total + 1) + ' to append).')
    if end < start - 1 or end > total:
        raise ToolError(prefix + 'end_line ' + str(end) + ' must be between start_line - 1 (' + str(start - 1) +
                        ', an insertion) and ' + str(total) + ' (the last line).')
    begin = starts[start - 1] if start - 1 < len(starts) else len(text)
    if start > total:  # appending after the last line
        begin = len(text)
        if text != '' and not text.endswith('\n') and new != '':
            new = eol + new
        if new != '' and not new.endswith('\n'):
            new = new + eol
        return {'start': begin, 'end': begin, 'text': new}
    finish = starts[end] if end < len(starts) else len(text)
    if end < start:
        finish = begin  # an insertion before line `start`
    replaced_ends_line = finish > begin and text[finish - 1] == '\n'
    if new != '' and not new.endswith('\n') and (replaced_ends_line or finish == begin):
        new = new + eol
    return {'start': begin, 'end': finish, 'text': new}


def apply_planned(text: str, planned: 'List[JsonObject]') -> str:
    """The text after the planned replacements (what the editor will hold): for previews and tests."""
    parts = []
    cursor = 0
    for item in planned:
        parts.append(text[cursor:item['start']])
        parts.append(item['text'])
        cursor = item['end']
    parts.append(text[cursor:])
    return ''.join(parts)


def describe_change(text: str, planned: 'List[JsonObject]') -> str:
    """'lines 3-5' style summary of where the replacements landed, for the result message."""
    starts = line_starts(text)
    spans = []
    for item in planned[:MAX_LISTED]:
        first = line_of(starts, item['start'])
        last = line_of(starts, max(item['start'], item['end'] - 1))
        spans.append(str(first) if first == last else str(first) + '-' + str(last))
    more = ', …' if len(planned) > MAX_LISTED else ''
    return ', '.join(spans) + more
