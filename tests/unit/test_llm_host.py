"""The embedded agent's host glue under CPython with the vscode shim: settings, the API key in
SecretStorage and the hermes.setApiKey command, the workspace context, and one run through the service
against the scripted LLM server."""
import asyncio
import sys
from pathlib import Path

import vscode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hermes.core.tools import ToolRegistry
from hermes.host.llm_service import LlmService, llm_settings, loop_options, API_KEY_SECRET
from hermes.host.log import register_log
from hermes.host.workspace_context import gather_workspace_context
from hermes.ui.llm_commands import register_llm


def run(coroutine):
    return asyncio.run(coroutine)


async def maybe(value):
    return await value if asyncio.iscoroutine(value) or asyncio.isfuture(value) else value


def test_settings_defaults_and_overrides():
    assert llm_settings() == {'endpoint': 'http://127.0.0.1:11434/v1', 'model': 'qwen2.5:7b', 'extra_headers': {}}
    assert loop_options() == {'model': 'qwen2.5:7b', 'tool_calling': 'auto', 'max_iterations': 10,
                              'context_tokens': None}
    vscode.workspace.set_setting('hermes.llm.endpoint', 'http://127.0.0.1:1234/v1/')
    vscode.workspace.set_setting('hermes.llm.toolCalling', 'bogus')
    vscode.workspace.set_setting('hermes.agent.maxIterations', 0)
    vscode.workspace.set_setting('hermes.llm.extraHeaders', {'X-A': 'b'})
    vscode.workspace.set_setting('hermes.llm.contextLength', 32768)
    current = llm_settings()
    assert current['endpoint'] == 'http://127.0.0.1:1234/v1' and current['extra_headers'] == {'X-A': 'b'}
    assert loop_options('other:3b') == {'model': 'other:3b', 'tool_calling': 'auto', 'max_iterations': 10,
                                        'context_tokens': 32768}


def test_client_follows_settings_and_the_api_key(context):
    service = LlmService(context, None, ToolRegistry())

    async def scenario():
        first = await service.client()
        assert first.api_key is None and first.endpoint == 'http://127.0.0.1:11434/v1' and first.ollama
        assert await service.client() is first
        await service.set_api_key('sk-1')
        assert context.secrets.values[API_KEY_SECRET] == 'sk-1'
        second = await service.client()
        assert second is not first and second.headers()['Authorization'] == 'Bearer sk-1'
        vscode.workspace.set_setting('hermes.llm.extraHeaders', {'X-Team': 'hermes'})
        third = await service.client()
        assert third is not second and third.headers()['X-Team'] == 'hermes'
        loop = await service.loop()
        vscode.workspace.set_setting('hermes.llm.model', 'llama3.2:1b')
        assert (await service.loop()) is not loop and (await service.loop()).options['model'] == 'llama3.2:1b'
        await service.set_api_key('')
        assert API_KEY_SECRET not in context.secrets.values and (await service.client()).api_key is None
    run(scenario())


def test_the_api_key_is_only_sent_to_the_endpoint_it_was_set_for(context):
    service = LlmService(context, None, ToolRegistry())

    async def scenario():
        await service.set_api_key('sk-1')
        assert (await service.client()).api_key == 'sk-1'
        vscode.workspace.set_setting('hermes.llm.endpoint', 'https://elsewhere.example/v1')
        moved = await service.client()
        assert moved.endpoint == 'https://elsewhere.example/v1' and moved.api_key is None
        assert 'Authorization' not in moved.headers()
        vscode.workspace.set_setting('hermes.llm.endpoint', 'http://127.0.0.1:11434/v1')
        assert (await service.client()).api_key == 'sk-1'
    run(scenario())


def test_set_api_key_command(context):
    register_llm(context, register_log(context), ToolRegistry())
    asked = []

    def input_box(options):
        asked.append(options)
        return asyncio.sleep(0, 'sk-typed ')
    vscode.window.showInputBox = input_box

    async def scenario():
        assert await maybe(vscode.commands.executeCommand('hermes.setApiKey')) is True
        assert context.secrets.values[API_KEY_SECRET] == 'sk-typed'
        assert asked[0]['password'] is True and 'qwen2.5:7b at http://127.0.0.1:11434/v1' in asked[0]['prompt']
        vscode.window.showInputBox = lambda options: asyncio.sleep(0, None)  # dismissed: nothing changes
        assert await maybe(vscode.commands.executeCommand('hermes.setApiKey')) is False
        assert context.secrets.values[API_KEY_SECRET] == 'sk-typed'
        assert await maybe(vscode.commands.executeCommand('hermes.setApiKey', '')) is True
        assert API_KEY_SECRET not in context.secrets.values
    run(scenario())


def test_workspace_context(tmp_path):
    vscode.workspace.open_folders([str(tmp_path)])
    source = tmp_path / 'app.py'
    source.write_text('import os\nx = undefined_name\nprint(x)\n')
    uri = vscode.Uri.file(str(source))

    async def scenario():
        document = await maybe(vscode.workspace.openTextDocument(uri))
        await maybe(vscode.window.showTextDocument(document, {'selection': vscode.Range(1, 0, 2, 0)}))
    run(scenario())
    vscode.languages.set_diagnostics(uri, [vscode.Diagnostic(vscode.Range(1, 4, 1, 18), "undefined name 'undefined_name'"),
                                           vscode.Diagnostic(vscode.Range(0, 0, 0, 9), 'unused import', 1)])
    context = gather_workspace_context()
    assert context['folders'] == [str(tmp_path)]
    assert context['activeFile']['path'] == 'app.py' and context['activeFile']['language'] == 'python'
    assert context['activeFile']['selection'] == {'startLine': 2, 'endLine': 3, 'text': 'x = undefined_name\n'}
    assert context['openTabs'] == ['app.py']
    assert context['errors'] == [{'path': 'app.py', 'line': 2, 'message': "undefined name 'undefined_name'"}]
    assert 'gitBranch' not in context  # no git extension in the shim: left out, no failure


def test_a_run_through_the_service_against_the_scripted_server(context):
    import hermes.js.fetch_cpython as cpython
    from llm_server.cpython_fetch import fetch
    from llm_server.scenarios import SCENARIOS
    from llm_server.server import ScriptedLlmServer
    cpython.FETCH = fetch
    with ScriptedLlmServer(SCENARIOS['authorized']) as server:
        vscode.workspace.set_setting('hermes.llm.endpoint', server.endpoint)
        vscode.workspace.set_setting('hermes.llm.extraHeaders', {'X-Team': 'hermes'})
        service = LlmService(context, None, ToolRegistry())
        history = [{'role': 'user', 'content': 'Hi'}]

        async def scenario():
            await service.set_api_key('sk-right')
            return await service.run(history, workspace={'gitBranch': 'feature/x'})
        outcome = run(scenario())
        assert outcome['stopped'] == 'done' and outcome['text'] == 'Key accepted.'
        request = server.chat_requests()[0]
        assert request['headers']['authorization'] == 'Bearer sk-right'
        assert 'Git branch: feature/x' in request['body']['messages'][0]['content']
        assert 'tools' not in request['body']  # an empty registry: no tools offered


def test_model_info_from_a_vllm_style_models_list():
    import hermes.js.fetch_cpython as cpython
    from hermes.net.llm_client import LlmClient
    from llm_server.cpython_fetch import fetch
    from llm_server.server import ScriptedLlmServer
    cpython.FETCH = fetch
    with ScriptedLlmServer({'replies': [], 'model_fields': {'max_model_len': 32768}}) as server:
        client = LlmClient(server.endpoint)
        info = run(client.model_info('qwen2.5:7b'))
        assert info == {'context_length': 32768, 'model_context_length': 32768, 'supports_tools': None}
        assert run(client.model_info('other')) is None
        run(client.model_info('qwen2.5:7b'))
        assert len([r for r in server.requests if r['path'] == '/v1/models']) == 2  # cached per model
