"""Runs the MCP server for this window: reads `hermes.mcp.*`, keeps the token in secrets, writes the
discovery file, keeps the status bar honest, and restarts on settings changes without a reload."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.process import current_pid
from hermes.js.promises import spawn
from hermes.version import VERSION
from hermes.core.values import json_type
from hermes.core.mcp.protocol import McpSession
from hermes.core.mcp.stateless import McpStatelessServer, ALL_PROTOCOL_VERSIONS
from hermes.core.ignored_arguments import IgnoredArguments
from hermes.net.mcp.http import McpHttpServer
from hermes.net.discovery import write_discovery, remove_discovery
from hermes.host.settings import setting, on_settings_changed
from hermes.host.secrets import mcp_token
from hermes.host.workspace import workspace_folders
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, List, Optional, Protocol
from hermes.contracts.json import JsonObject
from hermes.core.tools import ToolRegistry
from hermes.host.log import Log
from hermes.host.mcp.features import McpFeatures
from hermes.net.mcp.sessions import Route
if TYPE_CHECKING:
    from vscode import ExtensionContext


class StatusShown(Protocol):
    """Where the server's state is shown (ui/status_bar.py StatusBar)."""
    def show_serving(self, port: int, clients: int, auth_off: bool, description: str) -> None: ...

    def show_off(self, tooltip: str) -> None: ...

    def show_error(self, tooltip: str) -> None: ...
# __pragma__('noskip')

LAST_PORT_KEY = 'hermes.mcp.lastPort'  # workspaceState: the port this window served on (net/mcp/http.py RECLAIM_MS)
SERVER_INFO = {'name': 'hermes-vscode', 'title': 'Hermes for VS Code', 'version': VERSION}
INSTRUCTIONS = ('These tools drive the VS Code window the user is working in. Paths are relative to the '
                'workspace folders (see workspace_get_folders).')


def url_of(port: int) -> str:
    """The MCP endpoint of the server on `port`."""
    return 'http://127.0.0.1:' + str(port) + '/mcp'


class McpService:
    def __init__(self, context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry', status_bar: 'StatusShown',
                 features: 'Optional[McpFeatures]' = None) -> None:
        self.context = context
        self.features = features  # host/mcp/features.py: resources, prompts, completions
        self.log = log
        self.registry = registry
        self.status_bar = status_bar
        self.server = None  # type: Optional[McpHttpServer]
        self.port = None  # type: Optional[int]
        self.token = None  # type: Optional[str]
        # the address VS Code forwards here, with hermes.mcp.forwardedAddress
        self.forwarded_url = None  # type: Optional[str]
        self.error = None  # type: Optional[str]
        self.restart_requested = False
        self.restarting = False
        # called after every start/stop, e.g. to refresh VS Code's MCP list
        self.listeners = []  # type: List[Callable[[], Any]]
        # called with the client count when a client connects or leaves
        self.client_listeners = []  # type: List[Callable[[int], Any]]
        # the first start, begun by begin(): settles once the port listens (or failed)
        self.ready = None  # type: Optional[Awaitable[None]]
        self.ignored = IgnoredArguments(log)  # one memory for every session: a client's extra arguments logged once

    @property
    def url(self) -> 'Optional[str]':
        return None if self.port is None else url_of(self.port)

    @property
    def running(self) -> bool:
        return self.server is not None

    def on_change(self, listener: 'Callable[[], Any]') -> None:
        self.listeners.append(listener)

    def begin(self) -> 'Awaitable[None]':
        """Start in the background so activation does not wait for secret storage and the port (secrets
        are a round trip to the window, ~150 ms in code-server); the discovery file appears once the port
        listens. `ready` settles then; whatever needs the server awaits it."""
        self.ready = spawn(self.start())
        return self.ready

    async def started(self) -> None:
        """Once the first start has settled (at once before `begin`)."""
        if self.ready is not None:
            await self.ready

    async def start(self) -> None:
        self.error = None
        if not setting('mcp.enabled'):
            self.log.info('MCP server disabled (hermes.mcp.enabled is false)')
            self._changed()
            return
        auth = setting('mcp.auth')
        self.token = None if auth == 'none' else await mcp_token(self.context)
        server = McpHttpServer(self.create_protocol, self.health, self.token, self.log,
                               stateless=self.create_stateless())
        server.sessions.on_changed = lambda count: self._clients_changed()
        preferred = setting('mcp.port')
        last_port = self.context.workspaceState.js_get(LAST_PORT_KEY)
        try:
            port = await server.start(preferred, last_port if json_type(last_port) == 'number' else None)
        except JsError as error:
            self.error = error_message(error)
            self.log.error('Could not start the MCP server', error)
            self._changed()
            vscode.window.showErrorMessage('Hermes: could not start the MCP server: ' + self.error +
                                           '. Set another "hermes.mcp.port" to try again.')
            return
        self.port = port
        self.server = server
        if preferred != 0:  # remembered across reloads: the next extension host of this window waits for it
            self.context.workspaceState.js_update(LAST_PORT_KEY, port)
        write_discovery(port, self.discovery_info())
        self.log.info('MCP server listening on ' + url_of(port) + ' (auth: ' + auth + ', ' +
                      str(len(self.registry.names())) + ' tools)')
        await self._forward(server, port)
        if auth == 'none':
            self.log.warn('MCP authentication is off: any local process can drive this window')
            vscode.window.showWarningMessage('Hermes: MCP authentication is off ("hermes.mcp.auth": "none"). '
                                             'Any program on this machine can drive this window.')
        self._changed()

    async def _forward(self, server: McpHttpServer, port: int) -> None:
        """With `hermes.mcp.forwardedAddress`: the address VS Code forwards to this server (asExternalUri — a
        forwarded port in Remote-SSH/WSL/containers/Codespaces, a proxy path in code-server) is served too, its Host
        accepted exactly (the token is still required). Nothing to forward (a local window): said once in the log."""
        self.forwarded_url = None
        if not setting('mcp.forwardedAddress'):
            return
        try:
            external = await vscode.env.asExternalUri(vscode.Uri.parse(url_of(port)))
        except JsError as error:
            self.log.warn('MCP server: VS Code did not give a forwarded address: ' + error_message(error))
            return
        authority = str(external.authority).lower()
        if authority == '127.0.0.1:' + str(port) or authority == 'localhost:' + str(port):
            self.log.info('MCP server: VS Code forwards nothing for this window (it is local); '
                          'hermes.mcp.forwardedAddress changes nothing here')
            return
        server.forwarded_hosts = [authority]
        self.forwarded_url = external.toString(True)
        self.log.info('MCP server also reachable at ' + self.forwarded_url + ' (forwarded by VS Code; '
                      'hermes.mcp.forwardedAddress)')

    async def stop(self) -> None:
        await self.started()  # a deactivate during the first start stops what that start opened
        if self.server is None:
            return
        server = self.server
        port = self.port
        self.server = None
        if port is not None:
            remove_discovery(port, current_pid())
        await server.stop()
        self.log.info('MCP server on port ' + str(port) + ' stopped')
        self.port = None
        self.forwarded_url = None
        self._changed()

    async def restart(self) -> None:
        """Coalesces bursts of settings changes into one restart at a time."""
        self.restart_requested = True
        if self.restarting:
            return
        self.restarting = True
        try:
            while self.restart_requested:
                self.restart_requested = False
                await self.stop()
                await self.start()
        finally:
            self.restarting = False

    def create_protocol(self, send: 'Route') -> McpSession:
        session = McpSession(SERVER_INFO, self.registry, send=send, log=self.log, instructions=INSTRUCTIONS,
                             ignored=self.ignored)
        if self.features is not None:
            self.features.add_to(session)
        return session

    def create_stateless(self) -> McpStatelessServer:
        """The one 2026-07-28 server for every client of this window (no sessions to make)."""
        server = McpStatelessServer(SERVER_INFO, self.registry, self.log, INSTRUCTIONS, self.ignored)
        if self.features is not None:
            self.features.add_to_stateless(server)
        return server

    def health(self) -> 'JsonObject':
        return {
            'status': 'ok',
            'name': SERVER_INFO['name'],
            'version': VERSION,
            'tools': len(self.registry.names()),
            'sessions': 0 if self.server is None else self.server.session_count(),
            'auth': 'none' if self.token is None else 'token',
            'protocolVersions': ALL_PROTOCOL_VERSIONS,
        }

    def discovery_info(self) -> 'JsonObject':
        return {
            'url': self.url,
            'port': self.port,
            'token': self.token,
            'pid': current_pid(),
            'workspaceFolders': [folder['path'] for folder in workspace_folders()],
            'protocolVersions': ALL_PROTOCOL_VERSIONS,
            'transports': {'streamableHttp': self.url, 'sse': 'http://127.0.0.1:' + str(self.port) + '/sse'},
            'ideName': vscode.env.appName,
            'version': VERSION,
            'startedAt': now_ms(),
        }

    def client_count(self) -> int:
        return 0 if self.server is None else self.server.session_count()

    def describe(self) -> str:
        if self.error is not None:
            return 'Hermes MCP server is not running: ' + self.error
        port = self.port
        if not self.running or port is None:
            return 'Hermes MCP server is off (enable it with the "hermes.mcp.enabled" setting).'
        clients = self.client_count()
        return ('Hermes MCP server: ' + url_of(port) + ' · ' + str(clients) + (' client' if clients == 1 else ' clients') +
                ' · ' + str(len(self.registry.names())) + ' tools · auth: ' +
                ('off' if self.token is None else 'token') +
                ('' if self.forwarded_url is None else ' · forwarded: ' + self.forwarded_url))

    def _clients_changed(self) -> None:
        self.show_status()
        count = self.client_count()
        for listener in self.client_listeners:
            listener(count)

    def show_status(self) -> None:
        if self.error is not None:
            self.status_bar.show_error('Hermes: MCP server failed: ' + self.error)
        elif not self.running or self.port is None:
            self.status_bar.show_off('Hermes: MCP server off')
        else:
            self.status_bar.show_serving(self.port, self.client_count(), self.token is None, self.describe())

    def _changed(self) -> None:
        self.show_status()
        for listener in self.listeners:
            listener()

    def dispose(self) -> 'Optional[Awaitable[None]]':
        """VS Code disposes subscriptions without awaiting; stopping starts at once (a JS promise)."""
        if self.server is not None:
            return self.stop()
        return None


def register_mcp_service(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry', status_bar: 'StatusShown',
                         features: 'Optional[McpFeatures]' = None) -> McpService:
    """The service, stopped: call `service.begin()` once the commands exist."""
    service = McpService(context, log, registry, status_bar, features)
    context.subscriptions.push(service)
    on_settings_changed(context, 'mcp', service.restart)
    return service
