"""The `@hermes` chat participant in VS Code's Chat view: the shared agent loop with VS Code's chat
as its event sink.

A request becomes one loop run: the earlier turns (ChatContext.history, core/chat/prompts.py), the
prompt with its slash command and #file references (read by host/chat/host.py; the selection and
active file reach the model through the loop's workspace context). While it runs, each tool call
shows as progress ("Reading src/app.ts…"), the files the tools named become references, and the
answer streams in as Markdown. The cancellation token stops the run. `/help` answers without the
LLM. The result's metadata keeps the turn for the next request and picks the follow-ups.
"""
# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.events import EventSink
from typing import TYPE_CHECKING, Any, Awaitable, Callable, List, Optional
from hermes.contracts.chat import History
from hermes.contracts.json import JsonObject
from hermes.contracts.loop import ChangeAuthor, ConfirmationState, Outcome, ShownCall
from hermes.core.tools import ToolRegistry
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
from hermes.ui.changes.native_edits import NativeEdits
if TYPE_CHECKING:
    from vscode import ExtensionContext, Uri
    ReadRefs = Callable[[Any], Awaitable[List[JsonObject]]]  # #file references → their contents
    ReferenceUri = Callable[[Optional[str]], Optional[Uri]]  # a path a tool named → its URI, or None
from hermes.contracts.mcp import CallToolResult
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.core.values import json_type, get_key
from hermes.core.cancellation import Cancellation
from hermes.core.tools import WAITING
from hermes.core.chat.messages import prop
from hermes.core.chat.prompts import (PARTICIPANT_ID, VENDOR, user_message, help_markdown, followups, turn_metadata,
                                      history_from_turns)
from hermes.core.lm_tools import describe_call, touched_paths, registry_name
from hermes.core.changes.checkpoints import new_turn_id
from hermes.host.chat.host import read_references, path_uri
from hermes.ui.changes.native_edits import open_turn, follow_actions

PARTICIPANT_AUTHOR = '@hermes'  # the change log's client for @hermes turns



class ChatStreamSink:
    """Loop events → a ChatResponseStream: text as Markdown, tool calls as progress, touched files as
    references. `reference_uri(path)` gives the URI of a path a tool named, or None."""

    def __init__(self, stream: Any, registry: 'ToolRegistry', reference_uri: 'ReferenceUri') -> None:
        self.stream = stream
        self.registry = registry
        self.reference_uri = reference_uri
        self.referenced = []  # type: List[str]
        self.text_shown = False
        self.needs_break = False
        self.notices = []  # type: List[str]
        # the change log's author of this turn's writes (ChatParticipant.respond sets it)
        self.author = None  # type: Any

    def on_text(self, text: str) -> None:
        if json_type(text) != 'string' or text == '':
            return
        if self.needs_break:
            self.stream.markdown('\n\n')
            self.needs_break = False
        self.stream.markdown(text)
        self.text_shown = True

    def on_tool_call(self, call: 'ShownCall') -> None:
        name = get_key(call, 'name', 'tool')
        tool = self.registry.get(name)
        self.stream.progress(describe_call(name, get_key(call, 'arguments'), None if tool is None else tool.title))
        if self.text_shown:
            self.needs_break = True  # the text after the tools is a new paragraph

    def on_tool_confirmation(self, call: 'ShownCall', state: 'ConfirmationState') -> None:
        if state == WAITING:
            self.stream.progress('Waiting for your confirmation to run ' + get_key(call, 'name', 'a tool') + '…')

    def on_tool_result(self, call: 'ShownCall', result: 'CallToolResult') -> None:
        for path in touched_paths(get_key(call, 'arguments')):
            if path in self.referenced:
                continue
            self.referenced.append(path)
            uri = self.reference_uri(path)
            if uri is not None:
                self.stream.reference(uri)

    def change_author(self) -> 'Optional[ChangeAuthor]':
        """@hermes turns have no conversation of ours: the change log names the participant and the turn."""
        return self.author

    def on_notice(self, message: str) -> None:
        self.notices.append(message)

    def on_iteration(self, number: int) -> None:
        return None

    def on_tool_log(self, call: 'ShownCall', level: str, message: str) -> None:
        return None

    def on_error(self, error: Exception) -> None:
        return None

    def on_done(self, outcome: 'Outcome') -> None:
        return None


class ChatParticipant:
    """The request handler and follow-ups (VS Code-free apart from the objects VS Code hands in).
    `llm.run(history, sink, cancellation, model)` runs the loop (host/llm_service.py); `read_refs(references)` reads
    #file references; `describe_model(model)` names the model for /help (model: the picked Hermes
    model, or None for `hermes.llm.model`)."""

    def __init__(self, registry: 'ToolRegistry', llm: 'LlmService', describe_model: 'Callable[[Optional[str]], str]',
                 log: 'Optional[Log]' = None, read_refs: 'Optional[ReadRefs]' = None,
                 reference_uri: 'Optional[ReferenceUri]' = None,
                 native: 'Optional[NativeEdits]' = None) -> None:
        self.registry = registry
        self.native = native  # ui/changes/native_edits.py NativeEdits: the turn's writes in VS Code's own chat editing
        self.llm = llm
        self.describe_model = describe_model
        self.log = log
        self.read_refs = read_references if read_refs is None else read_refs  # type: ReadRefs
        self.reference_uri = path_uri if reference_uri is None else reference_uri  # type: ReferenceUri
        # the id of this participant's last turn (core/changes/checkpoints.py new_turn_id)
        self.last_turn = None  # type: Optional[str]

    async def handle(self, request: Any, chat_context: Any, stream: Any, token: Any) -> 'JsonObject':
        return await self.respond(request, history_from_turns(prop(chat_context, 'history')), stream, token)

    async def respond(self, request: Any, history: 'History', stream: Any, token: Any,
                      listener: Any = None) -> 'JsonObject':
        """Answer `request` after the earlier turns `history` (OpenAI messages, extended in place with
        this turn's). `listener`: another event sink that hears the run too (a chat session records it)."""
        command = prop(request, 'command')
        command = command if json_type(command) == 'string' and command != '' else None
        model = hermes_model(prop(request, 'model'))
        if command == 'help':
            stream.markdown(help_markdown(self.registry.list(), self.describe_model(model)))
            return {'metadata': turn_metadata([], 'help', 'done')}
        references = await self.read_refs(prop(request, 'references'))
        text = user_message(prop(request, 'prompt'), command, references)
        tools = _tool_references(prop(request, 'toolReferences'), self.registry)
        if len(tools) > 0:
            text = text + '\n\nUse these tools for this request: ' + ', '.join(tools) + '.'
        history.append({'role': 'user', 'content': text})
        start = len(history) - 1
        cancellation = Cancellation()
        subscription = None  # type: Any
        if token is not None:
            if token.isCancellationRequested:
                cancellation.cancel('The user cancelled the request.')
            subscription = token.onCancellationRequested(lambda event: cancellation.cancel('The user cancelled the request.'))
        sink = ChatStreamSink(stream, self.registry, self.reference_uri)
        self.last_turn = new_turn_id(self.last_turn)  # @hermes turns share one change-log session (None)
        sink.author = {'client': PARTICIPANT_AUTHOR, 'session': None, 'turn': self.last_turn}
        if listener is not None and listener.change_author() is not None:
            sink.author = listener.change_author()  # a session's turn: its conversation (the loop asks sinks in order)
        close_edits = open_turn(self.native, stream, sink.author)
        try:
            outcome = await self.llm.run(history, sink if listener is None else [sink, listener], cancellation, model)
        finally:
            close_edits()
            if subscription is not None:
                subscription.dispose()
        stopped = get_key(outcome, 'stopped', 'done')
        error = get_key(outcome, 'error')
        if cancellation.cancelled:
            stopped = 'cancelled'
        result = {'metadata': turn_metadata(  # type: JsonObject
                  history[start:], command, stopped,
                                            get_key(outcome, 'error_kind') if stopped == 'error' or
                                            stopped == 'max_iterations' else None)}
        if (stopped == 'error' or stopped == 'max_iterations') and json_type(error) == 'string':
            result['errorDetails'] = {'message': error}
            if self.log is not None:
                self.log.warn('@hermes: ' + error)
        elif stopped == 'done' and not sink.text_shown:
            stream.markdown('*(The model gave no answer.)*')
        return result

    def provide_followups(self, result: Any, chat_context: Any, token: Any) -> 'List[JsonObject]':
        return followups(prop(result, 'metadata'))


def hermes_model(model: Any) -> 'Optional[str]':
    """The model id to run on when the picker's choice is a Hermes model; None to use the setting."""
    if model is None or prop(model, 'vendor') != VENDOR:
        return None
    model_id = prop(model, 'id')
    return model_id if json_type(model_id) == 'string' and model_id != '' else None


def _tool_references(references: Any, registry: 'ToolRegistry') -> 'List[str]':
    """Hermes tools the user named with #hermes_… in the prompt."""
    names = []  # type: List[str]
    for reference in references or []:
        name = registry_name(prop(reference, 'name'))
        if name is not None and registry.get(name) is not None and not (name in names):
            names.append(name)
    return names


def register_chat_participant(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry', llm: 'LlmService',
                              describe_model: 'Callable[[Optional[str]], str]',
                              native: 'Optional[NativeEdits]' = None) -> 'Optional[ChatParticipant]':
    if vscode.chat is None or vscode.chat.createChatParticipant is None:
        return None  # a VS Code without chat
    participant_logic = ChatParticipant(registry, llm, describe_model, log, None, None, native)

    async def handler(request: Any, chat_context: Any, stream: Any, token: Any) -> 'JsonObject':
        try:
            return await participant_logic.handle(request, chat_context, stream, token)
        except JsError as error:
            log.error('@hermes failed: ' + error_message(error))
            return {'errorDetails': {'message': 'Hermes failed: ' + error_message(error)}}

    participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, to_js_callback(handler))
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png')
    participant.followupProvider = {'provideFollowups': to_js_callback(participant_logic.provide_followups)}
    context.subscriptions.push(participant)
    follow_actions(context, native, participant)
    return participant_logic


# __pragma__('skip')
def _is_an_event_sink(sink: ChatStreamSink) -> EventSink:  # the type checker holds ChatStreamSink to contracts/events.py
    return sink
# __pragma__('noskip')
