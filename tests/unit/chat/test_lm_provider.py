"""The "Hermes Agent" language model provider under CPython against the scripted OpenAI-compatible
server: the models it lists, requests with VS Code's tools (tool-call parts back), requests without
(the Hermes loop answers), token counts, and refresh on settings changes."""
import asyncio
import sys
from pathlib import Path

import pytest
import vscode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import hermes.js.fetch_cpython as cpython
from hermes.core.tools import Tool, ToolRegistry
from hermes.host.llm_service import LlmService
from hermes.ui.chat.lm_provider import register_lm_provider, model_information
from llm_server.cpython_fetch import fetch
from panel_fakes import Log
from llm_server.runner import cancel_when
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

CLIENT_OPTIONS = {'retry_base_ms': 20, 'max_retries': 1, 'connect_timeout_ms': 5000, 'idle_timeout_ms': 5000,
                  'ollama': True}  # so the models' context windows are asked for (POST /api/show)
User, Assistant = vscode.LanguageModelChatMessage.User, vscode.LanguageModelChatMessage.Assistant


class Progress:
    def __init__(self):
        self.parts = []

    def report(self, part):
        self.parts.append(part)

    def texts(self):
        return [p.value for p in self.parts if isinstance(p, vscode.LanguageModelTextPart)]

    def calls(self):
        return [(p.callId, p.name, p.input) for p in self.parts if isinstance(p, vscode.LanguageModelToolCallPart)]


@pytest.fixture
def setup(context, tmp_path):
    vscode.workspace.open_folders([str(tmp_path)])
    cpython.FETCH = fetch
    registry = ToolRegistry()

    async def echo(args, call):
        return 'echo: ' + args['text']
    registry.add(Tool('echo', 'Echo the text.', {'type': 'object', 'properties': {'text': {'type': 'string'}},
                                                  'required': ['text']}, echo))
    llm = LlmService(context, None, registry, CLIENT_OPTIONS)
    model = register_lm_provider(context, None, llm)
    return {'context': context, 'model': model, 'provider': vscode.lm.chat_providers['hermes'], 'registry': registry}


def serve(replies, **scenario):
    server = ScriptedLlmServer(dict(scenario, replies=replies)).start()
    vscode.workspace.set_setting('hermes.llm.endpoint', server.endpoint)
    return server


def info(model_id):
    return {'id': model_id, 'name': model_id}


def respond(provider, messages, options=None, model='qwen2.5:7b', cancel_once=None):
    progress = Progress()
    source = vscode.CancellationTokenSource()

    async def go():
        if cancel_once is not None:  # a condition on the progress, not a delay a loaded machine could outrun
            asyncio.get_running_loop().create_task(cancel_when(lambda: cancel_once(progress), source.cancel))
        await provider['provideLanguageModelChatResponse'](info(model), messages, options or {}, progress, source.token)
    asyncio.run(go())
    return progress


def test_models_from_the_endpoint_with_limits_and_capabilities(setup):
    server = serve([Reply(text_events('x'))], models=['llama3.2:1b', 'qwen2.5:7b'],
                   show={'capabilities': ['completion', 'tools'], 'model_info': {'qwen2.context_length': 32768},
                         'parameters': 'num_ctx 16384'})
    try:
        models = asyncio.run(setup['provider']['provideLanguageModelChatInformation']({'silent': True}, None))
    finally:
        server.stop()
    assert [m['id'] for m in models] == ['qwen2.5:7b', 'llama3.2:1b']  # the configured model first
    first = models[0]
    assert first['maxInputTokens'] == 16384 - 2048 and first['maxOutputTokens'] == 2048
    assert first['capabilities'] == {'toolCalling': True, 'imageInput': True}  # so VS Code lets a session's image in
    assert first['family'] == 'qwen2.5' and first['version'] == '7b' and first['isUserSelectable'] is True


def test_unreachable_endpoint_still_offers_the_configured_model(setup):
    vscode.workspace.set_setting('hermes.llm.endpoint', 'http://127.0.0.1:9/v1')
    models = asyncio.run(setup['provider']['provideLanguageModelChatInformation']({'silent': True}, None))
    assert [m['id'] for m in models] == ['qwen2.5:7b']
    assert models[0]['maxInputTokens'] + models[0]['maxOutputTokens'] == 8192
    assert 'context window not reported' in models[0]['tooltip']


def test_model_information_is_honest_about_tools_and_small_windows():
    small = model_information('gemma:2b', {'context_length': 2048, 'supports_tools': False}, 'http://e/v1', 'x')
    assert small['maxOutputTokens'] == 512 and small['maxInputTokens'] == 1536
    assert small['capabilities']['toolCalling'] is False and 'cannot call tools' in small['tooltip']


def test_settings_changes_refresh_the_list(setup):
    fired = []
    setup['provider']['onDidChangeLanguageModelChatInformation'](lambda event: fired.append(event))
    server = serve([Reply(text_events('x'))], models=['a:1'])
    try:
        first = asyncio.run(setup['provider']['provideLanguageModelChatInformation']({}, None))
        assert [m['id'] for m in first] == ['qwen2.5:7b', 'a:1']
        assert fired == [None]  # the endpoint setting changed when the server started
        vscode.workspace.set_setting('hermes.llm.model', 'a:1')
        assert len(fired) == 2
        again = asyncio.run(setup['provider']['provideLanguageModelChatInformation']({}, None))
        assert [m['id'] for m in again] == ['a:1']
        vscode.workspace.set_setting('hermes.mcp.port', 1)  # not an LLM setting: no refresh
        assert len(fired) == 2
        setup['context'].secrets.store('hermes.llm.apiKey', 'sk')
        assert len(fired) == 3
    finally:
        server.stop()


def test_the_log_says_when_vscode_has_the_models_once_per_list(context, tmp_path):
    """The line a window's readiness is read from (tests/e2e/chat_view.py `wait_for_models`): once when VS Code
    gets the list, not again while it is cached, again once a setting made it load anew."""
    vscode.workspace.open_folders([str(tmp_path)])
    cpython.FETCH = fetch
    log = Log()
    register_lm_provider(context, log, LlmService(context, None, ToolRegistry(), CLIENT_OPTIONS))
    provider = vscode.lm.chat_providers['hermes']
    server = serve([Reply(text_events('x'))], models=['a:1'])
    try:
        for _ in range(2):
            asyncio.run(provider['provideLanguageModelChatInformation']({}, None))
        given = [message for level, message in log.lines if message.startswith('Hermes models: ')]
        assert given == ['Hermes models: qwen2.5:7b, a:1 given to VS Code']
        vscode.workspace.set_setting('hermes.llm.model', 'a:1')
        asyncio.run(provider['provideLanguageModelChatInformation']({}, None))
        given = [message for level, message in log.lines if message.startswith('Hermes models: ')]
        assert given[1:] == ['Hermes models: a:1 given to VS Code']
    finally:
        server.stop()


def test_with_tools_the_models_calls_come_back_as_tool_call_parts(setup):
    replies = [Reply(tool_events([('call_9', 'copilot_readFile', {'filePath': '/a.ts'})], text_before='Reading. '))]
    server = serve(replies)
    tools = [type('T', (), {'name': 'copilot_readFile', 'description': 'Read a file',
                            'inputSchema': {'type': 'object', 'properties': {'filePath': {'type': 'string'}}}})()]
    messages = [User('Look at a.ts'), Assistant([vscode.LanguageModelToolCallPart('call_1', 'copilot_readFile', {'filePath': '/b.ts'})]),
                User([vscode.LanguageModelToolResultPart('call_1', [vscode.LanguageModelTextPart('b')])])]
    try:
        progress = respond(setup['provider'], messages, {'tools': tools, 'toolMode': 2, 'modelOptions': {'temperature': 0.1, 'evil': 1}})
        body = server.chat_requests()[0]['body']
    finally:
        server.stop()
    assert progress.texts() == ['Reading. ']
    assert progress.calls() == [('call_9', 'copilot_readFile', {'filePath': '/a.ts'})]
    assert body['tools'] == [{'type': 'function', 'function': {'name': 'copilot_readFile', 'description': 'Read a file',
                                                              'parameters': tools[0].inputSchema}}]
    assert body['tool_choice'] == 'required' and body['temperature'] == 0.1 and 'evil' not in body
    assert [m['role'] for m in body['messages']] == ['user', 'assistant', 'tool']  # VS Code's, no Hermes prompt
    assert body['messages'][2] == {'role': 'tool', 'tool_call_id': 'call_1', 'content': 'b'}


def test_without_tools_the_hermes_loop_answers_with_its_own_tools(setup):
    replies = [Reply(tool_events([('c1', 'echo', {'text': 'hi'})])), Reply(text_events('Echo said hi.', piece=4))]
    server = serve(replies)
    try:
        progress = respond(setup['provider'], [User('Echo hi')], {}, model='other:1b')
        requests = server.chat_requests()
    finally:
        server.stop()
    assert ''.join(progress.texts()) == 'Echo said hi.' and len(progress.texts()) > 1  # streamed in pieces
    assert progress.calls() == []  # Hermes ran its own tool
    first, second = requests[0]['body'], requests[1]['body']
    assert first['model'] == 'other:1b' and first['messages'][0]['role'] == 'system'
    assert [t['function']['name'] for t in first['tools']] == ['echo']
    assert second['messages'][-1] == {'role': 'tool', 'tool_call_id': 'c1', 'content': 'echo: hi'}


def test_errors_reach_the_caller_and_cancel_is_quiet(setup):
    server = serve([Reply(status=500, body='{"error": {"message": "exploded"}}')])
    try:
        with pytest.raises(Exception, match='exploded'):
            respond(setup['provider'], [User('Hi')], {'tools': [type('T', (), {'name': 't', 'description': 'd',
                                                                               'inputSchema': None})()]})
        with pytest.raises(Exception, match='exploded'):
            respond(setup['provider'], [User('Hi')])
    finally:
        server.stop()
    server = serve([Reply(text_events('word ' * 300, piece=5), delay_ms=10)])
    try:
        progress = respond(setup['provider'], [User('Talk')], {'tools': [type('T', (), {'name': 't', 'description': 'd',
                                                                                        'inputSchema': None})()]},
                           cancel_once=lambda progress: len(progress.texts()) > 0)
    finally:
        server.stop()
    assert 0 < len(''.join(progress.texts())) < len('word ' * 300)


def test_token_count(setup):
    count = setup['provider']['provideTokenCount']
    assert count(info('m'), 'abcdefgh', None) == 2
    assert count(info('m'), User('x' * 400), None) >= 100
