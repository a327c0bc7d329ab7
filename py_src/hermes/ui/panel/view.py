"""The Hermes side panel in VS Code: a WebviewView in its own activity-bar container ("Hermes Agent"),
opened by `hermes.openPanel`. The logic lives in `ui/panel/controller.py`, a part loaded on first use (when the
view first resolves, or a command shows a conversation in it: `LatePanel`); this module gives it a webview, the editor (insert at cursor), the clipboard, settings and the conversation store it shares
with VS Code's chat sessions (host/chat/conversation_store.py).

Safety: the page has a CSP of `default-src 'none'`; its one script carries a nonce made fresh for
every render; scripts, styles and fonts come only from `dist/webview`, the only localResourceRoot.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.js.objects import new
from hermes.host.settings import setting
from hermes.core.changes.view import turn_changes
from hermes.core.changes.checkpoints import CHANGE_CLIENT
from hermes.core.acp.backends import SIGN_IN_COMMAND
from hermes.js.parts import load_part
from hermes.ui.panel.origin import PANEL_ORIGIN
from hermes.ui.changes.checkpoints import RESTORE_COMMAND
from hermes.ui.changes.commands import KEEP_ALL_COMMAND, UNDO_ALL_COMMAND, SHOW_COMMAND
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.chat import History
from hermes.contracts.json import JsonObject
from hermes.contracts.panel import ToWebview, TurnChanges
from hermes.core.agent_loop import SinkArgument
from hermes.core.cancellation import Cancellation
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
if TYPE_CHECKING:
    from hermes.ui.panel.backends import PanelAgents  # (the controller's part: it imports this module)
    from hermes.ui.panel.controller import PanelController  # (likewise)
    from vscode import (ConfigurationChangeEvent, CancellationToken, ExtensionContext, Selection, TextEditorEdit, Uri,
                        Webview, WebviewView)
# `run_turn(history, user_text, sink, cancel)`: one agent turn; None or {'history': the LLM history after it}
RunTurn = Callable[[History, str, SinkArgument, Cancellation], Awaitable[Optional[Dict[str, History]]]]
ListModels = Callable[[], Awaitable[List[str]]]
# __pragma__('noskip')

VIEW_ID = 'hermes.panel'
CONTAINER_ID = 'hermes'
OPEN_COMMAND = 'hermes.openPanel'
EXTENSION_ID = 'hermes-agent.hermes-agent'


def make_nonce() -> str:
    """128 random bits, base64: a new one for every render of the page."""
    return node('crypto').randomBytes(16).toString('base64')


def escape_attribute(text: str) -> str:
    return (text.replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;').replace('>', '&gt;'))


def content_security_policy(csp_source: str, nonce: str) -> str:
    return ("default-src 'none'; "
            "style-src " + csp_source + "; "
            "font-src " + csp_source + "; "
            "img-src " + csp_source + " data:; "
            "script-src 'nonce-" + nonce + "';")


def render_html(csp_source: str, nonce: str, script_uri: str, style_uri: str, codicons_uri: str) -> str:
    """The page: no inline script or style; everything else is built by dist/webview/panel.js."""
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n'
            '<meta http-equiv="Content-Security-Policy" content="' +
            escape_attribute(content_security_policy(csp_source, nonce)) + '">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
            '<link rel="stylesheet" href="' + escape_attribute(codicons_uri) + '">\n'
            '<link rel="stylesheet" href="' + escape_attribute(style_uri) + '">\n'
            '<title>Hermes Agent</title>\n</head>\n<body>\n'
            '<div id="app"></div>\n'
            '<script nonce="' + escape_attribute(nonce) + '" src="' + escape_attribute(script_uri) + '"></script>\n'
            '</body>\n</html>\n')


def insertion_text(code: str, selection: 'Selection') -> str:
    """Code blocks come without their last newline: at the start of an empty line or before a line's
    text, add it back so the code stays on its own lines."""
    at_line_start = selection.isEmpty and selection.start.character == 0
    if at_line_start and not code.endswith('\n'):
        return code + '\n'
    return code


class PanelHost:
    """What the controller needs from VS Code. `changes`: the change log (host/changes/log.py), or None."""

    def __init__(self, context: 'ExtensionContext', log: 'Log', list_models: 'ListModels', store: 'ConversationStore',
                 changes: 'Optional[ChangeLog]' = None, acp: 'Optional[PanelAgents]' = None) -> None:
        self.context = context
        self.log = log
        self._list_models = list_models
        self.store = store
        self.changes = changes
        self.acp = acp  # its `documents` (ui/acp/chat.py DiffDocuments): an agent's proposed diffs in an editor
        self.view = None  # type: Optional[WebviewView]

    async def show_diffs(self, diffs: 'List[JsonObject]', agent_name: str) -> None:
        """An agent's permission diffs, each in a diff editor (the same documents as a chat session's)."""
        if self.acp is None or self.acp.documents is None:  # (the runner activate makes always has them)
            return
        documents = self.acp.documents
        for diff in diffs:
            try:
                await documents.show(diff, agent_name + ': ' + diff['path'])
            except JsError as error:
                self.log.warn('Panel: could not show the diff: ' + error_message(error))

    async def setup_agent(self, agent_name: str) -> 'Any':
        """The sign-in button (Hermes: "Set up Hermes Agent", `hermes acp --setup`): the same command as a chat
        session's button. True when the user signed in."""
        return await vscode.commands.executeCommand(SIGN_IN_COMMAND, agent_name)

    def turn_changes(self, conversation_id: 'Optional[str]') -> 'Optional[Dict[str, TurnChanges]]':
        if self.changes is None:
            return None
        if conversation_id is None:
            return {}
        return turn_changes(self.changes.pending(), conversation_id)

    async def turn_action(self, kind: str, conversation_id: str, turn: str) -> None:
        """A turn's buttons: restore to before it, keep or undo its changes, show them; the same commands as
        the Changes view and the editor."""
        turn_filter = {'client': CHANGE_CLIENT, 'session': conversation_id, 'turn': turn}
        if kind == 'restoreTurn':
            await vscode.commands.executeCommand(RESTORE_COMMAND, conversation_id, turn)
        elif kind == 'keepTurn':
            await vscode.commands.executeCommand(KEEP_ALL_COMMAND, turn_filter)
        elif kind == 'undoTurn':
            await vscode.commands.executeCommand(UNDO_ALL_COMMAND, turn_filter)
        elif kind == 'showTurnChanges':
            await vscode.commands.executeCommand(SHOW_COMMAND, turn_filter)

    def post(self, message: 'ToWebview') -> None:
        if self.view is None:
            return
        try:
            self.view.webview.postMessage(message)
        except JsError as error:
            self.log.warn('Panel: could not post to the webview: ' + error_message(error))

    def save(self, conversation: 'Conversation') -> None:
        self.store.put(conversation, PANEL_ORIGIN)
        if self.store.panel_id != conversation.id:
            self.store.set_panel(conversation, PANEL_ORIGIN)

    def model(self) -> str:
        return setting('llm.model')

    def endpoint(self) -> str:
        return setting('llm.endpoint')

    async def list_models(self) -> 'List[str]':
        return await self._list_models()

    async def select_model(self, name: str) -> None:
        await vscode.workspace.getConfiguration('hermes').js_update('llm.model', name,
                                                                 vscode.ConfigurationTarget.Global)
        self.log.info('Panel: model set to ' + name)

    async def insert_code(self, code: str) -> bool:
        editor = vscode.window.activeTextEditor
        if editor is None:
            vscode.window.showWarningMessage('Hermes: open a file in the editor to insert the code there.')
            return False

        def edit(builder: 'TextEditorEdit') -> None:
            for selection in editor.selections:
                builder.js_replace(selection, insertion_text(code, selection))  # `.replace` → `.py_replace`
        done = await editor.edit(edit)
        return done

    async def copy_code(self, code: str) -> None:
        await vscode.env.clipboard.writeText(code)
        vscode.window.setStatusBarMessage('Hermes: code copied to the clipboard', 2000)

    async def open_settings(self) -> None:
        await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:' + EXTENSION_ID)

    async def set_api_key(self) -> None:
        await vscode.commands.executeCommand('hermes.setApiKey')


def webview_uri(webview: 'Webview', extension_uri: 'Uri', *segments: str) -> str:
    return webview.asWebviewUri(vscode.Uri.joinPath(extension_uri, 'dist', 'webview', *segments)).toString()


class LatePanel:
    """The panel's controller (ui/panel/controller.py PanelController), made the first time it is needed: when the view
    first resolves or a command shows a conversation in the panel. Its code is a part loaded on first use, so a window
    that never opens the panel never loads it; until then there is no page to update (`loaded` is None)."""

    def __init__(self, make_controller: 'Callable[[], PanelController]') -> None:
        self.make_controller = make_controller
        self.loaded = None  # type: Optional[PanelController]

    def controller(self) -> 'PanelController':
        if self.loaded is None:
            self.loaded = self.make_controller()
        return self.loaded

    @property
    def conversation(self) -> 'Optional[Conversation]':
        """The conversation the panel shows (None before the controller is made: it shows the store's then)."""
        return None if self.loaded is None else self.loaded.conversation

    def show(self, conversation: 'Conversation') -> bool:
        return self.controller().show(conversation)

    def new_chat(self) -> None:
        return self.controller().new_chat()


def register_panel(context: 'ExtensionContext', log: 'Log', run_turn: 'RunTurn', list_models: 'ListModels',
                   store: 'ConversationStore', make_cancel: 'Optional[Callable[[], Cancellation]]' = None,
                   changes: 'Optional[ChangeLog]' = None, acp: 'Optional[PanelAgents]' = None) -> LatePanel:
    """Register the view provider, `hermes.openPanel` and a settings listener; returns the LatePanel.
    `run_turn(history, user_text, sink, cancel)` and `list_models()`: see PanelController; `store`: the
    ConversationStore (the panel shows its `panel_id` conversation); `acp`: the ACP agents' runner (ui/panel/backends.py
    PanelAgents: ui/acp/late.py LateAcpSessions, shared with the chat sessions), None for the built-in loop only."""
    host = PanelHost(context, log, list_models, store, changes, acp)

    def make_controller() -> 'PanelController':
        current = None if store.panel_id is None else store.get(store.panel_id)
        return load_part('hermes.ui.panel.controller').PanelController(host, log, run_turn, current, make_cancel, acp)
    panel = LatePanel(make_controller)

    def store_changed(conversation: 'Optional[Conversation]', origin: 'Any') -> None:
        # A chat session continued the panel's conversation: show what it added.
        controller = panel.loaded
        if (origin != PANEL_ORIGIN and controller is not None and conversation is controller.conversation
                and not controller.running):
            controller.post_state()
    unsubscribe = store.on_change(store_changed)
    context.subscriptions.push(new(vscode.Disposable, unsubscribe))
    if changes is not None:
        context.subscriptions.push(changes.on_change(
            lambda *ignored: None if panel.loaded is None else panel.loaded.post_changes(True)))
    extension_uri = context.extensionUri
    root = vscode.Uri.joinPath(extension_uri, 'dist', 'webview')

    async def on_message(raw: 'Any') -> None:
        try:
            await panel.controller().handle(raw)
        except JsError as error:
            log.error('Panel: handling a webview message failed', error)

    def resolve(view: 'WebviewView', resolve_context: 'Any', token: 'CancellationToken') -> None:
        webview = view.webview
        webview.options = {'enableScripts': True, 'localResourceRoots': [root]}
        webview.html = render_html(webview.cspSource, make_nonce(), webview_uri(webview, extension_uri, 'panel.js'),
                                   webview_uri(webview, extension_uri, 'panel.css'),
                                   webview_uri(webview, extension_uri, 'codicons', 'codicon.css'))
        panel.controller()
        host.view = view
        listener = webview.onDidReceiveMessage(to_js_callback(on_message))

        def disposed(*ignored: 'Any') -> None:
            listener.dispose()
            if host.view is view:
                host.view = None
        view.onDidDispose(to_js_callback(disposed))

    provider = {'resolveWebviewView': to_js_callback(resolve)}
    context.subscriptions.push(vscode.window.registerWebviewViewProvider(
        VIEW_ID, provider, {'webviewOptions': {'retainContextWhenHidden': True}}))

    async def open_panel() -> bool:
        await vscode.commands.executeCommand(VIEW_ID + '.focus')
        return True

    context.subscriptions.push(vscode.commands.registerCommand(OPEN_COMMAND, to_js_callback(open_panel)))

    async def settings_changed(event: 'ConfigurationChangeEvent') -> None:
        controller = panel.loaded
        if controller is None:
            return  # the controller reads the settings when it is made
        if event.affectsConfiguration('hermes.agent') or event.affectsConfiguration('hermes.acp'):
            controller.post_backends()  # another default, another agent list, Hermes found elsewhere
        if event.affectsConfiguration('hermes.llm'):
            log.info('Panel: the LLM settings changed (' + host.model() + ' at ' + host.endpoint() + '); '
                     'listing models again')
            await controller.refresh_models()

    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(to_js_callback(settings_changed)))
    return panel
