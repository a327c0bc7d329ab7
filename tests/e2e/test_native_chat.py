"""Hermes in VS Code's own chat, in a real VS Code (code-server), with the scripted OpenAI-compatible LLM
server (tests/llm_server) as `hermes.llm.endpoint`:

- the `@hermes` participant typed into the Chat view: a tool's real effect, progress while it runs, the
  touched file as a reference, the answer in the DOM; a second turn carries the first (the request body the
  server received); cancel mid-turn stops it;
- the "Hermes Agent" models in the model picker and through `vscode.lm` (`selectChatModels`, `sendRequest`
  with tools → tool-call parts, without → streamed text from the Hermes loop);
- every Hermes tool in `vscode.lm.tools`, run by `vscode.lm.invokeTool`, a destructive one confirmed in VS
  Code's own dialog and not a second time by Hermes.

The `vscode.lm` calls come from a test-only extension installed next to Hermes (probe_extension/: it runs
JavaScript the test POSTs, inside the extension host), so Hermes ships no test hooks.
"""
import json
import sys
from pathlib import Path

import pytest

from chat_view import STEPS
from conftest import copy_of_fixture_workspace, open_window, running_code_server, type_and_send
from vscode_server import package_probe_extension, probe_runner, wait_until

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

MODELS = ['qwen2.5:7b', 'llama3.2:1b']
RESPONSE = '.interactive-item-container.interactive-response'
INPUT = '.interactive-input-part .monaco-editor'


@pytest.fixture(scope='module')
def llm():
    # A 32K context (vLLM's max_model_len), as Hermes's own tools alone take about 9K tokens of prompt.
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello.'))], 'models': MODELS,
                                'model_fields': {'max_model_len': 32768}}).start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def probe_vsix(tmp_path_factory):
    from tasks import node_bin  # the pinned Node 24 and vsce from node_modules
    return package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                   ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    """A copy of the fixture workspace of its own: the files these tests create stay out of other modules' way."""
    return copy_of_fixture_workspace(tmp_path_factory, 'chat-ws')


@pytest.fixture(scope='module')
def chat_server(tmp_path_factory, workspace, llm, probe_vsix):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.tools.confirm': 'never', 'hermes.mcp.port': 0}
    with running_code_server(tmp_path_factory, workspace, 'chat', settings=settings,
                             extensions=[probe_vsix]) as server:
        yield server


@pytest.fixture(scope='module')
def chat(browser, chat_server):
    with open_window(browser, chat_server, 'chat') as bench:
        chat_server.wait_for_log(r'activated in')
        wait_until(lambda: (chat_server.user_home / '.hermes-e2e-probe.json').exists(), 60,
                   what='the probe extension')
        yield bench


@pytest.fixture(scope='module')
def probe(chat, chat_server):
    run = probe_runner(chat_server.user_home)
    run("await vscode.commands.executeCommand('notifications.clearAll')")  # a port-forwarding toast covers the chat
    return run


def send(chat, text):
    """Type a message into the Chat view's input, as a user does, and send it."""
    type_and_send(chat.page, chat.page.locator(INPUT).first, text)


def watch_responses(page):
    """Record every text the chat responses show while a turn runs (progress messages are transient)."""
    page.evaluate("""() => {
        window.__hermesSeen = [];
        const record = () => {
            const responses = document.querySelectorAll('.interactive-item-container.interactive-response');
            if (responses.length) window.__hermesSeen.push(responses[responses.length - 1].innerText);
        };
        if (window.__hermesObserver) window.__hermesObserver.disconnect();
        window.__hermesObserver = new MutationObserver(record);
        window.__hermesObserver.observe(document.body, {subtree: true, childList: true, characterData: true});
    }""")


def seen_texts(page):
    return page.evaluate('() => window.__hermesSeen || []')


def last_response(page):
    return page.locator(RESPONSE).last


def wait_for_answer(page, text, timeout=None):  # None: the layer's ceiling (conftest.CEILING_MS)
    last_response(page).get_by_text(text).first.wait_for(state='visible', timeout=timeout)


# ------------------------------------------------------------------------------------ the model picker

def open_model_row(page, label, name):
    """Open the model picker and show the row of model `name` (behind "Other Models" when VS Code files it
    there). The picker re-renders while models are still being resolved: then close it and try again."""
    rows = page.locator('.action-widget .monaco-list-row')
    for _ in range(5):
        label.click()
        rows.filter(has_text='Hermes Agent').first.wait_for(state='visible', timeout=15000)
        page.wait_for_timeout(1500)
        other = rows.filter(has_text='Other Models')
        if other.count() and other.first.is_visible() and rows.filter(has_text=name).count() == 0:
            other.first.click()
            page.wait_for_timeout(800)
        row = rows.filter(has_text=name)
        if row.count() and row.first.is_visible():
            return row.first
        page.keyboard.press('Escape')
        page.wait_for_timeout(1000)
    raise AssertionError(f'{name} never showed in the model picker')


def test_hermes_models_are_listed_and_picked_in_the_model_picker(chat, probe, artifacts):
    models = probe("return (await vscode.lm.selectChatModels({vendor: 'hermes'}))"
                   ".map(m => ({id: m.id, name: m.name, vendor: m.vendor, family: m.family, max: m.maxInputTokens}))")
    assert sorted(m['id'] for m in models) == sorted(MODELS)
    assert all(m['vendor'] == 'hermes' and m['max'] == 32768 - 2048 for m in models)  # what the server says
    page = chat.page
    label = page.locator('.model-picker-name').first
    wait_until(lambda: label.inner_text().strip() in MODELS, 30, what='a Hermes model in the picker')
    row = open_model_row(page, label, 'qwen2.5:7b')
    assert 'Hermes Agent' in row.inner_text()
    chat.screenshot(artifacts / 'native-chat-model-picker.png')
    row.click()
    page.locator('.model-picker-name', has_text='qwen2.5:7b').first.wait_for()


# ------------------------------------------------------------------------------------ @hermes

def test_hermes_runs_a_tool_shows_progress_and_answers(chat, probe, llm, workspace, artifacts):
    llm.script(
        Reply(tool_events([('call_create', 'file_create', {'path': 'hello.txt', 'content': 'hi from hermes\n'})],
                          text_before='Creating it now.')),
        Reply(text_events('Created hello.txt for you.', piece=3), delay_ms=300),  # progress stays up a moment
    )
    page = chat.page
    watch_responses(page)
    send(chat, '@hermes create hello.txt saying hi')
    wait_for_answer(page, 'Created hello.txt for you.')
    assert (workspace / 'hello.txt').read_text() == 'hi from hermes\n'  # the tool's real effect
    assert any('Creating hello.txt…' in text for text in seen_texts(page)), seen_texts(page)[-5:]
    requests = llm.chat_requests()
    assert [r['body']['model'] for r in requests[-2:]] == ['qwen2.5:7b', 'qwen2.5:7b']  # the picked model
    first = requests[-2]['body']
    assert first['messages'][-1] == {'role': 'user', 'content': 'create hello.txt saying hi'}
    assert 'hermes' not in json.dumps(first['messages'][-1])  # the participant mention is not sent
    assert 'file_create' in [tool['function']['name'] for tool in first['tools']]
    response = last_response(page)
    response.get_by_text(STEPS).first.click()  # the steps: the touched file is a reference
    response.get_by_text('Used 1 reference').first.wait_for(state='visible')
    response.get_by_text('Used 1 reference').first.click()
    response.get_by_text('hello.txt').first.wait_for(state='visible')
    chat.screenshot(artifacts / 'native-chat-participant.png')


def test_a_second_turn_sees_the_first(chat, llm):
    llm.script(Reply(text_events('You asked me to create hello.txt.')))
    send(chat, '@hermes what did I ask you before?')
    wait_for_answer(chat.page, 'You asked me to create hello.txt.')
    messages = llm.chat_requests()[-1]['body']['messages']
    assert [m['role'] for m in messages] == ['system', 'user', 'assistant', 'tool', 'assistant', 'user']
    assert messages[1]['content'] == 'create hello.txt saying hi'
    assert messages[2]['tool_calls'][0]['id'] == 'call_create'
    assert messages[2]['tool_calls'][0]['function']['name'] == 'file_create'
    assert messages[3]['tool_call_id'] == 'call_create' and 'hello.txt' in messages[3]['content']
    assert messages[4]['content'] == 'Created hello.txt for you.'
    assert messages[5]['content'] == 'what did I ask you before?'


def test_cancel_stops_the_turn(chat, llm):
    """The answer would stream for five minutes: only the stop button ends the turn before the ceiling. The
    verdicts are what happened (the LLM server saw the stream closed, nothing arrived after), not how fast."""
    llm.script(Reply(text_events('word ' * 3000, piece=5), delay_ms=100))
    aborted = llm.progress()['replies_aborted']
    page = chat.page
    send(chat, '@hermes talk for a long time')
    wait_for_answer(page, 'word word')
    page.locator('.interactive-input-part a.codicon-stop-circle').first.click()
    page.locator('.interactive-input-part a.codicon-stop-circle').first.wait_for(state='hidden')
    wait_until(lambda: llm.progress()['replies_aborted'] > aborted, 30, what='the LLM server to see the stream closed')
    stopped = page.locator(RESPONSE).count() - 1
    text = page.locator(RESPONSE).nth(stopped).inner_text()
    assert text.count('word') < 3000
    llm.script(Reply(text_events('Still here.')))  # and the next turn works
    send(chat, '@hermes are you there?')
    wait_for_answer(page, 'Still here.')
    assert page.locator(RESPONSE).nth(stopped).inner_text() == text  # a turn later: nothing arrived after the stop


# ------------------------------------------------------------------------------------ the language model

SEND = """
const [model] = await vscode.lm.selectChatModels({vendor: 'hermes', id: 'qwen2.5:7b'});
const messages = [vscode.LanguageModelChatMessage.User('%s')];
const response = await model.sendRequest(messages, %s, new vscode.CancellationTokenSource().token);
const parts = [];
for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) parts.push({text: part.value});
    else if (part instanceof vscode.LanguageModelToolCallPart) parts.push({call: part.name, id: part.callId, input: part.input});
    else parts.push({other: String(part && part.constructor && part.constructor.name)});
}
return parts;
"""


def test_send_request_with_tools_yields_tool_call_parts(probe, llm):
    llm.script(Reply(tool_events([('call_w', 'probe_weather', {'city': 'Oslo'})], text_before='Checking. ')))
    options = json.dumps({'tools': [{'name': 'probe_weather', 'description': 'Weather in a city.',
                                     'inputSchema': {'type': 'object', 'properties': {'city': {'type': 'string'}}}}]})
    parts = probe(SEND % ('Weather in Oslo?', options))
    assert parts == [{'text': 'Checking. '}, {'call': 'probe_weather', 'id': 'call_w', 'input': {'city': 'Oslo'}}]
    body = llm.chat_requests()[-1]['body']
    assert [t['function']['name'] for t in body['tools']] == ['probe_weather']
    assert body['messages'] == [{'role': 'user', 'content': 'Weather in Oslo?'}]  # the caller's messages only


def test_send_request_without_tools_streams_text_from_the_hermes_loop(probe, llm):
    llm.script(Reply(text_events('Streamed from the Hermes loop.', piece=4)))
    parts = probe(SEND % ('Say something.', '{}'))
    assert len(parts) > 3 and all('text' in part for part in parts)  # streamed, piece by piece
    assert ''.join(part['text'] for part in parts) == 'Streamed from the Hermes loop.'
    body = llm.chat_requests()[-1]['body']
    assert body['messages'][0]['role'] == 'system'  # the Hermes prompt and tools
    assert 'file_read' in [t['function']['name'] for t in body['tools']]


# ------------------------------------------------------------------------------------ LM tools

def test_every_hermes_tool_is_a_vscode_lm_tool(probe, workspace):
    declared = json.loads((ROOT / 'package.json').read_text())['contributes']['languageModelTools']
    listed = probe("return vscode.lm.tools.filter(t => t.name.startsWith('hermes_'))"
                   ".map(t => ({name: t.name, tags: t.tags, schema: t.inputSchema}))")
    assert sorted(t['name'] for t in listed) == sorted(t['name'] for t in declared)
    result = probe("const r = await vscode.lm.invokeTool('hermes_workspace_get_folders', {input: {}, "
                   "toolInvocationToken: undefined}); return r.content.map(p => p.value).join('')")
    assert str(workspace) in result


def test_a_destructive_tool_is_confirmed_once_in_vscodes_dialog(chat, probe, workspace, artifacts):
    probe("await vscode.workspace.getConfiguration('hermes').update('tools.confirm', 'destructive', 1)")
    try:
        probe("globalThis.pending = vscode.lm.invokeTool('hermes_file_create', {input: {path: 'confirmed.txt', "
              "content: 'yes'}, toolInvocationToken: undefined}).then(r => r.content.map(p => p.value).join(''), "
              "e => 'rejected: ' + e.message); return null")
        page = chat.page
        # The dialog invokeTool waits on, by its title: not any dialog that happens to be up.
        dialog = page.locator('.monaco-dialog-box', has_text='Run "Create file or folder"?')
        dialog.wait_for(state='visible')
        chat.screenshot(artifacts / 'native-chat-tool-confirmation.png')
        assert not (workspace / 'confirmed.txt').exists()
        dialog.get_by_role('button', name='Yes', exact=True).click()
        dialog.wait_for(state='hidden')
        result = probe('return await globalThis.pending')
        assert not result.startswith('rejected'), result
        assert (workspace / 'confirmed.txt').read_text() == 'yes'
        assert page.locator('.monaco-dialog-box').count() == 0  # Hermes did not ask a second time
    finally:
        probe("await vscode.workspace.getConfiguration('hermes').update('tools.confirm', 'never', 1)")
