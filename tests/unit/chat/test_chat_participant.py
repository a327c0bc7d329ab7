"""The @hermes participant under CPython: the real LLM service, agent loop and client against the
scripted OpenAI-compatible server, with the shim's chat stream recording what VS Code would show."""
import asyncio
import sys
from pathlib import Path

import pytest
import vscode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import hermes.js.fetch_cpython as cpython
from hermes.core.tools import Tool, ToolRegistry
from hermes.core.chat.prompts import (user_message, help_markdown, followups, history_from_turns,
                                      turn_metadata, participant_contribution)
from hermes.host.approval import Approver
from hermes.host.llm_service import LlmService
from hermes.ui.chat.participant import ChatParticipant, ChatStreamSink, register_chat_participant
from llm_server.cpython_fetch import fetch
from llm_server.runner import cancel_when
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

CLIENT_OPTIONS = {'retry_base_ms': 20, 'max_retries': 1, 'connect_timeout_ms': 5000, 'idle_timeout_ms': 5000}


@pytest.fixture
def workspace(tmp_path):
    vscode.workspace.open_folders([str(tmp_path)])
    (tmp_path / 'notes.txt').write_text('The answer is 42.\n')
    return tmp_path


def make_registry(reads):
    async def read_note(args, call):
        path = Path(vscode.workspace.workspaceFolders[0].uri.fsPath) / args['path']
        reads.append(args['path'])
        return path.read_text()
    registry = ToolRegistry(Approver())
    registry.add(Tool('file_read', 'Read a file. Returns its text.', {
        'type': 'object', 'properties': {'path': {'type': 'string'}}, 'required': ['path']}, read_note,
        title='Read file'))
    return registry


class Harness:
    def __init__(self, context, server, registry):
        cpython.FETCH = fetch
        vscode.workspace.set_setting('hermes.llm.endpoint', server.endpoint)
        self.server = server
        self.registry = registry
        self.llm = LlmService(context, None, registry, CLIENT_OPTIONS)
        self.participant = ChatParticipant(registry, self.llm,
                                           lambda model=None: model or self.llm.describe())

    def ask(self, prompt, command=None, history=None, references=None, model=None, cancel_once=None, tools=None):
        stream = vscode.ChatResponseStream()
        request = vscode._Undefined()
        request.prompt, request.command, request.references = prompt, command, references or []
        request.toolReferences, request.model = tools or [], model
        chat_context = vscode._Undefined()
        chat_context.history = history or []
        source = vscode.CancellationTokenSource()

        async def go():
            if cancel_once is not None:  # a condition on the stream, not a delay a loaded machine could outrun
                asyncio.get_running_loop().create_task(cancel_when(lambda: cancel_once(stream), source.cancel))
            return await self.participant.handle(request, chat_context, stream, source.token)
        return asyncio.run(go()), stream


def test_contribution_is_sticky_with_the_slash_commands():
    [entry] = participant_contribution()
    assert entry['id'] == 'hermes.agent' and entry['name'] == 'hermes' and entry['isSticky'] is True
    assert [c['name'] for c in entry['commands']] == ['help', 'explain', 'fix', 'test']


def test_registration_sets_icon_and_followups(context):
    participant = register_chat_participant(context, None, ToolRegistry(), None, lambda model=None: 'm at e')
    registered = vscode.chat.participants['hermes.agent']
    assert registered.iconPath.path.endswith('media/icon.png')
    result = {'metadata': turn_metadata([], 'explain', 'done')}
    assert [f['command'] for f in registered.followupProvider['provideFollowups'](result, None, None)] == ['test', 'fix']
    assert participant is not None
    context.dispose_all()
    assert vscode.chat.participants == {}


def test_help_lists_the_tools_without_asking_the_llm(context, workspace):
    with ScriptedLlmServer({'replies': [Reply(text_events('unused'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        result, stream = harness.ask('', 'help')
        assert server.chat_requests() == []
    text = stream.text()
    assert '`/explain`' in text and '`file_read` — Read a file.' in text
    assert 'qwen2.5:7b at ' + server.endpoint in text
    assert followups(result['metadata']) == [{'prompt': 'Explain the active file', 'label': 'Explain the active file',
                                              'command': 'explain'}]


def test_a_turn_with_a_tool_shows_progress_references_and_the_answer_then_history(context, workspace):
    reads = []
    replies = [Reply(tool_events([('call_1', 'file_read', {'path': 'notes.txt'})], text_before='Let me read it.')),
               Reply(text_events('The notes say 42.', piece=3)),
               Reply(text_events('You asked about the notes.'))]
    with ScriptedLlmServer({'replies': replies}) as server:
        harness = Harness(context, server, make_registry(reads))
        result, stream = harness.ask('What do my notes say?')
        assert reads == ['notes.txt']
        assert stream.of('progress') == ['Reading notes.txt…']
        [reference] = stream.of('reference')
        assert reference.fsPath == str(workspace / 'notes.txt')
        assert stream.text() == 'Let me read it.\n\nThe notes say 42.'
        assert 'errorDetails' not in result
        stored = result['metadata']['hermes']
        assert stored['stopped'] == 'done'
        assert [m['role'] for m in stored['messages']] == ['user', 'assistant', 'tool', 'assistant']

        # The second turn: VS Code hands back the first as history.
        history = [vscode.ChatRequestTurn('What do my notes say?'),
                   vscode.ChatResponseTurn([vscode.ChatResponseMarkdownPart(stream.text())], result)]
        harness.ask('And what did I ask?', history=history)
        body = server.chat_requests()[2]['body']
        roles = [m['role'] for m in body['messages']]
        assert roles == ['system', 'user', 'assistant', 'tool', 'assistant', 'user']
        assert body['messages'][1]['content'] == 'What do my notes say?'
        assert body['messages'][2]['tool_calls'][0]['function'] == {'name': 'file_read',
                                                                   'arguments': '{"path": "notes.txt"}'}
        assert body['messages'][3] == {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'The answer is 42.\n'}
        assert body['messages'][4]['content'] == 'The notes say 42.'


def test_history_without_metadata_falls_back_to_prompt_and_markdown():
    turns = [vscode.ChatRequestTurn('Explain x', 'explain'),
             vscode.ChatResponseTurn([vscode.ChatResponseProgressPart('Reading…'),
                                      vscode.ChatResponseMarkdownPart('It is '), vscode.ChatResponseMarkdownPart('a var.')]),
             vscode.ChatRequestTurn('unanswered'),
             vscode.ChatRequestTurn('last')]
    history = history_from_turns(turns)
    assert history[0]['role'] == 'user' and history[0]['content'].startswith('/explain: Explain the code in question')
    assert history[0]['content'].endswith('Explain x')
    assert history[1] == {'role': 'assistant', 'content': 'It is a var.'}
    assert [m['content'] for m in history[2:]] == ['unanswered']  # 'last' has no answer yet


def test_references_and_commands_shape_the_user_message(context, workspace):
    (workspace / 'app.py').write_text('def add(a, b):\n    return a - b\n')
    file_ref = vscode._Undefined()
    file_ref.id, file_ref.value = 'vscode.file', vscode.Uri.file(str(workspace / 'app.py'))
    range_ref = vscode._Undefined()
    range_ref.id = 'vscode.selection'
    range_ref.value = vscode.Location(vscode.Uri.file(str(workspace / 'app.py')), vscode.Range(1, 0, 1, 16))
    with ScriptedLlmServer({'replies': [Reply(text_events('Fixed.'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        result, stream = harness.ask('the subtraction', 'fix', references=[file_ref, range_ref])
        user = server.chat_requests()[0]['body']['messages'][1]['content']
    assert user.startswith('/fix: Find the problems in the code in question')
    assert '\n\nthe subtraction\n\n## Referenced context\n\n### app.py\n```py' in user  # with the language id
    assert '\ndef add(a, b):\n    return a - b\n' in user
    assert '### app.py (lines 2–2)\n```py' in user and '\n    return a - b\n```' in user
    assert [f['command'] for f in followups(result['metadata'])] == ['test']


def test_an_attached_image_is_named_in_the_user_message_and_not_sent(context, workspace):
    image_ref = vscode._Undefined()

    async def data():
        return b'\x89PNG\r\n\x1a\n'
    image_ref.id = 'dot.png'
    image_ref.value = vscode._Undefined()
    image_ref.value.mimeType, image_ref.value.data = 'image/png', data
    with ScriptedLlmServer({'replies': [Reply(text_events('I see no image.'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        harness.ask('what is in it', references=[image_ref])
        user = server.chat_requests()[0]['body']['messages'][1]['content']
    assert user == ('what is in it\n\n## Referenced context\n\n### An attached image (the built-in loop does not read '
                    'images: it was not sent)')


def test_cancel_mid_turn_stops_the_run(context, workspace):
    replies = [Reply(text_events('word ' * 300, piece=5), delay_ms=10)]
    with ScriptedLlmServer({'replies': replies}) as server:
        harness = Harness(context, server, make_registry([]))
        result, stream = harness.ask('Talk', cancel_once=lambda stream: len(stream.text()) > 0)
    assert result['metadata']['hermes']['stopped'] == 'cancelled'
    assert 'errorDetails' not in result
    assert 0 < len(stream.text()) < len('word ' * 300)
    assert followups(result['metadata']) == []


def test_errors_become_error_details_with_a_retry(context, workspace):
    replies = [Reply(status=500, body='{"error": {"message": "boom"}}')]
    with ScriptedLlmServer({'replies': replies}) as server:
        harness = Harness(context, server, make_registry([]))
        result, _ = harness.ask('Hi')
    assert 'boom' in result['errorDetails']['message']
    assert result['metadata']['hermes']['errorKind'] == 'server'
    vscode.workspace.set_setting('hermes.llm.endpoint', 'http://127.0.0.1:9/v1')
    result, _ = harness.ask('Hi')
    assert "Can't reach the LLM at http://127.0.0.1:9/v1" in result['errorDetails']['message']
    assert followups(result['metadata']) == [{'prompt': 'Try again', 'label': 'Try again'}]


def test_the_picked_hermes_model_is_used(context, workspace):
    picked = type('Model', (), {'vendor': 'hermes', 'id': 'llama3.2:1b'})()
    other = type('Model', (), {'vendor': 'copilot', 'id': 'gpt-4.1'})()
    with ScriptedLlmServer({'replies': [Reply(text_events('ok'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        harness.ask('Hi', model=picked)
        harness.ask('Hi', model=other)
        assert [r['body']['model'] for r in server.chat_requests()] == ['llama3.2:1b', 'qwen2.5:7b']


def test_user_message_and_help_text():
    assert user_message('  Why?  ') == 'Why?'
    assert user_message('', 'explain').startswith('/explain: ')
    assert user_message('') == '(no question was typed)'
    big = user_message('q', None, [{'label': 'big.txt', 'text': 'x' * 30000, 'language': ''}])
    assert '[truncated: 10000 more characters; read the rest with the tools]' in big
    fenced = user_message('q', None, [{'label': 'doc.md', 'text': 'a\n```\nb\n```', 'language': 'markdown'}])
    assert '````markdown\na\n```\nb\n```\n````' in fenced
    registry = make_registry([])
    assert help_markdown(registry.list(), 'm at e').count('\n- `') == 5  # 4 commands + 1 tool


def test_help_names_the_picked_model(context, workspace):
    picked = type('Model', (), {'vendor': 'hermes', 'id': 'llama3.2:1b'})()
    with ScriptedLlmServer({'replies': [Reply(text_events('unused'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        _, stream = harness.ask('', 'help', model=picked)
    assert 'answers with **llama3.2:1b**' in stream.text()


def test_hermes_tools_named_with_a_hash_are_asked_for(context, workspace):
    named = [type('Ref', (), {'name': 'hermes_file_read'})(), type('Ref', (), {'name': 'copilot_search'})()]
    with ScriptedLlmServer({'replies': [Reply(text_events('ok'))]}) as server:
        harness = Harness(context, server, make_registry([]))
        harness.ask('look at notes', tools=named)
        user = server.chat_requests()[0]['body']['messages'][1]['content']
    assert user == 'look at notes\n\nUse these tools for this request: file_read.'


def test_a_call_waiting_for_confirmation_shows_as_progress_and_log_text_does_not():
    stream = vscode.ChatResponseStream()
    sink = ChatStreamSink(stream, ToolRegistry(), lambda path: None)
    sink.on_tool_log({'id': 'c1', 'name': 'file_write'}, 'notice', 'Waiting for the user to confirm file_write')
    assert stream.of('progress') == []
    sink.on_tool_confirmation({'id': 'c1', 'name': 'file_write'}, 'waiting')
    sink.on_tool_confirmation({'id': 'c1', 'name': 'file_write'}, 'confirmed')
    assert stream.of('progress') == ['Waiting for your confirmation to run file_write…']
