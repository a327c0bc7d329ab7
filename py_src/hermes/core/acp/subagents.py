"""Hermes Agent's subagents as an ACP client sees them (its `acp_adapter/subagents.py` on the main branch, after
0.19.0): each delegated subagent is a tool call of its own, id `hermes-subagent:<id>`, kind `other`, titled with a
short public task title ("Review files"), re-sent whole (a snapshot, never a delta) as the child works, with
`_meta.hermes.subagentProgress` = {version: 1, id, parentId, depth 1–16, sequence, status running | completed |
failed | canceled, text (≤ 16,384 chars, what the child wrote so far), tools (≤ 32 names it ran), title,
outputLimited, activitiesLimited}. A depth-1 child has no parentId: it belongs to the tool call that delegated it
(`delegate_task`, running meanwhile); a deeper one names its parent subagent. The metadata may be missing (the
adapter sends it only where it was told to): the id prefix alone still marks a subagent.

Everything here is the agent's word, read defensively: a malformed snapshot is no subagent (the tool call stays
an ordinary card), a snapshot older than one already shown (its sequence) is dropped.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key, is_object

SUBAGENT_PREFIX = 'hermes-subagent:'
STATUSES = ['running', 'completed', 'failed', 'canceled']
MAX_TEXT = 16384
MAX_TOOLS = 32
MAX_DEPTH = 16
ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-'


def is_agent_id(value: 'Json', longest: int) -> bool:
    """An id as Hermes' schema allows it: 1…`longest` characters of letters, digits and `_.:-`."""
    if json_type(value) != 'string' or len(value) == 0 or len(value) > longest:
        return False
    for char in value:
        if ID_CHARS.find(char) < 0:
            return False
    return True


def _whole(value: 'Json', lowest: int, highest: int) -> bool:
    return json_type(value) == 'integer' and lowest <= value and value <= highest


def _tools(value: 'Json') -> 'List[str]':
    names = []  # type: List[str]
    if json_type(value) != 'array':
        return names
    for name in value:
        if len(names) >= MAX_TOOLS:
            break
        names.append(name if is_agent_id(name, 80) else 'tool')
    return names


def read_subagent(update: 'Json') -> 'Optional[JsonObject]':
    """A tool_call / tool_call_update's subagent: {'id', 'parentId' (None at depth 1), 'depth', 'sequence' (0: not
    said), 'status' (None: not said), 'text', 'tools', 'limited'}; None for an ordinary tool call or a malformed
    snapshot."""
    tool_id = get_key(update, 'toolCallId')
    if json_type(tool_id) != 'string' or not tool_id.startswith(SUBAGENT_PREFIX):
        return None
    child_id = tool_id[len(SUBAGENT_PREFIX):]
    if not is_agent_id(child_id, 128):
        return None
    progress = get_key(get_key(get_key(update, '_meta'), 'hermes'), 'subagentProgress')
    if progress is None:  # the adapter sent no metadata: a subagent all the same, known by its title and status
        return {'id': child_id, 'parentId': None, 'depth': 1, 'sequence': 0, 'status': None, 'text': '',
                'tools': [], 'limited': False}
    if not is_object(progress) or get_key(progress, 'id') != child_id:
        return None
    depth = get_key(progress, 'depth')
    sequence = get_key(progress, 'sequence')
    status = get_key(progress, 'status')
    parent_id = get_key(progress, 'parentId')
    if not _whole(depth, 1, MAX_DEPTH) or not _whole(sequence, 1, 9007199254740991) or not (status in STATUSES):
        return None
    if depth == 1:
        parent_id = None  # a root's parentId may name the Hermes session itself, not a child
    elif not is_agent_id(parent_id, 128) or parent_id == child_id:
        return None
    text = get_key(progress, 'text')
    return {'id': child_id, 'parentId': parent_id, 'depth': depth, 'sequence': sequence, 'status': status,
            'text': text[:MAX_TEXT] if json_type(text) == 'string' else '', 'tools': _tools(get_key(progress, 'tools')),
            'limited': get_key(progress, 'outputLimited') is True or get_key(progress, 'activitiesLimited') is True}


def is_stale(known: 'Optional[JsonObject]', subagent: 'JsonObject') -> bool:
    """Whether a snapshot is older than (or the same as) the one a card already shows: Hermes numbers them in
    order, and a replay after session/load sends every child again."""
    if known is None or subagent['sequence'] == 0:
        return False
    return subagent['sequence'] <= known['sequence']


def subagent_tool_id(child_id: str) -> str:
    return SUBAGENT_PREFIX + child_id


def subagent_summary(subagent: 'JsonObject') -> str:
    """The card's line under its title: the tools the child ran, in order (repeats folded: "read_file ×3")."""
    tools = subagent['tools']
    if len(tools) == 0:
        return ''
    runs = []  # type: List[str]
    count = 1
    for index in range(len(tools)):
        if index + 1 < len(tools) and tools[index + 1] == tools[index]:
            count += 1
            continue
        runs.append(tools[index] + (' ×' + str(count) if count > 1 else ''))
        count = 1
    return 'Tools: ' + ', '.join(runs) + (' (record limited)' if subagent['limited'] else '')
