"""MCP `completion/complete` for the prompts' arguments and the resource templates' variables.

Paths are ranked by how recently the user had them in the editor (most recent first), then by how
well they match what was typed (the name starts with it, then the path does, then it appears
anywhere), then alphabetically. The host provides `async workspace_files()` → absolute paths,
`recent_files()` → absolute paths, most recent first, `display_path(path)` and `terminals()`.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.method_table import Handler
# __pragma__('noskip')
from hermes.core.values import json_type, get_key
from hermes.core.jsonrpc import INVALID_PARAMS
from hermes.core.mcp.protocol import ProtocolError
from hermes.core.mcp.resources import FILE_TEMPLATE, TERMINAL_TEMPLATE
from hermes.core.mcp.prompts import find_prompt

MAX_VALUES = 100  # the spec's limit per answer


def match_rank(candidate: str, typed: str) -> 'Optional[int]':
    """0: the file name starts with `typed`; 1: the path does; 2: it appears anywhere; None: no match.
    Case-insensitive."""
    text = candidate.lower()
    wanted = typed.lower()
    if wanted == '':
        return 0
    name = text[max(text.rfind('/'), text.rfind('\\')) + 1:]
    if name.startswith(wanted):
        return 0
    if text.startswith(wanted):
        return 1
    if text.find(wanted) != -1:
        return 2
    return None


def rank_paths(candidates: 'List[str]', recent: 'List[str]', typed: str) -> 'List[str]':
    """`candidates` (the strings to offer) filtered by `typed` and ranked; `recent` lists candidates
    most recently used first."""
    recency = {}  # type: Dict[str, int]
    for index in range(len(recent)):
        slot = 'k:' + recent[index]
        if not (slot in recency):
            recency[slot] = index
    scored = []  # type: List[Dict[str, str]]
    seen = {}  # type: Dict[str, bool]
    for candidate in candidates:
        slot = 'k:' + candidate
        if slot in seen:
            continue
        seen[slot] = True
        rank = match_rank(candidate, typed)
        if rank is None:
            continue
        used = recency[slot] if slot in recency else len(recent)
        scored.append({'value': candidate, 'key': _padded(used) + str(rank) + candidate.lower()})
    scored.sort(key=lambda item: item['key'])
    return [item['value'] for item in scored]


def _padded(number: int) -> str:
    text = str(number)
    while len(text) < 6:
        text = '0' + text
    return text


def completion_result(values: 'List[str]') -> 'JsonObject':
    return {'completion': {'values': values[:MAX_VALUES], 'total': len(values),
                           'hasMore': len(values) > MAX_VALUES}}


class McpCompletions:
    def __init__(self, workspace: 'Any') -> None:
        self.workspace = workspace

    def capabilities(self) -> 'JsonObject':
        return {'completions': {}}

    def handler(self, method: str) -> 'Optional[Handler]':
        return self._complete if method == 'completion/complete' else None

    def close(self) -> None:
        pass

    async def _complete(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        ref = get_key(params, 'ref')
        argument = get_key(params, 'argument')
        name = get_key(argument, 'name')
        typed = get_key(argument, 'value')
        if json_type(name) != 'string' or json_type(typed) != 'string':
            raise ProtocolError(INVALID_PARAMS, 'completion/complete: params.argument needs a string name and value')
        kind = get_key(ref, 'type')
        if kind == 'ref/prompt':
            prompt_name = get_key(ref, 'name')
            if json_type(prompt_name) != 'string' or find_prompt(prompt_name) is None:
                raise ProtocolError(INVALID_PARAMS, 'completion/complete: unknown prompt ' + str(prompt_name))
            if name == 'path':
                return completion_result(await self._paths(typed, False))
            return completion_result([])
        if kind == 'ref/resource':
            template = get_key(ref, 'uri')
            if template == FILE_TEMPLATE and name == 'path':
                return completion_result(await self._paths(typed, True))
            if template == TERMINAL_TEMPLATE and name == 'id':
                ids = [str(terminal['id']) for terminal in self.workspace.terminals()]
                return completion_result([value for value in ids if value.startswith(typed)])
            return completion_result([])
        raise ProtocolError(INVALID_PARAMS, 'completion/complete: params.ref.type must be "ref/prompt" or '
                                            '"ref/resource"')

    async def _paths(self, typed: str, for_uri: bool) -> 'List[str]':
        """Workspace-relative paths for prompt arguments; for `file:///{+path}` absolute paths without
        their leading slash (the template adds it)."""
        files = await self.workspace.workspace_files()
        recent = self.workspace.recent_files()
        if for_uri:
            shown = [_uri_path(path) for path in files]
            recent_shown = [_uri_path(path) for path in recent]
        else:
            shown = [self.workspace.display_path(path) for path in files]
            recent_shown = [self.workspace.display_path(path) for path in recent]
        candidates = list(recent_shown)  # findFiles stops at its limit: recent files are offered anyway
        candidates.extend(shown)
        return rank_paths(candidates, recent_shown, typed)


def _uri_path(path: str) -> str:
    text = path.replace('\\', '/')
    return text[1:] if text.startswith('/') else text
