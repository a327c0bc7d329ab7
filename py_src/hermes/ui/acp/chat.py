"""An ACP agent's turn (Hermes Agent, or another agent of `hermes.acp.agents`) in VS Code's chat: the
TurnView that renders it natively into a ChatResponseStream, and the permission question.

- text → Markdown; thoughts → collapsible thinking (`thinkingProgress`, chatParticipantAdditions);
- each tool call → a tool invocation (ChatToolInvocationPart with partial updates: running, then
  complete or failed, its input and output), the files it names → references;
- Hermes Agent's subagents (core/acp/subagents.py) → tool invocations grouped under the call that delegated them:
  that call becomes VS Code's subagent part (ChatSubagentToolInvocationData) and each child names it as its
  `subAgentInvocationId` (VS Code groups one level: a grandchild joins the same group, its title marked "↳");
  where this VS Code has no subagent part, the children follow their parent marked "↳";
- the plan → VS Code's to-do list (a tool invocation whose data is a `todoList`);
- a permission request → a question in the chat itself (`stream.questionCarousel`, chatParticipantAdditions:
  the one response part a turn can await) with every option the agent offers as a single choice, and a "Show
  Changes" button above it when it carries diffs; where this VS Code has no question carousel, a modal question
  with the same options (plus "Show Changes": the diff opens in an editor, then the question comes back);
- an agent's form question (elicitation, core/acp/elicitation.py) → the same question carousel, one question per field
  (a choice or yes/no as a single choice, the rest as text), its answers checked against the form before anything
  is sent (the carousel comes back with the reasons); Skip declines; where there is no carousel, quick picks and
  input boxes;
- where this VS Code lacks a part (the proposal off, the test shim): progress lines and Markdown instead.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.values import json_type, get_key
from hermes.core.acp.turn import TurnView, deny_choice
from hermes.core.chat.sessions import status_ending
from hermes.core.untrusted_markdown import code_block, inline_code, plain_text, MAX_BLOCK_CHARS
from hermes.core.acp.elicitation import check_answers, default_answers, accepted, declined
from hermes.host.chat.host import path_uri
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Dict, List, Optional
from hermes.contracts.acp import Asker, Elicitor
from hermes.contracts.json import Json, JsonObject
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext, Uri
# A VS Code ChatResponseStream: `Any`, for the proposal's members this code tests for before use (`thinkingProgress`,
# `questionCarousel`, chatParticipantAdditions: its .d.ts is not in typings/proposals/).
ChatStream = Any
# __pragma__('noskip')

DIFF_SCHEME = 'hermes-acp-diff'
SHOW_CHANGES = 'Show Changes'
SHOW_DIFFS_COMMAND = 'hermes.acp.showDiffs'
PERMISSION_QUESTION = 'permission'
PLAN_STATUS_CODES = {'pending': 1, 'in_progress': 2, 'completed': 3}


class ChatStreamView(TurnView):
    """Renders one turn into `stream`; `changed(title)` etc. reach the session (title, commands, usage)."""

    def __init__(self, stream: 'ChatStream', session_events: 'Optional[TurnView]' = None) -> None:
        self.stream = stream
        self.session_events = session_events
        self.referenced = []  # type: List[str]
        self.thoughts = 0
        self.in_thought = False
        self.plan_id = None  # type: Optional[str]
        self.text_shown = False
        self.rich = vscode.ChatToolInvocationPart is not None and stream.push is not None
        self.shown_tools = []  # type: List[str]
        self.groups = []  # type: List[str]  # the tool calls shown as a subagent part (their children grouped under them)
        self.last_views = []  # type: List[List[Any]]  # [id, tool view] of each tool call, as last shown (a group's part is pushed again)
        self.grouping = self.rich and callable(vscode.ChatSubagentToolInvocationData)  # VS Code 1.139's subagent part

    def on_text(self, text: str) -> None:
        self.in_thought = False
        self.stream.markdown(text)
        self.text_shown = True

    def on_thought(self, text: str) -> None:
        if not self.in_thought:
            self.thoughts += 1
            self.in_thought = True
        if self.stream.thinkingProgress is not None:
            self.stream.thinkingProgress({'text': text, 'id': 'thought-' + str(self.thoughts)})

    def on_tool(self, tool: 'JsonObject') -> None:
        self.in_thought = False
        self._remember(tool)
        group = tool['group']
        if tool['subagent'] and group is not None and self.grouping and not (group in self.groups):
            self.groups.append(group)  # the delegating call becomes a subagent part, before its first child
            parent_view = self._last_view(group)
            if parent_view is not None:
                self._push(parent_view)
        if self.rich:
            self._push(tool)
        elif not (tool['id'] in self.shown_tools):
            self.stream.progress(self._title(tool))
        if not (tool['id'] in self.shown_tools):
            self.shown_tools.append(tool['id'])
        for path in tool['paths']:
            if path in self.referenced:
                continue
            self.referenced.append(path)
            uri = path_uri(path)
            if uri is not None:
                self.stream.reference(uri)

    def _remember(self, tool: 'JsonObject') -> None:
        for pair in self.last_views:
            if pair[0] == tool['id']:
                pair[1] = tool
                return
        self.last_views.append([tool['id'], tool])

    def _last_view(self, tool_id: str) -> 'Optional[JsonObject]':
        for pair in self.last_views:
            if pair[0] == tool_id:
                return pair[1]
        return None

    def _title(self, tool: 'JsonObject') -> str:
        """The agent's words as text (never links or images of its choosing); a nested card VS Code does not
        group (a grandchild, or no subagent part here) is marked as nested."""
        title = plain_text(tool['title'])
        nested = tool['parent'] is not None and (not self.grouping or tool['parent'] != tool['group'])
        return ('↳ ' + title) if tool['subagent'] and nested else title

    def _push(self, tool: 'JsonObject') -> None:
        part = new(vscode.ChatToolInvocationPart, tool['kind'], tool['id'])
        part.enablePartialUpdate = True
        title = self._title(tool)
        part.invocationMessage = new(vscode.MarkdownString, title)
        part.pastTenseMessage = new(vscode.MarkdownString, title + status_ending(tool['status']))
        part.isComplete = tool['complete']
        part.isError = tool['status'] == 'error'
        part.isConfirmed = tool['status'] != 'waiting'
        if tool['id'] in self.groups:
            part.toolSpecificData = new(vscode.ChatSubagentToolInvocationData, plain_text(tool['title']), 'Hermes',
                                        tool['input'], tool['output'])
        else:
            part.toolSpecificData = {'input': tool['input'], 'output': tool['output']}
        if tool['subagent'] and self.grouping and tool['group'] is not None:
            part.subAgentInvocationId = tool['group']
        self.stream.push(part)

    def on_plan(self, entries: 'List[JsonObject]') -> None:
        if self.rich:
            if self.plan_id is None:
                self.plan_id = 'plan-' + str(len(self.shown_tools))
            part = new(vscode.ChatToolInvocationPart, 'todo', self.plan_id)
            part.enablePartialUpdate = True
            part.invocationMessage = new(vscode.MarkdownString, 'Plan')
            part.isComplete = True
            part.isConfirmed = True
            todo = []  # type: List[JsonObject]
            number = 0
            for entry in entries:
                number += 1
                todo.append({'id': str(number), 'title': entry['title'],
                             'status': PLAN_STATUS_CODES[entry['status']] if entry['status'] in PLAN_STATUS_CODES
                             else 1})
            part.toolSpecificData = {'todoList': todo}
            self.stream.push(part)
        else:
            from hermes.core.chat.sessions import plan_markdown
            self.stream.markdown('\n\n' + plan_markdown(entries) + '\n')

    def on_usage(self, used: 'Json', size: 'Json', cost: 'Optional[str]' = None) -> None:
        if self.session_events is not None:
            self.session_events.on_usage(used, size, cost)

    def on_commands(self, commands: 'List[JsonObject]') -> None:
        if self.session_events is not None:
            self.session_events.on_commands(commands)

    def on_title(self, title: str) -> None:
        if self.session_events is not None:
            self.session_events.on_title(title)

    def on_mode(self, mode_id: str) -> None:
        if self.session_events is not None:
            self.session_events.on_mode(mode_id)

    def on_notice(self, text: str) -> None:
        self.stream.markdown('\n\n> ' + text + '\n\n')


class DiffDocuments:
    """Read-only documents for the two sides of a diff an agent proposes (scheme hermes-acp-diff), and the diffs
    of the permission questions asked in the chat (their "Show Changes" buttons name them by key)."""

    def __init__(self, log: 'Optional[Log]' = None) -> None:
        self.contents = {}  # type: Dict[str, str]
        self.counter = 0
        self.asked = {}  # type: Dict[str, JsonObject]  # 'd:' + number → (agent name, diffs) of a question's Show Changes button
        self.log = log

    def provide(self, uri: 'Uri', token: Any = None) -> str:
        key = 'k:' + uri.toString()
        return self.contents[key] if key in self.contents else ''

    def document(self, path: str, text: str) -> 'Uri':
        self.counter += 1
        uri = vscode.Uri.js_from({'scheme': DIFF_SCHEME, 'path': path, 'query': 'v=' + str(self.counter)})
        self.contents['k:' + uri.toString()] = text
        return uri

    async def show(self, diff: 'JsonObject', title: str) -> None:
        left = self.document(diff['path'], '' if diff['oldText'] is None else diff['oldText'])
        right = self.document(diff['path'], diff['newText'])
        await vscode.commands.executeCommand('vscode.diff', left, right, title, {'preview': True})

    def remember(self, agent_name: str, diffs: 'List[JsonObject]') -> str:
        """A key for the Show Changes button of a question about `diffs`."""
        self.counter += 1
        key = 'd:' + str(self.counter)
        self.asked[key] = {'agent': agent_name, 'diffs': diffs}
        return key

    async def show_remembered(self, key: 'Json' = None, *ignored: Any) -> bool:
        """`hermes.acp.showDiffs`: every diff of the question `key` names, each in a diff editor."""
        if json_type(key) != 'string' or not (key in self.asked):
            return False
        asked = self.asked[key]
        for diff in asked['diffs']:
            try:
                await self.show(diff, asked['agent'] + ': ' + diff['path'])
            except JsError as error:
                if self.log is not None:
                    self.log.warn('ACP: could not show the diff: ' + error_message(error))
        return True


def register_diff_documents(context: 'ExtensionContext', log: 'Optional[Log]' = None) -> DiffDocuments:
    documents = DiffDocuments(log)
    provider = {'provideTextDocumentContent': to_js_callback(documents.provide)}
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, provider))
    context.subscriptions.push(vscode.commands.registerCommand(SHOW_DIFFS_COMMAND,
                                                               to_js_callback(documents.show_remembered)))
    return documents


def question_markdown(agent_name: str, question: 'JsonObject') -> str:
    """What the question in the chat says (VS Code 1.139 shows a question's message instead of its title): who asks
    what, then the command in a code block, or the files it changes — the agent's words as text only
    (core/untrusted_markdown.py): a command cannot end its block and hide the rest of itself."""
    text = plain_text(agent_name) + ' asks: ' + plain_text(question['title'])
    if question['command'] is not None:
        return text + '\n\n' + code_block(question['command'], 'sh')
    if len(question['diffs']) > 0:
        return text + '\n\nChanges ' + ', '.join([inline_code(diff['shown']) for diff in question['diffs']])
    if question['detail'] != '':
        return text + '\n\n' + plain_text(question['detail'], MAX_BLOCK_CHARS)
    return text


def chosen_option(answers: 'Json', question_id: str, choices: 'List[JsonObject]') -> 'Optional[str]':
    """The choice id a question carousel's answers pick for `question_id`, or None (skipped, closed, stopped).
    VS Code 1.139 answers a single choice as {selectedValue, freeformValue}; a bare string is taken as a value."""
    answer = get_key(answers, question_id)
    value = answer if json_type(answer) == 'string' else get_key(answer, 'selectedValue')
    for choice in choices:
        if json_type(value) == 'string' and choice['id'] == value:
            return choice['id']
    return None


def chat_asker(stream: 'ChatStream', agent_name: str, documents: 'Optional[DiffDocuments]', log: 'Log') -> 'Asker':
    """`ask(question)` for AcpTurnRunner.run_turn: the question in the chat, every option the agent offers as one
    single choice (the agent's option ids as the values), a Show Changes button above it when the request carries
    diffs. Returns the chosen option id, or None (skipped, or the turn ended: the service denies). Where this VS
    Code has no question carousel: modal_asker."""
    if getattr(stream, 'questionCarousel', None) is None or getattr(vscode, 'ChatQuestion', None) is None:
        return modal_asker(agent_name, documents, log)

    async def ask(question: 'JsonObject') -> 'Optional[str]':
        if len(question['diffs']) > 0 and documents is not None:
            stream.button({'command': SHOW_DIFFS_COMMAND, 'title': SHOW_CHANGES,
                           'arguments': [documents.remember(agent_name, question['diffs'])]})
        options = [{'id': choice['id'], 'label': choice['label'], 'value': choice['id']}
                   for choice in question['choices']]
        details = {'message': new(vscode.MarkdownString, question_markdown(agent_name, question)), 'options': options,
                   'allowFreeformInput': False}  # type: JsonObject
        deny = deny_choice(question['choices'])
        if deny is not None:
            details['defaultValue'] = deny['id']  # Ctrl+Enter without a choice denies (VS Code preselects the first)
        asked = new(vscode.ChatQuestion, PERMISSION_QUESTION, vscode.ChatQuestionType.SingleSelect,
                    agent_name + ' asks: ' + question['title'], details)
        answers = await stream.questionCarousel([asked], True)
        return chosen_option(answers, PERMISSION_QUESTION, question['choices'])
    return ask


def modal_asker(agent_name: str, documents: 'Optional[DiffDocuments]', log: 'Log') -> 'Asker':
    """`ask(question)` for AcpTurnRunner.run_turn: a modal question with the agent's options as buttons;
    returns the chosen option id, or None (closed: the service denies)."""
    async def ask(question: 'JsonObject') -> 'Optional[str]':
        labels = [choice['label'] for choice in question['choices']]
        has_diffs = len(question['diffs']) > 0 and documents is not None
        buttons = labels[:]
        if has_diffs:
            buttons.append(SHOW_CHANGES)
        message = agent_name + ' asks: ' + question['title']
        while True:
            picked = await vscode.window.showWarningMessage(message, {'modal': True, 'detail': question['detail']},
                                                            *buttons)
            if picked == SHOW_CHANGES and documents is not None:  # its button is there only with documents
                for diff in question['diffs']:
                    try:
                        await documents.show(diff, agent_name + ': ' + diff['path'])
                    except JsError as error:
                        log.warn('ACP: could not show the diff: ' + error_message(error))
                continue
            for choice in question['choices']:
                if json_type(picked) == 'string' and choice['label'] == picked:
                    return choice['id']
            return None
    return ask


def field_markdown(field: 'JsonObject') -> str:
    """A form field's question text: its label and description, the agent's words as text only."""
    text = plain_text(field['label']) + (' (required)' if field['required'] else '')
    if field['kind'] == 'unsupported':
        text = text + ' — Hermes cannot answer a field of type ' + inline_code(field['type'])
    if field['description'] != '':
        text = text + '\n\n' + plain_text(field['description'], MAX_BLOCK_CHARS)
    return text


def field_questions(question: 'JsonObject', values: 'JsonObject') -> 'List[Any]':
    """The question carousel for a form: one ChatQuestion per field, ids by position (the agent chose the names)."""
    asked = []  # type: List[Any]
    index = 0
    for field in question['fields']:
        details = {'message': new(vscode.MarkdownString, field_markdown(field))}  # type: JsonObject
        value = values[field['name']] if field['name'] in values else ''
        if field['options'] is not None:
            details['options'] = [{'id': option['value'], 'label': option['label'], 'value': option['value']}
                                  for option in field['options']]
            details['allowFreeformInput'] = False
            if value != '':
                details['defaultValue'] = value
            kind = vscode.ChatQuestionType.SingleSelect
        else:
            details['defaultValue'] = value
            kind = vscode.ChatQuestionType.Text
        asked.append(new(vscode.ChatQuestion, 'field-' + str(index), kind, field['label'], details))
        index += 1
    return asked


def carousel_values(question: 'JsonObject', answers: 'Json') -> 'Dict[str, str]':
    """The carousel's answers as {field name: text}: a single choice's selected value, a text's typed value."""
    values = {}  # type: Dict[str, str]
    index = 0
    for field in question['fields']:
        answer = get_key(answers, 'field-' + str(index))
        index += 1
        if json_type(answer) == 'string':
            values[field['name']] = answer
            continue
        for key in ['selectedValue', 'freeformValue', 'value']:
            value = get_key(answer, key)
            if json_type(value) == 'string' and not (field['name'] in values):
                values[field['name']] = value
    return values


def chat_elicitor(stream: 'ChatStream', agent_name: str, log: 'Log') -> 'Elicitor':
    """`elicit(question)` for AcpTurnRunner.run_turn: an agent's form question in the chat (the question carousel),
    asked again with the reasons while the answers do not fit the form. Returns {'action': 'accept', 'content'},
    {'action': 'decline'} (skipped) or None. Where this VS Code has no carousel: input_elicitor."""
    if getattr(stream, 'questionCarousel', None) is None or getattr(vscode, 'ChatQuestion', None) is None:
        return input_elicitor(agent_name, log)

    async def elicit(question: 'JsonObject') -> 'Optional[JsonObject]':
        intro = plain_text(agent_name) + ' asks: ' + plain_text(question['message'], MAX_BLOCK_CHARS)
        stream.markdown('\n\n' + intro + '\n\n')
        values = default_answers(question)
        while True:
            answers = await stream.questionCarousel(field_questions(question, values), True)
            if answers is None:
                return declined()
            given = carousel_values(question, answers)
            checked = check_answers(question, given)
            if len(checked['problems']) == 0:
                return accepted(checked['content'])
            for key in given.keys():
                values[key] = given[key]
            stream.markdown('\n\nNot sent: ' + '; '.join([plain_text(problem) for problem in checked['problems']]) +
                            '\n\n')
    return elicit


def input_elicitor(agent_name: str, log: 'Log') -> 'Elicitor':
    """`elicit(question)` where the chat has no question carousel: a quick pick per choice, an input box per text
    (Escape cancels the question), a modal with the reasons while the answers do not fit the form."""
    async def elicit(question: 'JsonObject') -> 'Optional[JsonObject]':
        values = default_answers(question)
        while True:
            for field in question['fields']:
                title = agent_name + ' asks: ' + field['label'] + (' (required)' if field['required'] else '')
                if field['options'] is not None:
                    labels = [option['label'] for option in field['options']]
                    picked = await vscode.window.showQuickPick(labels, {'title': title, 'ignoreFocusOut': True,
                                                                        'placeHolder': field['description']})
                    if json_type(picked) != 'string':
                        return None
                    for option in field['options']:
                        if option['label'] == picked:
                            values[field['name']] = option['value']
                else:
                    typed = await vscode.window.showInputBox({'title': title, 'prompt': field['description'],
                                                              'value': values[field['name']], 'ignoreFocusOut': True})
                    if json_type(typed) != 'string':
                        return None
                    values[field['name']] = typed
            checked = check_answers(question, values)
            if len(checked['problems']) == 0:
                return accepted(checked['content'])
            again = await vscode.window.showWarningMessage(agent_name + ': the answers do not fit the question',
                                                           {'modal': True, 'detail': '\n'.join(checked['problems'])},
                                                           'Answer Again', 'Decline')
            if again == 'Decline':
                return declined()
            if again != 'Answer Again':
                return None
    return elicit
