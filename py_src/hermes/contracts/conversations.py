"""A conversation as the side panel and the chat sessions store it (core/chat/conversations.py, the store's file
through host/chat/conversation_store.py)."""
# __pragma__('skip')
from typing import List, Literal, NotRequired, Optional, TypedDict, Union

from hermes.contracts.chat import ChatMessage
from hermes.contracts.json import Json, JsonObject

ReplyStatus = Literal['running', 'done', 'stopped', 'error']
ToolStatus = Literal['running', 'waiting', 'ok', 'error', 'cancelled']


class TextPart(TypedDict):
    kind: Literal['text']
    text: str


class ToolPart(TypedDict):
    kind: Literal['tool']
    id: str
    name: str
    arguments: Json
    status: ToolStatus
    result: str  # cut to RESULT_LIMIT
    paths: NotRequired[List[str]]  # an ACP agent's tool call: the files it named
    parent: NotRequired[str]  # the id of the tool call it is nested under (a Hermes subagent: core/acp/subagents.py)


class ThoughtPart(TypedDict):
    """An ACP agent's thinking: shown live, stored, not replayed into a session's history."""
    kind: Literal['thought']
    text: str


class PlanEntry(TypedDict):
    title: str
    status: str  # 'pending', 'in_progress', 'completed'


class PlanPart(TypedDict):
    """An ACP agent's plan (core/acp/turn.py)."""
    kind: Literal['plan']
    entries: List[PlanEntry]


Part = Union[TextPart, ToolPart, ThoughtPart, PlanPart]


class UserMessage(TypedDict):
    role: Literal['user']
    text: str
    turn: NotRequired[str]  # the turn's checkpoint id (core/changes/checkpoints.py); older conversations have none


class TurnUsage(TypedDict):
    """What an ACP agent's turn used (the prompt's answer's tokens: {total, input, output, thought?, cachedRead?,
    cachedWrite?}) and cost (what the session's cost grew by: {amount, currency}), and the line that says it."""
    tokens: Optional[JsonObject]
    cost: Optional[JsonObject]
    text: str


class AssistantMessage(TypedDict):
    role: Literal['assistant']
    status: ReplyStatus
    error: Optional[str]
    parts: List[Part]
    usage: NotRequired['TurnUsage']  # what an ACP agent's turn used and cost (core/acp/turn_usage.py turn_usage)


Message = Union[UserMessage, AssistantMessage]


class ConversationData(TypedDict):
    """One stored conversation; times are milliseconds since 1970."""
    id: Optional[str]
    title: str
    created: Optional[float]
    updated: Optional[float]
    model: Optional[str]
    archived: bool
    changes: List[str]
    lastRequestStarted: Optional[float]
    lastRequestEnded: Optional[float]
    messages: List[Message]
    history: List[ChatMessage]
# __pragma__('noskip')
