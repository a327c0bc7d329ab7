"""A chat session's turn answered by an ACP agent (Hermes Agent itself, or another agent of
`hermes.acp.agents`): the prompt recorded in the conversation store (shared with the side panel), the
turn run by host/acp_service.py and rendered natively by ui/acp_chat.py, Stop → session/cancel, the
files the agent changed noticed, and a failure said in words (with a button that runs `hermes acp
--setup` when Hermes has no model provider yet)."""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none, new
from hermes.core.values import json_type, get_key
from hermes.core.cancellation import Cancellation
from hermes.core.chat_messages import prop
from hermes.core.conversations import end_reply, remember_turn
from hermes.core.acp_turn import AcpTurn, TurnView, content_text, stop_reason_text, FILE_CHANGING_KINDS
from hermes.core.checkpoints import new_turn_id, change_author
from hermes.host.acp_service import AcpService, AcpAgentError, setup_terminal
from hermes.host.acp_changes import TurnFileWatch
from hermes.ui.acp_chat import ChatStreamView, modal_asker, register_diff_documents

SESSION_ORIGIN = 'session'
SETUP_COMMAND = 'hermes.acp.setup'


class SessionEvents:
    """What a turn tells the session besides the reply: its title, slash commands, context use, mode."""

    def __init__(self, conversation, store):
        self.conversation = conversation
        self.store = store

    def on_title(self, title):
        self.conversation.title = title
        self.store.put(self.conversation, SESSION_ORIGIN)

    def on_usage(self, used, size):
        self.conversation.acp_usage = {'used': used, 'size': size}

    def on_commands(self, commands):
        self.conversation.acp_commands = commands

    def on_mode(self, mode_id):
        self.conversation.acp_mode = mode_id


class NotingView(TurnView):
    """A TurnView that tells the turn's file watch which files the agent is about to change (their text before
    the change: from a permission diff, else read now), then shows the turn as `inner` does."""

    def __init__(self, inner, watch):
        self.inner = inner
        self.watch = watch

    def on_text(self, text):
        self.inner.on_text(text)

    def on_thought(self, text):
        self.inner.on_thought(text)

    def on_tool(self, tool):
        for diff in tool['diffs']:
            self.watch.note(diff['path'], diff['oldText'], not is_none(diff['oldText']))
        if tool['kind'] in FILE_CHANGING_KINDS:
            for path in tool['paths']:
                self.watch.note(path)
        self.inner.on_tool(tool)

    def on_plan(self, entries):
        self.inner.on_plan(entries)

    def on_usage(self, used, size):
        self.inner.on_usage(used, size)

    def on_commands(self, commands):
        self.inner.on_commands(commands)

    def on_title(self, title):
        self.inner.on_title(title)

    def on_mode(self, mode_id):
        self.inner.on_mode(mode_id)

    def on_notice(self, text):
        self.inner.on_notice(text)


def prompt_blocks(request):
    """The request as ACP content blocks: its text (with the slash command the user typed), then the
    files it attached as resource links."""
    prompt = prop(request, 'prompt')
    command = prop(request, 'command')
    text = prompt if json_type(prompt) == 'string' else ''
    if json_type(command) == 'string' and command != '':
        text = '/' + command + (' ' + text if text.strip() != '' else '')
    blocks = [{'type': 'text', 'text': text}]
    for reference in prop(request, 'references') or []:
        value = prop(reference, 'value')
        uri = value if not is_none(value) and not is_none(prop(value, 'scheme')) else prop(value, 'uri')
        if is_none(uri) or prop(uri, 'scheme') != 'file':
            continue
        path = uri.path
        blocks.append({'type': 'resource_link', 'uri': uri.toString(), 'name': path[path.rfind('/') + 1:]})
    return blocks, text


class AcpSessionRunner:
    def __init__(self, service, store, log, documents=None, change_log=None):
        self.service = service
        self.store = store
        self.log = log
        self.documents = documents
        self.change_log = change_log

    def backend_for(self, conversation):
        return self.service.backend_for(conversation)

    def notice_once(self, conversation, notice):
        return self.service.notice_once(conversation, notice)

    async def respond(self, spec, conversation, request, stream, token):
        blocks, text = prompt_blocks(request)
        if text.strip() == '':
            stream.markdown('Type a message for ' + spec['name'] + '.')
            return {}
        turn_id = new_turn_id()
        conversation.add({'role': 'user', 'text': text, 'turn': turn_id})
        reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
        conversation.add(reply)
        conversation.model = spec['name']
        conversation.last_started = now_ms()
        conversation.last_ended = None
        self.store.put(conversation, SESSION_ORIGIN)
        cancellation = Cancellation()
        subscription = None
        if not is_none(token):
            if token.isCancellationRequested:
                cancellation.cancel('The user stopped the turn.')
            subscription = token.onCancellationRequested(lambda event: cancellation.cancel('The user stopped the turn.'))
        shown = ChatStreamView(stream, SessionEvents(conversation, self.store))
        watch = TurnFileWatch(self.log)
        view = NotingView(shown, watch)
        outcome = None
        failure = None

        def save():
            self.store.put(conversation, SESSION_ORIGIN)
        try:
            outcome = await self.service.run_turn(spec, conversation, reply, blocks, view, cancellation,
                                                  modal_asker(spec['name'], self.documents, self.log), save,
                                                  self._late_updates(conversation),
                                                  change_author(conversation.id, turn_id))
        except AcpAgentError as error:
            failure = error
        except JsError as error:
            failure = AcpAgentError(spec['name'] + ' failed: ' + error_message(error))
        finally:
            if not is_none(subscription):
                subscription.dispose()
        named = [] if is_none(outcome) else outcome['turn'].changed
        changed = watch.end(named)
        for path in changed:
            if not (path in conversation.changes):
                conversation.changes.append(path)
        watch.record(self.change_log, changed, change_author(conversation.id, turn_id))
        conversation.last_ended = now_ms()
        if not is_none(failure):
            end_reply(reply, 'error', failure.message)
            self.store.put(conversation, SESSION_ORIGIN)
            self.log.warn('ACP: ' + failure.message)
            stream.markdown(('\n\n' if shown.text_shown else '') + failure.message)
            if failure.setup:
                stream.button({'command': SETUP_COMMAND, 'title': 'Set up Hermes Agent'})
            return {'metadata': {'hermes': {'stopped': 'error', 'acp': spec['name']}}}
        for notice in outcome['notices']:
            view.on_notice(notice)
        stop_reason = outcome['stopReason']
        note = stop_reason_text(stop_reason)
        if not is_none(note):
            view.on_notice(note)
        cancelled = stop_reason == 'cancelled' or cancellation.cancelled
        if not cancelled and not shown.text_shown and len(reply['parts']) == 0:
            stream.markdown('*(' + spec['name'] + ' gave no answer.)*')
        end_reply(reply, 'stopped' if cancelled else 'done')
        remember_turn(conversation, text, reply)
        self.store.put(conversation, SESSION_ORIGIN)
        return {'metadata': {'hermes': {'stopped': 'cancelled' if cancelled else 'done', 'acp': spec['name'],
                                        'stopReason': stop_reason}}}


    def _late_updates(self, conversation):
        events = SessionEvents(conversation, self.store)

        def on_update(update):
            if get_key(update, 'sessionUpdate') == 'session_info_update':
                title = get_key(update, 'title')
                if json_type(title) == 'string' and title.strip() != '':
                    events.on_title(title.strip())
        return on_update


    # ---------------------------------------------------------------- the agent's own sessions

    async def import_listed(self):
        """Hermes' own sessions for this workspace (session/list by cwd, e.g. started with `hermes` in a terminal)
        join the list beside ours; their turns are replayed when one is opened. Returns how many were added."""
        backend = self.service.choose_for_listing()
        if is_none(backend):
            return 0
        spec = backend['spec']
        known = [conversation.acp['sessionId'] for conversation in self.store.conversations
                 if not is_none(conversation.acp)]
        added = 0
        for listed in await self.service.list_sessions(spec):
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

    def needs_replay(self, conversation):
        return not is_none(conversation.acp) and get_key(conversation.acp, 'replay') is True

    async def replay(self, conversation):
        """The turns of a listed agent session, from its replay (session/load), as the conversation's messages."""
        spec = self.service.spec_named(conversation.acp['agent'])
        if is_none(spec):
            return False
        messages = []
        state = {'turn': None, 'user': None}
        cwd = self.service.cwd()

        def on_update(update):
            kind = get_key(update, 'sessionUpdate')
            if kind == 'user_message_chunk':
                text = content_text(get_key(update, 'content'))
                if is_none(state['user']):
                    state['user'] = {'role': 'user', 'text': ''}
                    state['turn'] = None
                    messages.append(state['user'])
                state['user']['text'] = state['user']['text'] + text
                return
            if is_none(state['turn']):
                reply = {'role': 'assistant', 'status': 'done', 'error': None, 'parts': []}
                messages.append(reply)
                state['turn'] = AcpTurn(reply, None, cwd)
                state['user'] = None
            state['turn'].apply(update)
        try:
            await self.service.replay_session(spec, conversation.acp['sessionId'], on_update)
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
        conversation.acp = {'agent': conversation.acp['agent'], 'sessionId': conversation.acp['sessionId']}
        self.store.put(conversation, SESSION_ORIGIN)
        return True


def register_acp_commands(context, service):
    """`hermes.acp.setup`: run `hermes acp --setup` in a terminal (the button under "no provider")."""
    def run_setup(*ignored):
        setup_terminal(service.hermes())
        return True
    context.subscriptions.push(vscode.commands.registerCommand(SETUP_COMMAND, to_js_callback(run_setup)))


def register_acp_sessions(context, log, mcp, agents, client_side, store, change_log=None):
    """The ACP agents behind chat sessions (and the side panel): AcpService over the window's agent processes
    (`agents`: host/acp_agents.py AcpAgents), `hermes.acp.setup`, the diff documents; what the agents change on
    disk goes to `change_log` (host/change_log.py). Returns the runner."""
    service = AcpService(log, lambda spec: agents.create(spec, client_side), client_side, mcp)
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(service.dispose)))
    register_acp_commands(context, service)
    return AcpSessionRunner(service, store, log, register_diff_documents(context), change_log)
