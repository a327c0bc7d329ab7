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
from hermes.ui.acp.session import AcpSessionRunner  # a part loaded on first use (ui/acp/late.py)
from hermes.contracts.events import EventSink
from typing import Optional
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.contracts.mcp import CallToolResult
# __pragma__('noskip')
from hermes.js.clock import local_time_text, now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import is_none, new
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

    def __init__(self, store, conversation, reply, turn_id=None):
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
        if (state != WAITING and state != CONFIRMED) or is_none(part):
            return
        part['status'] = 'waiting' if state == WAITING else 'running'
        self.store.put(self.conversation, SESSION_ORIGIN)

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        part = find_tool(self.reply, get_key(call, 'id'))
        if not is_none(part):
            finish_tool(part, result)

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_notice(self, message: str) -> None:
        return None

    def on_error(self, error: Exception) -> None:
        return None

    def on_done(self, outcome: 'Outcome') -> None:
        return None


def unreachable(result):
    """The built-in loop's turn failed because no LLM answered at its endpoint (core/chat/prompts.py turn_metadata)."""
    return get_key(get_key(get_key(result, 'metadata'), 'hermes'), 'errorKind') == 'unreachable'


class SessionParticipant:
    """Requests of Hermes chat sessions: `chat.respond(...)` (a ChatParticipant) answers them, this
    keeps the conversation. `conversation_for(resource)` finds or makes a session's conversation."""

    def __init__(self, store, chat, log, acp=None, changes=None):
        self.store = store
        self.chat = chat
        self.log = log
        self.acp = acp  # ui/acp/session.py AcpSessionRunner: Hermes Agent (or another ACP agent) answers
        self.changes = changes  # the change log: a turn that changed files ends with its review buttons
        self.new_conversations = {}  # id → a conversation made for a new session, before its first turn
        self.untitled = {}  # resource string → conversation id, for sessions VS Code did not rename

    def new_conversation(self):
        conversation = self.store.create(SESSION_ORIGIN)
        self.new_conversations[conversation.id] = conversation
        return conversation

    def known_conversation(self, resource):
        """The conversation of a session VS Code has shown before, or None (nothing is made)."""
        key = resource.toString()
        wanted = self.untitled[key] if key in self.untitled else conversation_id(resource.path)
        conversation = self.store.get(wanted)
        if is_none(conversation) and wanted in self.new_conversations:
            conversation = self.new_conversations[wanted]
        return conversation

    def conversation_for(self, resource):
        key = resource.toString()
        conversation = self.known_conversation(resource)
        if is_none(conversation):
            conversation = self.new_conversation()
            self.untitled[key] = conversation.id
        return conversation

    async def handle(self, request, chat_context, stream, token):
        session = prop(chat_context, 'chatSessionContext')
        item = prop(session, 'chatSessionItem')
        resource = prop(item, 'resource')
        if is_none(resource):  # not from a session: answer like @hermes
            return await self.chat.handle(request, chat_context, stream, token)
        conversation = self.conversation_for(resource)
        status = conversation.status()
        if status == 'in_progress' or status == 'needs_input':
            stream.markdown('This conversation is still answering in the Hermes side panel. Wait for that reply, '
                            'or stop it there, then ask again.')
            return {}
        backend = {'kind': 'builtin', 'notice': None} if is_none(self.acp) else self.acp.backend_for(conversation)
        if backend['kind'] == 'missing':
            stream.markdown(backend['notice'])
            return {}
        if backend['kind'] == 'acp':
            if conversation.id in self.new_conversations:
                del self.new_conversations[conversation.id]
            if len(conversation.messages) == 0:  # the mode and model picked before the first prompt
                await self.acp.options_changed(conversation, prop(session, 'initialSessionOptions'))
            return await self.acp.respond(backend['spec'], conversation, request, stream, token)
        notice = None if is_none(self.acp) else self.acp.notice_once(conversation, backend['notice'])
        if not is_none(notice):
            stream.markdown('> ' + notice + '\n\n')
        if prop(request, 'command') == 'help':
            return await self.chat.respond(request, [], stream, token)
        prompt = prop(request, 'prompt')
        text = prompt if json_type(prompt) == 'string' and prompt.strip() != '' else '/' + str(prop(request, 'command'))
        turn_id = new_turn_id(last_turn(conversation.messages))
        conversation.add({'role': 'user', 'text': text, 'turn': turn_id})
        reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
        conversation.add(reply)
        model = hermes_model(prop(request, 'model'))  # what the run will use (ChatParticipant.respond)
        conversation.model = llm_settings()['model'] if is_none(model) else model
        conversation.last_started = now_ms()
        conversation.last_ended = None
        if conversation.id in self.new_conversations:
            del self.new_conversations[conversation.id]
        self.store.put(conversation, SESSION_ORIGIN)
        history = conversation.history[:]
        result = None
        try:
            result = await self.chat.respond(request, history, stream, token,
                                             TurnRecorder(self.store, conversation, reply, turn_id))
            self._offer_review(stream, conversation, turn_id)
        finally:
            self._finish(conversation, text, reply, history, result)
        if not is_none(notice) and unreachable(result):
            # A newcomer with no model at all: the install hint above is the one next step; the loop's error (start
            # the LLM at hermes.llm.endpoint) would be a second, different one. The stored reply keeps the error.
            stream.markdown(NO_MODEL_TEXT)
            return {'metadata': result['metadata']}
        return result

    def _offer_review(self, stream, conversation, turn_id):
        """After a turn whose files wait for review: Open Changes and Restore to Before This Turn, the commands the
        Changes view and the side panel run."""
        if is_none(self.changes) or not (turn_id in turn_changes(self.changes.pending(), conversation.id)):
            return
        turn_filter = {'client': CHANGE_CLIENT, 'session': conversation.id, 'turn': turn_id}
        stream.button({'command': SHOW_COMMAND, 'title': 'Open Changes', 'arguments': [turn_filter]})
        stream.button({'command': RESTORE_COMMAND, 'title': RESTORE_TITLE,
                       'arguments': [conversation.id, turn_id]})

    def _finish(self, conversation, text, reply, history, result):
        hermes = get_key(get_key(result, 'metadata'), 'hermes')
        stopped = get_key(hermes, 'stopped', 'error')
        error = get_key(get_key(result, 'errorDetails'), 'message')
        if stopped == 'error' or stopped == 'max_iterations' or is_none(result):
            end_reply(reply, 'error', error if json_type(error) == 'string' else 'The reply failed.')
        else:
            end_reply(reply, 'stopped' if stopped == 'cancelled' else 'done')
            remember_turn(conversation, text, reply, history)
        conversation.last_ended = now_ms()
        self.store.put(conversation, SESSION_ORIGIN)


# ------------------------------------------------------------------------------------ VS Code objects

def history_turns(conversation, participant_id, tool_titles):
    """The conversation as VS Code chat turns (ChatRequestTurn2 / ChatResponseTurn2)."""
    request_class = vscode.ChatRequestTurn2 if not is_none(vscode.ChatRequestTurn2) else vscode.ChatRequestTurn
    response_class = vscode.ChatResponseTurn2 if not is_none(vscode.ChatResponseTurn2) else vscode.ChatResponseTurn
    turns = []
    for turn in history_plan(conversation, tool_titles):
        if turn['kind'] == 'request':
            turns.append(new(request_class, turn['prompt'], None, [], participant_id, [], None, None, None, None))
            continue
        parts = []
        for part in turn['parts']:
            if part['kind'] == 'markdown':
                parts.append(new(vscode.ChatResponseMarkdownPart, new(vscode.MarkdownString, part['text'])))
            elif part['kind'] == 'progress':
                parts.append(new(vscode.ChatResponseProgressPart, part['text']))
            else:
                uri = path_uri(part['path'])
                if not is_none(uri):
                    parts.append(new(vscode.ChatResponseReferencePart, uri))
        restore = restore_button(conversation, turn['turn'])
        if not is_none(restore):
            parts.append(restore)
        turns.append(new(response_class, parts, {}, participant_id))
    return turns


def restore_button(conversation, turn_id):
    """"Restore to Before This Turn" under a reopened answer, any turn (not only the last): its checkpoint."""
    if is_none(turn_id) or is_none(vscode.ChatResponseCommandButtonPart):
        return None
    return new(vscode.ChatResponseCommandButtonPart, {'command': RESTORE_COMMAND, 'title': RESTORE_TITLE,
                                                      'arguments': [conversation.id, turn_id]})


def session_uri(conversation):
    return vscode.Uri.js_from({'scheme': SESSION_TYPE, 'path': '/' + conversation.id})


def changed_files(conversation, changes, noted):
    """A session item's `changes`: each file the conversation's turns changed and the user has not kept or undone
    yet, with its +/− from the change log (`changes`); without a change log, the files its tools named (`noted`)
    with no counts. VS Code 1.139's class: ChatSessionChangedFile(uri, originalUri, modifiedUri, insertions,
    deletions) — its workbench lists a file only with a Uri and both counts."""
    items = []
    if is_none(changes):
        for path in noted:
            uri = path_uri(path)
            if not is_none(uri):
                items.append(new(vscode.ChatSessionChangedFile, uri, uri, uri, 0, 0))
        return items
    for changed in session_changes(changes.pending(), conversation.id):
        uri = vscode.Uri.file(changed['path'])
        before = before_uri(changed['path'], {'session': conversation.id})
        items.append(new(vscode.ChatSessionChangedFile, uri, before, uri, changed['added'], changed['removed']))
    return items


def add_option_pickers(context, provider, acp, sessions, log):
    """The ACP agent's modes and models as pickers in a session's input area (chatSessionsProvider's option groups:
    VS Code asks `provideChatSessionProviderOptions` when the provider registers and again when
    `onDidChangeChatSessionProviderOptions` fires — when the agent offers others; a choice arrives in
    `provideHandleOptionsChange`, a session's current ones go out as its content's `options`)."""
    offered_changed = new(vscode.EventEmitter)
    chosen_changed = new(vscode.EventEmitter)
    context.subscriptions.push(offered_changed)
    context.subscriptions.push(chosen_changed)
    acp.on_offered(lambda: offered_changed.fire(None))

    def chosen(conversation):
        values = acp.option_values(conversation)
        updates = [{'optionId': option, 'value': values[option]} for option in values.keys()]
        if len(updates) > 0:
            chosen_changed.fire({'resource': session_uri(conversation), 'updates': updates})
    acp.on_chosen(chosen)

    async def provide_options(token=None):
        return {'optionGroups': acp.option_groups()}

    async def apply(resource, updates):
        try:
            await acp.options_changed(sessions.conversation_for(resource), updates)
        except JsError as error:
            log.warn('Chat sessions: applying a mode or model failed: ' + error_message(error))

    def handle_change(resource, updates, token=None):
        spawn(apply(resource, updates))
    provider['provideChatSessionProviderOptions'] = to_js_callback(provide_options)
    provider['provideHandleOptionsChange'] = to_js_callback(handle_change)
    provider['onDidChangeChatSessionProviderOptions'] = offered_changed.event
    provider['onDidChangeChatSessionOptions'] = chosen_changed.event


def tell_proposals_off(context, log, detail):
    """Each activation's log line, and once per install an information message: a stable VS Code user who never
    opens Hermes' log still learns what needs the proposals and how to turn them on, without a message each start."""
    log.info(ENABLE_HINT + detail)
    if context.globalState.js_get(PROPOSALS_HINT_SHOWN) is True:  # js_: Transcrypt maps get/update on objects
        return
    context.globalState.js_update(PROPOSALS_HINT_SHOWN, True)
    vscode.window.showInformationMessage('Hermes: ' + ENABLE_HINT)


def register_chat_sessions(context, log, registry, llm, describe_model, store, acp=None, changes=None, native=None,
                           timers=None, clock=None):
    """The session list, content and participant; None where the chat sessions proposal is off. `changes`: the
    change log (host/changes/log.py), whose pending changes each session lists with +/−. `timers` and `clock`
    (after/cancel, milliseconds) time the list's refreshes; tests pass fakes."""
    if is_none(vscode.chat) or is_none(vscode.chat.createChatParticipant):
        return None  # a VS Code without chat
    if is_none(vscode.chat.createChatSessionItemController):
        tell_proposals_off(context, log, '')
        return None
    listing = {'refresh': None}

    async def refresh(token):
        if not is_none(listing['refresh']):
            listing['refresh']()
        if not is_none(acp):
            try:
                await acp.import_listed()  # the ACP agent's own sessions for this workspace
            except JsError as error:
                log.warn('Chat sessions: listing the agent\'s sessions failed: ' + error_message(error))
    try:
        controller = vscode.chat.createChatSessionItemController(SESSION_TYPE, to_js_callback(refresh))
    except JsError as error:
        tell_proposals_off(context, log, ' (' + error_message(error) + ')')
        return None
    context.subscriptions.push(controller)
    chat = ChatParticipant(registry, llm, describe_model, log, None, None, native)
    sessions = SessionParticipant(store, chat, log, acp, changes)
    if not is_none(acp):
        acp.native = native  # an ACP turn's writes through Hermes (fs/write_text_file) in VS Code's chat editing
    tool_titles = {}
    for tool in registry.list():
        tool_titles[tool.name] = tool.title

    def make_item(conversation):
        item = controller.createChatSessionItem(session_uri(conversation), conversation.title)
        view = item_view(conversation, local_time_text)
        item.description = view['description']
        item.tooltip = view['tooltip']
        item.status = view['status']
        item.archived = view['archived']
        item.timing = view['timing']
        item.iconPath = new(vscode.ThemeIcon, 'hubot')
        if not is_none(vscode.ChatSessionChangedFile):
            item.changes = changed_files(conversation, changes, view['changes'])
        return item

    listed = {'changes': None}  # the sessions' changed files as the list last showed them (JSON text)

    def sessions_changes():
        pending = changes.pending()
        return dump_json([session_changes(pending, conversation.id) for conversation in store.newest_first()])

    def refresh_list(*ignored):
        if not is_none(changes):
            listed['changes'] = sessions_changes()
        # `items` and `replace` are renamed by Transcrypt: a subscript and `js_replace` reach VS Code's
        controller['items'].js_replace([make_item(conversation) for conversation in store.newest_first()])

    listing['refresh'] = refresh_list
    soon = QuietTimer(SEAM_TIMERS if is_none(timers) else timers, now_ms if is_none(clock) else clock,
                      LIST_QUIET_MS, LIST_LONGEST_MS, refresh_list)
    context.subscriptions.push(new(vscode.Disposable, soon.cancel))

    def refresh_soon(*ignored):
        soon.poke()
    unsubscribe = store.on_change(refresh_soon)
    context.subscriptions.push(new(vscode.Disposable, unsubscribe))
    if not is_none(changes):
        def changes_changed(*ignored):
            # The list again only when a session's changed files or counts moved: VS Code redraws every item of it,
            # and most writes (an MCP client's, the same files again) change none of them.
            if soon.waiting or sessions_changes() != listed['changes']:
                soon.poke()
        context.subscriptions.push(changes.on_change(changes_changed))

    async def new_item(new_context, token):
        conversation = sessions.new_conversation()
        conversation.title = title_from(prop(prop(new_context, 'request'), 'prompt'))
        return controller.createChatSessionItem(session_uri(conversation), conversation.title)
    controller.newChatSessionItemHandler = to_js_callback(new_item)

    def state_changed(item):
        conversation = store.get(conversation_id(item.resource.path))
        if not is_none(conversation) and conversation.archived != (item.archived is True):
            conversation.archived = item.archived is True
            store.put(conversation, SESSION_ORIGIN)
    context.subscriptions.push(controller.onDidChangeChatSessionItemState(to_js_callback(state_changed)))

    async def handler(request, chat_context, stream, token):
        try:
            return await sessions.handle(request, chat_context, stream, token)
        except JsError as error:
            log.error('Hermes session failed: ' + error_message(error))
            return {'errorDetails': {'message': 'Hermes failed: ' + error_message(error)}}

    participant = vscode.chat.createChatParticipant(SESSION_TYPE, to_js_callback(handler))
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png')
    context.subscriptions.push(participant)
    follow_actions(context, native, participant)

    def content_of(conversation):
        content = {'history': history_turns(conversation, SESSION_TYPE, tool_titles),
                   'requestHandler': to_js_callback(handler)}
        if not is_none(acp):
            content['options'] = acp.option_values(conversation)  # its mode and model, shown in the pickers
        if len(conversation.messages) > 0:  # a new session keeps VS Code's own title until its first prompt
            content['title'] = conversation.title
        return content

    async def replayed(conversation):
        await acp.replay(conversation)  # an agent's own session, listed: its turns come from session/load
        return content_of(conversation)

    def provide(resource, token):
        conversation = sessions.conversation_for(resource)
        if not is_none(acp) and acp.needs_replay(conversation):
            return replayed(conversation)
        return content_of(conversation)
    provider = {'provideChatSessionContent': to_js_callback(provide)}
    if not is_none(acp):
        add_option_pickers(context, provider, acp, sessions, log)
    context.subscriptions.push(vscode.chat.registerChatSessionContentProvider(SESSION_TYPE, provider, participant))
    if not is_none(acp):
        acp.commands_offered = register_session_commands(context, acp, sessions, store, log)
    refresh_list()
    log.info('Chat sessions: "Hermes Agent" is in the Chat view\'s "+" menu (' + str(len(store.conversations)) +
             ' stored conversations)')
    return sessions


# __pragma__('skip')
def _is_an_event_sink(sink: TurnRecorder) -> EventSink:  # the type checker holds TurnRecorder to contracts/events.py
    return sink
# __pragma__('noskip')
