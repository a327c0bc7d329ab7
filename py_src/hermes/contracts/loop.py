"""The agent loop's words and shapes (core/agent_loop.py): its modes, how a run ends, what it reports."""
# __pragma__('skip')
from typing import List, Literal, Optional, TypedDict

from hermes.contracts.chat import ToolCallMessage, Usage
from hermes.contracts.json import Json

ToolCallingSetting = Literal['auto', 'native', 'text']
"""`hermes.llm.toolCalling`: 'auto' starts native and falls back to text for good."""

ToolMode = Literal['native', 'text', 'none']
"""How one run offers tools: natively (`tools`), as ```tool text in the prompt, or not at all (no tools)."""

Mode = Literal['native', 'text', 'none', 'auto']
"""Any of the above: a setting or a run's mode."""

StopReason = Literal['done', 'error', 'cancelled', 'max_iterations']

LlmErrorKind = Literal['unreachable', 'timeout', 'auth', 'model_not_found', 'endpoint_not_found',
                       'tools_unsupported', 'rate_limited', 'server', 'bad_request', 'stream_cut', 'protocol',
                       'cancelled', 'max_iterations', 'internal']
"""What failed (core/llm_wire.py LlmError.kind); 'max_iterations' and 'internal' come from the loop itself."""

ConfirmationState = Literal['not_asked', 'waiting', 'confirmed', 'declined']
"""Where a call stands with the user's consent (core/tools.py ToolCall.confirmation)."""

ToolLogLevel = str
"""An MCP log level (contracts/mcp.py LogLevel) or 'progress' (the loop's progress reports)."""


class Outcome(TypedDict):
    """What `AgentLoop.run` returns and `on_done` hears: the answer's text, why the run stopped (None only
    while it runs), how many replies were asked for, the tokens used, the mode, and the error if any."""
    text: str
    stopped: Optional[StopReason]
    iterations: int
    usage: Optional[Usage]
    mode: Optional[ToolMode]
    error: Optional[str]
    error_kind: Optional[LlmErrorKind]


class ChangeAuthor(TypedDict, total=False):
    """Who the change log names for a write (core/changes/authors.py author_of): the front end or MCP client by name,
    its conversation or session id, the turn's id; `external` for a change made outside Hermes."""
    client: str
    session: Optional[str]
    turn: Optional[str]
    external: bool


class ShownCall(TypedDict):
    """A tool call as the sinks see it: the arguments parsed (or the raw text when they were not JSON)."""
    id: str
    name: str
    arguments: Json


class RecordedReply(TypedDict):
    """A reply written to the history: the calls it asked for, and the ```tool blocks that could not be read."""
    calls: List[ToolCallMessage]
    errors: List[str]


class LoopOptions(TypedDict, total=False):
    """`AgentLoop(client, registry, options)`; every key may be left out (core/agent_loop.py DEFAULTS)."""
    model: str
    tool_calling: ToolCallingSetting
    max_iterations: int
    context_tokens: Optional[int]
    reply_tokens: int
    max_tool_result_chars: int
    instructions: Optional[str]
# __pragma__('noskip')
