"""Checkpoints of a Hermes conversation, free of VS Code: every turn of the side panel and of a chat session has an
id (on its user message, `turn`), the change log names that id as the author's turn of every file the turn's tools
changed, so "restore to before this turn" means: undo the pending changes of this turn and of every later one
(the change log holds their before-texts), and/or cut the conversation back to just before the turn's prompt.
Restoring is undoable: `cut_conversation` returns what it removed, `put_back` brings it back.

A turn's files are those its tools changed and that are still pending: a change the user already kept is part of
the file now, and a restore leaves it (the restore's message says how many files it put back).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.core.values import json_type, get_key

CHANGE_CLIENT = 'Hermes'  # the change log's client for the panel's and sessions' turns (they share conversations)
FILES = 'files'
CONVERSATION = 'conversation'
BOTH = 'both'
RESTORE_CHOICES = [
    {'label': 'Files and conversation', 'what': BOTH,
     'detail': 'Undo the file changes of this turn and every later one, and remove those turns from the conversation'},
    {'label': 'Files only', 'what': FILES,
     'detail': 'Undo the file changes of this turn and every later one; the conversation stays'},
    {'label': 'Conversation only', 'what': CONVERSATION,
     'detail': 'Remove this turn and every later one from the conversation; the files stay as they are'},
]



def new_turn_id(previous: 'Optional[str]' = None) -> str:
    """A new turn id after `previous`, the last turn id of its scope (a conversation's: `last_turn(messages)`), or
    None: the time in ms, made greater than `previous` so ids stay unique and ordered in their scope across reloads.
    (A change-log author is a conversation and a turn, so a turn id needs to be unique within its conversation.)"""
    value = round(now_ms())
    last = _turn_time(previous)
    if value <= last:
        value = last + 1
    return 't' + str(value)


def last_turn(messages: 'List[Any]') -> 'Optional[str]':
    """The id of the last turn among a conversation's messages, or None."""
    found = None
    for message in messages:
        turn = get_key(message, 'turn')
        if get_key(message, 'role') == 'user' and json_type(turn) == 'string':
            found = turn
    return found


def _turn_time(turn_id: 'Json') -> int:
    """The time in a turn id 't<ms>' (0 for None or another form)."""
    if json_type(turn_id) != 'string' or len(turn_id) < 2 or not turn_id.startswith('t'):
        return 0
    digits = turn_id[1:]
    if len(digits) > 15 or len([char for char in digits if '0123456789'.find(char) < 0]) > 0:
        return 0
    return round(float(digits))


def change_author(conversation_id: 'Optional[str]', turn_id: 'Optional[str]') -> 'ChangeAuthor':
    """The change log's author of a panel or session turn's writes."""
    return {'client': CHANGE_CLIENT, 'session': conversation_id, 'turn': turn_id}


def turn_index(messages: 'List[Any]', turn_id: 'Optional[str]') -> int:
    """The index of the user message that started turn `turn_id`, or -1."""
    index = 0
    for message in messages:
        if message['role'] == 'user' and get_key(message, 'turn') == turn_id:
            return index
        index += 1
    return -1


def turns_from(messages: 'List[Any]', turn_id: 'Optional[str]') -> 'List[str]':
    """Turn ids of `turn_id` and every later turn (oldest first); [] when the turn is not in the conversation."""
    start = turn_index(messages, turn_id)
    if start < 0:
        return []
    found = []
    for message in messages[start:]:
        turn = get_key(message, 'turn')
        if message['role'] == 'user' and json_type(turn) == 'string':
            found.append(turn)
    return found


def history_cut(history: 'List[Any]', turns_removed: int) -> int:
    """Where the LLM history is cut to drop its last `turns_removed` turns: the index of that many user messages
    counted from the end (0 when it holds fewer)."""
    if turns_removed <= 0:
        return len(history)
    seen = 0
    index = len(history) - 1
    while index >= 0:
        if get_key(history[index], 'role') == 'user':
            seen += 1
            if seen == turns_removed:
                return index
        index -= 1
    return 0


def cut_conversation(conversation: 'Any', turn_id: 'Optional[str]') -> 'Optional[JsonObject]':
    """Remove turn `turn_id` and everything after it from `conversation` (messages and LLM history). Returns what
    `put_back` needs to undo it, or None when the turn is not there."""
    start = turn_index(conversation.messages, turn_id)
    if start < 0:
        return None
    removed_turns = len([message for message in conversation.messages[start:] if message['role'] == 'user'])
    cut = history_cut(conversation.history, removed_turns)
    saved = {'messages': conversation.messages[:], 'history': conversation.history[:], 'title': conversation.title}
    conversation.messages = conversation.messages[:start]
    conversation.history = conversation.history[:cut]
    return saved


def put_back(conversation: 'Any', saved: 'JsonObject') -> None:
    """Undo `cut_conversation`."""
    conversation.messages = saved['messages']
    conversation.history = saved['history']
    conversation.title = saved['title']


def restore_summary(what: str, files_restored: int, turns: int) -> str:
    """The message after a restore."""
    parts = []
    if what != CONVERSATION:
        parts.append(('no pending file changes to undo' if files_restored == 0 else
                      'put back ' + str(files_restored) + (' file' if files_restored == 1 else ' files')))
    if what != FILES:
        parts.append('removed ' + str(turns) + (' turn' if turns == 1 else ' turns') + ' from the conversation')
    return 'Hermes: restored to before this turn: ' + ' and '.join(parts) + '.'


def is_restore_choice(what: str) -> bool:
    return what == FILES or what == CONVERSATION or what == BOTH


def turn_of(message: 'Any') -> 'Optional[str]':
    """A user message's turn id, or None (messages from before checkpoints existed have none)."""
    turn = get_key(message, 'turn')
    return turn if json_type(turn) == 'string' and turn is not None else None
