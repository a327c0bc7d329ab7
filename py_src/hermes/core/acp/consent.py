"""One consent per action: what the user allowed in an ACP agent's permission question, kept for a short while so
the write or the command that carries it out through this window (`fs/write_text_file`, `terminal/create`) is not
asked about a second time.

Why this is safe: a consent covers exactly what the question put before the user — a file's whole new text at a
path (an ACP `diff` content item's `newText`, which the question's Show Changes opens), or a command line (the tool
call's `rawInput.command`) — and is used once,
by the same session, within CONSENT_WINDOW_MS. A write of any other text, to any other path, or a command that differs
by one character is asked about as before; so is everything when the user chose a reject option. What the agent says
its action is cannot widen what it does: the match is on the content that reaches this window, not on the agent's
title or kind. (Hermes Agent asks for each edit with the file's whole new text, then writes that text through
`fs/write_text_file`: one question instead of two.)
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import get_key, json_type

CONSENT_WINDOW_MS = 60000
"""How long an allowed action waits for the write or command that carries it out (the agent acts right after)."""

MAX_KEPT = 32
"""Consents kept at once across sessions (an agent that asks and never acts cannot grow the list)."""

MAX_ACTIONS = 8
"""What one question may allow: its first diffs and its command (a question showing more asks again for the rest)."""


def chosen_allows(params: 'Json', outcome: 'Json') -> bool:
    """Whether the option the user chose (`outcome`: {'outcome': 'selected', 'optionId'}) is one of the question's
    allow options (kind allow_once / allow_always)."""
    if get_key(outcome, 'outcome') != 'selected':
        return False
    chosen = get_key(outcome, 'optionId')
    options = get_key(params, 'options')
    if json_type(chosen) != 'string' or json_type(options) != 'array':
        return False
    for option in options:
        if get_key(option, 'optionId') == chosen:
            kind = get_key(option, 'kind')
            return kind == 'allow_once' or kind == 'allow_always'
    return False


def allowed_actions(params: 'Json') -> 'JsonObject':
    """What a permission question showed, as {'writes': [[path, new text]…], 'commands': [command line…]}: the
    tool call's `diff` content items (a string path and newText) and its `rawInput.command` (or, as Hermes Agent
    sends it, `rawInput.arguments.command`). Paths are as the agent wrote them: the host resolves them."""
    tool_call = get_key(params, 'toolCall')
    writes = []  # type: List[List[str]]
    content = get_key(tool_call, 'content')
    if json_type(content) == 'array':
        for item in content:
            if len(writes) < MAX_ACTIONS and get_key(item, 'type') == 'diff' and \
                    json_type(get_key(item, 'path')) == 'string' and json_type(get_key(item, 'newText')) == 'string':
                writes.append([get_key(item, 'path'), get_key(item, 'newText')])
    commands = []  # type: List[str]
    raw_input = get_key(tool_call, 'rawInput')
    for command in [get_key(raw_input, 'command'), get_key(get_key(raw_input, 'arguments'), 'command')]:
        if json_type(command) == 'string' and command != '' and len(commands) == 0:
            commands.append(command)
    return {'writes': writes, 'commands': commands}


class Consents:
    """The allowed actions not yet carried out, each {'session', 'kind': 'write' | 'command', 'path', 'text', 'at'};
    oldest first. Times are passed in (ms), so the rules are the same under any clock."""

    def __init__(self) -> None:
        self.kept = []  # type: List[JsonObject]

    def remember(self, session_id: str, writes: 'List[List[str]]', commands: 'List[str]', now: float) -> None:
        """`writes`: [[resolved path, new text]…]; `commands`: command lines — what the user just allowed."""
        for write in writes:
            self.kept.append({'session': session_id, 'kind': 'write', 'path': write[0], 'text': write[1], 'at': now})
        for command in commands:
            self.kept.append({'session': session_id, 'kind': 'command', 'path': None, 'text': command, 'at': now})
        while len(self.kept) > MAX_KEPT:
            self.kept.pop(0)

    def take_write(self, session_id: str, path: str, text: str, now: float) -> bool:
        """True, once, when this session's write of exactly `text` to `path` was allowed within the window."""
        return self._take(session_id, 'write', path, text, now)

    def take_command(self, session_id: str, line: str, now: float) -> bool:
        """True, once, when this session's command line `line` was allowed within the window."""
        return self._take(session_id, 'command', None, line, now)

    def _take(self, session_id: str, kind: str, path: 'Json', text: str, now: float) -> bool:
        self.kept = [kept for kept in self.kept if now - kept['at'] <= CONSENT_WINDOW_MS and now >= kept['at']]
        for index in range(len(self.kept)):
            kept = self.kept[index]
            if kept['session'] == session_id and kept['kind'] == kind and kept['text'] == text and \
                    (kind != 'write' or kept['path'] == path):
                self.kept.pop(index)
                return True
        return False

    def forget(self, session_id: str) -> None:
        """A session's turn ended or was stopped: what it was allowed and did not do is asked about again."""
        self.kept = [kept for kept in self.kept if kept['session'] != session_id]
