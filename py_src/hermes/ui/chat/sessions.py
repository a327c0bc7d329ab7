"""Hermes conversations as native VS Code chat sessions: "Hermes Agent" in the Chat view's "+" menu,
the sessions list, and a session's history and requests (the `chatSessionsProvider` API proposal).

- The list: a ChatSessionItemController whose items are the conversation store's conversations
  (core/chat/sessions.py `item_view`), refreshed once the store's changes pause (LIST_QUIET_MS), so a
  conversation of the side panel is listed too, and a running one shows InProgress / NeedsInput.
- Opening a session: its whole conversation as history (prompts, answers, tool calls as progress,
  the files they named as references).
- A request: the same agent loop, tools, streaming, cancellation and confirmations as `@hermes`
  (ui/chat/participant.py `respond`), on the conversation's LLM history; the turn is recorded in the
  conversation (so the side panel can continue it) while it runs.

Where the proposal is not enabled (VS Code stable without --enable-proposed-api), its first call
throws: the log says how to turn sessions on, an information message says it the first time only (remembered in
globalState), and nothing else changes.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Union
# what VS Code's chat sessions are handed: the ACP runner's stand-in from activation on (it makes the runner,
# ui/acp/session.py AcpSessionRunner, a part, on first use)
from hermes.ui.acp.late import LateAcpSessions
from hermes.contracts.conversations import AssistantMessage, UserMessage
from hermes.contracts.events import EventSink
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.contracts.mcp import CallToolResult
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.core.tools import ToolRegistry
from hermes.host.changes.log import ChangeLog
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
from hermes.ui.changes.native_edits import NativeEdits
if TYPE_CHECKING:
    from vscode import (CancellationToken, ChatParticipant as VsCodeParticipant, ChatRequestTurn2, ChatResponsePart,
                        ChatResponseTurn2, ChatResponseCommandButtonPart, ChatSessionChangedFile, ChatSessionDict,
                        ChatSessionItem, ChatSessionItemController, ChatSessionOptionChangeEventDict,
                        ChatSessionOptionUpdateDict, ChatSessionContentProviderDict, EventEmitter, ExtensionContext,
                        Uri)
# __pragma__('noskip')
from hermes.js.clock import local_time_text, now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.promises import spawn
from hermes.core.values import json_type, get_key
from hermes.core.tools import WAITING, CONFIRMED
from hermes.core.chat.messages import prop
from hermes.core.chat.conversations import (append_text, add_tool, find_tool, finish_tool, end_reply, remember_turn,
                                            title_from)
from hermes.core.changes.checkpoints import new_turn_id, last_turn, change_author, CHANGE_CLIENT
from hermes.core.chat.sessions import SESSION_TYPE, ENABLE_HINT, PROPOSALS_HINT_SHOWN, conversation_id, item_view, history_plan
from hermes.core.quiet_timer import QuietTimer
from hermes.core.acp.backends import NO_MODEL_TEXT
from hermes.host.llm_service import llm_settings
from hermes.host.changes.log import SEAM_TIMERS
from hermes.host.chat.host import path_uri
from hermes.core.changes.view import session_changes, turn_changes
from hermes.ui.chat.session_commands import register_session_commands
from hermes.ui.changes.native_edits import follow_actions
from hermes.ui.chat.participant import ChatParticipant, hermes_model
from hermes.ui.changes.diff import before_uri
from hermes.ui.changes.commands import SHOW_COMMAND
from hermes.ui.changes.checkpoints import RESTORE_COMMAND

RESTORE_TITLE = 'Restore to Before This Turn'

SESSION_ORIGIN = 'session'

# The list goes to VS Code once a burst of store and change-log events pauses for LIST_QUIET_MS (at least every
# LIST_LONGEST_MS while a turn streams), not after each: VS Code redraws every item on each replace, and 1.139 can
# keep a stale item when a replace crosses its own refresh of that item from the live chat (its main thread awaits
# the session index between reading the item and setting it anew): sent right after one another, a turn's
# in-progress item without changes and its finished one with them once left the row without its +/- for good.
LIST_QUIET_MS = 200
LIST_LONGEST_MS = 1000


class TurnRecorder:
    """Records a running reply in its conversation; the store hears when a tool starts or stops waiting
    for the user (the list shows NeedsInput)."""

    def __init__(self, store: 'ConversationStore', conversation: 'Conversation', reply: 'AssistantMessage',
                 turn_id: 'Optional[str]' = None) -> None:
        self.store = store
        self.conversation = conversation
        self.reply = reply
        self.turn_id = turn_id  # the checkpoint id on the turn's user message (core/changes/checkpoints.py)

    def change_author(self) -> 'Optional[ChangeAuthor]':
        """The change log names this conversation and turn for the files the turn's tools change."""
        return change_author(self.conversation.id, self.turn_id)

    def on_iteration(self, number: int) -> None:
        return None

    def on_text(self, text: str) -> None:
        if json_type(text) == 'string' and text != '':
            append_text(self.reply, text)

    def on_tool_call(self, call: 'ShownCall') -> None:
        add_tool(self.reply, call)
        self.conversation.note_changes(call)

    def on_tool_confirmation(self, call: 'ShownCall', state: 'ConfirmationState') -> None:
        part = find_tool(self.reply, get_key(call, 'id'))
        if (state != WAITING and state != CONFIRMED) or part is None:
            return
        part['status'] = 'waiting' if state == WAITING else 'running'
        self.store.put(self.conversation, SESSION_ORIGIN)

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        part = find_tool(self.reply, get_key(call, 'id'))
        if part is not None:
            finish_tool(part, result)

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_notice(self, message: str) -> None:
        return None

    def on_error(self, error: Exception) -> None:
        return None

    def on_done(self, outcome: 'Outcome') -> None:
        return None


def unreachable(result: 'Json') -> bool:
    """The built-in loop's turn failed because no LLM answered at its endpoint (core/chat/prompts.py turn_metadata)."""
    return get_key(get_key(get_key(result, 'metadata'), 'hermes'), 'errorKind') == 'unreachable'


class SessionParticipant:
    """Requests of Hermes chat sessions: `chat.respond(...)` (a ChatParticipant) answers them, this
    keeps the conversation. `conversation_for(resource)` finds or makes a session's conversation."""

    def __init__(self, store: 'ConversationStore', chat: 'ChatParticipant', log: 'Log',
                 acp: 'Optional[LateAcpSessions]' = None, changes: 'Optional[ChangeLog]' = None) -> None:
        self.store = store
        self.chat = chat
        self.log = log
        self.acp = acp  # Hermes Agent (or another ACP agent) answers, through the runner's stand-in
        self.changes = changes  # the change log: a turn that changed files ends with its review buttons
        # id → a conversation made for a new session, before its first turn
        self.new_conversations = {}  # type: Dict[str, Conversation]
        # resource string → conversation id, for sessions VS Code did not rename
        self.untitled = {}  # type: Dict[str, str]

    def new_conversation(self) -> 'Conversation':
        conversation = self.store.create(SESSION_ORIGIN)
        self.new_conversations[stored_id(conversation)] = conversation
        return conversation

    def known_conversation(self, resource: 'Uri') -> 'Optional[Conversation]':
        """The conversation of a session VS Code has shown before, or None (nothing is made)."""
        key = resource.toString()
        wanted = self.untitled[key] if key in self.untitled else conversation_id(resource.path)
        conversation = self.store.get(wanted)
        if conversation is None and wanted in self.new_conversations:
            conversation = self.new_conversations[wanted]
        return conversation

    def conversation_for(self, resource: 'Uri') -> 'Conversation':
        key = resource.toString()
        conversation = self.known_conversation(resource)
        if conversation is None:
            conversation = self.new_conversation()
            self.untitled[key] = stored_id(conversation)
        return conversation

    async def handle(self, request: Any, chat_context: Any, stream: Any, token: Any) -> 'Optional[JsonObject]':
        session = prop(chat_context, 'chatSessionContext')
        item = prop(session, 'chatSessionItem')
        resource = prop(item, 'resource')
        if resource is None:  # not from a session: answer like @hermes
            return await self.chat.handle(request, chat_context, stream, token)
        conversation = self.conversation_for(resource)
        status = conversation.status()
        if status == 'in_progress' or status == 'needs_input':
            stream.markdown('This conversation is still answering in the Hermes side panel. Wait for that reply, '
                            'or stop it there, then ask again.')
            return {}
        acp = self.acp
        notice = None  # type: Optional[str]
        if acp is not None:  # else the built-in loop answers, with no notice
            backend = acp.backend_for(conversation)
            if backend['kind'] == 'missing':
                stream.markdown(backend['notice'])
                return {}
            if backend['kind'] == 'acp':
                if conversation.id in self.new_conversations:
                    del self.new_conversations[conversation.id]
                if len(conversation.messages) == 0:  # the mode and model picked before the first prompt
                    await acp.options_changed(conversation, prop(session, 'initialSessionOptions'))
                return await acp.respond(backend['spec'], conversation, request, stream, token)
            notice = acp.notice_once(conversation, backend['notice'])
        if notice is not None:
            stream.markdown('> ' + notice + '\n\n')
        if prop(request, 'command') == 'help':
            return await self.chat.respond(request, [], stream, token)
        prompt = prop(request, 'prompt')
        text = prompt if json_type(prompt) == 'string' and prompt.strip() != '' else '/' + str(prop(request, 'command'))
        turn_id = new_turn_id(last_turn(conversation.messages))
        question = {'role': 'user', 'text': text, 'turn': turn_id}  # type: UserMessage
        conversation.add(question)
        reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}  # type: AssistantMessage
        conversation.add(reply)
        model = hermes_model(prop(request, 'model'))  # what the run will use (ChatParticipant.respond)
        conversation.model = llm_settings()['model'] if model is None else model
        conversation.last_started = now_ms()
        conversation.last_ended = None
        if conversation.id in self.new_conversations:
            del self.new_conversations[conversation.id]
        self.store.put(conversation, SESSION_ORIGIN)
        history = conversation.history[:]
        result = None  # type: Optional[JsonObject]
        try:
            result = await self.chat.respond(request, history, stream, token,
                                             TurnRecorder(self.store, conversation, reply, turn_id))
            self._offer_review(stream, conversation, turn_id)
        finally:
            self._finish(conversation, text, reply, history, result)
        if notice is not None and unreachable(result):
            # A newcomer with no model at all: the install hint above is the one next step; the loop's error (start
            # the LLM at hermes.llm.endpoint) would be a second, different one. The stored reply keeps the error.
            stream.markdown(NO_MODEL_TEXT)
            return {'metadata': result['metadata']}
        return result

    def _offer_review(self, stream: Any, conversation: 'Conversation', turn_id: str) -> None:
        """After a turn whose files wait for review: Open Changes and Restore to Before This Turn, the commands the
        Changes view and the side panel run."""
        if self.changes is None or not (turn_id in turn_changes(self.changes.pending(), conversation.id)):
            return
        turn_filter = {'client': CHANGE_CLIENT, 'session': conversation.id, 'turn': turn_id}
        stream.button({'command': SHOW_COMMAND, 'title': 'Open Changes', 'arguments': [turn_filter]})
        stream.button({'command': RESTORE_COMMAND, 'title': RESTORE_TITLE,
                       'arguments': [conversation.id, turn_id]})

    def _finish(self, conversation: 'Conversation', text: str, reply: 'AssistantMessage', history: 'List[Json]',
                result: 'Optional[JsonObject]') -> None:
        hermes = get_key(get_key(result, 'metadata'), 'hermes')
        stopped = get_key(hermes, 'stopped', 'error')
        error = get_key(get_key(result, 'errorDetails'), 'message')
        if stopped == 'error' or stopped == 'max_iterations' or result is None:
            end_reply(reply, 'error', error if json_type(error) == 'string' else 'The reply failed.')
        else:
            end_reply(reply, 'stopped' if stopped == 'cancelled' else 'done')
            remember_turn(conversation, text, reply, history)
        conversation.last_ended = now_ms()
        self.store.put(conversation, SESSION_ORIGIN)


# ------------------------------------------------------------------------------------ VS Code objects

def history_turns(conversation: 'Conversation', participant_id: str,
                  tool_titles: 'Dict[str, Optional[str]]') -> 'List[Union[ChatRequestTurn2, ChatResponseTurn2]]':
    """The conversation as VS Code chat turns. ChatRequestTurn2 / ChatResponseTurn2: every VS Code with the session
    controller (the only one that gets here) hands them to any extension; the stable ChatRequestTurn and
    ChatResponseTurn are the same classes, declared without a public constructor."""
    turns = []  # type: List[Union[ChatRequestTurn2, ChatResponseTurn2]]
    for turn in history_plan(conversation, tool_titles):
        if turn['kind'] == 'request':
            turns.append(new(vscode.ChatRequestTurn2, turn['prompt'], None, [], participant_id, [], None, None, None,
                             None))
            continue
        parts = []  # type: List[ChatResponsePart]
        for part in turn['parts']:
            if part['kind'] == 'markdown':
                parts.append(new(vscode.ChatResponseMarkdownPart, new(vscode.MarkdownString, part['text'])))
            elif part['kind'] == 'progress':
                parts.append(new(vscode.ChatResponseProgressPart, part['text']))
            else:
                uri = path_uri(part['path'])
                if uri is not None:
                    parts.append(new(vscode.ChatResponseReferencePart, uri))
        restore = restore_button(conversation, turn['turn'])
        if restore is not None:
            parts.append(restore)
        turns.append(new(vscode.ChatResponseTurn2, parts, {}, participant_id))
    return turns


def restore_button(conversation: 'Conversation', turn_id: 'Optional[str]') -> 'Optional[ChatResponseCommandButtonPart]':
    """"Restore to Before This Turn" under a reopened answer, any turn (not only the last): its checkpoint."""
    if turn_id is None or vscode.ChatResponseCommandButtonPart is None:
        return None
    return new(vscode.ChatResponseCommandButtonPart, {'command': RESTORE_COMMAND, 'title': RESTORE_TITLE,
                                                      'arguments': [conversation.id, turn_id]})


def stored_id(conversation: 'Conversation') -> str:
    """The id of a conversation of the store (`create` and the stored file give every one an id)."""
    return conversation.id or ''


def session_uri(conversation: 'Conversation') -> 'Uri':
    return vscode.Uri.js_from({'scheme': SESSION_TYPE, 'path': '/' + stored_id(conversation)})


def changed_files(conversation: 'Conversation', changes: 'Optional[ChangeLog]',
                  noted: 'List[str]') -> 'List[ChatSessionChangedFile]':
    """A session item's `changes`: each file the conversation's turns changed and the user has not kept or undone
    yet, with its +/− from the change log (`changes`); without a change log, the files its tools named (`noted`)
    with no counts. VS Code 1.139's class: ChatSessionChangedFile(uri, originalUri, modifiedUri, insertions,
    deletions) — its workbench lists a file only with a Uri and both counts."""
    items = []  # type: List[ChatSessionChangedFile]
    if changes is None:
        for path in noted:
            uri = path_uri(path)
            if uri is not None:
                items.append(new(vscode.ChatSessionChangedFile, uri, uri, uri, 0, 0))
        return items
    for changed in session_changes(changes.pending(), conversation.id):
        uri = vscode.Uri.file(changed['path'])
        before = before_uri(changed['path'], {'session': conversation.id})
        items.append(new(vscode.ChatSessionChangedFile, uri, before, uri, changed['added'], changed['removed']))
    return items


class OptionPickers:
    """The ACP agent's modes and models as pickers in a session's input area (chatSessionsProvider's option groups:
    VS Code asks `provideChatSessionProviderOptions` when the provider registers and again when
    `onDidChangeChatSessionProviderOptions` fires — when the agent offers others; a choice arrives in
    `provideHandleOptionsChange`, a session's current ones go out as its content's `options`)."""

    def __init__(self, context: 'ExtensionContext', acp: 'LateAcpSessions', sessions: 'SessionParticipant',
                 log: 'Log') -> None:
        self.acp = acp
        self.sessions = sessions
        self.log = log
        self.offered_changed = new(vscode.EventEmitter)  # type: EventEmitter[None]
        # (Any: it fires the dict that stands for a ChatSessionOptionChangeEvent, which the stub's Event does not take)
        self.chosen_changed = new(vscode.EventEmitter)  # type: EventEmitter[Any]
        context.subscriptions.push(self.offered_changed)
        context.subscriptions.push(self.chosen_changed)
        acp.on_offered(self.offered)
        acp.on_chosen(self.chosen)

    def add_to(self, provider: 'ChatSessionContentProviderDict') -> None:
        provider['provideChatSessionProviderOptions'] = to_js_callback(self.provide_options)
        provider['provideHandleOptionsChange'] = to_js_callback(self.handle_change)
        provider['onDidChangeChatSessionProviderOptions'] = self.offered_changed.event
        provider['onDidChangeChatSessionOptions'] = self.chosen_changed.event

    def offered(self) -> None:
        self.offered_changed.fire(None)

    def chosen(self, conversation: 'Conversation') -> None:
        values = self.acp.option_values(conversation)
        updates = [{'optionId': option, 'value': values[option]}
                   for option in values.keys()]  # type: List[ChatSessionOptionUpdateDict]
        if len(updates) > 0:
            changed = {'resource': session_uri(conversation),
                       'updates': updates}  # type: ChatSessionOptionChangeEventDict
            self.chosen_changed.fire(changed)

    async def provide_options(self, token: 'Optional[CancellationToken]' = None) -> 'JsonObject':
        return {'optionGroups': self.acp.option_groups()}

    async def apply(self, resource: 'Uri', updates: 'Json') -> None:
        try:
            await self.acp.options_changed(self.sessions.conversation_for(resource), updates)
        except JsError as error:
            self.log.warn('Chat sessions: applying a mode or model failed: ' + error_message(error))

    def handle_change(self, resource: 'Uri', updates: 'Json', token: 'Optional[CancellationToken]' = None) -> None:
        spawn(self.apply(resource, updates))


def tell_proposals_off(context: 'ExtensionContext', log: 'Log', detail: str) -> None:
    """Each activation's log line, and once per install an information message: a stable VS Code user who never
    opens Hermes' log still learns what needs the proposals and how to turn them on, without a message each start."""
    log.info(ENABLE_HINT + detail)
    if context.globalState.js_get(PROPOSALS_HINT_SHOWN) is True:  # js_: Transcrypt maps get/update on objects
        return
    context.globalState.js_update(PROPOSALS_HINT_SHOWN, True)
    vscode.window.showInformationMessage('Hermes: ' + ENABLE_HINT)


class SessionList:
    """The controller's items: one per stored conversation, newest first, sent again once the store's (and the
    change log's) changes pause (LIST_QUIET_MS); `timers` and `clock` time that (tests pass fakes)."""

    def __init__(self, context: 'ExtensionContext', controller: 'ChatSessionItemController',
                 store: 'ConversationStore', changes: 'Optional[ChangeLog]', timers: Any = None,
                 clock: 'Optional[Callable[[], float]]' = None) -> None:
        self.controller = controller
        self.store = store
        self.changes = changes
        self.listed_changes = None  # type: Optional[str]  # the sessions' changed files as last shown (JSON text)
        self.soon = QuietTimer(SEAM_TIMERS if timers is None else timers, now_ms if clock is None else clock,
                               LIST_QUIET_MS, LIST_LONGEST_MS, self.refresh)
        context.subscriptions.push(new(vscode.Disposable, self.soon.cancel))
        context.subscriptions.push(new(vscode.Disposable, store.on_change(self.refresh_soon)))
        if changes is not None:
            context.subscriptions.push(changes.on_change(self.changes_changed))

    def item(self, conversation: 'Conversation') -> 'ChatSessionItem':
        item = self.controller.createChatSessionItem(session_uri(conversation), conversation.title)
        view = item_view(conversation, local_time_text)
        item.description = view['description']
        item.tooltip = view['tooltip']
        item.status = view['status']
        item.archived = view['archived']
        item.timing = view['timing']
        item.iconPath = new(vscode.ThemeIcon, 'hubot')
        if vscode.ChatSessionChangedFile is not None:
            item.changes = changed_files(conversation, self.changes, view['changes'])
        return item

    def sessions_changes(self) -> 'Optional[str]':
        """The sessions' changed files with their counts (JSON text); None without a change log."""
        changes = self.changes
        if changes is None:
            return None
        pending = changes.pending()
        return dump_json([session_changes(pending, conversation.id) for conversation in self.store.newest_first()])

    def refresh(self, *ignored: Any) -> None:
        self.listed_changes = self.sessions_changes()
        # `items` and `replace` are renamed by Transcrypt: a subscript and `js_replace` reach VS Code's
        self.controller['items'].js_replace([self.item(conversation) for conversation in self.store.newest_first()])

    def refresh_soon(self, *ignored: Any) -> None:
        self.soon.poke()

    def changes_changed(self, *ignored: Any) -> None:
        # The list again only when a session's changed files or counts moved: VS Code redraws every item of it,
        # and most writes (an MCP client's, the same files again) change none of them.
        if self.soon.waiting or self.sessions_changes() != self.listed_changes:
            self.soon.poke()


class ListRefresh:
    """The controller's refresh handler (VS Code asks when it shows the list): the list anew, and the ACP agent's own
    sessions for this workspace. Made before the controller, whose list it redraws once `shown` is set."""

    def __init__(self, log: 'Log', acp: 'Optional[LateAcpSessions]') -> None:
        self.log = log
        self.acp = acp
        self.shown = None  # type: Optional[SessionList]

    async def run(self, token: 'CancellationToken') -> None:
        if self.shown is not None:
            self.shown.refresh()
        if self.acp is not None:
            try:
                await self.acp.import_listed()  # the ACP agent's own sessions for this workspace
            except JsError as error:
                self.log.warn('Chat sessions: listing the agent\'s sessions failed: ' + error_message(error))


class ChatSessions:
    """Hermes' chat session type registered with VS Code: the list (`SessionList` on `controller`), the participant
    whose id is the session type (VS Code sends a session's requests to it), the content provider (a session's
    history, its request handler, the ACP pickers) and the ACP agents' commands. `sessions` keeps the conversations.
    `changes`: the change log (host/changes/log.py), whose pending changes each session lists with +/−."""

    def __init__(self, context: 'ExtensionContext', controller: 'ChatSessionItemController', refresh: 'ListRefresh',
                 log: 'Log', registry: 'ToolRegistry', llm: 'LlmService',
                 describe_model: 'Callable[[Optional[str]], str]', store: 'ConversationStore',
                 acp: 'Optional[LateAcpSessions]' = None, changes: 'Optional[ChangeLog]' = None,
                 native: 'Optional[NativeEdits]' = None, timers: Any = None,
                 clock: 'Optional[Callable[[], float]]' = None) -> None:
        context.subscriptions.push(controller)
        self.log = log
        self.acp = acp
        chat = ChatParticipant(registry, llm, describe_model, log, None, None, native)
        self.sessions = SessionParticipant(store, chat, log, acp, changes)
        if acp is not None:
            acp.native = native  # an ACP turn's writes through Hermes (fs/write_text_file) in VS Code's chat editing
        self.tool_titles = {}  # type: Dict[str, Optional[str]]
        for tool in registry.list():
            self.tool_titles[tool.name] = tool.title
        self.list = SessionList(context, controller, store, changes, timers, clock)
        refresh.shown = self.list
        self.controller = controller
        controller.newChatSessionItemHandler = to_js_callback(self.new_item)
        context.subscriptions.push(controller.onDidChangeChatSessionItemState(to_js_callback(self.state_changed)))
        participant = vscode.chat.createChatParticipant(SESSION_TYPE, to_js_callback(self.answer))
        participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png')
        context.subscriptions.push(participant)
        follow_actions(context, native, participant)
        self.register_content(context, participant)
        if acp is not None:
            acp.commands_offered = register_session_commands(context, acp, self.sessions, store, log)
        self.list.refresh()
        log.info('Chat sessions: "Hermes Agent" is in the Chat view\'s "+" menu (' + str(len(store.conversations)) +
                 ' stored conversations)')

    def register_content(self, context: 'ExtensionContext', participant: 'VsCodeParticipant') -> None:
        provider = {'provideChatSessionContent': to_js_callback(self.provide)}  # type: ChatSessionContentProviderDict
        if self.acp is not None:
            OptionPickers(context, self.acp, self.sessions, self.log).add_to(provider)
        context.subscriptions.push(vscode.chat.registerChatSessionContentProvider(SESSION_TYPE, provider, participant))

    async def new_item(self, new_context: Any, token: 'CancellationToken') -> 'ChatSessionItem':
        conversation = self.sessions.new_conversation()
        conversation.title = title_from(prop(prop(new_context, 'request'), 'prompt'))
        return self.controller.createChatSessionItem(session_uri(conversation), conversation.title)

    def state_changed(self, item: 'ChatSessionItem') -> None:
        store = self.sessions.store
        conversation = store.get(conversation_id(item.resource.path))
        if conversation is not None and conversation.archived != (item.archived is True):
            conversation.archived = item.archived is True
            store.put(conversation, SESSION_ORIGIN)

    async def answer(self, request: Any, chat_context: Any, stream: Any, token: Any) -> 'Optional[JsonObject]':
        try:
            return await self.sessions.handle(request, chat_context, stream, token)
        except JsError as error:
            self.log.error('Hermes session failed: ' + error_message(error))
            return {'errorDetails': {'message': 'Hermes failed: ' + error_message(error)}}

    def content_of(self, conversation: 'Conversation') -> 'ChatSessionDict':
        content = {'history': history_turns(conversation, SESSION_TYPE, self.tool_titles),
                   'requestHandler': to_js_callback(self.answer)}  # type: ChatSessionDict
        if self.acp is not None:
            content['options'] = self.acp.option_values(conversation)  # its mode and model, shown in the pickers
        if len(conversation.messages) > 0:  # a new session keeps VS Code's own title until its first prompt
            content['title'] = conversation.title
        return content

    async def replayed(self, acp: 'LateAcpSessions', conversation: 'Conversation') -> 'ChatSessionDict':
        await acp.replay(conversation)  # an agent's own session, listed: its turns come from session/load
        return self.content_of(conversation)

    def provide(self, resource: 'Uri', token: 'CancellationToken') -> Any:
        """A session's content; a coroutine (a promise in JS) while an ACP agent's session is replayed first."""
        conversation = self.sessions.conversation_for(resource)
        if self.acp is not None and self.acp.needs_replay(conversation):
            return self.replayed(self.acp, conversation)
        return self.content_of(conversation)


def register_chat_sessions(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry', llm: 'LlmService',
                           describe_model: 'Callable[[Optional[str]], str]', store: 'ConversationStore',
                           acp: 'Optional[LateAcpSessions]' = None, changes: 'Optional[ChangeLog]' = None,
                           native: 'Optional[NativeEdits]' = None, timers: Any = None,
                           clock: 'Optional[Callable[[], float]]' = None) -> 'Optional[ChatSessions]':
    """The chat sessions, or None where this VS Code has no chat, or the chat sessions proposal is off (its first
    call throws: the log and, once, a message say how to turn it on). `timers` and `clock` (after/cancel,
    milliseconds) time the list's refreshes; tests pass fakes."""
    if vscode.chat is None or vscode.chat.createChatParticipant is None:
        return None  # a VS Code without chat
    if vscode.chat.createChatSessionItemController is None:
        tell_proposals_off(context, log, '')
        return None
    refresh = ListRefresh(log, acp)
    try:
        controller = vscode.chat.createChatSessionItemController(SESSION_TYPE, to_js_callback(refresh.run))
    except JsError as error:
        tell_proposals_off(context, log, ' (' + error_message(error) + ')')
        return None
    return ChatSessions(context, controller, refresh, log, registry, llm, describe_model, store, acp, changes, native,
                        timers, clock)


# __pragma__('skip')
def _is_an_event_sink(sink: TurnRecorder) -> EventSink:  # the type checker holds TurnRecorder to contracts/events.py
    return sink
# __pragma__('noskip')
