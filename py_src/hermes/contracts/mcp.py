"""MCP shapes the tools and the protocol hand each other (core/tools.py, core/mcp/protocol.py)."""
# __pragma__('skip')
from typing import List, Literal, Optional, TypedDict, Union

from hermes.contracts.json import Json, JsonObject


class TextContent(TypedDict):
    type: Literal['text']
    text: str


class ImageContent(TypedDict):
    type: Literal['image']
    data: str  # Base64
    mimeType: str


class ResourceContents(TypedDict, total=False):
    uri: str
    mimeType: str
    text: str
    blob: str


class EmbeddedResource(TypedDict):
    type: Literal['resource']
    resource: ResourceContents


class ResourceLink(TypedDict, total=False):
    type: Literal['resource_link']
    uri: str
    name: str
    mimeType: str


ContentItem = Union[TextContent, ImageContent, EmbeddedResource, ResourceLink]


class _CallToolResultBase(TypedDict):
    content: List[ContentItem]
    isError: bool


class CallToolResult(_CallToolResultBase, total=False):
    """A tool's outcome (core/tools.py to_call_result): a failure the model can act on is `isError: true`."""
    structuredContent: JsonObject
    _meta: JsonObject


class ToolAnnotations(TypedDict, total=False):
    title: str
    readOnlyHint: bool
    destructiveHint: bool


class _ToolSpecBase(TypedDict):
    name: str
    description: str
    inputSchema: JsonObject
    annotations: ToolAnnotations


class ToolSpec(_ToolSpecBase, total=False):
    """One entry of `tools/list` (core/tools.py Tool.to_mcp)."""
    title: str
    outputSchema: JsonObject


LogLevel = Literal['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
"""MCP's log levels (`notifications/message`); a tool's `call.log(level, …)` uses them, and the loop adds
'progress' for progress reports (contracts/loop.py ToolLogLevel)."""

ToolArguments = JsonObject
"""A tool's arguments after the registry validated them and filled in the schema's defaults, as the registry and the
gate see them; a handler gets its own tool's TypedDict (contracts/tool_args.py, generated from the schema)."""

ToolReturn = Union[str, CallToolResult, Json]
"""What a handler may return: a str (one text item), a CallToolResult, or any JSON value (core/tools.py)."""


class SseEvent(TypedDict):
    """One server-sent event of an MCP stream (core/sse_parser.py, read by net/mcp/client.py)."""
    event: str  # 'message' when the stream named none
    data: str
    id: Optional[str]  # the stream's last event id so far
# __pragma__('noskip')
