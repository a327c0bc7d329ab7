"""Markdown for text an agent chose (a permission question's title, its command, the paths it names), rendered in
VS Code's chat as text and nothing else: whatever it holds can neither close the block it is shown in (a command
that ends its code fence would push the rest of itself into Markdown that is never displayed — the user would allow
what they did not see), nor become a link, an image, HTML or a heading, nor hide or reorder characters (control,
zero-width and bidi characters are written out: core/dialog_text.py), and its size is bounded — saying so — rather
than cut silently."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List
# __pragma__('noskip')
from hermes.core.dialog_text import escape_invisible

MAX_TITLE_CHARS = 300
MAX_BLOCK_CHARS = 4000
PUNCTUATION = '\\`*_[]<>#|~&'  # what makes Markdown anywhere on a line (links, emphasis, code, HTML, tables)
DIGITS = '0123456789'


def _bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + '\n… (' + str(len(text) - limit) + ' more characters not shown: the whole text is what ' \
        'would run)'


def _longest_run(text: str, char: str) -> int:
    longest = 0
    run = 0
    for each in text:
        run = run + 1 if each == char else 0
        if run > longest:
            longest = run
    return longest


def _repeat(char: str, count: int) -> str:
    parts = []  # type: List[str]
    while len(parts) < count:
        parts.append(char)
    return ''.join(parts)


def plain_text(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    """`text` as Markdown that renders as exactly this text on one line: every Markdown punctuation character
    backslash-escaped, line breaks as spaces, invisible characters written out, at most `limit` characters."""
    one_line = ' '.join(text.split('\n'))
    if len(one_line) > limit:
        one_line = one_line[:limit] + '… (' + str(len(one_line) - limit) + ' more characters)'
    parts = []  # type: List[str]
    for char in escape_invisible(one_line):
        parts.append('\\' + char if PUNCTUATION.find(char) >= 0 else char)
    # what makes a list only at a line's start: "- ", "+ ", "1. ", "1) "
    if len(parts) > 0 and (parts[0] == '-' or parts[0] == '+'):
        parts[0] = '\\' + parts[0]
    digits = 0
    while digits < len(parts) and DIGITS.find(parts[digits]) >= 0:
        digits += 1
    if digits > 0 and digits < len(parts) and (parts[digits] == '.' or parts[digits] == ')'):
        parts[digits] = '\\' + parts[digits]
    return ''.join(parts)


def code_block(text: str, language: str = '') -> str:
    """`text` in a fenced code block whose fence is longer than any run of backticks in it (so nothing inside can
    end it), invisible characters written out, at most MAX_BLOCK_CHARS characters (the rest said, not shown)."""
    shown = escape_invisible(_bounded(text, MAX_BLOCK_CHARS), True)
    fence = _repeat('`', max(3, _longest_run(shown, '`') + 1))
    return fence + language + '\n' + shown + '\n' + fence


def inline_code(text: str) -> str:
    """`text` as inline code on one line, delimited by more backticks than any run inside it."""
    shown = escape_invisible(' '.join(_bounded(text, MAX_TITLE_CHARS).split('\n')))
    ticks = _repeat('`', _longest_run(shown, '`') + 1)
    padding = ' ' if shown.startswith('`') or shown.endswith('`') or shown == '' else ''
    return ticks + padding + shown + padding + ticks
