"""VS Code's glob patterns (files.exclude, search.exclude, tool arguments) as regular expressions.

Matched against workspace-relative paths with '/' separators: `**` spans any number of folders
(none included), `*` and `?` stay within one name, `{a,b}` are alternatives, `[abc]`/`[!abc]` are
character classes. `**/.git` matches '.git' and 'a/b/.git'; 'build' only the top-level 'build'.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List
# __pragma__('noskip')
from hermes.js.text import native_regex, regex_matches

_SPECIAL = '.+^$()|\\'


def glob_to_regex(pattern: str) -> str:
    """A regular expression (source text, anchored) equivalent to the glob `pattern`."""
    return '^' + _convert(_trim_slashes(pattern)) + '$'


def _trim_slashes(pattern: str) -> str:
    # (str.strip's argument is ignored in the bundle: Transcrypt's strip only trims whitespace)
    start, end = 0, len(pattern)
    while start < end and pattern[start] == '/':
        start += 1
    while end > start and pattern[end - 1] == '/':
        end -= 1
    return pattern[start:end]


def _convert(pattern: str) -> str:
    out = []  # type: List[str]
    index = 0
    length = len(pattern)
    while index < length:
        char = pattern[index]
        if char == '*':
            if index + 1 < length and pattern[index + 1] == '*':
                at_start = index == 0 or pattern[index - 1] == '/'
                follows_slash = index + 2 < length and pattern[index + 2] == '/'
                at_end = index + 2 == length
                if at_start and follows_slash:
                    out.append('(?:[^/]*/)*')  # '**/' : any number of folders, none included
                    index += 3
                    continue
                if at_start and at_end and index > 0:
                    out.pop()  # 'a/**' : the slash is optional so 'a' itself matches too
                    out.append('(?:/.*)?')
                    index += 2
                    continue
                out.append('.*')
                index += 2
                continue
            out.append('[^/]*')
        elif char == '?':
            out.append('[^/]')
        elif char == '{':
            close = _matching_brace(pattern, index)
            if close == -1:
                out.append('\\{')
            else:
                options = _split_alternatives(pattern[index + 1:close])
                out.append('(?:' + '|'.join([_convert(option) for option in options]) + ')')
                index = close + 1
                continue
        elif char == '[':
            close = pattern.find(']', index + 2)
            if close == -1:
                out.append('\\[')
            else:
                body = pattern[index + 1:close]
                if body.startswith('!') or body.startswith('^'):
                    body = '^' + body[1:]
                out.append('[' + body.replace('\\', '\\\\') + ']')
                index = close + 1
                continue
        elif _SPECIAL.find(char) != -1 or char == '}' or char == ']':
            out.append('\\' + char)
        else:
            out.append(char)
        index += 1
    return ''.join(out)


def _matching_brace(pattern: str, start: int) -> int:
    depth = 0
    for index in range(start, len(pattern)):
        if pattern[index] == '{':
            depth += 1
        elif pattern[index] == '}':
            depth -= 1
            if depth == 0:
                return index
    return -1


def _split_alternatives(body: str) -> 'List[str]':
    """'a,{b,c},d' → ['a', '{b,c}', 'd'] (commas inside nested braces stay)."""
    parts = []  # type: List[str]
    depth = 0
    current = []  # type: List[str]
    for char in body:
        if char == ',' and depth == 0:
            parts.append(''.join(current))
            current = []
            continue
        if char == '{':
            depth += 1
        elif char == '}':
            depth -= 1
        current.append(char)
    parts.append(''.join(current))
    return parts


class GlobSet:
    """Several globs compiled once into one native regex; `matches(relative_path)`, or
    `regex_matches(globs.regex, path)` in a hot loop over '/'-separated paths."""

    def __init__(self, patterns: 'List[str]') -> None:
        self.patterns = patterns
        sources = [glob_to_regex(pattern) for pattern in patterns]
        self.regex = native_regex('|'.join(sources) if len(sources) > 0 else '(?!)')

    def matches(self, relative_path: str) -> bool:
        return regex_matches(self.regex, relative_path.replace('\\', '/'))


def climbs_out(pattern: str) -> bool:
    """True for a glob that could reach outside its base folder ('../x', 'a/../../b', '/etc/*')."""
    normalized = pattern.replace('\\', '/')
    if normalized.startswith('/') or (len(normalized) > 1 and normalized[1] == ':'):
        return True
    for part in normalized.split('/'):
        if part == '..':
            return True
    # '{..,x}/secret' or '{a,../b}': alternatives can hide a parent reference too
    return normalized.find('{..') != -1 or normalized.find(',..') != -1 or normalized.find('..}') != -1
