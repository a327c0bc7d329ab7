"""The doors terminal CLIs find this window by (docs/DOORS.md): Claude Code's lock file and WebSocket MCP endpoint,
Gemini CLI's (and Qwen Code's) discovery file and Streamable HTTP MCP endpoint. Each door:

- listens on 127.0.0.1 on a port of its own (any free one), with a fresh token for this window (never in argv, the
  log or an error; in the CLI's file only, 0600), and refuses every request without it or from a browser;
- tells VS Code's terminals where it is (`environmentVariableCollection`, not persisted), so a CLI started in one of
  them connects at once, and writes the file the CLI looks for anywhere else (`/ide`);
- serves the tools the CLI expects (host/door_tools.py) to each connection, with Hermes' review for its proposals
  (host/proposals.py), the window's gate, and the editor's context pushed to it (host/door_context.py);
- while a CLI is connected, files that change on disk behind the editor become its pending changes
  (host/door_watch.py).

Each door is switched by a user setting (`hermes.doors.claudeCode`, `hermes.doors.gemini`; application scope: a
repository cannot open or close them) and follows it without a reload.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.js.objects import is_none
from hermes.js.promises import spawn
from hermes.js.timers import set_timer, clear_timer
from hermes.version import VERSION
from hermes.core.mcp_protocol import McpSession
from hermes.core.values import get_key
from hermes.net.ide_socket import IdeSocketServer
from hermes.net.mcp_http import McpHttpServer
from hermes.net.door_files import (claude_ide_dir, claude_lock, claude_lock_path, gemini_discovery,
                                   gemini_discovery_path, gemini_ide_dir, is_claude_lock, is_gemini_discovery,
                                   remove_own, remove_stale, write_private)
from hermes.host.change_log import SEAM_TIMERS
from hermes.host.disk_changes import DiskChangeSpan
from hermes.host.door_context import CONTEXT_QUIET_MS, EditorContext, mention_of
from hermes.host.door_tools import DoorTools
from hermes.host.door_watch import DoorWatch
from hermes.host.settings import setting, on_settings_changed
from hermes.host.workspace import workspace_folders
from hermes.host.workspace_texts import WorkspaceTexts

SERVER_INFO = {'name': 'hermes-vscode-ide', 'title': 'Hermes for VS Code (IDE door)', 'version': VERSION}
CLAUDE = 'claudeCode'
GEMINI = 'gemini'
CLIENT_NAMES = {'claude-code': 'Claude Code', 'gemini-cli-companion-mcp-client': 'Gemini CLI',
                'gemini-cli': 'Gemini CLI', 'qwen-code': 'Qwen Code'}


def display_name_of(client_info, fallback):
    """'Claude Code', 'Gemini CLI', 'Qwen Code': what the change log and the status bar call a CLI."""
    name = get_key(client_info, 'name')
    if is_none(name):
        return fallback
    for known in CLIENT_NAMES.keys():
        if name == known:
            return CLIENT_NAMES[known]
    if 'qwen' in name.lower():
        return 'Qwen Code'
    return fallback


def fresh_token():
    return node('crypto').randomBytes(32).toString('hex')


class DoorConnection:
    """One connected CLI, as the door's tools see it (host/door_tools.py)."""

    def __init__(self, doors, kind, number, fallback_name):
        self.doors = doors
        self.kind = kind
        self.session = kind + '-' + str(number)
        self.fallback_name = fallback_name
        self.protocol = None
        self.connected_at = now_ms()

    @property
    def client(self):
        return display_name_of(None if is_none(self.protocol) else self.protocol.client_info, self.fallback_name)

    @property
    def version(self):
        info = None if is_none(self.protocol) else self.protocol.client_info
        version = get_key(info, 'version')
        return '' if is_none(version) else str(version)

    def author(self, turn=None):
        return {'client': self.client, 'session': self.session, 'turn': turn}

    def notify(self, method, params):
        if not is_none(self.protocol) and not self.protocol.closed and self.protocol.ready:
            self.protocol.notify(method, params)

    def latest_selection(self):
        return self.doors.editor_context.latest

    def about_to_write(self, path):
        self.doors.watch.about_to_write(path)

    def writes_done(self):
        self.doors.watch.writes_done()

    def close(self):
        """The feature hook (core/mcp_protocol.py add_feature): the session ended, the CLI is gone."""
        self.doors.disconnected(self)

    def capabilities(self):
        return {}

    def handler(self, method):
        return None


class DoorService:
    """See the module's docstring. `proposals`: host/proposals.py Proposals; `approver`: the window's gate;
    `change_log`: where a connected CLI's disk changes are recorded."""

    def __init__(self, context, log, proposals, approver, change_log):
        self.vscode_context = context
        self.log = log
        self.proposals = proposals
        self.approver = approver
        self.editor_context = EditorContext(now_ms)
        self.watch = DoorWatch(change_log, self._make_span, SEAM_TIMERS, None, log)
        self.texts = WorkspaceTexts()
        self.servers = {}  # kind → {'server', 'port', 'token', 'file'}
        self.connections = []
        self.listeners = []
        self._count = 0
        self._context_timer = None
        self._restarting = None

    # ---------------------------------------------------------------------------------- lifecycle

    async def start(self):
        if setting('doors.claudeCode') and not (CLAUDE in self.servers):
            await self._start_door(CLAUDE)
        if setting('doors.gemini') and not (GEMINI in self.servers):
            await self._start_door(GEMINI)
        self._changed()

    async def stop(self, only=None):
        for kind in [CLAUDE, GEMINI]:
            if kind in self.servers and (is_none(only) or only == kind):
                door = self.servers[kind]
                del self.servers[kind]
                remove_own(door['file'])
                self._environment_off(kind)
                await door['server'].stop()
                self.log.info('IDE door for ' + _door_name(kind) + ' closed')
        self._changed()

    async def apply_settings(self):
        """The doors follow `hermes.doors.*` without a reload."""
        if not setting('doors.claudeCode'):
            await self.stop(CLAUDE)
        if not setting('doors.gemini'):
            await self.stop(GEMINI)
        await self.start()

    async def _start_door(self, kind):
        token = fresh_token()
        try:
            if kind == CLAUDE:
                remove_stale(claude_ide_dir(), is_claude_lock)
                server = IdeSocketServer(lambda send, connection: self._protocol(CLAUDE, send), token, self.log)
                port = await server.start(0)
            else:
                remove_stale(gemini_ide_dir(), is_gemini_discovery)
                server = McpHttpServer(lambda send: self._protocol(GEMINI, send), self._health, token, self.log,
                                       browsers=False)
                port = await server.start(0)
        except JsError as error:
            self.log.error('Could not open the IDE door for ' + _door_name(kind), error)
            return
        door = {'server': server, 'port': port, 'token': token, 'file': None}
        self.servers[kind] = door
        try:
            door['file'] = self._write_file(kind, door)
        except JsError as error:
            self.log.warn('IDE door for ' + _door_name(kind) + ': could not write its discovery file (' +
                          error_message(error) + '); terminals of this window still find it')
        self._environment_on(kind, port)
        self.log.info('IDE door for ' + _door_name(kind) + ' listening on 127.0.0.1:' + str(port))

    def _write_file(self, kind, door):
        folders = [folder['path'] for folder in workspace_folders()]
        name = ide_display_name()
        if kind == CLAUDE:
            return write_private(claude_lock_path(door['port']), claude_lock(folders, name, door['token']))
        return write_private(gemini_discovery_path(door['port']),
                             gemini_discovery(door['port'], folders, name, door['token']))

    def folders_changed(self):
        """The lock and discovery files name the workspace folders: written again when they change."""
        for kind in [CLAUDE, GEMINI]:
            if kind in self.servers:
                door = self.servers[kind]
                try:
                    door['file'] = self._write_file(kind, door)
                except JsError as error:
                    self.log.warn('IDE door: could not update its file: ' + error_message(error))
        self._environment_on_all()

    def _environment_on(self, kind, port):
        collection = self.vscode_context.environmentVariableCollection
        if kind == CLAUDE:
            collection.js_replace('CLAUDE_CODE_SSE_PORT', str(port))
            collection.js_replace('ENABLE_IDE_INTEGRATION', 'true')
        else:
            collection.js_replace('GEMINI_CLI_IDE_SERVER_PORT', str(port))
            collection.js_replace('GEMINI_CLI_IDE_WORKSPACE_PATH',
                               node('path').delimiter.join([folder['path'] for folder in workspace_folders()]))

    def _environment_on_all(self):
        for kind in [CLAUDE, GEMINI]:
            if kind in self.servers:
                self._environment_on(kind, self.servers[kind]['port'])

    def _environment_off(self, kind):
        collection = self.vscode_context.environmentVariableCollection
        names = ['CLAUDE_CODE_SSE_PORT', 'ENABLE_IDE_INTEGRATION'] if kind == CLAUDE else \
            ['GEMINI_CLI_IDE_SERVER_PORT', 'GEMINI_CLI_IDE_WORKSPACE_PATH']
        for name in names:
            collection['delete'](name)  # subscript: `delete` is a JS keyword Transcrypt leaves as it is

    def _health(self):
        return {'status': 'ok', 'name': SERVER_INFO['name'], 'version': VERSION}

    # ---------------------------------------------------------------------------------- connections

    def _protocol(self, kind, send):
        self._count += 1
        connection = DoorConnection(self, kind, self._count, 'Claude Code' if kind == CLAUDE else 'Gemini CLI')
        tools = DoorTools(connection, self.proposals, self.approver)
        registry = tools.claude_registry() if kind == CLAUDE else tools.gemini_registry()
        session = McpSession(SERVER_INFO, registry, send=send, log=self.log,
                             instructions='Tools of the VS Code window this CLI runs beside (Hermes).')
        session.on_ready = lambda: self._ready(connection)
        connection.protocol = session
        session.add_feature(connection)
        self.connections.append(connection)
        return session

    def _ready(self, connection):
        self.log.info(connection.client + ' ' + connection.version + ' connected through the IDE door')
        self.watch.attach(connection.author())
        self._changed()
        self._send_context_soon()

    def disconnected(self, connection):
        if not (connection in self.connections):
            return
        self.connections = [other for other in self.connections if other is not connection]
        self.proposals.cancel_where({'client': connection.client, 'session': connection.session}, 'cancelled')
        self.watch.detach(connection.author())
        self.log.info(connection.client + ' disconnected from the IDE door')
        self._changed()

    def on_change(self, listener):
        self.listeners.append(listener)

    def _changed(self):
        for listener in self.listeners:
            listener()

    def describe(self):
        """Each connected CLI with its door, for the status bar's tooltip."""
        return [{'client': connection.client, 'version': connection.version, 'door': _door_name(connection.kind),
                 'port': self.servers[connection.kind]['port'] if connection.kind in self.servers else None}
                for connection in self.connections if connection.protocol.ready]

    # ---------------------------------------------------------------------------------- the editor's context

    def editor_changed(self, *ignored):
        self._send_context_soon()

    def _send_context_soon(self):
        if not is_none(self._context_timer):
            clear_timer(self._context_timer)
        self._context_timer = set_timer(self._send_context, CONTEXT_QUIET_MS)

    def _send_context(self):
        self._context_timer = None
        editor = vscode.window.activeTextEditor
        selection = self.editor_context.editor_changed(editor)
        gemini = None
        for connection in self.connections:
            if connection.kind == CLAUDE and not is_none(selection):
                connection.notify('selection_changed', {'text': selection['text'], 'filePath': selection['filePath'],
                                                        'fileUrl': selection['fileUrl'],
                                                        'selection': selection['selection']})
            elif connection.kind == GEMINI:
                if is_none(gemini):
                    gemini = self.editor_context.gemini_context(editor)
                connection.notify('ide/contextUpdate', gemini)

    def send_selection(self):
        """"Send Selection to the Agent in the Terminal": an `at_mentioned` to every connected Claude Code."""
        mention = mention_of(vscode.window.activeTextEditor)
        if is_none(mention):
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

    def _make_span(self):
        return DiskChangeSpan(self.log, None, SEAM_TIMERS, None, self.texts)

    def dispose(self):
        """VS Code disposes without awaiting: the doors start closing at once (a JS promise)."""
        self.watch.dispose()
        if len(self.servers) > 0:
            return self.stop()
        return None


def ide_display_name():
    """How /ide and /status in the CLIs name this window: the editor and the workspace."""
    folders = workspace_folders()
    where = folders[0]['name'] if len(folders) > 0 else 'no folder'
    return vscode.env.appName + ' · Hermes (' + where + ')'


def _door_name(kind):
    return 'Claude Code' if kind == CLAUDE else 'Gemini CLI'


def register_doors(context, log, proposals, approver, change_log):
    """The doors open in the background once activation is done (`start` is not awaited)."""
    doors = DoorService(context, log, proposals, approver, change_log)
    context.subscriptions.push(doors)
    on_settings_changed(context, 'doors', lambda: spawn(doors.apply_settings()))
    context.subscriptions.push(vscode.window.onDidChangeTextEditorSelection(to_js_callback(doors.editor_changed)))
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(to_js_callback(doors.editor_changed)))
    context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(
        to_js_callback(lambda event: doors.folders_changed())))
    collection = context.environmentVariableCollection
    collection.persistent = False  # the ports change with every window: never restored from a past one
    collection.description = 'Lets Claude Code and Gemini CLI started here find this window (Hermes)'
    return doors
