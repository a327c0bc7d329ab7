"""The side panel's messages, both ways. Webview → host: validated by ui/panel_protocol.py
`parse_webview_message` (its MESSAGES table is the runtime list; these are their shapes). Host → webview: what
ui/panel_controller.py posts and media/panel/main.js reads (it ignores anything else)."""
# __pragma__('skip')
from typing import List, Literal, Optional, TypedDict, Union

from hermes.contracts.conversations import AssistantMessage, Message, ReplyStatus, UserMessage
from hermes.contracts.json import Json

# ------------------------------------------------------------------------- webview → host


class ReadyMessage(TypedDict):
    type: Literal['ready']  # the page loaded: send the whole state


class SendMessage(TypedDict):
    type: Literal['send']
    text: str  # non-blank


class BareMessage(TypedDict):
    type: Literal['stop', 'retry', 'newChat', 'refreshModels', 'openSettings', 'setApiKey']


class CodeMessage(TypedDict):
    type: Literal['insertCode', 'copyCode']
    code: str


class SelectModelMessage(TypedDict):
    type: Literal['selectModel']
    model: str


FromWebview = Union[ReadyMessage, SendMessage, BareMessage, CodeMessage, SelectModelMessage]

# ------------------------------------------------------------------------- host → webview


class StatePost(TypedDict):
    """Everything, on 'ready' and New chat."""
    type: Literal['state']
    messages: List[Message]
    running: bool
    current: Optional[AssistantMessage]
    model: Optional[str]
    endpoint: str


class UserMessagePost(TypedDict):
    type: Literal['userMessage']
    message: UserMessage


class TurnStartedPost(TypedDict):
    type: Literal['turnStarted']


class TextDeltaPost(TypedDict):
    type: Literal['textDelta']
    text: str


class ToolStartedPost(TypedDict):
    type: Literal['toolStarted']
    id: str
    name: str
    arguments: Json


class ToolStatePost(TypedDict):
    type: Literal['toolWaiting', 'toolRunning']
    id: str


class ToolResultPost(TypedDict):
    type: Literal['toolResult']
    id: str
    isError: bool
    result: str


class TurnEndedPost(TypedDict):
    type: Literal['turnEnded']
    status: ReplyStatus
    message: AssistantMessage


class ErrorPost(TypedDict):
    """A banner; `retry` says which action it offers ('turn', 'models', or none)."""
    type: Literal['error']
    message: str
    retry: Union[Literal['turn', 'models'], Literal[False]]
    settings: bool
    apiKey: bool


class ModelsPost(TypedDict):
    type: Literal['models']
    models: List[str]
    current: Optional[str]
    endpoint: str
    error: Optional[str]


ToWebview = Union[StatePost, UserMessagePost, TurnStartedPost, TextDeltaPost, ToolStartedPost, ToolStatePost,
                  ToolResultPost, TurnEndedPost, ErrorPost, ModelsPost]
# __pragma__('noskip')
