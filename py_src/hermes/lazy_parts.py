"""Transcrypt's entry for the modules loaded on first use (hermes/js/parts.py): each import here is transpiled with
its own imports, and esbuild.js bundles it as dist/part-<module>.js, without what dist/extension.js already holds (the
part takes those from the main bundle: one runtime, one instance of every module). Nothing in the extension imports
these modules; it asks `load_part('<module>')` where it first needs one."""
# __pragma__('tconv')
from hermes.net.acp.agent import AcpAgent  # an ACP agent's process and connection: windows that start an ACP agent
from hermes.net.llm_client import LlmClient  # the built-in loop's LLM client: the first request to the LLM
from hermes.core.agent_loop import AgentLoop  # the built-in agent loop: its first run
from hermes.ui.doors.front import open_doors  # the doors of terminal CLIs and their review: after activation returns
from hermes.ui.panel.controller import PanelController  # the side panel's logic: its view resolves, or a command
from hermes.ui.acp.session import make_acp_sessions  # the ACP agents behind chat sessions and the panel: first use
from hermes.host.acp.client_side import AcpClientSide  # what every ACP agent asks of the window: the sessions' making
from hermes.tools.every_tool import tool_named  # the tool modules: a tool's description, schema or handler first read
from hermes.host.tool_services import ToolServices  # the host side of the tools: a tool's first use of it
from hermes.host.changes.workspace_index import WorkspaceIndex  # the workspace's index: the first span of disk changes

LOADED_ON_FIRST_USE = [AcpAgent, LlmClient, AgentLoop, open_doors, PanelController, make_acp_sessions, AcpClientSide,
                      tool_named, ToolServices, WorkspaceIndex]
