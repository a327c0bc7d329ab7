"""The side panel's messages, both ways: their one declaration.

Everything else is generated from this module by scripts/gen_panel_protocol.py (`inv build` runs it; a stale copy
fails tests/unit/test_panel_messages.py and so `inv test` and CI):
- py_src/hermes/ui/panel_messages.py: the webview → host table that ui/panel_protocol.py `parse_webview_message`
  validates every message against at run time (a webview shows model output: its messages are untrusted);
- media/panel/protocol.d.ts: both directions as TypeScript types, which media/panel/*.js names in JSDoc and
  `inv typecheck` checks with `tsc --noEmit --checkJs` (every `postMessage` the webview sends, every handler of
  what the host posts).
The host's side is checked by mypy: ui/panel_controller.py `post(message: ToWebview)`.

To add a message: a TypedDict below, added to `FromWebview` or `ToWebview`, then `inv build`. A webview → host
field is a string with its `Limit` (`Annotated[str, Limit(chars)]`): the only kind the validator takes.
"""
# __pragma__('skip')
from typing import Annotated, Dict, List, Literal, Optional, TypedDict, Union

from hermes.contracts.conversations import AssistantMessage, Message, ReplyStatus, UserMessage
from hermes.contracts.json import Json


class Limit:
    """A webview → host string field's bound: at most `chars` characters, and not blank unless `blank`."""

    def __init__(self, chars: int, blank: bool = False) -> None:
        self.chars = chars
        self.blank = blank


TEXT = Limit(100000)  # a message the user typed
CODE = Limit(1000000)  # a code block of a reply
MODEL = Limit(256)  # a model name
TURN_ID = Limit(64)  # a turn's checkpoint id (core/checkpoints.py new_turn_id)

# ------------------------------------------------------------------------- webview → host


class ReadyMessage(TypedDict):
    """The page loaded: the host sends the whole state."""
    type: Literal['ready']


class SendMessage(TypedDict):
    """A user message."""
    type: Literal['send']
    text: Annotated[str, TEXT]


class BareMessage(TypedDict):
    """Stop the reply; run the failed one again; a new conversation; list the models again; the LLM settings;
    ask for the API key."""
    type: Literal['stop', 'retry', 'newChat', 'refreshModels', 'openSettings', 'setApiKey']


class CodeMessage(TypedDict):
    """A code block's Insert (at the editor's cursor) or Copy."""
    type: Literal['insertCode', 'copyCode']
    code: Annotated[str, CODE]


class SelectModelMessage(TypedDict):
    type: Literal['selectModel']
    model: Annotated[str, MODEL]


class TurnMessage(TypedDict):
    """A turn's checkpoint and pending changes: restore to before it, keep or undo its changes, show its diff."""
    type: Literal['restoreTurn', 'keepTurn', 'undoTurn', 'showTurnChanges']
    turn: Annotated[str, TURN_ID]


FromWebview = Union[ReadyMessage, SendMessage, BareMessage, CodeMessage, SelectModelMessage, TurnMessage]

# ------------------------------------------------------------------------- host → webview


class StatePost(TypedDict):
    """Everything, on 'ready' and New chat; `current` is the reply still running (the view was re-created)."""
    type: Literal['state']
    messages: List[Message]
    running: bool
    current: Optional[AssistantMessage]
    model: Optional[str]
    endpoint: str


class UserMessagePost(TypedDict):
    """The user's message as stored."""
    type: Literal['userMessage']
    message: UserMessage


class TurnStartedPost(TypedDict):
    """An assistant reply begins."""
    type: Literal['turnStarted']


class TextDeltaPost(TypedDict):
    """Streamed reply text."""
    type: Literal['textDelta']
    text: str


class ToolStartedPost(TypedDict):
    type: Literal['toolStarted']
    id: str
    name: str
    arguments: Json


class ToolStatePost(TypedDict):
    """The call waits for the user's confirmation; the user allowed it (running again)."""
    type: Literal['toolWaiting', 'toolRunning']
    id: str


class ToolResultPost(TypedDict):
    type: Literal['toolResult']
    id: str
    isError: bool
    result: str


class TurnEndedPost(TypedDict):
    """The reply ended; `message` is the reply as stored."""
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


class ChangedFile(TypedDict):
    path: str
    label: str  # the file's name
    added: int
    removed: int


class TurnChanges(TypedDict):
    """A turn's pending changes (core/change_view.py turn_changes)."""
    files: List[ChangedFile]
    added: int
    removed: int


class ChangesPost(TypedDict):
    """The conversation's pending changes by turn id: after 'state', and whenever the change log changes."""
    type: Literal['changes']
    turns: Dict[str, TurnChanges]


ToWebview = Union[StatePost, UserMessagePost, TurnStartedPost, TextDeltaPost, ToolStartedPost, ToolStatePost,
                  ToolResultPost, TurnEndedPost, ErrorPost, ModelsPost, ChangesPost]
# __pragma__('noskip')
