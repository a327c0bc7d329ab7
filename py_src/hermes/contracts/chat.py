"""OpenAI chat messages as the loop keeps them (core/llm_wire.py builds them; `hermes_` keys never leave the
extension: core/agent_loop.py render_history drops them)."""
# __pragma__('skip')
from typing import List, Literal, Optional, TypedDict, Union

from hermes.contracts.json import JsonObject

Role = Literal['system', 'user', 'assistant', 'tool']


class FunctionCall(TypedDict):
    name: str
    arguments: str  # JSON text, as the model wrote it


class ToolCallMessage(TypedDict):
    """One entry of an assistant message's `tool_calls` (llm_wire.tool_call_message)."""
    id: str
    type: Literal['function']
    function: FunctionCall


class _MessageBase(TypedDict):
    role: Role


class ChatMessage(_MessageBase, total=False):
    """A message of the history (system, user, assistant or tool)."""
    content: Optional[str]
    name: str
    tool_calls: List[ToolCallMessage]
    tool_call_id: str
    hermes_tool: str  # a tool message: the tool's name (the text protocol names it)
    hermes_is_error: bool  # a tool message: the result was an error
    hermes_text_protocol: bool  # an assistant message written in the ```tool text protocol
    hermes_correction: bool  # a user message the loop added to correct a broken tool call


History = List[ChatMessage]


class Usage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class LlmTurn(TypedDict):
    """One streamed reply, assembled (llm_wire.StreamAccumulator.turn)."""
    content: str
    tool_calls: List[ToolCallMessage]
    finish_reason: Optional[str]
    usage: Optional[Usage]
    model: Optional[str]


class ModelInfo(TypedDict):
    """What the server tells about a model (net/llm_client.py model_info); None where it does not tell."""
    context_length: Optional[int]
    model_context_length: Optional[int]
    supports_tools: Optional[bool]


ChatRequest = JsonObject
"""The body of POST /chat/completions (llm_wire.chat_request)."""

Content = Union[str, None]
# __pragma__('noskip')
