"""A chat session's turn answered by an ACP agent (Hermes Agent itself, or another agent of
`hermes.acp.agents`): the prompt recorded in the conversation store (shared with the side panel), the
turn run by host/acp/turn_runner.py and rendered natively by ui/acp/chat.py, Stop → session/cancel, the
files the agent changed noticed, and a failure said in words (with a button that runs `hermes acp
--setup` when Hermes has no model provider yet)."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.text import bytes_base64
from hermes.core.values import json_type, get_key
from hermes.core.cancellation import Cancellation
from hermes.core.chat.messages import prop
from hermes.core.chat.prompts import TASKS, task_prompt
from hermes.core.acp.turn import AcpTurn, content_text
from hermes.core.acp.prompt_content import image_block, resource_block, selection_uri, link_name
from hermes.core.acp.options import chosen_values, option_update, panel_options
from hermes.core.acp.backends import (SETUP_COMMAND, SIGN_IN_COMMAND, SIGN_OUT_COMMAND, HERMES_NAME, agent_of_choice,
                                      find_spec, AcpAgentError)
from hermes.core.acp.sign_in import sign_in_title
from hermes.core.acp.commands import commands_of
from hermes.core.acp.conversation import AcpConversations, no_answer_text
from hermes.core.chat.sessions import usage_markdown
from hermes.core.changes.checkpoints import change_author
from hermes.host.acp.services import AcpServices
from hermes.host.acp.sign_in import AgentSignIn
from hermes.host.changes.log import SEAM_TIMERS
from hermes.host.changes.disk_changes import DiskChangeSpan
from hermes.host.changes.window_index import WindowIndex
from hermes.ui.acp.chat import ChatStreamView, chat_asker, chat_elicitor, register_diff_documents
from hermes.ui.changes.native_edits import open_turn
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional, Tuple, TypedDict
from hermes.contracts.conversations import AssistantMessage, Message, UserMessage
from hermes.contracts.json import Json, JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.host.acp.agents import AcpAgents
from hermes.host.acp.agent_choice import AgentChoice
from hermes.host.acp.processes import AgentProcesses
from hermes.host.acp.session_options import ChoiceTarget
from hermes.host.changes.log import ChangeLog
from hermes.host.log import Log
from hermes.host.mcp.service import McpService
from hermes.ui.acp.chat import ChatStream, DiffDocuments
from hermes.ui.changes.native_edits import NativeEdits
if TYPE_CHECKING:
    from vscode import ExtensionContext

# A sign-in command's handler: (the agent's name, or none: a pick) → whether it ran
AgentCommand = Callable[..., Awaitable[bool]]


class ReplayState(TypedDict):
    turn: Optional[AcpTurn]  # the agent's reply being replayed, or None after a user message
    user: Optional[UserMessage]  # the user message being replayed, or None after a reply
# __pragma__('noskip')

SESSION_ORIGIN = 'session'
NO_CLIENT_SIDE = ('The window\'s ACP agents were made without a client side (host/acp/client_side.py): no agent turn '
                  'can run.')


# What /explain, /fix and /test are about, for an agent that reads the editor through this window's MCP tools
ACP_SUBJECT = ('the code in question (the files attached below, else the text selected in the VS Code editor, else '
               'the file open there; the vscode tools read them)')


def prompt_blocks(request: Any, agent_commands: 'Optional[List[str]]' = None) -> 'Tuple[List[JsonObject], str]':
    """The request as ACP content blocks, and its text as the user typed it (the slash command included). The
    text block is that text, except for a command of the session's own (/explain, /fix, /test) the agent does
    not have (`agent_commands`: the names it announced): the agent gets the task it stands for, as the built-in
    loop does; an agent's own command goes as typed (ACP agents run "/name input"). Then the files it attached,
    as resource links."""
    prompt = prop(request, 'prompt')
    command = prop(request, 'command')
    text = prompt if json_type(prompt) == 'string' else ''
    sent = text
    if json_type(command) == 'string' and command != '':
        typed = text
        text = '/' + command + (' ' + typed if typed.strip() != '' else '')
        sent = text
        if json_type(get_key(TASKS, command)) == 'string' and not (command in (agent_commands or [])):
            sent = task_prompt(command, ACP_SUBJECT) + ('\n\n' + typed.strip() if typed.strip() != '' else '')
    blocks = [{'type': 'text', 'text': sent}]  # type: List[JsonObject]
    for reference in prop(request, 'references') or []:
        value = prop(reference, 'value')
        uri = value if value is not None and prop(value, 'scheme') is not None else prop(value, 'uri')
        if uri is None or prop(uri, 'scheme') != 'file':
            continue
        path = uri.path
        blocks.append({'type': 'resource_link', 'uri': uri.toString(), 'name': path[path.rfind('/') + 1:]})
    return blocks, text


async def attached_blocks(request: Any, log: 'Optional[Log]' = None) -> 'List[JsonObject]':
    """What the request attaches, as ACP content blocks as rich as ACP allows (host/acp/turn_runner.py fits them to what
    the agent reads, core/acp/prompt_content.py): an image (VS Code's ChatReferenceBinaryData) as an `image` block; a
    file as an embedded `resource` with its text (a link when it cannot be read as text); a selection (a Location)
    as a `resource` with the selected text, its uri naming the lines. Other references (not files) are left out."""
    blocks = []  # type: List[JsonObject]
    for reference in prop(request, 'references') or []:
        value = prop(reference, 'value')
        if value is None:
            continue
        try:
            block = await _reference_block(value)
        except JsError as error:
            block = None
            if log is not None:
                log.warn('ACP: an attachment could not be read: ' + error_message(error))
        if block is not None:
            blocks.append(block)
    return blocks


async def _reference_block(value: Any) -> 'Optional[JsonObject]':
    mime_type = prop(value, 'mimeType')
    if json_type(mime_type) == 'string' and prop(value, 'data') is not None:  # ChatReferenceBinaryData
        if not mime_type.lower().startswith('image/'):
            return None
        data = await value.data()
        source = prop(value, 'reference')
        return image_block(mime_type, bytes_base64(data),
                           source.toString() if source is not None and prop(source, 'scheme') is not None else None)
    location = prop(value, 'range')
    uri = value if prop(value, 'scheme') is not None else prop(value, 'uri')
    if uri is None or prop(uri, 'scheme') != 'file':
        return None
    try:
        document = await vscode.workspace.openTextDocument(uri)
    except JsError:
        return {'type': 'resource_link', 'uri': uri.toString(), 'name': link_name(uri.toString())}  # not text
    if location is None:
        return resource_block(uri.toString(), document.getText(), None)
    return resource_block(selection_uri(uri.toString(), location.start.line + 1, location.end.line + 1),
                          document.getText(location), None)


class AcpSessionRunner:
    """A chat session's ACP turns (the shared part, core/acp/conversation.py `AcpConversations`, is `turns`: the
    side panel runs its turns through the same object) and the agent's own sessions in the list, over the pieces of
    `services` (host/acp/services.py) it uses: who answers (`choice`), the options offered and chosen (`options`),
    the commands agents sent (`updates`), their sessions (`sessions`), where sessions work (`place`)."""

    def __init__(self, services: 'AcpServices', store: 'ConversationStore', log: 'Log',
                 documents: 'Optional[DiffDocuments]' = None, change_log: 'Optional[ChangeLog]' = None,
                 window_index: 'Optional[WindowIndex]' = None) -> None:
        self.services = services  # (the sign-in commands and the conversation commands take their pieces from it)
        self.choice = services.choice
        self.options = services.options
        self.updates = services.updates
        self.sessions = services.sessions
        self.place = services.place
        self.store = store
        self.log = log
        self.documents = documents
        self.change_log = change_log
        # the window's index of the workspace (host/changes/window_index.py: one for the ACP sessions, the doors and
        # terminal_run): the names and texts between turns, what a shell command the agent ran changed
        index = WindowIndex(None) if window_index is None else window_index
        self.index = index
        self.turns = AcpConversations(services.turns, store, log,
                                      lambda: DiskChangeSpan(log, None, SEAM_TIMERS, None, index.index()), change_log,
                                      services.updates.remember_commands, index.ready)
        self.native = None  # type: Optional[NativeEdits]  # ui/changes/native_edits.py NativeEdits (set by the chat sessions): writes in VS Code's chat editing
        # True when VS Code's own "/" completion offers the agent's commands (ui/chat/session_commands.py); else the chat
        # says them once in a response
        self.commands_offered = False

    def backend_for(self, conversation: 'Conversation', wanted: 'Optional[str]' = None) -> 'JsonObject':
        return self.choice.backend_for(conversation, wanted)

    def notice_once(self, conversation: 'Conversation', notice: 'Optional[str]') -> 'Optional[str]':
        return self.choice.notice_once(conversation, notice)

    # ---------------------------------------------------------------- modes and models in the input area

    def option_groups(self) -> 'List[JsonObject]':
        return self.options.option_groups()

    def on_offered(self, callback: 'Callable[[], None]') -> None:
        self.options.on_offered(callback)

    def on_chosen(self, callback: 'Callable[[Conversation], None]') -> None:
        self.options.on_chosen(callback)

    def panel_options(self, conversation: 'Conversation') -> 'List[JsonObject]':
        """The side panel's pickers for `conversation`'s agent session (core/acp/options.py panel_options): none for a
        conversation no agent answers yet."""
        if conversation.acp is None:
            return []
        return panel_options(self.options.offered_to(conversation.acp['agent']), chosen_values(conversation.acp))

    def option_values(self, conversation: 'Conversation') -> 'JsonObject':
        """The session's chosen mode and model, as VS Code's `ChatSession.options`."""
        return chosen_values(conversation.acp)

    async def options_changed(self, conversation: 'Conversation', updates: 'Json') -> bool:
        """VS Code's option updates ([{optionId, value}]: the user chose in a picker, or the first request's
        initialSessionOptions) applied to the conversation and its agent session; kept in the store."""
        sends = []  # type: List[Tuple[Optional[ChoiceTarget], str, Json]]
        for update in updates or []:  # all kept first (VS Code may ask for the session's options right away) …
            found = option_update(update)
            if found is None or get_key(conversation.acp, found[0]) == found[1]:
                continue
            sends.append((self.options.choose(conversation, found[0], found[1]), found[0], found[1]))
        if len(sends) > 0 and len(conversation.messages) > 0:
            self.store.put(conversation, SESSION_ORIGIN)
        calls = []  # type: List[Tuple[str, Awaitable[None]]]
        for target, option, value in sends:  # … then told to the agent (in order), when its session is open
            if target is not None:
                calls.append((option, self.options.send_choice(target, option, value)))
        for option, call in calls:
            try:
                await call
            except JsError as error:
                self.log.warn('ACP: setting the ' + option + ' failed: ' + error_message(error) +
                              ' (it is set again when the session is next opened)')
        return len(sends) > 0

    def choices(self) -> 'JsonObject':
        return self.choice.choices()

    def commands(self, conversation: 'Conversation', choice: 'Optional[str]') -> 'List[JsonObject]':
        """The slash commands a front end lists for `conversation`: its agent session's, else those its agent (or,
        for a conversation no agent answered yet, the agent of the front end's `choice`) sent last; [] for the
        built-in loop."""
        acp = conversation.acp
        agent_name = acp['agent'] if acp is not None else None if choice is None else agent_of_choice(choice)
        if agent_name is None or (acp is None and len(conversation.messages) > 0):
            return []
        commands = commands_of(get_key(acp, 'commands'))
        return commands if len(commands) > 0 else self.updates.known_commands(agent_name)

    async def respond(self, spec: 'Spec', conversation: 'Conversation', request: Any, stream: 'ChatStream',
                      token: Any) -> 'JsonObject':
        blocks, text = prompt_blocks(request, [command['name'] for command in self.session_commands(conversation)])
        if text.strip() == '':
            stream.markdown('Type a message for ' + spec['name'] + '.')
            return {}
        attached = await attached_blocks(request, self.log)
        if len(attached) > 0:  # (replacing the links prompt_blocks made: the agent gets them back where it reads no more)
            blocks = [block for block in blocks if block['type'] != 'resource_link']
            for block in attached:
                blocks.append(block)
        begun = self.turns.begin(conversation, text, spec['name'], SESSION_ORIGIN)
        cancellation = Cancellation()
        subscription = None
        if token is not None:
            if token.isCancellationRequested:
                cancellation.cancel('The user stopped the turn.')
            subscription = token.onCancellationRequested(lambda event: cancellation.cancel('The user stopped the turn.'))
        shown = ChatStreamView(stream)
        close_edits = open_turn(self.native, stream, change_author(conversation.id, get_key(begun['user'], 'turn')))
        try:
            ended = await self.turns.run(spec, conversation, begun, blocks, shown, cancellation,
                                         chat_asker(stream, spec['name'], self.documents, self.log), SESSION_ORIGIN,
                                         chat_elicitor(stream, spec['name'], self.log))
        finally:
            close_edits()
            if subscription is not None:
                subscription.dispose()
        failure = ended['failure']
        if failure is not None:
            stream.markdown(('\n\n' if shown.text_shown else '') + failure['message'])
            if failure['setup']:
                stream.button({'command': SIGN_IN_COMMAND, 'title': sign_in_title(spec['name']),
                               'arguments': [spec['name']]})
            return {'metadata': {'hermes': {'stopped': 'error', 'acp': spec['name']}}}
        if ended['empty'] and not shown.text_shown:
            stream.markdown(no_answer_text(spec['name']))
        if ended['usage'] is not None:  # what the turn used and cost, a line under it
            stream.markdown('\n\n' + usage_markdown(ended['usage']))
        hint = None if self.commands_offered else self.turns.commands_hint(conversation, spec['name'], SESSION_ORIGIN)
        if hint is not None:  # the agent's commands arrived or changed: said once, at the end of this response
            stream.markdown('\n\n' + hint)
        return {'metadata': {'hermes': {'stopped': 'cancelled' if ended['cancelled'] else 'done', 'acp': spec['name'],
                                        'stopReason': ended['stopReason']}}}

    def session_commands(self, conversation: 'Optional[Conversation]') -> 'List[JsonObject]':
        """The commands a chat session's "/" offers: its agent session's, else those its agent sent last; for a
        session no agent answered yet (or None: one VS Code has not opened), those of the agent new sessions use."""
        if conversation is None or (conversation.acp is None and len(conversation.messages) == 0):
            backend = self.choice.choose_for_listing()
            return [] if backend is None else self.updates.known_commands(backend['spec']['name'])
        return self.commands(conversation, None)

    # ---------------------------------------------------------------- the agent's own sessions

    async def import_listed(self) -> int:
        """Hermes' own sessions for this workspace (session/list by cwd, e.g. started with `hermes` in a terminal)
        join the list beside ours; their turns are replayed when one is opened. Returns how many were added."""
        backend = self.choice.choose_for_listing()
        if backend is None:
            return 0
        spec = backend['spec']
        known = [conversation.acp['sessionId'] for conversation in self.store.conversations
                 if conversation.acp is not None]
        added = 0
        for listed in await self.sessions.list_sessions(spec):
            session_id = get_key(listed, 'sessionId')
            if json_type(session_id) != 'string' or session_id == '' or session_id in known:
                continue
            title = get_key(listed, 'title')
            title = title if json_type(title) == 'string' and title.strip() != '' else spec['name'] + ' session'
            conversation = self.store.create(SESSION_ORIGIN)
            conversation.acp = {'agent': spec['name'], 'sessionId': session_id, 'replay': True}
            conversation.add({'role': 'user', 'text': title})
            conversation.add({'role': 'assistant', 'status': 'done', 'error': None, 'parts': [
                {'kind': 'text', 'text': '*(A ' + spec['name'] + ' session: open it to see its turns.)*'}]})
            conversation.title = title
            conversation.model = spec['name']
            self.store.put(conversation, SESSION_ORIGIN)
            known.append(session_id)
            added += 1
        return added

    def needs_replay(self, conversation: 'Conversation') -> bool:
        return conversation.acp is not None and get_key(conversation.acp, 'replay') is True

    async def replay(self, conversation: 'Conversation') -> bool:
        """The turns of a listed agent session, from its replay (session/load), as the conversation's messages."""
        acp = conversation.acp
        if acp is None:  # (a conversation needs_replay says yes to has its agent session)
            return False
        spec = self.choice.spec_named(acp['agent'])
        if spec is None:
            return False
        messages = []  # type: List[Message]
        state = {'turn': None, 'user': None}  # type: ReplayState
        cwd = self.place.cwd()

        def on_update(update: 'Json') -> None:
            kind = get_key(update, 'sessionUpdate')
            if kind == 'user_message_chunk':
                text = content_text(get_key(update, 'content'))
                user = state['user']
                if user is None:
                    user = {'role': 'user', 'text': ''}
                    state['user'] = user
                    state['turn'] = None
                    messages.append(user)
                user['text'] = user['text'] + text
                return
            turn = state['turn']
            if turn is None:
                reply = {'role': 'assistant', 'status': 'done', 'error': None, 'parts': []}  # type: AssistantMessage
                messages.append(reply)
                turn = AcpTurn(reply, None, cwd)
                state['turn'] = turn
                state['user'] = None
            turn.apply(update)
        try:
            await self.sessions.replay_session(spec, acp['sessionId'], on_update)
        except JsError as error:
            self.log.warn('ACP: replaying ' + spec['name'] + '\'s session failed: ' + error_message(error))
            return False
        for message in messages:
            if message['role'] == 'assistant':
                for part in message['parts']:
                    if part['kind'] == 'tool' and (part['status'] == 'running' or part['status'] == 'waiting'):
                        part['status'] = 'ok'
        conversation.messages = [message for message in messages
                                 if message['role'] == 'assistant' or message['text'].strip() != '']
        conversation.acp = {'agent': acp['agent'], 'sessionId': acp['sessionId']}
        self.store.put(conversation, SESSION_ORIGIN)
        return True


def acp_commands(choice: 'AgentChoice', processes: 'AgentProcesses', log: 'Log') -> 'Dict[str, AgentCommand]':
    """"Hermes: Sign In to an Agent" / "Sign Out of an Agent" (argument: the agent's name, as the sign-in button under
    a failure passes it; none: a pick of the agents), and the setup button of earlier versions (Hermes Agent): their
    handlers by command (ui/acp/late.py registers the commands at activation)."""
    sign_in = AgentSignIn(processes, log)

    async def chosen_spec(name: 'Json', verb: str) -> 'Optional[Spec]':
        hermes = choice.hermes()
        agents = choice.agents_configured()
        if json_type(name) == 'string':
            spec = find_spec(name, hermes, agents)
            if spec is None:
                vscode.window.showWarningMessage('Hermes: no agent named ' + name + ' is configured.')
            return spec
        specs = [] if hermes is None else [hermes]  # type: List[Spec]
        for spec in agents:
            specs.append(spec)
        if len(specs) == 0:
            vscode.window.showWarningMessage('Hermes: no ACP agent is configured (Hermes Agent is not installed and '
                                             '`hermes.acp.agents` is empty).')
            return None
        if len(specs) == 1:
            return specs[0]
        picked = await vscode.window.showQuickPick([spec['name'] for spec in specs],
                                                   {'placeHolder': verb + ' which agent?'})
        return None if picked is None else find_spec(picked, hermes, agents)

    async def run_sign_in(name: 'Json' = None, *ignored: Any) -> bool:
        spec = await chosen_spec(name, 'Sign in to')
        return False if spec is None else await sign_in.sign_in(spec)

    async def run_sign_out(name: 'Json' = None, *ignored: Any) -> bool:
        spec = await chosen_spec(name, 'Sign out of')
        return False if spec is None else await sign_in.sign_out(spec)

    async def run_setup(*ignored: Any) -> bool:
        return await run_sign_in(HERMES_NAME)
    return {SIGN_IN_COMMAND: run_sign_in, SIGN_OUT_COMMAND: run_sign_out, SETUP_COMMAND: run_setup}


def make_acp_sessions(context: 'ExtensionContext', log: 'Log', mcp: 'Optional[McpService]', agents: 'AcpAgents',
                      store: 'ConversationStore', change_log: 'Optional[ChangeLog]' = None,
                      window_index: 'Optional[WindowIndex]' = None) -> AcpSessionRunner:
    """The ACP agents behind chat sessions (and the side panel): the services of host/acp/services.py over the window's
    agent processes (`agents`: host/acp/agents.py AcpAgents) and their client side (`agents.client_side`: a turn
    cannot run without it), the diff documents; what the agents change on disk goes to `change_log`
    (host/changes/log.py), its spans' starts taken from `window_index` (host/changes/window_index.py: the window's,
    which the runner's making warms; a new one when None). Returns the runner. This module is a part loaded on first
    use: ui/acp/late.py makes the runner the first time a chat session, the panel or a command needs it."""
    client_side = agents.client_side
    if client_side is None:  # (register_acp_agents always gives one: AcpAgents made without one serve no turn)
        raise AcpAgentError(NO_CLIENT_SIDE)
    services = AcpServices(log, lambda spec: agents.create(spec, client_side), client_side, mcp,
                           memory=context.globalState, storage=context.globalStorageUri.fsPath)
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(services.dispose)))
    index = WindowIndex(context) if window_index is None else window_index
    runner = AcpSessionRunner(services, store, log, register_diff_documents(context, log), change_log, index)
    index.warm()  # a session opened: the first turn finds the workspace walked (in slices, in the background)
    return runner
