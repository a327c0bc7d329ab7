"""Entry point: activate() is a short list of register calls; every registration is a disposable in
`context.subscriptions`; deactivate() waits for every ACP agent process to exit and the MCP server to close its
port."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.parts import load_part
from hermes.js.timers import set_timer
from hermes.version import NAME, VERSION
from hermes.host.log import register_log
from hermes.host.live_values import register_live_values
from hermes.host.approval import Approver
from hermes.host.mcp.service import register_mcp_service
from hermes.host.mcp.features import register_mcp_features
from hermes.host.services import register_services, register_change_log
from hermes.host.changes.window_index import WindowIndex
from hermes.host.terminals import register_terminals
from hermes.host.doors.diff_review import register_diff_review
from hermes.host.chat.conversation_store import register_conversation_store
from hermes.host.acp.agents import register_acp_agents
from hermes.host.doors.late import LateDoors
from hermes.tools.catalog import build_registry
from hermes.ui.status_bar import register_status_bar
from hermes.ui.commands import register_mcp_commands
from hermes.ui.mcp.definitions import register_mcp_definitions
from hermes.ui.llm_commands import register_llm
from hermes.ui.chat.native_chat import register_native_chat
from hermes.ui.acp.late import register_acp_sessions
from hermes.ui.panel.agent import register_agent_panel
from hermes.ui.chat.conversation_commands import register_conversation_commands
from hermes.ui.chat.cost_status import register_cost_status
from hermes.ui.walkthrough import register_walkthrough
from hermes.ui.changes.register import register_change_ui
from hermes.ui.doors.status import register_door_status
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional, TypedDict
from hermes.host.acp.agents import AcpAgents
from hermes.host.llm_service import LlmService
from hermes.host.mcp.service import McpService
if TYPE_CHECKING:
    from vscode import ExtensionContext


class ExtensionApi(TypedDict):
    """What activate() returns: the extension's exports (`vscode.extensions.getExtension(…).exports`, which the
    node and e2e tests read)."""
    version: str
    mcp: McpService
    llm: LlmService
    acp: AcpAgents
    doors: LateDoors


class Active(TypedDict):
    """What deactivate() stops: None before activate() and after deactivate()."""
    service: Optional[McpService]
    agents: Optional[AcpAgents]
    doors: Optional[LateDoors]
# __pragma__('noskip')

_active = {'service': None, 'agents': None, 'doors': None}  # type: Active


async def activate(context: 'ExtensionContext') -> 'ExtensionApi':
    started = now_ms()
    log = register_log(context)
    register_live_values(context)
    status_bar = register_status_bar(context)
    # The services the window's features share, handed to each as what it is (the tools see them through `services`,
    # core/tools.py, as the Protocols they use)
    # the workspace's index for the spans of disk changes (ACP turns, the doors, terminal_run): one, made on first use
    window_index = WindowIndex(context)
    terminals = register_terminals(context, window_index)
    reviews = register_diff_review(context)
    change_log = register_change_log(context)
    services = register_services(context, terminals, reviews, change_log)
    approver = Approver(log)
    registry = build_registry(approver, services)
    features = register_mcp_features(context, terminals, change_log)
    service = register_mcp_service(context, log, registry, status_bar, features)
    _active['service'] = service
    register_mcp_commands(context, log, service)
    register_mcp_definitions(context, service)
    llm = register_llm(context, log, registry)
    conversations = register_conversation_store(context, log)
    agents = register_acp_agents(context, log, registry, terminals)
    _active['agents'] = agents
    acp = register_acp_sessions(context, log, service, agents, conversations, change_log, window_index)
    register_cost_status(context, acp)
    register_native_chat(context, log, registry, llm, conversations, acp, change_log)
    panel = register_agent_panel(context, log, llm, conversations, change_log, acp)
    register_change_ui(context, log, change_log, conversations)
    register_conversation_commands(context, log, conversations, panel, acp)
    # The doors of terminal CLIs and their review of proposals open once activation has returned (a part of their own)
    doors = LateDoors(lambda: load_part('hermes.ui.doors.front').open_doors(
        context, log, approver, change_log, reviews, window_index))
    _active['doors'] = doors
    register_door_status(context, doors)
    register_walkthrough(context, conversations, doors, service)
    log.info(NAME + ' ' + VERSION + ' activated in ' + str(round(now_ms() - started)) + ' ms')
    service.begin()  # not awaited: activation ends here, the MCP server is announced when it listens
    set_timer(doors.open, 0)  # the doors for terminal CLIs: loaded and opened on the next tick (not awaited)
    return {'version': VERSION, 'mcp': service, 'llm': llm, 'acp': agents, 'doors': doors}


async def deactivate() -> None:
    service = _active['service']
    agents = _active['agents']
    doors = _active['doors']
    _active['service'] = None
    _active['agents'] = None
    _active['doors'] = None
    if doors is not None:
        await doors.stop()  # the lock and discovery files go first: no CLI dials a window that is closing
    if agents is not None:
        await agents.stop_all()  # every ACP agent process has exited before the window goes
    if service is not None:
        await service.stop()
