"""An ACP agent's turn in a stored conversation, whatever the front end shows it in (a chat session, the side
panel), free of VS Code: the prompt and the running reply recorded in the conversation store they share, the turn
run by the ACP turn runner (host/acp/turn_runner.py `run_turn`) through the front end's TurnView (core/acp/turn.py), what
every front end records alike (the agent's title for the conversation, its context use, slash commands and mode,
the files it is about to change), the turn's changed files handed to the change log, and how the turn ended.

The front end keeps only what it shows: its TurnView, how it asks a permission question (`ask`), and how it says
a failure (`failure['message']`, with the setup button when `failure['setup']`). Both front ends call the same
`AcpConversations.begin` / `run`, so a conversation started in one continues in the other with the same agent
session (`conversation.acp`).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.cancellation import Cancellation
from hermes.core.chat.conversations import Conversation
# __pragma__('noskip')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.core.values import json_type, get_key
from hermes.core.acp.backends import AcpAgentError
from hermes.core.acp.turn import TurnView, stop_reason_text, FILE_CHANGING_KINDS
from hermes.core.acp.commands import commands_update, commands_hint
from hermes.core.changes.checkpoints import new_turn_id, last_turn, change_author
from hermes.core.changes.report import undo_note
from hermes.core.dialog_text import agent_title
from hermes.core.chat.conversations import end_reply, remember_turn
from hermes.core.acp.turn_usage import turn_tokens, turn_cost, turn_usage, money_of

MAX_TOLD = 500  # the decisions an agent was told of, the newest (the change log keeps at most 200 decisions)


def no_answer_text(agent_name: str) -> str:
    """What a turn that ended without a word or a step says."""
    return '*(' + agent_name + ' gave no answer.)*'


class ConversationEvents:
    """What a turn tells the conversation besides the reply: the agent's title for it, its slash commands,
    its context use, its mode. `origin`: who stores it (the store's listeners ignore their own changes)."""

    def __init__(self, conversation: 'Any', store: 'Any', origin: 'Any',
                 remember_commands: 'Optional[Callable[[List[JsonObject]], None]]' = None) -> None:
        # `conversation`: a core/chat/conversations.py Conversation; `acp_usage` and `acp_mode` are set here only (read
        # back with getattr), so it is held as Any
        self.conversation = conversation
        self.store = store
        self.origin = origin
        self.remember_commands = remember_commands  # the agent's latest list, for its next new conversation

    def on_title(self, title: str) -> None:
        self.conversation.title = title
        self.store.put(self.conversation, self.origin)

    def on_usage(self, used: 'Json', size: 'Json', cost: 'Optional[str]' = None) -> None:
        self.conversation.acp_usage = {'used': used, 'size': size, 'cost': cost}

    def on_commands(self, commands: 'List[JsonObject]') -> None:
        """The agent's latest list, kept with the conversation's agent session (stored with it: a reopened session
        knows them). A list for a session the conversation no longer has is not kept."""
        if self.remember_commands is not None:
            self.remember_commands(commands)
        acp = self.conversation.acp
        if acp is None:
            return
        if dump_json(get_key(acp, 'commands', [])) == dump_json(commands):
            return
        acp['commands'] = commands
        self.store.put(self.conversation, self.origin)

    def on_mode(self, mode_id: str) -> None:
        self.conversation.acp_mode = mode_id

    def late_updates(self) -> 'Callable[[Json], None]':
        """`on_update(update)` for the session's updates outside a turn: Hermes names the conversation after
        the prompt's answer; an agent may send new commands at any time."""
        def on_update(update: 'Json') -> None:
            commands = commands_update(update)
            if commands is not None:
                self.on_commands(commands)
            if get_key(update, 'sessionUpdate') == 'session_info_update':
                title = agent_title(get_key(update, 'title'))
                if title is not None:
                    self.on_title(title)
        return on_update


class ConversationView(TurnView):
    """A front end's TurnView (`inner`) plus what every front end does alike: the files the agent is about to
    change told to the turn's file watch (their text before the change: from a permission diff, else read now),
    and the conversation's title, usage, commands and mode recorded (`events`)."""

    def __init__(self, inner: 'TurnView', watch: 'Any', events: 'ConversationEvents') -> None:
        self.inner = inner
        self.watch = watch
        self.events = events

    def on_text(self, text: str) -> None:
        self.inner.on_text(text)

    def on_thought(self, text: str) -> None:
        self.inner.on_thought(text)

    def on_tool(self, tool: 'JsonObject') -> None:
        for diff in tool['diffs']:
            self.watch.note(diff['path'], diff['oldText'], diff['oldText'] is not None)
        if tool['kind'] in FILE_CHANGING_KINDS:
            for path in tool['paths']:
                self.watch.note(path)
        self.inner.on_tool(tool)

    def on_plan(self, entries: 'List[JsonObject]') -> None:
        self.inner.on_plan(entries)

    def on_usage(self, used: 'Json', size: 'Json', cost: 'Optional[str]' = None) -> None:
        self.events.on_usage(used, size, cost)
        self.inner.on_usage(used, size, cost)

    def on_commands(self, commands: 'List[JsonObject]') -> None:
        self.events.on_commands(commands)
        self.inner.on_commands(commands)

    def on_title(self, title: str) -> None:
        self.events.on_title(title)
        self.inner.on_title(title)

    def on_mode(self, mode_id: str) -> None:
        self.events.on_mode(mode_id)
        self.inner.on_mode(mode_id)

    def on_notice(self, text: str) -> None:
        self.inner.on_notice(text)


class AcpConversations:
    """`runner`: host/acp/turn_runner.py AcpTurnRunner (`run_turn`); `store`: the conversation store; `make_watch()`: a
    turn's file watch (host/changes/disk_changes.py DiskChangeSpan: `note`, `end(named)`, `record(change_log, paths,
    author)`, `on_late`); `change_log`: where the turn's changes go (None: nowhere); `remember_commands(agent name,
    commands)`: keeps the commands an agent sent for its conversations not answered yet (host/acp/session_updates.py;
    None: nowhere); `watch_ready()`: None, or what to await before the watch starts (host/changes/window_index.py
    `ready`: the workspace's index walked in the background, so the watch's start holds the host a slice at a time)."""

    def __init__(self, runner: 'Any', store: 'Any', log: 'Any', make_watch: 'Callable[[], Any]',
                 change_log: 'Any' = None,
                 remember_commands: 'Optional[Callable[[str, List[JsonObject]], None]]' = None,
                 watch_ready: 'Optional[Callable[[], Any]]' = None) -> None:
        self.costs = None  # type: Any  # ui/chat/cost_status.py CostStatus: record(agent, session_id, cost), when shown
        self.runner = runner
        self.remember_commands = remember_commands
        self.store = store
        self.log = log
        self.make_watch = make_watch
        self.watch_ready = watch_ready
        self.change_log = change_log
        self._told = []  # type: List[Any]  # the change log's decisions an agent was told of (undo_note)

    def _record_cost(self, agent_name: str, conversation: 'Conversation', cost: 'Json') -> None:
        session_id = get_key(conversation.acp, 'sessionId')
        if self.costs is None or cost is None or json_type(session_id) != 'string':
            return
        try:
            self.costs.record(agent_name, session_id, cost)
        except JsError as error:
            self.log.warn('ACP: counting the session\'s cost failed: ' + error_message(error))

    def commands_hint(self, conversation: 'Conversation', agent_name: str, origin: 'Any') -> 'Optional[str]':
        """The line a chat session adds at the end of a response when the agent's commands arrived or changed since
        the chat last said them (once per list: marked in the stored conversation), else None."""
        hint = commands_hint(agent_name, conversation.acp)
        if hint is not None:
            self.store.put(conversation, origin)
        return hint

    def begin(self, conversation: 'Conversation', text: str, agent_name: str, origin: 'Any',
              user: 'Optional[JsonObject]' = None) -> 'JsonObject':
        """The prompt (a new user message, or `user` again for a retry) and a running reply, stored.
        Returns {'user', 'reply', 'since' (when the previous turn started, or None)}."""
        since = conversation.last_started
        if user is None:
            user = {'role': 'user', 'text': text, 'turn': new_turn_id(last_turn(conversation.messages))}
            conversation.add(user)
        reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}  # type: JsonObject
        conversation.add(reply)
        if conversation.acp is None:  # this agent answers it from now on (its session opens when the turn runs)
            conversation.acp = {'agent': agent_name, 'sessionId': ''}
        conversation.model = agent_name
        conversation.last_started = now_ms()
        conversation.last_ended = None
        self.store.put(conversation, origin)
        return {'user': user, 'reply': reply, 'since': since}

    def _with_undo_note(self, conversation: 'Conversation', begun: 'JsonObject',
                        blocks: 'List[JsonObject]') -> 'List[JsonObject]':
        """`blocks` followed by a note of the agent's changes the user undid since its previous turn, if any (after
        the user's text: agents recognise a slash command by the prompt's first text)."""
        if self.change_log is None:
            return blocks
        # each decision once: a fast user can undo and send in the same millisecond the previous turn started
        fresh = [item for item in self.change_log.history() if not (item in self._told)]
        note = undo_note(fresh, conversation.id, get_key(begun, 'since'))
        if note is None:
            return blocks
        for item in fresh:
            if get_key(item, 'session') == conversation.id:
                self._told.append(item)
        self._told = self._told[max(0, len(self._told) - MAX_TOLD):]
        noted = [block for block in blocks]  # type: List[JsonObject]
        noted.append({'type': 'text', 'text': note})
        return noted

    async def run(self, spec: 'JsonObject', conversation: 'Conversation', begun: 'JsonObject',
                  blocks: 'List[JsonObject]', view: 'TurnView', cancellation: 'Cancellation', ask: 'Any',
                  origin: 'Any', elicit: 'Any' = None) -> 'JsonObject':
        """One prompt (`blocks`: ACP content blocks) in the conversation's agent session; `begun`: what `begin`
        returned; `ask` asks a permission question, `elicit` an agent's form question (host/acp/turn_runner.py
        run_turn). Returns {'failure': None | {'message', 'setup'}, 'stopReason', 'cancelled', 'empty' (no word,
        no step), 'changed' (paths), 'usage' (core/acp/turn_usage.py turn_usage, or None)}. Notices (a lost session, a turn denied, a stop reason) go to
        `view.on_notice`; the reply ends (done, stopped, error) and is stored."""
        user = begun['user']
        reply = begun['reply']
        remember = self.remember_commands
        events = ConversationEvents(conversation, self.store, origin,
                                    None if remember is None else lambda commands: remember(spec['name'], commands))
        waiting = None if self.watch_ready is None else self.watch_ready()
        if waiting is not None:
            await waiting  # the first turn, when the index's walk in the background has not ended yet
        watch = self.make_watch()
        shown = ConversationView(view, watch, events)
        author = change_author(conversation.id, get_key(user, 'turn'))
        blocks = self._with_undo_note(conversation, begun, blocks)
        # run_turn's {'turn', 'stopReason', 'notices'}: set unless `failure` is
        outcome = None  # type: Any
        failure = None  # type: Optional[AcpAgentError]

        def save() -> None:
            self.store.put(conversation, origin)
        try:
            outcome = await self.runner.run_turn(spec, conversation, reply, blocks, shown, cancellation, ask, save,
                                                  events.late_updates(), author, elicit)
        except AcpAgentError as error:
            failure = error
        except JsError as error:
            failure = AcpAgentError(spec['name'] + ' failed: ' + error_message(error))
        changed = watch.end([] if outcome is None else outcome['turn'].changed)
        for path in changed:
            if not (path in conversation.changes):
                conversation.changes.append(path)
        watch.record(self.change_log, changed, author)

        # a write the watcher reported after the turn ended (recorded by the watch)
        def late(paths: 'List[str]') -> None:
            for path in paths:
                if not (path in conversation.changes):
                    conversation.changes.append(path)
            save()
        watch.on_late = late
        conversation.last_ended = now_ms()
        if failure is not None:
            end_reply(reply, 'error', failure.message)
            save()
            self.log.warn('ACP: ' + failure.message)
            return {'failure': {'message': failure.message, 'setup': failure.setup is True}, 'stopReason': None,
                    'cancelled': False, 'empty': False, 'changed': changed, 'usage': None}
        self._record_cost(spec['name'], conversation, outcome['turn'].cost)
        usage = self._turn_usage(conversation, outcome['turn'])
        if usage is not None:
            reply['usage'] = usage
        for notice in outcome['notices']:
            shown.on_notice(notice)
        stop_reason = outcome['stopReason']
        note = stop_reason_text(stop_reason)
        if note is not None:
            shown.on_notice(note)
        cancelled = stop_reason == 'cancelled' or cancellation.cancelled
        empty = not cancelled and not outcome['turn'].text_shown and len(reply['parts']) == 0
        end_reply(reply, 'stopped' if cancelled else 'done')
        remember_turn(conversation, user['text'], reply)
        save()
        return {'failure': None, 'stopReason': stop_reason, 'cancelled': cancelled, 'empty': empty,
                'changed': changed, 'usage': usage}

    def _turn_usage(self, conversation: 'Conversation', turn: 'Any') -> 'Optional[JsonObject]':
        """What the turn used (the prompt's answer's tokens) and cost (what the session's cost grew by), or None;
        the session's cost as it now stands kept with its agent session (stored: the next turn, a reload, the list)."""
        cost = None  # type: Optional[JsonObject]
        if turn.cost is not None:
            cost = turn_cost(turn.cost_before, turn.cost)
            if conversation.acp is not None:
                conversation.acp['cost'] = money_of(turn.cost)
        return turn_usage(turn_tokens(turn.said_usage), cost)
