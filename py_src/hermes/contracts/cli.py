"""What the command line of dist/mcp-server.js (cli/) passes between its steps: the parsed options (cli/args.py),
the window chosen from the discovery files (cli/select_window.py) and the health report (cli/health.py)."""
# __pragma__('skip')
from typing import Any, Awaitable, List, Optional, Protocol, TypedDict

from hermes.contracts.json import Json, JsonObject

class CliOptions(TypedDict):
    """`parse_args` of a command line that can run (`help` set, or `command` one of COMMANDS)."""
    command: Optional[str]  # one of cli/args.py COMMANDS, or 'help'
    url: Optional[str]
    token: Optional[str]
    port: Optional[int]
    client: str  # a client of core/client_config.py CLIENTS, or 'all'
    json: bool
    help: bool


class ChosenWindow(TypedDict):
    """The window the CLI talks to (`select_window`): from its discovery file, or only the given --url."""
    url: str
    token: Optional[str]
    port: Optional[int]
    pid: Optional[int]
    workspaceFolders: List[str]
    reason: str  # a phrase saying why this window
    count: int  # how many windows were found


class Check(TypedDict):
    name: str
    ok: Optional[bool]  # None: skipped
    detail: str


class HealthReport(TypedDict):
    ok: bool
    window: Optional[JsonObject]  # the window as reported, without its token (`public_window`)
    checks: List[Check]
    health: Optional[JsonObject]  # what /health answered
    server: Json  # the handshake's serverInfo
    protocolVersion: Json
    tools: Optional[int]
    pingMs: Optional[float]


class HealthClient(Protocol):
    """What `diagnose` asks of an MCP client (net/mcp/client.py McpHttpClient; the tests' fake)."""
    def initialize(self) -> Awaitable[Json]: ...

    def request(self, method: str, params: Json = None) -> Awaitable[Json]: ...

    def close(self) -> Awaitable[Any]: ...
# __pragma__('noskip')
