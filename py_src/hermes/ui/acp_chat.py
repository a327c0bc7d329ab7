"""An ACP agent's turn (Hermes Agent, or another agent of `hermes.acp.agents`) in VS Code's chat: the
TurnView that renders it natively into a ChatResponseStream, and the permission question.

- text → Markdown; thoughts → collapsible thinking (`thinkingProgress`, chatParticipantAdditions);
- each tool call → a tool invocation (ChatToolInvocationPart with partial updates: running, then
  complete or failed, its input and output), the files it names → references;
- the plan → VS Code's to-do list (a tool invocation whose data is a `todoList`);
- a permission request → a modal question with every option the agent offers (plus "Show Changes" when
  it carries diffs: the diff opens in an editor, then the question comes back);
- where this VS Code lacks a part (the proposal off, the test shim): progress lines and Markdown instead.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none, new
from hermes.core.values import json_type
from hermes.core.acp_turn import TurnView
from hermes.core.chat_sessions import status_ending
from hermes.host.chat_host import path_uri

DIFF_SCHEME = 'hermes-acp-diff'
SHOW_CHANGES = 'Show Changes'
PLAN_STATUS_CODES = {'pending': 1, 'in_progress': 2, 'completed': 3}


class ChatStreamView(TurnView):
    """Renders one turn into `stream`; `changed(title)` etc. reach the session (title, commands, usage)."""

    def __init__(self, stream, session_events=None):
        self.stream = stream
        self.session_events = session_events
        self.referenced = []
        self.thoughts = 0
        self.in_thought = False
        self.plan_id = None
        self.text_shown = False
        self.rich = not is_none(vscode.ChatToolInvocationPart) and not is_none(stream.push)
        self.shown_tools = []

    def on_text(self, text):
        self.in_thought = False
        self.stream.markdown(text)
        self.text_shown = True

    def on_thought(self, text):
        if not self.in_thought:
            self.thoughts += 1
            self.in_thought = True
        if not is_none(self.stream.thinkingProgress):
            self.stream.thinkingProgress({'text': text, 'id': 'thought-' + str(self.thoughts)})

    def on_tool(self, tool):
        self.in_thought = False
        if self.rich:
            part = new(vscode.ChatToolInvocationPart, tool['kind'], tool['id'])
            part.enablePartialUpdate = True
            part.invocationMessage = new(vscode.MarkdownString, tool['title'])
            part.pastTenseMessage = new(vscode.MarkdownString, tool['title'] + status_ending(tool['status']))
            part.isComplete = tool['complete']
            part.isError = tool['status'] == 'error'
            part.isConfirmed = tool['status'] != 'waiting'
            part.toolSpecificData = {'input': tool['input'], 'output': tool['output']}
            self.stream.push(part)
        elif not (tool['id'] in self.shown_tools):
            self.stream.progress(tool['title'])
        if not (tool['id'] in self.shown_tools):
            self.shown_tools.append(tool['id'])
        for path in tool['paths']:
            if path in self.referenced:
                continue
            self.referenced.append(path)
            uri = path_uri(path)
            if not is_none(uri):
                self.stream.reference(uri)

    def on_plan(self, entries):
        if self.rich:
            if is_none(self.plan_id):
                self.plan_id = 'plan-' + str(len(self.shown_tools))
            part = new(vscode.ChatToolInvocationPart, 'todo', self.plan_id)
            part.enablePartialUpdate = True
            part.invocationMessage = new(vscode.MarkdownString, 'Plan')
            part.isComplete = True
            part.isConfirmed = True
            todo = []
            number = 0
            for entry in entries:
                number += 1
                todo.append({'id': str(number), 'title': entry['title'],
                             'status': PLAN_STATUS_CODES[entry['status']] if entry['status'] in PLAN_STATUS_CODES
                             else 1})
            part.toolSpecificData = {'todoList': todo}
            self.stream.push(part)
        else:
            from hermes.core.chat_sessions import plan_markdown
            self.stream.markdown('\n\n' + plan_markdown(entries) + '\n')

    def on_usage(self, used, size):
        if not is_none(self.session_events):
            self.session_events.on_usage(used, size)

    def on_commands(self, commands):
        if not is_none(self.session_events):
            self.session_events.on_commands(commands)

    def on_title(self, title):
        if not is_none(self.session_events):
            self.session_events.on_title(title)

    def on_mode(self, mode_id):
        if not is_none(self.session_events):
            self.session_events.on_mode(mode_id)

    def on_notice(self, text):
        self.stream.markdown('\n\n> ' + text + '\n\n')


class DiffDocuments:
    """Read-only documents for the two sides of a diff an agent proposes (scheme hermes-acp-diff)."""

    def __init__(self):
        self.contents = {}
        self.counter = 0

    def provide(self, uri, token=None):
        key = 'k:' + uri.toString()
        return self.contents[key] if key in self.contents else ''

    def document(self, path, text):
        self.counter += 1
        uri = vscode.Uri.js_from({'scheme': DIFF_SCHEME, 'path': path, 'query': 'v=' + str(self.counter)})
        self.contents['k:' + uri.toString()] = text
        return uri

    async def show(self, diff, title):
        left = self.document(diff['path'], '' if is_none(diff['oldText']) else diff['oldText'])
        right = self.document(diff['path'], diff['newText'])
        await vscode.commands.executeCommand('vscode.diff', left, right, title, {'preview': True})


def register_diff_documents(context):
    documents = DiffDocuments()
    provider = {'provideTextDocumentContent': to_js_callback(documents.provide)}
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, provider))
    return documents


def modal_asker(agent_name, documents, log):
    """`ask(question)` for AcpService.run_turn: a modal question with the agent's options as buttons;
    returns the chosen option id, or None (closed: the service denies)."""
    async def ask(question):
        labels = [choice['label'] for choice in question['choices']]
        has_diffs = len(question['diffs']) > 0 and not is_none(documents)
        buttons = labels[:]
        if has_diffs:
            buttons.append(SHOW_CHANGES)
        message = agent_name + ' asks: ' + question['title']
        while True:
            picked = await vscode.window.showWarningMessage(message, {'modal': True, 'detail': question['detail']},
                                                            *buttons)
            if picked == SHOW_CHANGES:
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
