"""One prompt turn of an ACP agent, as every front end runs it (core/acp/conversation.py AcpConversations calls
`run_turn` with the front end's TurnView, core/acp/turn.py): the agent and its session made ready, the prompt fitted to
what the agent reads, its updates to the turn, and the agent's permission requests and questions asked through the
front end's `ask` and `elicit` (a URL question by the consent dialog, host/acp/url_consent.py, the same everywhere),
answered within a deadline. The front ends never see the protocol."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.promises import first_of, deferred
from hermes.js.timers import set_timer, clear_timer
from hermes.core.values import json_type, get_key
from hermes.core.acp.backends import AcpAgentError, lacks_provider, no_provider_failure
from hermes.core.acp.options import observing
from hermes.core.acp.turn import (AcpTurn, permission_choices, deny_choice, selected_outcome, cancelled_outcome,
                                  permission_summary)
from hermes.core.acp.prompt_content import fit_prompt
from hermes.core.acp.elicitation import accepted, declined, cancelled, check_answers, answer_text
from hermes.host.acp.url_consent import ask_to_open
from hermes.host.acp.processes import failure_of
# __pragma__('skip')
from typing import Any, Awaitable, Callable, List, Optional
from hermes.contracts.acp import Asker, Elicitor
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor
from hermes.core.acp.backends import Spec
from hermes.core.acp.turn import TurnView
from hermes.core.cancellation import Cancellation
from hermes.core.chat.conversations import Conversation
from hermes.host.log import Log
from hermes.host.acp.agent_sessions import AgentSessions
from hermes.host.acp.client_side import AcpClientSide
from hermes.host.acp.processes import AgentProcesses
from hermes.host.acp.session_options import SessionOptions
from hermes.host.acp.session_place import SessionPlace
from hermes.host.acp.session_updates import SessionUpdates

# (agent name, question, still_waiting()) → the elicitation result, or None (host/acp/url_consent.py ask_to_open)
UrlConsent = Callable[[str, JsonObject, Callable[[], bool]], Awaitable[Optional[JsonObject]]]
# __pragma__('noskip')

PERMISSION_DEADLINE_MS = 50000
"""An unanswered permission request is answered "deny" by us after this (Hermes denies by itself at 60 s)."""
DENIED_IN_TIME = ('No answer within 50 seconds: Hermes denied the request (it would have timed out at 60 s). '
                  'Ask again to retry.')
QUESTION_EXPIRED = 'No answer within 50 seconds: the question was cancelled. Ask the agent again to retry.'
QUESTION_STOPPED = 'The turn was stopped: its question was cancelled.'


class AcpTurnRunner:
    """`client_side`: the one host/acp/client_side.py object every agent shares (a turn sets its session's permission
    prompter, question prompter, change author and observe mode there: a turn cannot run without it); `processes`,
    `sessions`, `options`, `updates`, `place`: the warm agents, their sessions, the options chosen for them, what
    they send between turns, where sessions work."""

    def __init__(self, log: 'Log', client_side: 'AcpClientSide', processes: 'AgentProcesses',
                 sessions: 'AgentSessions', options: 'SessionOptions', updates: 'SessionUpdates',
                 place: 'SessionPlace') -> None:
        self.log = log
        self.client_side = client_side
        self.processes = processes
        self.sessions = sessions
        self.options = options
        self.updates = updates
        self.place = place
        self.permission_deadline_ms = PERMISSION_DEADLINE_MS  # also an agent's question's (elicitation)
        self.url_consent = ask_to_open  # type: UrlConsent

    async def run_turn(self, spec: 'Spec', conversation: 'Conversation', reply: 'JsonObject',
                       blocks: 'List[JsonObject]', view: 'TurnView', cancellation: 'Cancellation', ask: 'Asker',
                       save: 'Callable[[], None]', between_turns: 'Optional[Callable[[Json], None]]' = None,
                       author: 'Optional[ChangeAuthor]' = None, elicit: 'Optional[Elicitor]' = None) -> 'JsonObject':
        """One prompt: `blocks` (ACP content blocks) to the conversation's agent session; updates go to
        an AcpTurn on `reply` and `view`. `ask(question)` asks the user a permission question
        ({'title', 'detail', 'diffs', 'command', 'choices'}) and returns the chosen choice id or None;
        `save()` stores the conversation (the list shows NeedsInput); `between_turns(update)` hears the
        session's updates outside a turn (Hermes sends the title after the answer); `author`: the change log's
        author of the turn's writes through fs/write_text_file; `elicit(question)` asks a form question
        (core/acp/elicitation.py read_question) and returns {'action': 'accept', 'content'} | {'action': 'decline'}
        | None (dismissed). Returns {'stopReason', 'turn', 'notices'}; raises AcpAgentError when the agent cannot
        run."""
        notices = []  # type: List[str]
        cwd = self.place.cwd()
        turn = AcpTurn(reply, view, cwd)
        stored_session = dump_json(conversation.acp)  # as the front end stored it when the turn began
        if conversation.acp is None:
            conversation.acp = {'agent': spec['name'], 'sessionId': ''}  # this agent answers it from now on
        try:
            agent = await self.processes.agent(spec)
        except JsError as error:
            raise failure_of(error, spec['name'])
        if lacks_provider(spec['name'], getattr(agent, 'auth_methods', None)):
            self.processes.forget(spec)  # the next turn starts Hermes anew: it reads the provider chosen meanwhile
            failure = no_provider_failure(spec['name'])
            raise AcpAgentError(failure['message'], failure['setup'])
        try:
            session_id = await self.sessions.session_for(spec, agent, conversation, notices)
        except JsError as error:
            raise failure_of(error, spec['name'])
        await self.options.choices_sent(session_id)  # a mode or model chosen just before the prompt applies to it
        turn.cost_before = get_key(conversation.acp, 'cost')  # (a new session has none: its first cost is all its own)
        if between_turns is not None:
            self.updates.watch_session(session_id, between_turns)
        known = self.updates.commands_for(session_id)
        if known is not None:  # sent before this turn (after session/new, during load, in an earlier turn)
            view.on_commands(known)
        fitted = fit_prompt(blocks, getattr(agent, 'capabilities', None), spec['name'])  # images, embedded files
        for note in fitted['notes']:
            notices.append(note)
        if author is not None:
            self.client_side.set_change_author(session_id, author)  # fs/write_text_file: this turn's changes
        # Hermes' observe mode: writes captured for the review, no command run (host/acp/client_side.py)
        self.client_side.set_observing(session_id, lambda: observing(conversation.acp, turn.mode))
        if dump_json(conversation.acp) != stored_session:
            save()  # a new or reloaded session's id: a window that dies during the turn reopens this session

        if cancellation.cancelled:  # Stop while the agent or its session started: the prompt is never sent
            turn.finish(None)
            return {'stopReason': 'cancelled', 'turn': turn, 'notices': notices}

        async def prompter(params: 'Json') -> 'Json':
            return await self.answer_permission(turn, params, view, ask, save, cancellation)
        self.client_side.set_permission_prompter(session_id, prompter)

        async def questioner(question: 'JsonObject') -> 'JsonObject':
            return await self.answer_question(turn, question, view, elicit, save, cancellation, spec['name'])
        self.client_side.set_question_prompter(session_id, questioner)
        unsubscribe = cancellation.on_cancel(lambda: agent.cancel(session_id))

        def on_update(update: 'Json') -> None:
            self.updates.note_commands(session_id, update)  # the latest list also for the next turns' views
            if get_key(update, 'sessionUpdate') == 'config_option_update':  # the agent changed an option itself
                self.options.config_answered(spec['name'], update, conversation)
            turn.apply(update)
        try:
            result = await agent.prompt(session_id, fitted['blocks'], on_update)
        except JsError as error:
            turn.finish(None)
            if cancellation.cancelled:
                return {'stopReason': 'cancelled', 'turn': turn, 'notices': notices}
            raise failure_of(error, spec['name'])
        finally:
            unsubscribe()
            self.client_side.set_permission_prompter(session_id, None)
            self.client_side.set_question_prompter(session_id, None)
            self.client_side.set_observing(session_id, None)
        stop_reason = get_key(result, 'stopReason', 'end_turn')
        turn.said_usage = get_key(result, 'usage')
        turn.finish(stop_reason)
        return {'stopReason': stop_reason, 'turn': turn, 'notices': notices}

    async def answer_permission(self, turn: 'AcpTurn', params: 'Json', view: 'TurnView', ask: 'Asker',
                                save: 'Callable[[], None]', cancellation: 'Cancellation') -> 'JsonObject':
        """A `session/request_permission`: asked in the front end with every option the agent offers,
        the answer mapped back exactly; no answer within PERMISSION_DEADLINE_MS → deny, with a note."""
        choices = permission_choices(params)
        if cancellation.cancelled:
            return cancelled_outcome()
        part = turn.permission_waiting(params)
        save()
        question = permission_summary(params, turn.cwd)
        question['choices'] = choices
        question['part'] = part['id']  # the waiting tool part the front end showed (a card asks in its place)
        timed_out = {'value': False}
        deadline = deferred()

        def expire() -> None:
            timed_out['value'] = True
            deadline['resolve'](None)
        timer = set_timer(expire, self.permission_deadline_ms)
        try:
            chosen = await first_of([ask(question), deadline['promise'], cancellation.wait()])
        except JsError as error:
            self.log.warn('ACP: asking for permission failed: ' + error_message(error))
            chosen = None
        finally:
            clear_timer(timer)
        picked = None  # type: Optional[JsonObject]
        for choice in choices:
            if json_type(chosen) == 'string' and choice['id'] == chosen:
                picked = choice
        if picked is None:
            deny = deny_choice(choices)
            note = DENIED_IN_TIME if timed_out['value'] else 'Not answered: denied.'
            if cancellation.cancelled:
                note = 'The turn was stopped: denied.'
            turn.permission_answered(part, note, False)
            view.on_notice(note)
            save()
            return cancelled_outcome() if deny is None else selected_outcome(deny['id'])
        turn.permission_answered(part, picked['label'], picked['allow'])
        save()
        return selected_outcome(picked['id'])

    async def answer_question(self, turn: 'AcpTurn', question: 'JsonObject', view: 'TurnView',
                              elicit: 'Optional[Elicitor]', save: 'Callable[[], None]', cancellation: 'Cancellation',
                              agent_name: str) -> 'JsonObject':
        """An agent's question (elicitation/create, read by core/acp/elicitation.py): a form asked by the front end's
        `elicit`, a URL by the consent dialog (host/acp/url_consent.py). The answer maps exactly: the user's checked
        values → accept with content (checked here again), Decline → decline, dismissed → cancel; no answer within
        the permission deadline → cancel, with a note; a stopped turn → cancel (net/acp/agent.py answers at once)."""
        if cancellation.cancelled:
            return cancelled()
        part = turn.question_waiting(question)
        save()
        question['part'] = part['id']  # the waiting part the front end showed (a panel card asks in its place)
        question['agent'] = agent_name
        state = {'settled': False, 'timed_out': False}
        deadline = deferred()

        def expire() -> None:
            state['timed_out'] = True
            deadline['resolve'](None)
        timer = set_timer(expire, self.permission_deadline_ms)
        try:
            asking = None  # type: Any
            if question['mode'] == 'url':
                asking = self.url_consent(agent_name, question, lambda: not state['settled'])
            elif elicit is None:
                asking = deadline['promise']  # a front end that cannot ask forms: its deadline answers
            else:
                asking = elicit(question)
            answer = await first_of([asking, deadline['promise'], cancellation.wait()])
        except JsError as error:
            self.log.warn('ACP: asking a question failed: ' + error_message(error))
            answer = None
        finally:
            state['settled'] = True
            clear_timer(timer)
        action = get_key(answer, 'action')
        result = cancelled()
        note = None  # type: Optional[str]
        if cancellation.cancelled:
            note = QUESTION_STOPPED
        elif action == 'decline':
            result = declined()
        elif action == 'accept' and question['mode'] == 'url':
            result = accepted()
        elif action == 'accept':
            checked = check_answers(question, get_key(answer, 'content'))
            if len(checked['problems']) > 0:  # a front end let through what the form refuses: nothing is sent
                self.log.warn('ACP: refused answers the form does not accept: ' + '; '.join(checked['problems']))
            else:
                result = accepted(checked['content'])
        elif state['timed_out']:
            note = QUESTION_EXPIRED
        turn.question_answered(part, answer_text(result), result['action'] == 'accept')
        if note is not None:
            view.on_notice(note)
        save()
        return result
