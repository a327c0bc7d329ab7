"""An ACP agent's turn (Hermes Agent, or another agent of `hermes.acp.agents`) in the side panel, free of vscode:
the TurnView (core/acp/turn.py) that posts it to the webview as the panel's cards, and the permission questions
asked there as cards with every option the agent offers.

Host → webview (besides the loop's textDelta / turnStarted / turnEnded):
    {type: 'thoughtDelta', text}            the agent's thinking (a collapsed block)
    {type: 'agentTool', tool}               a tool call, created or updated by id: {id, title, kind, status,
                                            complete, input, output, paths, diffs: [{path, preview}]}
    {type: 'plan', entries}                 the whole to-do list each time: [{title, status}]
    {type: 'usage', used, size, cost}       the agent's context use; what the session cost (text), or null
    {type: 'notice', text}                  a line in the reply (Markdown)
    {type: 'commands', commands}            the agent's slash commands ([{name, description, hint}]): "/" in the
                                            input lists them (also posted with 'backends', by the controller)
    {type: 'permission', id, title, detail, command, diffs: [{path, shown, preview}], choices: [{id, label,
     kind, allow}]}                          a question in the card of the waiting tool `id`
    {type: 'elicitation', id, agent, title, message, fields, values, problems}
                                            an agent's form question (core/acp/elicitation.py) in the card of its
                                            waiting part `id`: posted again with `problems` while the answers are
                                            wrong
Webview → host: {type: 'permissionAnswer', id, option} · {type: 'openPermissionDiff', id} ·
{type: 'elicitationAnswer', id, action: accept | decline | cancel, values: JSON text of {name: value}}.

The turn itself runs in core/acp/conversation.py (the same as a chat session's); the answer goes back to the
agent exactly (the option's id), and a question nobody answers is denied by host/acp/turn_runner.py before the agent
gives up (50 s), with a note: its card then shows the note instead of the buttons.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.json import parse_json
from hermes.js.promises import deferred
from hermes.core.values import json_type, copyable_keys
from hermes.core.acp.elicitation import check_answers, default_answers, accepted, declined
from hermes.core.acp.turn import TurnView
from hermes.core.changes.diff_preview import diff_preview
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional, Protocol
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.panel import AgentTool, ElicitationPost, PermissionPost, ToWebview
from hermes.host.log import Log


class PanelPoster(Protocol):
    """What posts to the webview (ui/panel/controller.py PanelController)."""

    def post(self, message: 'ToWebview') -> None: ...


class PanelTurn(Protocol):
    """The panel's turn (ui/panel/controller.py Turn): once `ended` (New chat), its events are not posted."""
    ended: bool

# __pragma__('noskip')


def tool_post(tool: 'JsonObject') -> 'AgentTool':
    """A tool of the turn as the webview gets it: its diffs as previews (never whole files)."""
    post = {'id': tool['id'], 'title': tool['title'], 'kind': tool['kind'], 'status': tool['status'],
            'complete': tool['complete'], 'input': tool['input'], 'output': tool['output'], 'paths': tool['paths'],
            'diffs': [{'path': diff['path'], 'preview': diff_preview(diff['oldText'], diff['newText'])}
                      for diff in tool['diffs']], 'parent': tool['parent'], 'subagent': tool['subagent']}  # type: AgentTool
    return post


def form_post(question: 'JsonObject', values: 'Dict[str, str]', problems: 'List[str]') -> 'ElicitationPost':
    """A form question as the webview's card: its fields (the agent's words already cleaned: the webview sets them
    as text), what the inputs hold, and why the last answers were refused."""
    return {'type': 'elicitation', 'id': question['part'], 'agent': question['agent'], 'title': question['title'],
            'message': question['message'],
            'fields': [{'name': field['name'], 'kind': field['kind'], 'type': field['type'], 'label': field['label'],
                        'description': field['description'], 'required': field['required'],
                        'options': field['options'], 'format': field['format']} for field in question['fields']],
            'values': values, 'problems': problems}


def form_values(text: str, question: 'JsonObject') -> 'Optional[Dict[str, str]]':
    """The webview's answers (a JSON object's text) as {field name: string}, only the form's fields; None when the
    text is no such object."""
    try:
        parsed = parse_json(text)
    except JsError:
        return None
    if json_type(parsed) != 'object':
        return None
    names = [field['name'] for field in question['fields']]
    values = {}  # type: Dict[str, str]
    for key in copyable_keys(parsed):
        if key in names and json_type(parsed[key]) == 'string':
            values[key] = parsed[key]
    return values


def question_post(question: 'JsonObject') -> 'PermissionPost':
    """A permission question as the webview's card: the agent's diffs as previews, its options as buttons."""
    return {'type': 'permission', 'id': question['part'], 'title': question['title'], 'detail': question['detail'],
            'command': question['command'],
            'diffs': [{'path': diff['path'], 'shown': diff['shown'] if json_type(diff['shown']) == 'string'
                       else diff['path'], 'preview': diff_preview(diff['oldText'], diff['newText'])}
                      for diff in question['diffs']],
            'choices': question['choices']}


class PanelAcpView(TurnView):
    """Posts one ACP turn to the webview. The reply itself is recorded by the turn (core/acp/turn.py); events
    after the panel ended the turn (New chat) are not posted."""

    def __init__(self, controller: 'PanelPoster', turn: 'PanelTurn', questions: 'PanelQuestions') -> None:
        self.controller = controller
        self.turn = turn
        self.questions = questions

    def _post(self, message: 'ToWebview') -> None:
        if not self.turn.ended:
            self.controller.post(message)

    def on_text(self, text: str) -> None:
        self._post({'type': 'textDelta', 'text': text})

    def on_thought(self, text: str) -> None:
        self._post({'type': 'thoughtDelta', 'text': text})

    def on_tool(self, tool: 'JsonObject') -> None:
        if tool['status'] != 'waiting':
            self.questions.drop(tool['id'])  # answered, denied in time, or the turn ended: no more buttons
        self._post({'type': 'agentTool', 'tool': tool_post(tool)})

    def on_plan(self, entries: 'List[JsonObject]') -> None:
        shown = entries  # type: Any  # (core/acp/turn.py's plan entries: {'title', 'status'}, as PlanEntry says)
        self._post({'type': 'plan', 'entries': shown})

    def on_usage(self, used: 'Json', size: 'Json', cost: 'Optional[str]' = None) -> None:
        self._post({'type': 'usage', 'used': used, 'size': size, 'cost': cost})

    def on_notice(self, text: str) -> None:
        self._post({'type': 'notice', 'text': text})

    def on_commands(self, commands: 'List[JsonObject]') -> None:
        """The agent's latest slash commands: the list "/" opens in the input."""
        shown = commands  # type: Any  # (core/acp/commands.py commands_of: {'name', 'description', 'hint'})
        self._post({'type': 'commands', 'commands': shown})


class PanelQuestions:
    """The questions waiting in the panel: `ask(question)` posts a permission card and waits for the user's
    answer (the option id), which `answer(id, option)` gives; `elicit(question)` posts a form and waits for
    `answer_form(id, action, values)`; `drop(id)` ends a question unanswered (None)."""

    def __init__(self, post: 'Callable[[ToWebview], None]', log: 'Log') -> None:
        self.post = post
        self.log = log
        # [{'id', 'post' (the card), 'choices' (the option ids offered), 'diffs', 'settle', 'question' (a form's)}]
        self.waiting = []  # type: List[JsonObject]

    def _find(self, part_id: str) -> 'Optional[JsonObject]':
        for entry in self.waiting:
            if entry['id'] == part_id:
                return entry
        return None

    async def ask(self, question: 'JsonObject') -> 'Optional[str]':
        held = deferred()
        post = question_post(question)
        self.waiting.append({'id': post['id'], 'post': post, 'choices': [choice['id'] for choice in question['choices']],
                             'diffs': question['diffs'], 'settle': held['resolve']})
        self.post(post)
        chosen = await held['promise']  # type: Optional[str]
        return chosen

    def answer(self, part_id: str, option: str) -> bool:
        """The user's click; False (logged) for a question no longer waiting or an option it did not offer."""
        entry = self._find(part_id)
        if entry is None:
            self.log.warn('Panel: an answer to a permission question that no longer waits (' + part_id[:80] + ')')
            return False
        if not (option in entry['choices']):
            self.log.warn('Panel: refused an answer the agent did not offer ("' + option[:80] + '")')
            return False
        self.waiting.remove(entry)
        entry['settle'](option)
        return True

    async def elicit(self, question: 'JsonObject') -> 'Optional[JsonObject]':
        """An agent's form question (core/acp/elicitation.py): {'action': 'accept', 'content'} once the user's answers
        pass the form's checks, {'action': 'decline'}, or None (cancelled, dropped)."""
        held = deferred()
        post = form_post(question, default_answers(question), [])
        self.waiting.append({'id': post['id'], 'post': post, 'choices': [], 'diffs': [], 'question': question,
                             'settle': held['resolve']})
        self.post(post)
        answered = await held['promise']  # type: Optional[JsonObject]
        return answered

    def answer_form(self, part_id: str, action: str, values_text: str) -> bool:
        """The user's Submit, Decline or Cancel on a form card. Answers the form refuses are not sent: the card
        comes back with the reasons and the user's values. False (logged) when nothing was settled."""
        entry = self._find(part_id)
        if entry is None or not ('question' in entry):
            self.log.warn('Panel: an answer to a question that no longer waits (' + part_id[:80] + ')')
            return False
        if action == 'decline' or action == 'cancel':
            self.waiting.remove(entry)
            entry['settle'](declined() if action == 'decline' else None)
            return True
        if action != 'accept':
            self.log.warn('Panel: refused a form answer "' + action[:20] + '"')
            return False
        question = entry['question']
        values = form_values(values_text, question)
        if values is None:
            self.log.warn('Panel: refused form answers that are no JSON object of texts')
            return False
        checked = check_answers(question, values)
        if len(checked['problems']) > 0:
            shown = default_answers(question)
            for key in values.keys():
                shown[key] = values[key]
            entry['post'] = form_post(question, shown, checked['problems'])
            self.post(entry['post'])
            return False
        self.waiting.remove(entry)
        entry['settle'](accepted(checked['content']))
        return True

    def drop(self, part_id: str) -> None:
        entry = self._find(part_id)
        if entry is not None:
            self.waiting.remove(entry)
            entry['settle'](None)

    def drop_all(self) -> None:
        for entry in self.waiting[:]:
            self.drop(entry['id'])

    def diffs_of(self, part_id: str) -> 'List[JsonObject]':
        """The diffs of a waiting question ([] when it is not waiting): what "Open diff" shows in an editor."""
        entry = self._find(part_id)
        return [] if entry is None else entry['diffs']

    def posts(self) -> 'List[ToWebview]':
        """The cards still waiting (posted again after the webview was rebuilt)."""
        return [entry['post'] for entry in self.waiting]
