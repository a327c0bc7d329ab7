"""The doors terminal CLIs find this window by (docs/DOORS.md): Claude Code's lock file and WebSocket MCP endpoint,
Gemini CLI's (and Qwen Code's) discovery file and Streamable HTTP MCP endpoint. Each door:

- listens on 127.0.0.1 on a port of its own (any free one), with a fresh token for this window (never in argv, the
  log or an error; in the CLI's file only, 0600), and refuses every request without it or from a browser;
- tells VS Code's terminals where it is (`environmentVariableCollection`, not persisted), so a CLI started in one of
  them connects at once, and writes the file the CLI looks for anywhere else (`/ide`);
- serves the tools the CLI expects (host/doors/tools.py) to each connection, with Hermes' review for its proposals
  (host/doors/proposals.py), the window's gate, and the editor's context pushed to it (host/doors/context.py);
- while a CLI is connected, files that change on disk behind the editor become its pending changes
  (host/doors/watch.py).

Each door is switched by a user setting (`hermes.doors.claudeCode`, `hermes.doors.gemini`; application scope: a
repository cannot open or close them) and follows it without a reload.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.js.process import environment_variable
from hermes.js.promises import spawn
from hermes.js.timers import set_timer, clear_timer
from hermes.version import VERSION
from hermes.core.mcp.protocol import McpSession
from hermes.core.values import get_key
from hermes.net.doors.ide_socket import IdeSocketServer
from hermes.net.mcp.http import McpHttpServer
from hermes.net.doors.files import door_file, door_variables, remove_own, remove_stale_doors, write_private
from hermes.host.changes.log import SEAM_TIMERS
from hermes.host.changes.disk_changes import DiskChangeSpan
from hermes.host.doors.context import CONTEXT_QUIET_MS, EditorContext, mention_of
from hermes.host.doors.tools import DoorTools
from hermes.host.doors.watch import DoorWatch
from hermes.host.settings import setting, on_settings_changed
from hermes.host.workspace import disk_folders
from hermes.host.changes.window_index import WindowIndex
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Literal, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import Approval
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
from hermes.host.doors.proposals import Proposals
if TYPE_CHECKING:
    from vscode import ExtensionContext
DoorSetting = Literal['doors.claudeCode', 'doors.gemini', 'doors.qwen']
# __pragma__('noskip')

SERVER_INFO = {'name': 'hermes-vscode-ide', 'title': 'Hermes for VS Code (IDE door)', 'version': VERSION}
CONTAINER_MARK = 'VSCODE_REMOTE_CONTAINERS_SESSION'  # what tells Gemini CLI in a container that its IDE is in there too
CLAUDE = 'claudeCode'
GEMINI = 'gemini'
QWEN = 'qwen'
KINDS = [CLAUDE, GEMINI, QWEN]
SETTINGS = {CLAUDE: 'doors.claudeCode', GEMINI: 'doors.gemini', QWEN: 'doors.qwen'}  # type: Dict[str, DoorSetting]
CLI_NAMES = {CLAUDE: 'Claude Code', GEMINI: 'Gemini CLI', QWEN: 'Qwen Code'}


def cli_name(kind: str) -> str:
    return get_key(CLI_NAMES, kind, kind)


def setting_of(kind: str) -> 'DoorSetting':
    return get_key(SETTINGS, kind)


def fresh_token() -> str:
    return node('crypto').randomBytes(32).toString('hex')


class DoorConnection:
    """One connected CLI, as the door's tools see it (host/doors/tools.py)."""

    def __init__(self, doors: 'DoorService', kind: str, number: int, client: str) -> None:
        self.doors = doors
        self.kind = kind
        self.session = kind + '-' + str(number)
        # By its door, not by what it says: Gemini CLI and Qwen Code both call themselves `streamable-http-client`
        self.client = client
        self.protocol = None  # type: Any
        self.connected_at = now_ms()

    @property
    def version(self) -> str:
        info = None if self.protocol is None else self.protocol.client_info
        version = get_key(info, 'version')
        return '' if version is None else str(version)

    def author(self, turn: 'Optional[str]' = None) -> 'JsonObject':
        return {'client': self.client, 'session': self.session, 'turn': turn}

    def notify(self, method: str, params: 'JsonObject') -> None:
        if self.protocol is not None and not self.protocol.closed and self.protocol.ready:
            self.protocol.notify(method, params)

    def latest_selection(self) -> 'Optional[JsonObject]':
        return self.doors.editor_context.latest

    def about_to_write(self, path: str) -> None:
        self.doors.watch.about_to_write(path)

    def writes_done(self) -> None:
        self.doors.watch.writes_done()

    def accepted(self, path: str, text: str) -> None:
        """The user accepted `text` for `path`: the CLI's write of it is not a change made without asking."""
        self.doors.watch.expect(path, text)

    def close(self) -> None:
        """The feature hook (core/mcp/protocol.py add_feature): the session ended, the CLI is gone."""
        self.doors.disconnected(self)

    def capabilities(self) -> 'JsonObject':
        return {}

    def handler(self, method: str) -> None:
        return None


class DoorService:
    """See the module's docstring. `proposals`: host/doors/proposals.py Proposals; `approver`: the window's gate;
    `change_log`: where a connected CLI's disk changes are recorded; `window_index`: the window's index of the
    workspace those spans start from (host/changes/window_index.py; a new one when None)."""

    def __init__(self, context: 'ExtensionContext', log: 'Log', proposals: 'Proposals', approver: 'Optional[Approval]',
                 change_log: 'Optional[ChangeLog]', window_index: 'Optional[WindowIndex]' = None) -> None:
        self.vscode_context = context
        self.log = log
        self.proposals = proposals
        self.approver = approver
        self.editor_context = EditorContext(now_ms)
        self.index = WindowIndex(context) if window_index is None else window_index  # disposed with the window
        self.watch = DoorWatch(change_log, self._make_span, SEAM_TIMERS, None, log, self.index.ready)
        self.servers = {}  # type: Dict[str, JsonObject]  # kind → {'server', 'port', 'token', 'file'}
        self.connections = []  # type: List[DoorConnection]
        self.listeners = []  # type: List[Callable[[], Any]]
        self._count = 0
        self._context_timer = None  # type: Any
        # the change of the doors under way (start, stop, settings): the next one waits for it
        self._busy = None  # type: Any
        self.closed = False  # stopped for good: the window is closing

    # ---------------------------------------------------------------------------------- lifecycle

    def start(self) -> Any:
        """Open the doors the settings ask for. Each change of the doors waits for the one before (a deactivate while
        the first start is still opening a door closes what that start opens)."""
        return self._in_turn(self._open_all)

    def stop(self, only: 'Optional[str]' = None) -> Any:
        """Close every door (or the one of kind `only`); with every door, for good (the window is closing)."""
        if only is None:
            self.closed = True
        return self._in_turn(lambda: self._close(only))

    def apply_settings(self) -> Any:
        """The doors follow `hermes.doors.*` without a reload."""
        return self._in_turn(self._follow_settings)

    def _in_turn(self, change: 'Callable[[], Any]') -> Any:
        previous = self._busy

        async def run() -> None:
            if previous is not None:
                await previous
            await change()
        self._busy = spawn(run())
        return self._busy

    async def _open_all(self) -> None:
        for kind in KINDS:
            if not self.closed and setting(setting_of(kind)) and not (kind in self.servers):
                await self._start_door(kind)
        self._changed()

    async def _close(self, only: 'Optional[str]') -> None:
        for kind in KINDS:
            if kind in self.servers and (only is None or only == kind):
                door = self.servers[kind]
                del self.servers[kind]
                remove_own(door['file'])
                self._environment_off(door)
                await door['server'].stop()
                self.log.info('IDE door for ' + cli_name(kind) + ' closed')
        self._changed()

    async def _follow_settings(self) -> None:
        for kind in KINDS:
            if not setting(setting_of(kind)):
                await self._close(kind)
        await self._open_all()

    async def _start_door(self, kind: str) -> None:
        try:
            token = fresh_token()
            remove_stale_doors(kind)
            if kind == CLAUDE:
                server = IdeSocketServer(lambda send, connection: self._protocol(kind, send), token,  # type: Any
                                         self.log)
            else:  # Gemini CLI and Qwen Code: the MCP server's own transport, a server (and token) each
                server = McpHttpServer(lambda send: self._protocol(kind, send), self._health, token, self.log,
                                       browsers=False)
            port = await server.start(0)
            if self.closed:  # the window closed while the port opened
                await server.stop()
                return
        except JsError as error:
            self.log.error('Could not open the IDE door for ' + cli_name(kind), error)
            return
        door = {'kind': kind, 'server': server, 'port': port, 'token': token, 'file': None,  # type: JsonObject
                'variables': {}}
        self.servers[kind] = door
        self._announce(door)
        self.log.info('IDE door for ' + cli_name(kind) + ' listening on 127.0.0.1:' + str(port))

    def _announce(self, door: 'JsonObject') -> None:
        """Write the door's file and tell the terminals where it is (again when the workspace folders change)."""
        folders = [folder['path'] for folder in disk_folders()]
        found = door_file(door['kind'], door['port'], folders, ide_display_name(), door['token'])
        try:
            door['file'] = write_private(found[0], found[1])
        except JsError as error:
            self.log.warn('IDE door for ' + cli_name(door['kind']) + ': could not write ' + found[0] + ' (' +
                          error_message(error) + '); terminals of this window still find it')
        variables = door_variables(door['kind'], door['port'], folders)
        if door['kind'] == GEMINI and gemini_would_dial_the_host():
            variables[CONTAINER_MARK] = 'hermes'
        collection = self.vscode_context.environmentVariableCollection
        for name in variables.keys():
            collection.js_replace(name, variables[name])
        door['variables'] = variables

    def folders_changed(self) -> None:
        """The files and the terminals' variables name the workspace folders: written again when they change."""
        for kind in KINDS:
            if kind in self.servers:
                self._announce(self.servers[kind])

    def _environment_off(self, door: 'JsonObject') -> None:
        collection = self.vscode_context.environmentVariableCollection  # type: Any  # (`delete` by subscript, below)
        for name in door['variables'].keys():
            collection['delete'](name)  # subscript: `delete` is a JS keyword Transcrypt leaves as it is

    def _health(self) -> 'JsonObject':
        return {'status': 'ok', 'name': SERVER_INFO['name'], 'version': VERSION}

    # ---------------------------------------------------------------------------------- connections

    def _protocol(self, kind: str, send: 'Callable[..., Any]') -> 'McpSession':
        self._count += 1
        self.index.warm()  # a CLI dialled: the workspace is walked in the background while it says hello
        connection = DoorConnection(self, kind, self._count, cli_name(kind))
        tools = DoorTools(connection, self.proposals, self.approver)
        registry = tools.claude_registry() if kind == CLAUDE else tools.gemini_registry()
        session = McpSession(SERVER_INFO, registry, send=send, log=self.log,
                             instructions='Tools of the VS Code window this CLI runs beside (Hermes).')
        session.on_ready = lambda: self._ready(connection)
        connection.protocol = session
        session.add_feature(connection)
        self.connections.append(connection)
        return session

    def _ready(self, connection: 'DoorConnection') -> None:
        self.log.info(connection.client + ' ' + connection.version + ' connected through the IDE door')
        self.watch.attach(connection.author())
        self._changed()
        self._send_context_soon()

    def disconnected(self, connection: 'DoorConnection') -> None:
        if not (connection in self.connections):
            return
        self.connections = [other for other in self.connections if other is not connection]
        self.proposals.cancel_where({'client': connection.client, 'session': connection.session}, 'cancelled')
        self.watch.detach(connection.author())
        self.log.info(connection.client + ' disconnected from the IDE door')
        self._changed()

    def on_change(self, listener: 'Callable[[], Any]') -> None:
        self.listeners.append(listener)

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    def describe(self) -> 'List[JsonObject]':
        """Each connected CLI with its door, for the status bar's tooltip."""
        return [{'client': connection.client, 'version': connection.version, 'door': cli_name(connection.kind),
                 'port': self.servers[connection.kind]['port'] if connection.kind in self.servers else None}
                for connection in self.connections if connection.protocol.ready]

    # ---------------------------------------------------------------------------------- the editor's context

    def editor_changed(self, *ignored: Any) -> None:
        self._send_context_soon()

    def _send_context_soon(self) -> None:
        if self._context_timer is not None:
            clear_timer(self._context_timer)
        self._context_timer = set_timer(self._send_context, CONTEXT_QUIET_MS)

    def _send_context(self) -> None:
        self._context_timer = None
        editor = vscode.window.activeTextEditor
        selection = self.editor_context.editor_changed(editor)
        gemini = None  # type: Optional[JsonObject]
        for connection in self.connections:
            if connection.kind == CLAUDE and selection is not None:
                connection.notify('selection_changed', {'text': selection['text'], 'filePath': selection['filePath'],
                                                        'fileUrl': selection['fileUrl'],
                                                        'selection': selection['selection']})
            elif connection.kind != CLAUDE:  # Gemini CLI, Qwen Code
                if gemini is None:
                    gemini = self.editor_context.gemini_context(editor)
                connection.notify('ide/contextUpdate', gemini)

    def send_selection(self) -> int:
        """"Send Selection to the Agent in the Terminal": an `at_mentioned` to every connected Claude Code."""
        mention = mention_of(vscode.window.activeTextEditor)
        if mention is None:
            vscode.window.showInformationMessage('Hermes: select some text in a workspace file first.')
            return 0
        sent = 0
        for connection in self.connections:
            if connection.kind == CLAUDE and connection.protocol.ready:
                connection.notify('at_mentioned', mention)
                sent += 1
        if sent == 0:
            vscode.window.showInformationMessage('Hermes: no Claude Code is connected to this window. Start `claude` '
                                                 'in a VS Code terminal (or run /ide in it).')
        return sent

    def _make_span(self) -> 'DiskChangeSpan':
        return DiskChangeSpan(self.log, None, SEAM_TIMERS, None, self.index.index())

    def dispose(self) -> Any:
        """VS Code disposes without awaiting: the doors start closing at once (a JS promise)."""
        self.watch.dispose()
        self.closed = True  # a start still under way closes what it opens
        if len(self.servers) > 0:
            return self.stop()
        return None


def gemini_would_dial_the_host() -> bool:
    """Gemini CLI in a container dials `host.docker.internal` for its IDE, unless it sees SSH or a dev container:
    it assumes the editor runs outside. This extension host is inside the same container as the terminal (code-server
    in a container, a dev container's workspace extension), so its terminals say so."""
    fs = node('fs')
    in_container = fs.existsSync('/.dockerenv') or fs.existsSync('/run/.containerenv')
    told = environment_variable('SSH_CONNECTION') is not None or environment_variable(CONTAINER_MARK) is not None \
        or environment_variable('REMOTE_CONTAINERS') is not None
    return in_container and not told


def ide_display_name() -> str:
    """How /ide and /status in the CLIs name this window: the editor and the workspace."""
    folders = disk_folders()
    where = folders[0]['name'] if len(folders) > 0 else 'no folder'
    return vscode.env.appName + ' · Hermes (' + where + ')'


def register_doors(context: 'ExtensionContext', log: 'Log', proposals: 'Proposals', approver: 'Optional[Approval]',
                   change_log: 'Optional[ChangeLog]', window_index: 'Optional[WindowIndex]' = None) -> 'DoorService':
    """The doors open in the background once activation is done (`start` is not awaited)."""
    doors = DoorService(context, log, proposals, approver, change_log, window_index)
    context.subscriptions.push(doors)
    on_settings_changed(context, 'doors', doors.apply_settings)
    context.subscriptions.push(vscode.window.onDidChangeTextEditorSelection(to_js_callback(doors.editor_changed)))
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(to_js_callback(doors.editor_changed)))
    context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(
        to_js_callback(lambda event: doors.folders_changed())))
    collection = context.environmentVariableCollection
    collection.persistent = False  # the ports change with every window: never restored from a past one
    collection.description = 'Lets Claude Code and Gemini CLI started here find this window (Hermes)'
    return doors
