"""Hermes conversations, free of VS Code and Node: one conversation (what the user saw and what the
model saw) and the store of the last MAX_CONVERSATIONS of them that the side panel and VS Code's chat
sessions share. `host/chat/conversation_store.py` keeps the store in a file; the front ends record turns
through the functions here, so a conversation started in one can be continued in the other.

A conversation's data:
    {id, title, created, updated, model, archived, changes: [paths], lastRequestStarted,
     lastRequestEnded, messages: [...], history: [...]}
where a message is {role: 'user', text, turn?} or {role: 'assistant', status, error, parts: [{kind: 'text',
text} | {kind: 'tool', id, name, arguments, status, result, paths?} | {kind: 'thought', text} | {kind: 'plan',
entries: [{title, status}]}], usage?}; `acp`: {agent, sessionId, mode?, model?, commands?, commandsShown?, cost?} when an ACP
agent answers it (core/acp/options.py, core/acp/commands.py); an assistant status is running | done |
stopped | error, a tool's running | waiting | ok | error | cancelled. `history` is the LLM's view of the
earlier turns (OpenAI chat messages) handed to the loop. Times are milliseconds since 1970.

The store's data: {version: 1, panel: <id of the side panel's conversation> | null,
conversations: [...]}. Data that is not shaped like that raises StoreCorrupt (the host moves the file
aside); a malformed conversation or message inside good data is dropped, never trusted.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List, Optional
from hermes.contracts.conversations import AssistantMessage, Message, Part, ReplyStatus, ToolPart, UserMessage
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key, is_object, object_keys, copy_object
from hermes.core.tools import result_text
from hermes.core.output_text import cap_chars
from hermes.core.acp.commands import restore_commands
from hermes.core.acp.turn_usage import restore_usage, money_of

STORE_VERSION = 1
MAX_CONVERSATIONS = 50
MAX_MESSAGES = 100
"""Messages (and LLM history messages) kept per conversation."""
RESULT_LIMIT = 4000
"""A tool result shown in a conversation is cut to this."""
HISTORY_TOOL_CHARS = 8000
"""Tool results kept in the stored LLM history are cut to this."""
TITLE_CHARS = 60
UNTITLED = 'New conversation'
FILE_CHANGING_TOOLS = ['file_write', 'file_create', 'file_delete', 'editor_edit_file', 'lsp_rename']


class StoreCorrupt(Exception):
    """Stored data that is not a conversation store; the message says what is wrong."""


def _text(value: 'Json', fallback: str = '') -> str:
    return value if json_type(value) == 'string' else fallback


def _time(value: 'Json') -> 'Optional[float]':
    return value if json_type(value) == 'number' and value >= 0 else None


def truncate(text: str, limit: int = RESULT_LIMIT) -> str:
    """A card's or the stored history's text, cut to `limit` (RESULT_LIMIT: a card's) with a note."""
    return cap_chars(text, limit)


def title_from(text: 'Json') -> str:
    """A conversation's title: the first line of its first prompt, cut to TITLE_CHARS."""
    line = ''
    for candidate in _text(text).split('\n'):
        if candidate.strip() != '':
            line = candidate.strip()
            break
    if line == '':
        return UNTITLED
    return line if len(line) <= TITLE_CHARS else line[:TITLE_CHARS - 1].rstrip() + '…'


# ------------------------------------------------------------------------------------ restoring

def _restore_part(part: 'Json') -> 'Optional[Part]':
    kind = get_key(part, 'kind')
    if kind == 'text':
        return {'kind': 'text', 'text': _text(get_key(part, 'text'))}
    if kind == 'tool':
        status = _text(get_key(part, 'status'), 'error')  # type: Any  # (one of ToolStatus, checked below)
        if status not in ['ok', 'error', 'cancelled']:
            status = 'cancelled'
        restored = {'kind': 'tool', 'id': _text(get_key(part, 'id')), 'name': _text(get_key(part, 'name'), 'tool'),  # type: ToolPart
                    'arguments': get_key(part, 'arguments', {}), 'status': status,
                    'result': truncate(_text(get_key(part, 'result')))}
        for key in ['paths', 'parent']:  # an ACP agent's tool: the files it named, the call it is nested under
            value = get_key(part, key)
            kind = json_type(value)
            if key == 'paths' and kind == 'array':
                restored['paths'] = [path for path in value if json_type(path) == 'string']
            elif key == 'parent' and kind == 'string' and value != '':  # a Hermes subagent (core/acp/subagents.py)
                restored['parent'] = value
        return restored
    if kind == 'thought':
        return {'kind': 'thought', 'text': _text(get_key(part, 'text'))}
    if kind == 'plan':
        entries = get_key(part, 'entries', [])
        if json_type(entries) != 'array':
            return None
        return {'kind': 'plan', 'entries': [{'title': _text(get_key(entry, 'title')),
                                             'status': _text(get_key(entry, 'status'), 'pending')}
                                            for entry in entries if json_type(get_key(entry, 'title')) == 'string']}
    return None


def _restore_message(message: 'Json') -> 'Optional[Message]':
    role = get_key(message, 'role')
    if role == 'user':
        text = _text(get_key(message, 'text'))
        if text == '':
            return None
        restored = {'role': 'user', 'text': text}  # type: UserMessage
        turn = get_key(message, 'turn')  # the turn's checkpoint id (core/changes/checkpoints.py)
        if json_type(turn) == 'string' and turn != '':
            restored['turn'] = turn
        return restored
    if role == 'assistant':
        parts = []
        raw_parts = get_key(message, 'parts', [])
        if json_type(raw_parts) == 'array':
            for raw in raw_parts:
                part = _restore_part(raw)
                if part is not None:
                    parts.append(part)
        status = _text(get_key(message, 'status'), 'done')  # type: Any  # (one of ReplyStatus, checked below)
        if status not in ['done', 'stopped', 'error']:
            status = 'stopped'  # a reply that was running when the window closed
        error = get_key(message, 'error')
        reply = {'role': 'assistant', 'status': status, 'error': error if json_type(error) == 'string' else None,
                 'parts': parts}  # type: AssistantMessage
        usage = restore_usage(get_key(message, 'usage'))  # type: Any  # what an ACP agent's turn used and cost (TurnUsage)
        if usage is not None:
            reply['usage'] = usage
        return reply
    return None


def _restore_acp(value: 'Json') -> 'Optional[JsonObject]':
    agent = get_key(value, 'agent')
    session_id = get_key(value, 'sessionId')
    if json_type(agent) != 'string' or agent == '' or json_type(session_id) != 'string':
        return None  # (an empty session id: the agent never opened one; the next turn does)
    restored = {'agent': agent, 'sessionId': session_id}
    if get_key(value, 'replay') is True:
        restored['replay'] = True  # listed from the agent's own sessions: its turns come when it is opened
    for option in ['mode', 'model']:  # the session's chosen mode and model (core/acp/options.py)
        chosen = get_key(value, option)
        if json_type(chosen) == 'string' and chosen != '':
            restored[option] = chosen
    cost = money_of(get_key(value, 'cost'))  # the session's cumulative cost, as the agent last said it
    if cost is not None:
        restored['cost'] = cost
    restore_commands(value, restored)  # the agent's slash commands, and which of them the chat was told about
    return restored


def compact(message: 'Json') -> 'Any':
    """An LLM history message with a long tool result cut to HISTORY_TOOL_CHARS."""
    content = get_key(message, 'content')
    if get_key(message, 'role') != 'tool' or json_type(content) != 'string' or len(content) <= HISTORY_TOOL_CHARS:
        return message
    copy = copy_object(message)
    copy['content'] = truncate(content, HISTORY_TOOL_CHARS)
    return copy


def _trim_history(history: 'List[Any]', limit: int) -> 'List[Any]':
    """The last `limit` LLM messages, starting at a user message (never at an orphaned tool result)."""
    if len(history) <= limit:
        return history
    start = len(history) - limit
    while start < len(history) and get_key(history[start], 'role') != 'user':
        start += 1
    return history[start:]


# ------------------------------------------------------------------------------------ a conversation

class Conversation:
    def __init__(self, messages: 'Optional[List[Message]]' = None, history: 'Optional[List[Any]]' = None,
                 limit: int = MAX_MESSAGES, conversation_id: 'Optional[str]' = None, created: 'Optional[float]' = None) -> None:
        self.id = conversation_id
        self.title = UNTITLED
        self.created = created
        self.updated = created
        self.model = None  # type: Optional[str]
        self.archived = False
        self.changes = []  # type: List[str]
        self.last_started = None  # type: Optional[float]
        self.last_ended = None  # type: Optional[float]
        self.acp = None  # type: Optional[JsonObject]  # {'agent': name, 'sessionId': id}: the ACP agent session that answers this conversation
        self.messages = [] if messages is None else messages
        self.history = [] if history is None else history
        self.limit = limit
        if len(self.messages) > 0:
            self.title = title_from(self.first_prompt())

    @staticmethod
    def restore(data: 'Json', limit: int = MAX_MESSAGES) -> 'Any':
        """A conversation from stored data; anything malformed in it is dropped, never trusted."""
        messages = []
        history = []
        if is_object(data):
            raw_messages = get_key(data, 'messages', [])
            if json_type(raw_messages) == 'array':
                for raw in raw_messages:
                    message = _restore_message(raw)
                    if message is not None:
                        messages.append(message)
            raw_history = get_key(data, 'history', [])
            if json_type(raw_history) == 'array':
                history = [compact(item) for item in raw_history if is_object(item)]
        conversation = Conversation(messages, history, limit)
        if is_object(data):
            raw_id = get_key(data, 'id')
            conversation.id = raw_id if json_type(raw_id) == 'string' and raw_id != '' else None
            conversation.title = _text(get_key(data, 'title'), conversation.title)
            conversation.created = _time(get_key(data, 'created'))
            conversation.updated = _time(get_key(data, 'updated'))
            model = get_key(data, 'model')
            conversation.model = model if json_type(model) == 'string' and model != '' else None
            conversation.archived = get_key(data, 'archived') is True
            changes = get_key(data, 'changes', [])
            if json_type(changes) == 'array':
                conversation.changes = [path for path in changes if json_type(path) == 'string']
            conversation.last_started = _time(get_key(data, 'lastRequestStarted'))
            conversation.last_ended = _time(get_key(data, 'lastRequestEnded'))
            conversation.acp = _restore_acp(get_key(data, 'acp'))
        conversation.trim()
        return conversation

    def first_prompt(self) -> str:
        for message in self.messages:
            if message['role'] == 'user':
                return message['text']
        return ''

    def add(self, message: 'Any') -> None:
        self.messages.append(message)
        if message['role'] == 'user' and self.title == UNTITLED:
            self.title = title_from(message['text'])
        self.trim()

    def trim(self) -> None:
        if len(self.messages) > self.limit:
            self.messages = self.messages[len(self.messages) - self.limit:]
        self.history = _trim_history(self.history, self.limit)

    def clear(self) -> None:
        self.messages = []
        self.history = []
        self.title = UNTITLED

    def last_reply(self) -> 'Optional[AssistantMessage]':
        count = len(self.messages)
        last = self.messages[count - 1] if count > 0 else None  # type: Any  # (its role is checked)
        if count > 0 and last['role'] == 'assistant':
            return last
        return None

    def status(self) -> str:
        """in_progress | needs_input (a tool waits for the user's confirmation) | failed | completed."""
        reply = self.last_reply()
        if reply is None:
            return 'completed'
        if reply['status'] == 'running':
            for part in reply['parts']:
                if part['kind'] == 'tool' and part['status'] == 'waiting':
                    return 'needs_input'
            return 'in_progress'
        return 'failed' if reply['status'] == 'error' else 'completed'

    def note_changes(self, call: 'Json') -> None:
        """Remember the file a file-changing tool call named (the session's `changes`)."""
        if not (get_key(call, 'name') in FILE_CHANGING_TOOLS):
            return
        arguments = get_key(call, 'arguments')
        path = get_key(arguments, 'path') if is_object(arguments) else None  # type: Any
        if json_type(path) == 'string' and path != '' and not (path in self.changes):
            self.changes.append(path)

    def to_data(self) -> 'JsonObject':
        return {'version': STORE_VERSION, 'id': self.id, 'title': self.title, 'created': self.created,
                'updated': self.updated, 'model': self.model, 'archived': self.archived, 'changes': self.changes,
                'lastRequestStarted': self.last_started, 'lastRequestEnded': self.last_ended,
                'acp': self.acp, 'messages': self.messages, 'history': self.history}


# ------------------------------------------------------------------------------------ a reply as it streams

def append_text(reply: 'AssistantMessage', delta: str) -> None:
    parts = reply['parts']  # type: Any  # (the last part's kind is checked before its text is read)
    if len(parts) > 0 and parts[len(parts) - 1]['kind'] == 'text':
        parts[len(parts) - 1]['text'] = parts[len(parts) - 1]['text'] + delta
    else:
        parts.append({'kind': 'text', 'text': delta})


def add_tool(reply: 'AssistantMessage', call: 'Json') -> 'ToolPart':
    """A tool card for {'id', 'name', 'arguments'}; returns the part."""
    part = {'kind': 'tool', 'id': _text(get_key(call, 'id')), 'name': _text(get_key(call, 'name'), 'tool'),
            'arguments': get_key(call, 'arguments', {}), 'status': 'running', 'result': ''}  # type: ToolPart
    reply['parts'].append(part)
    return part


def find_tool(reply: 'AssistantMessage', call_id: 'Json') -> 'Optional[ToolPart]':
    for part in reply['parts']:
        if part['kind'] == 'tool' and part['id'] == call_id:
            return part
    return None


def finish_tool(part: 'ToolPart', result: 'Json') -> 'ToolPart':
    """Record a tool's result on its card (cut to RESULT_LIMIT)."""
    part['status'] = 'error' if get_key(result, 'isError') is True else 'ok'
    part['result'] = truncate(result_text(result))
    return part


def end_reply(reply: 'AssistantMessage', status: 'ReplyStatus', error: 'Optional[str]' = None) -> None:
    """A finished reply: tools still running or waiting were cancelled."""
    for part in reply['parts']:
        if part['kind'] == 'tool' and (part['status'] == 'running' or part['status'] == 'waiting'):
            part['status'] = 'cancelled'
    reply['status'] = status
    reply['error'] = error


def remember_turn(conversation: 'Conversation', user_text: str, reply: 'AssistantMessage', history: 'Json' = None) -> None:
    """The LLM history after a finished or stopped turn: the loop's own (`history`), else the prompt
    and the reply's text."""
    if json_type(history) == 'array':
        conversation.history = [compact(message) for message in history]
    else:
        text = ''.join([part['text'] for part in reply['parts'] if part['kind'] == 'text'])
        added = [{'role': 'user', 'content': user_text}]
        if text != '':
            added.append({'role': 'assistant', 'content': text})
        conversation.history.extend(added)
    conversation.trim()


# ------------------------------------------------------------------------------------ the store

class ConversationStore:
    """The last `limit` conversations (by last update). `make_id()` names a new conversation, `clock()`
    gives the time. `on_change(listener)`: listener(conversation_or_None, origin) after every change
    (origin: who made it, so a front end can ignore its own)."""

    def __init__(self, make_id: 'Callable[[], str]', clock: 'Callable[[], float]', limit: int = MAX_CONVERSATIONS) -> None:
        self.make_id = make_id
        self.clock = clock
        self.limit = limit
        self.conversations = []  # type: List[Conversation]
        self.panel_id = None  # type: Optional[str]
        self._listeners = []  # type: List[Callable[[Optional[Conversation], Any], None]]

    @staticmethod
    def restore(data: 'Json', make_id: 'Callable[[], str]', clock: 'Callable[[], float]',
                limit: int = MAX_CONVERSATIONS) -> 'Any':
        """Raises StoreCorrupt for data that is not a store (the caller starts a fresh one)."""
        store = ConversationStore(make_id, clock, limit)
        if data is None:
            return store
        if not is_object(data) or json_type(get_key(data, 'conversations')) != 'array':
            raise StoreCorrupt('not a Hermes conversation store')
        version = get_key(data, 'version')
        if version != STORE_VERSION:
            raise StoreCorrupt('unknown store version ' + str(version))
        seen = []
        for raw in data['conversations']:
            conversation = Conversation.restore(raw)
            if conversation.id is None or conversation.id in seen or len(conversation.messages) == 0:
                continue
            seen.append(conversation.id)
            if conversation.created is None:
                conversation.created = clock()
            if conversation.updated is None:
                conversation.updated = conversation.created
            store.conversations.append(conversation)
        panel = get_key(data, 'panel')
        store.panel_id = panel if json_type(panel) == 'string' and panel in seen else None
        store._trim()
        return store

    def on_change(self, listener: 'Callable[[Optional[Conversation], Any], None]') -> 'Callable[[], None]':
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)
        return unsubscribe

    def _notify(self, conversation: 'Optional[Conversation]', origin: 'Any') -> None:
        for listener in self._listeners[:]:
            listener(conversation, origin)

    def get(self, conversation_id: 'Json') -> 'Optional[Conversation]':
        for conversation in self.conversations:
            if conversation.id == conversation_id:
                return conversation
        return None

    def create(self, origin: 'Any' = None) -> 'Conversation':
        """A new, empty conversation (listed once it has a message)."""
        now = self.clock()
        conversation = Conversation(None, None, MAX_MESSAGES, self.make_id(), now)
        return conversation

    def put(self, conversation: 'Conversation', origin: 'Any' = None) -> None:
        """Store a new or changed conversation (an empty one is kept out of the list)."""
        if conversation.id is None:
            conversation.id = self.make_id()
        if conversation.created is None:
            conversation.created = self.clock()
        conversation.updated = self.clock()
        listed = self.get(conversation.id)
        if listed is not conversation:
            if listed is not None:
                self.conversations.remove(listed)
            if len(conversation.messages) > 0:
                self.conversations.append(conversation)
        elif len(conversation.messages) == 0:
            self.conversations.remove(conversation)
        self._trim()
        self._notify(conversation, origin)

    def set_panel(self, conversation: 'Optional[Conversation]', origin: 'Any' = None) -> None:
        self.panel_id = None if conversation is None else conversation.id
        self._notify(conversation, origin)

    def remove(self, conversation_id: 'Json', origin: 'Any' = None) -> bool:
        conversation = self.get(conversation_id)
        if conversation is None:
            return False
        self.conversations.remove(conversation)
        if self.panel_id == conversation_id:
            self.panel_id = None
        self._notify(conversation, origin)
        return True

    def newest_first(self) -> 'List[Conversation]':
        ordered = self.conversations[:]
        ordered.sort(key=lambda conversation: -(conversation.updated or 0))
        return ordered

    def _trim(self) -> None:
        if len(self.conversations) <= self.limit:
            return
        keep = self.newest_first()[:self.limit]
        self.conversations = [conversation for conversation in self.conversations if conversation in keep]
        if self.panel_id is not None and self.get(self.panel_id) is None:
            self.panel_id = None

    def to_data(self) -> 'JsonObject':
        return {'version': STORE_VERSION, 'panel': self.panel_id,
                'conversations': [conversation.to_data() for conversation in self.conversations]}
