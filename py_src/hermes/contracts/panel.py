"""The side panel's messages, both ways: their one declaration.

Everything else is generated from this module by scripts/gen_panel_protocol.py (`inv build` runs it; a stale copy
fails tests/unit/panel/test_panel_messages.py and so `inv test` and CI):
- py_src/hermes/ui/panel/messages.py: the webview → host table that ui/panel/protocol.py `parse_webview_message`
  validates every message against at run time (a webview shows model output: its messages are untrusted);
- media/panel/protocol.d.ts: both directions as TypeScript types, which media/panel/*.js names in JSDoc and
  `inv typecheck` checks with `tsc --noEmit --checkJs` (every `postMessage` the webview sends, every handler of
  what the host posts).
The host's side is checked by mypy: ui/panel/state.py `PanelState.post(message: ToWebview)`.

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
TURN_ID = Limit(64)  # a turn's checkpoint id (core/changes/checkpoints.py new_turn_id)
AGENT_ID = Limit(1024)  # an id an ACP agent chose (a permission card's tool call, an option)
ACTION = Limit(16)  # accept | decline | cancel (the host checks)
# a form's answers as JSON text: at most 30 fields of 10,000 characters each (core/acp/elicitation.py), with room for
# their names and JSON's escapes
FORM_VALUES = Limit(700000)
# images attached in the panel as JSON text: at most 4 (core/acp/prompt_content.py MAX_PANEL_IMAGES) of 7 MiB of base64
# each (MAX_IMAGE_CHARS), with room for their types and names
IMAGES = Limit(29364224 + 4096)

# ------------------------------------------------------------------------- webview → host


class ReadyMessage(TypedDict):
    """The page loaded: the host sends the whole state."""
    type: Literal['ready']


class SendMessage(TypedDict):
    """A user message."""
    type: Literal['send']
    text: Annotated[str, TEXT]


class SendImagesMessage(TypedDict):
    """A user message with images pasted or picked in the panel, for an ACP agent that reads images: `images` is the
    JSON text of [{mimeType, data (base64), name}]; the host checks each (core/acp/prompt_content.py panel_images)."""
    type: Literal['sendImages']
    text: Annotated[str, TEXT]
    images: Annotated[str, IMAGES]


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


class SelectBackendMessage(TypedDict):
    """Who answers the next new conversation: a BackendChoice id the host offered (it checks)."""
    type: Literal['selectBackend']
    backend: Annotated[str, MODEL]


class PermissionAnswerMessage(TypedDict):
    """The user's answer to an ACP agent's permission card: one of its PermissionChoice ids (the host checks)."""
    type: Literal['permissionAnswer']
    id: Annotated[str, AGENT_ID]
    option: Annotated[str, AGENT_ID]


class SetOptionMessage(TypedDict):
    """A choice in one of the agent's pickers: an OptionPicker id and one of its item ids (the host checks both)."""
    type: Literal['setOption']
    option: Annotated[str, AGENT_ID]
    value: Annotated[str, AGENT_ID]


class OpenPermissionDiffMessage(TypedDict):
    """A permission card's diffs, each in a diff editor."""
    type: Literal['openPermissionDiff']
    id: Annotated[str, AGENT_ID]


class ElicitationAnswerMessage(TypedDict):
    """The user's answer to an ACP agent's form question: `action` accept | decline | cancel, and for accept the
    form's values as a JSON object text ({field name: text typed, choice picked, or true/false}); the host checks
    them against the question's schema (core/acp/elicitation.py check_answers) and sends nothing while they are wrong."""
    type: Literal['elicitationAnswer']
    id: Annotated[str, AGENT_ID]
    action: Annotated[str, ACTION]
    values: Annotated[str, FORM_VALUES]


class SetupAgentMessage(TypedDict):
    """The sign-in button (Hermes Agent: "Set up Hermes Agent", `hermes acp --setup`): the agent's sign-in, then the
    failed turn again."""
    type: Literal['setupAgent']


FromWebview = Union[ReadyMessage, SendMessage, SendImagesMessage, BareMessage, CodeMessage, SelectModelMessage, TurnMessage,
                    SelectBackendMessage, PermissionAnswerMessage, OpenPermissionDiffMessage, SetupAgentMessage,
                    ElicitationAnswerMessage, SetOptionMessage]

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
    """A banner; `retry` says which action it offers ('turn', 'models', or none); `setup`: the title of the sign-in
    button (an agent that needs a sign-in; Hermes Agent without a model provider), or None."""
    type: Literal['error']
    message: str
    retry: Union[Literal['turn', 'models'], Literal[False]]
    settings: bool
    apiKey: bool
    setup: Optional[str]


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
    """A turn's pending changes (core/changes/view.py turn_changes)."""
    files: List[ChangedFile]
    added: int
    removed: int


class ChangesPost(TypedDict):
    """The conversation's pending changes by turn id: after 'state', and whenever the change log changes."""
    type: Literal['changes']
    turns: Dict[str, TurnChanges]


# ------------------------------------------------------------------------- who answers; an ACP agent's turn


class BackendChoice(TypedDict):
    """core/acp/backends.py backend_choices: 'builtin', 'hermes', or an agent's name from hermes.acp.agents."""
    id: str
    label: str
    detail: str
    available: bool  # False: Hermes not installed, or Restricted Mode (choosing it gets a session's notice)


class AgentUsage(TypedDict):
    used: int
    size: int
    cost: Optional[str]  # what the agent says the session cost so far ('$0.42'), or None


class BackendsPost(TypedDict):
    """Who answers (after 'state', and when it may have changed); `locked`: the conversation keeps the backend it
    started with (New chat to choose); `usage`: the agent's context use in this conversation."""
    type: Literal['backends']
    choices: List[BackendChoice]
    current: str
    locked: bool
    usage: Optional[AgentUsage]


class AgentCommand(TypedDict):
    """One of the agent's slash commands (core/acp/commands.py): typed as the message (`/name input`) it reaches the
    agent as the prompt's text, which is how ACP runs commands."""
    name: str  # without the "/"
    description: str
    hint: str  # what its input is ('' when it takes none or the agent did not say)


class OptionItem(TypedDict):
    id: str
    name: str


class OptionPicker(TypedDict):
    """One of the agent's options (core/acp/options.py panel_options): a select, or a boolean (items 'true'/'false')."""
    id: str
    name: str
    kind: Literal['select', 'boolean']
    items: List[OptionItem]
    value: Optional[str]


class OptionsPost(TypedDict):
    """The conversation's agent options as pickers above the input ([] for none: the built-in loop, a conversation no
    agent answered yet); posted with 'backends' and again when the agent offers others or changes a value."""
    type: Literal['options']
    options: List[OptionPicker]


class CommandsPost(TypedDict):
    """The slash commands of the agent that answers the conversation (the list "/" opens in the input); [] for the
    built-in loop or an agent that sent none. Posted after 'backends' and whenever the agent sends another list."""
    type: Literal['commands']
    commands: List[AgentCommand]


class ThoughtDeltaPost(TypedDict):
    """The agent's thinking, streamed (a collapsed block)."""
    type: Literal['thoughtDelta']
    text: str


class DiffHunk(TypedDict):
    line: int  # 1-based, in the new text
    removed: List[str]
    added: List[str]


class DiffPreview(TypedDict):
    """core/changes/diff_preview.py: a proposed change as bounded lines."""
    added: int
    removed: int
    created: bool
    hunks: List[DiffHunk]
    more: int  # hunks left out
    tooLarge: bool


class ToolDiff(TypedDict):
    path: str
    preview: DiffPreview


class AgentTool(TypedDict):
    """An ACP tool call (core/acp/turn.py tool_view, its diffs as previews); the same id again is an update."""
    id: str
    title: str
    kind: str  # read | edit | delete | move | search | execute | think | fetch | other
    status: Literal['running', 'waiting', 'ok', 'error', 'cancelled']
    complete: bool
    input: str
    output: str
    paths: List[str]
    diffs: List[ToolDiff]
    parent: Optional[str]  # the id of the card it is nested under (a Hermes subagent: core/acp/subagents.py)
    subagent: bool  # a Hermes subagent's card: its tools as the input line, what it wrote as the output


class AgentToolPost(TypedDict):
    type: Literal['agentTool']
    tool: AgentTool


class PlanEntry(TypedDict):
    title: str
    status: Literal['pending', 'in_progress', 'completed']


class PlanPost(TypedDict):
    """The agent's whole to-do list, each time it changes (shown where it first appeared, updated in place)."""
    type: Literal['plan']
    entries: List[PlanEntry]


class UsagePost(TypedDict):
    type: Literal['usage']
    used: int
    size: int
    cost: Optional[str]


class NoticePost(TypedDict):
    """A line in the running reply (Markdown): a lost session, a permission denied for lack of an answer, how to
    get Hermes Agent, an agent that gave no answer."""
    type: Literal['notice']
    text: str


class PermissionChoice(TypedDict):
    id: str  # the agent's optionId, sent back exactly
    label: str
    kind: str  # allow_once | allow_always | reject_once | reject_always
    allow: bool


class PermissionDiff(TypedDict):
    path: str
    shown: str  # the path as the agent named it
    preview: DiffPreview


class PermissionPost(TypedDict):
    """A permission question, asked in the card of the waiting tool `id` (the AgentTool with that id)."""
    type: Literal['permission']
    id: str
    title: str
    detail: str
    command: Optional[str]
    diffs: List[PermissionDiff]
    choices: List[PermissionChoice]


class ElicitationOption(TypedDict):
    value: str  # sent back exactly
    label: str


class ElicitationField(TypedDict):
    """One field of a form question (core/acp/elicitation.py read_question): every text the agent's, cleaned."""
    name: str
    kind: str  # string | number | integer | boolean | choice | unsupported
    type: str  # the schema's type (named for an unsupported field)
    label: str
    description: str
    required: bool
    options: Optional[List[ElicitationOption]]  # a choice's, or Yes/No for a boolean
    format: Optional[str]  # email | uri | date | date-time


class ElicitationPost(TypedDict):
    """An agent's form question, asked in the card of its waiting part `id`; `values`: what the inputs start with
    (the schema's defaults, or the user's last try); `problems`: why the last try was refused ([] at first)."""
    type: Literal['elicitation']
    id: str
    agent: str
    title: str
    message: str
    fields: List[ElicitationField]
    values: Dict[str, str]
    problems: List[str]


ToWebview = Union[StatePost, UserMessagePost, TurnStartedPost, TextDeltaPost, ToolStartedPost, ToolStatePost,
                  ToolResultPost, TurnEndedPost, ErrorPost, ModelsPost, ChangesPost, BackendsPost, ThoughtDeltaPost,
                  AgentToolPost, PlanPost, UsagePost, NoticePost, PermissionPost, CommandsPost,
                  ElicitationPost, OptionsPost]
# __pragma__('noskip')
