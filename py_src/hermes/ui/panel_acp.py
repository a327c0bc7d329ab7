"""An ACP agent's turn (Hermes Agent, or another agent of `hermes.acp.agents`) in the side panel, free of vscode:
the TurnView (core/acp_turn.py) that posts it to the webview as the panel's cards, and the permission questions
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
Webview → host: {type: 'permissionAnswer', id, option} · {type: 'openPermissionDiff', id}.

The turn itself runs in core/acp_conversation.py (the same as a chat session's); the answer goes back to the
agent exactly (the option's id), and a question nobody answers is denied by host/acp_service.py before the agent
gives up (50 s), with a note: its card then shows the note instead of the buttons.
"""
# __pragma__('tconv')
from hermes.js.objects import is_none
from hermes.js.promises import deferred
from hermes.core.values import json_type
from hermes.core.acp_turn import TurnView
from hermes.core.diff_preview import diff_preview


def tool_post(tool):
    """A tool of the turn as the webview gets it: its diffs as previews (never whole files)."""
    post = {'id': tool['id'], 'title': tool['title'], 'kind': tool['kind'], 'status': tool['status'],
            'complete': tool['complete'], 'input': tool['input'], 'output': tool['output'], 'paths': tool['paths'],
            'diffs': [{'path': diff['path'], 'preview': diff_preview(diff['oldText'], diff['newText'])}
                      for diff in tool['diffs']]}
    return post


def question_post(question):
    """A permission question as the webview's card: the agent's diffs as previews, its options as buttons."""
    return {'type': 'permission', 'id': question['part'], 'title': question['title'], 'detail': question['detail'],
            'command': question['command'],
            'diffs': [{'path': diff['path'], 'shown': diff['shown'] if json_type(diff['shown']) == 'string'
                       else diff['path'], 'preview': diff_preview(diff['oldText'], diff['newText'])}
                      for diff in question['diffs']],
            'choices': question['choices']}


class PanelAcpView(TurnView):
    """Posts one ACP turn to the webview. The reply itself is recorded by the turn (core/acp_turn.py); events
    after the panel ended the turn (New chat) are not posted."""

    def __init__(self, controller, turn, questions):
        self.controller = controller
        self.turn = turn
        self.questions = questions

    def _post(self, message):
        if not self.turn.ended:
            self.controller.post(message)

    def on_text(self, text):
        self._post({'type': 'textDelta', 'text': text})

    def on_thought(self, text):
        self._post({'type': 'thoughtDelta', 'text': text})

    def on_tool(self, tool):
        if tool['status'] != 'waiting':
            self.questions.drop(tool['id'])  # answered, denied in time, or the turn ended: no more buttons
        self._post({'type': 'agentTool', 'tool': tool_post(tool)})

    def on_plan(self, entries):
        self._post({'type': 'plan', 'entries': entries})

    def on_usage(self, used, size, cost=None):
        self._post({'type': 'usage', 'used': used, 'size': size, 'cost': cost})

    def on_notice(self, text):
        self._post({'type': 'notice', 'text': text})

    def on_commands(self, commands):
        """The agent's latest slash commands: the list "/" opens in the input."""
        self._post({'type': 'commands', 'commands': commands})


class PanelQuestions:
    """The permission questions waiting in the panel: `ask(question)` posts a card and waits for the user's
    answer (the option id), which `answer(id, option)` gives; `drop(id)` ends a question unanswered (None)."""

    def __init__(self, post, log):
        self.post = post
        self.log = log
        self.waiting = []  # [{'id', 'post', 'choices', 'diffs', 'settle'}]

    def _find(self, part_id):
        for entry in self.waiting:
            if entry['id'] == part_id:
                return entry
        return None

    async def ask(self, question):
        held = deferred()
        post = question_post(question)
        self.waiting.append({'id': post['id'], 'post': post, 'choices': [choice['id'] for choice in question['choices']],
                             'diffs': question['diffs'], 'settle': held['resolve']})
        self.post(post)
        return await held['promise']

    def answer(self, part_id, option):
        """The user's click; False (logged) for a question no longer waiting or an option it did not offer."""
        entry = self._find(part_id)
        if is_none(entry):
            self.log.warn('Panel: an answer to a permission question that no longer waits (' + part_id[:80] + ')')
            return False
        if not (option in entry['choices']):
            self.log.warn('Panel: refused an answer the agent did not offer ("' + option[:80] + '")')
            return False
        self.waiting.remove(entry)
        entry['settle'](option)
        return True

    def drop(self, part_id):
        entry = self._find(part_id)
        if not is_none(entry):
            self.waiting.remove(entry)
            entry['settle'](None)

    def drop_all(self):
        for entry in self.waiting[:]:
            self.drop(entry['id'])

    def diffs_of(self, part_id):
        """The diffs of a waiting question ([] when it is not waiting): what "Open diff" shows in an editor."""
        entry = self._find(part_id)
        return [] if is_none(entry) else entry['diffs']

    def posts(self):
        """The cards still waiting (posted again after the webview was rebuilt)."""
        return [entry['post'] for entry in self.waiting]
