"""Where an agent's sessions work: the workspace's first folder (session/new's `cwd`, not its process's), the other
folders of a multi-root window (the session's additional roots, where the agent offers them), and this window's MCP
server, handed over in session/new, session/load and session/fork so every agent uses the same tools."""
# __pragma__('tconv')
from hermes.core.acp.backends import mcp_server_entry
from hermes.host.workspace import workspace_folders
from hermes.host.acp.agent_launch import home_folder
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.mcp.service import McpService
# __pragma__('noskip')


class SessionPlace:
    """`mcp`: the McpService whose url and token go to the agent (None: a window without one, a test's)."""

    def __init__(self, mcp: 'Optional[McpService]') -> None:
        self.mcp = mcp

    def cwd(self) -> str:
        """The workspace folder the agent's sessions work in; the home folder in a window without one."""
        folders = workspace_folders()
        return folders[0]['path'] if len(folders) > 0 else home_folder()

    def other_folders(self) -> 'List[str]':
        """A multi-root window's folders after the first (the sessions' additional roots, where the agent offers them)."""
        return [folder['path'] for folder in workspace_folders()[1:]]

    async def mcp_servers(self) -> 'List[JsonObject]':
        """This window's MCP server for the agent (waits for it to listen); none when it is off."""
        mcp = self.mcp
        if mcp is None:
            return []
        if mcp.ready is not None:
            await mcp.ready
        if not mcp.running or mcp.url is None:
            return []
        return [mcp_server_entry(mcp.url, mcp.token)]
