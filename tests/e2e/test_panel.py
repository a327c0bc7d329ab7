"""The Hermes side panel in a real VS Code (code-server), against the scripted OpenAI-compatible server
(tests/llm_server) over real HTTP: streaming, tool cards with real results, Stop, the model picker,
an unreachable endpoint, Retry, insert at cursor, a window reload, and light/dark screenshots.

The tests in this module run in order on one window (each builds on the conversation so far).
The webview lives in nested iframes: `iframe.webview` → `iframe#active-frame` (chat_view.panel).
"""
import json
import socket
from pathlib import Path

import pytest

from chat_view import open_panel, panel, wait_idle
from conftest import copy_of_fixture_workspace, open_window, running_code_server
from llm_server.server import ScriptedLlmServer
from llm_server.scenarios import Reply, text_events, tool_events
from vscode_server import wait_until

ROOT = Path(__file__).resolve().parents[2]
MODELS = ['llama3.2:3b', 'qwen2.5:7b', 'scripted-coder']
CODE = 'def greet(name):\n    return f"Hello, {name}!"\n'
STREAMED = ('Here is a **greeting** function, written for you step by step.\n\n'
            'It takes a name and returns a friendly sentence. Nothing else happens.\n\n'
            '```python\n' + CODE + '```\n\n'
            'Call it as `greet("Ada")` and print the result.\n\n'
            '- short\n- pure\n- tested\n')


def closed_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]  # closed again when the `with` ends: nothing listens there


@pytest.fixture(scope='module')
def llm():
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello!'))], 'models': MODELS, 'show': None}).start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def panel_workspace(tmp_path_factory):
    return copy_of_fixture_workspace(tmp_path_factory, 'panel-ws')


@pytest.fixture(scope='module')
def vscode_window(tmp_path_factory, panel_workspace, llm):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': 'qwen2.5:7b', 'hermes.tools.confirm': 'never',
                'workbench.colorTheme': 'Default Dark Modern'}
    with running_code_server(tmp_path_factory, panel_workspace, 'panel', settings=settings) as server:
        yield server


@pytest.fixture(scope='module')
def console_problems():
    return []


@pytest.fixture(scope='module')
def window(browser, vscode_window, console_problems):
    def on_console(message):
        text = message.text
        if 'Content Security Policy' in text or 'Refused to' in text or 'panel.js' in text:
            console_problems.append(text)

    with open_window(browser, vscode_window, 'panel', on_page=lambda page: page.on('console', on_console)) as bench:
        vscode_window.wait_for_log(r'activated in')
        yield bench


def settings_file(server):
    return server.user_data / 'User' / 'settings.json'


def read_settings(server):
    """settings.json as VS Code last wrote it (None while a write is in progress)."""
    try:
        return json.loads(settings_file(server).read_text())
    except ValueError:
        return None


def update_settings(window, server, **changes):
    """Change user settings through VS Code's own settings.json editor (code-server here does not notice
    a settings.json changed behind its back): replace the text, save, close."""
    settings = wait_until(lambda: read_settings(server), 10, what='a readable settings.json')
    settings.update(changes)
    page = window.page
    window.run_command('Preferences: Open User Settings (JSON)')
    editor = page.locator('.monaco-editor[data-uri$="User/settings.json"]').first
    editor.wait_for()
    page.wait_for_timeout(500)
    editor.click()
    page.keyboard.press('Control+A')
    page.keyboard.press('Delete')
    page.keyboard.insert_text(json.dumps(settings))  # one line: no auto-indent
    page.keyboard.press('Control+Shift+End')
    page.keyboard.press('Delete')  # anything auto-closing added
    page.keyboard.press('Control+S')
    wait_until(lambda: read_settings(server) == settings, 15, what='settings.json saved')
    close_modal_editor(page)


def close_modal_editor(page):
    """settings.json opens in a modal editor (VS Code 1.139): Escape closes it, or its close button."""
    modal = page.locator('.monaco-modal-editor-block')
    for _ in range(2):
        page.keyboard.press('Escape')
        try:
            modal.wait_for(state='hidden', timeout=2000)
            return
        except Exception:
            pass
    modal.locator('.action-label.codicon-close, .codicon-close').first.click()
    modal.wait_for(state='hidden')


def send(view, text):
    """Type and press Enter; returns once the user's message and the (new) reply are on the page."""
    users, replies = view.locator('.message.user').count(), view.locator('.message.assistant').count()
    prompt = view.locator('#prompt')
    prompt.click()
    prompt.fill(text)
    prompt.press('Enter')
    wait_until(lambda: view.locator('.message.user').count() == users + 1 and
               view.locator('.message.assistant').count() == replies + 1, 10, what='the turn to start')


def last_reply(view):
    return view.locator('.message.assistant').last


# ------------------------------------------------------------------------------------------------ tests

def test_open_panel_shows_how_to_start_and_lists_the_models(window, llm):
    view = open_panel(window)
    empty = view.locator('#empty-state')
    empty.wait_for(state='visible')
    assert 'Type below and press Enter' in empty.inner_text()
    wait_until(lambda: view.locator('#model-select option').count() == len(MODELS), 20, what='the model list')
    assert view.locator('#model-select option').all_inner_texts() == MODELS
    assert view.locator('#model-select').input_value() == 'qwen2.5:7b'
    assert any(request['path'] == '/v1/models' for request in llm.requests)
    # accessible names on the controls
    for selector, name in (('#prompt', 'Message to Hermes'), ('#send', 'Send'), ('#new-chat', 'New chat'),
                           ('#open-settings', 'Hermes LLM settings'), ('#model-select', 'Model')):
        assert view.locator(selector).get_attribute('aria-label') == name


def test_a_reply_streams_in_with_highlighted_code(window, llm):
    view = panel(window.page)
    llm.script(Reply(text_events(STREAMED, piece=6), delay_ms=40))
    # Record every state the reply's DOM goes through, from inside the webview: its length, and whether the input
    # was disabled and Stop shown then (checked in the page as it changes, not afterwards from a test that a busy
    # machine may let run only once the turn is over).
    view.locator('#transcript').evaluate("""(transcript) => {
        window.__states = [];
        new MutationObserver(() => {
            const replies = transcript.querySelectorAll('.message.assistant');
            const reply = replies[replies.length - 1];
            const stop = document.querySelector('#stop');
            if (reply) window.__states.push([reply.querySelector('.message-body').textContent.length,
                document.querySelector('#prompt').disabled, !!stop && !stop.hidden]);
        }).observe(transcript, {subtree: true, childList: true, characterData: true});
    }""")
    send(view, 'Write me a greeting function')
    view.locator('.message.user').last.wait_for()
    assert view.locator('.message.user').last.inner_text().endswith('Write me a greeting function')
    wait_idle(view)
    reply = last_reply(view)
    assert 'Call it as greet("Ada")' in reply.inner_text()
    recorded = view.locator('#transcript').evaluate('() => window.__states')
    final = len(reply.locator('.message-body').inner_text())
    streaming = [(disabled, stop) for length, disabled, stop in recorded if 0 < length < final / 2]
    assert streaming and all(disabled and stop for disabled, stop in streaming), recorded[:20]  # input off, Stop on
    states = [length for length, _, _ in recorded]
    growing = sorted(set(states))
    assert len(growing) >= 5, f'expected several intermediate DOM states, saw {growing}'
    assert growing[0] < growing[-1] / 2
    # the code block: highlighted spans, language label, Copy and Insert buttons
    block = reply.locator('.code-block')
    assert block.count() == 1
    assert block.locator('.code-lang').inner_text() == 'python'
    assert block.locator('code .hljs-keyword').first.inner_text() == 'def'
    assert block.locator('pre code').inner_text() == CODE.rstrip('\n') or block.locator('pre code').inner_text() == CODE
    assert block.locator('button[aria-label="Copy code"]').is_visible()
    assert block.locator('button[aria-label="Insert at cursor"]').is_visible()
    assert reply.locator('strong').inner_text() == 'greeting'
    assert reply.locator('li').count() == 3


def test_shift_enter_makes_a_new_line_and_does_not_send(window):
    view = panel(window.page)
    prompt = view.locator('#prompt')
    prompt.click()
    prompt.press_sequentially('first line')
    prompt.press('Shift+Enter')
    prompt.press_sequentially('second line')
    assert prompt.input_value() == 'first line\nsecond line'
    assert view.locator('.message.user').count() == 1  # nothing was sent
    prompt.fill('')


def test_model_output_never_runs_in_the_webview(window, llm):
    view = panel(window.page)
    hostile = ('Look: <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\n\n'
               '[click me](javascript:window.__pwned=3) and <a href="#" onclick="window.__pwned=4">this</a>\n\n'
               '<iframe src="https://example.com"></iframe> ![tracker](https://example.com/p.png)\n')
    llm.script(Reply(text_events(hostile, piece=7), delay_ms=5))
    send(view, 'Say something dangerous')
    wait_idle(view)
    body = last_reply(view).locator('.message-body')
    assert '<script>window.__pwned=2</script>' in body.inner_text()  # shown as text
    for tag in ('script', 'img', 'iframe', '[onclick]', '[onerror]', 'a[href^="javascript"]'):
        assert body.locator(tag).count() == 0, tag
    assert body.locator('a', has_text='click me').count() == 1
    assert view.locator('body').evaluate('() => window.__pwned') is None
    body.locator('a', has_text='click me').click()
    assert view.locator('body').evaluate('() => window.__pwned') is None


def test_insert_at_cursor_puts_the_code_into_the_active_editor(window):
    page = window.page
    page.keyboard.press('Control+P')
    box = page.locator('.quick-input-widget input')
    box.wait_for(state='visible')
    box.fill('hello.py')
    page.locator('.quick-input-list .monaco-list-row', has_text='hello.py').first.click()
    page.locator('.tabs-container .tab.active', has_text='hello.py').wait_for()
    view = panel(page)
    view.locator('.code-block button[aria-label="Insert at cursor"]').first.click()
    editor_text = page.locator('.editor-instance .monaco-editor .view-lines').first
    wait_until(lambda: 'def greet(name):' in editor_text.inner_text().replace('\u00a0', ' '), 15,
               what='the inserted code in the editor')
    lines = [line.replace('\u00a0', ' ') for line in editor_text.locator('.view-line').all_inner_texts()]
    assert 'def greet(name):' in lines and '    return f"Hello, {name}!"' in lines  # on lines of their own


def test_a_tool_call_shows_a_card_that_completes_with_the_real_result(window, llm, panel_workspace):
    view = panel(window.page)
    llm.script(Reply(tool_events([('call_folders', 'workspace_get_folders', {})], text_before='Let me look. '), delay_ms=30),
               Reply(text_events('You have one folder open: workspace.', piece=5), delay_ms=20))
    send(view, 'Which folders are open?')
    card = view.locator('.tool-card').last
    card.wait_for()
    assert card.locator('.tool-name').inner_text() == 'workspace_get_folders'
    assert card.locator('.tool-args').inner_text() == '{}'
    view.locator('.tool-card[data-status="ok"]').last.wait_for()
    wait_idle(view)
    assert card.locator('.tool-status').get_attribute('aria-label') == 'Done'
    card.locator('details.tool-result summary').click()
    result = card.locator('details.tool-result pre').inner_text()
    assert str(panel_workspace) in result  # the real folder, from the real VS Code
    assert 'You have one folder open' in last_reply(view).inner_text()
    # the tool result went back to the model as a `tool` message
    second = llm.chat_requests()[-1]['body']['messages']
    tool_messages = [message for message in second if message['role'] == 'tool']
    assert tool_messages and str(panel_workspace) in tool_messages[-1]['content']


def test_a_tool_card_opens_a_file_for_real(window, llm):
    view = panel(window.page)
    llm.script(Reply(tool_events([('call_open', 'editor_open_file', {'path': 'README.md'})])),
           Reply(text_events('README.md is open.', piece=5)))
    send(view, 'Open the README')
    card = view.locator('.tool-card', has=view.locator('.tool-name', has_text='editor_open_file')).last
    card.wait_for()
    assert card.locator('.tool-args').inner_text() == '{"path":"README.md"}'
    view.locator('.tool-card[data-status="ok"]', has=view.locator('.tool-name', has_text='editor_open_file')) \
        .last.wait_for()
    window.page.locator('.tabs-container .tab.active', has_text='README.md').wait_for()  # really opened
    wait_idle(view)
    assert 'README.md is open.' in last_reply(view).inner_text()


def test_a_card_says_when_it_waits_for_the_users_confirmation(window, vscode_window, llm, panel_workspace):
    update_settings(window, vscode_window, **{'hermes.tools.confirm': 'always'})
    view = panel(window.page)
    llm.script(Reply(tool_events([('call_confirm', 'workspace_get_folders', {})])),
           Reply(text_events('Confirmed and done.', piece=5)))
    send(view, 'List the folders, with my permission')
    waiting = view.locator('.tool-card[data-status="waiting"]').last
    waiting.wait_for()
    assert waiting.locator('.tool-note').inner_text() == 'Waiting for your confirmation…'
    assert waiting.locator('.tool-status').get_attribute('aria-label') == 'Waiting for your confirmation'
    dialog = window.page.locator('.monaco-dialog-box')
    dialog.wait_for()
    assert 'Allow Hermes to run "Get workspace folders"?' in dialog.inner_text()
    window.screenshot(ROOT / 'tests' / 'artifacts' / 'panel-waiting-for-confirmation.png')
    dialog.locator('.monaco-button', has_text='Allow').first.click()
    view.locator('.tool-card[data-status="ok"]').last.wait_for()
    wait_until(lambda: 'Confirmed and done.' in last_reply(view).inner_text(), 20, what='the reply after Allow')
    wait_idle(view)
    update_settings(window, vscode_window, **{'hermes.tools.confirm': 'never'})


def test_stop_mid_stream_ends_the_turn_and_gives_the_input_back(window, llm):
    """The reply would stream for two minutes: only Stop can end it that soon. The verdicts are what happened
    (the LLM server saw the client hang up, the turn says Stopped., nothing arrives afterwards), not how fast."""
    view = panel(window.page)
    llm.script(Reply(text_events('word ' * 3000, piece=5), delay_ms=40))
    aborted = llm.progress()['replies_aborted']
    send(view, 'Talk for a long time')
    reply = last_reply(view)
    wait_until(lambda: 'word word word' in reply.inner_text(), 15, what='the reply to start streaming')
    view.locator('#stop').click()
    wait_idle(view)
    assert 'Stopped.' in reply.inner_text()
    wait_until(lambda: llm.progress()['replies_aborted'] > aborted, 15, what='the LLM server to see the stream closed')
    stopped_text = reply.inner_text()
    assert stopped_text.count('word') < 3000
    # Escape aborts too
    llm.script(Reply(text_events('again ' * 3000, piece=6), delay_ms=40))
    send(view, 'And once more')
    second = last_reply(view)
    wait_until(lambda: 'again again' in second.inner_text(), 15, what='the second reply to stream')
    view.locator('body').press('Escape')
    wait_idle(view)
    assert 'Stopped.' in second.inner_text()
    assert view.locator('#prompt').is_enabled()
    wait_until(lambda: llm.progress()['replies_aborted'] > aborted + 1, 15, what='the second stream closed')
    # a whole turn later, the first reply is still what it was when it stopped: nothing streamed in after Stop
    assert view.locator('.message.assistant').nth(-2).inner_text() == stopped_text


def test_an_unreachable_endpoint_shows_a_banner_and_retry_recovers(window, vscode_window, llm):
    view = panel(window.page)
    dead = f'http://127.0.0.1:{closed_port()}/v1'
    update_settings(window, vscode_window, **{'hermes.llm.endpoint': dead})
    banner = view.locator('.banner')
    banner.wait_for()
    assert "Can't reach the LLM" in banner.inner_text() and dead in banner.inner_text()
    send(view, 'Are you there?')
    wait_idle(view)
    banner.locator('button', has_text='Retry').wait_for()
    assert "Can't reach the LLM" in banner.inner_text()
    assert banner.locator('button', has_text='Open Settings').is_visible()
    window.screenshot(ROOT / 'tests' / 'artifacts' / 'panel-unreachable.png')
    update_settings(window, vscode_window, **{'hermes.llm.endpoint': llm.endpoint})
    llm.script(Reply(text_events('Back online.', piece=4), delay_ms=10))
    banner.locator('button', has_text='Retry').click()
    wait_until(lambda: 'Back online.' in last_reply(view).inner_text(), 20, what='the retried reply')
    wait_idle(view)
    assert view.locator('.banner').count() == 0
    assert view.locator('.message.user', has_text='Are you there?').count() == 1  # retried, not duplicated


def test_the_model_picker_changes_the_setting(window, vscode_window):
    view = panel(window.page)
    view.locator('#model-select').select_option('scripted-coder')
    wait_until(lambda: (read_settings(vscode_window) or {}).get('hermes.llm.model') == 'scripted-coder',
               15, what='hermes.llm.model in settings.json')
    view.locator('#open-settings').click()
    search = window.page.locator('.settings-editor .suggest-input-container .monaco-editor .view-lines')
    wait_until(lambda: '@ext:hermes-agent.hermes-agent' in search.first.inner_text().replace('\u00a0', ' '), 15,
               what='the settings editor filtered to Hermes')
    # a Hermes setting at the top of the list (the list draws only what fits: Endpoint, further down, moved out of
    # sight when a setting was added above it)
    window.page.locator('.settings-editor .setting-item-category', has_text='Mcp:').first.wait_for()
    window.page.keyboard.press('Escape')


def test_the_conversation_survives_a_window_reload(window, llm):
    page = window.page
    window.reload()
    view = panel(page)
    try:
        view.locator('#prompt').wait_for(state='visible')  # VS Code restores the open view
    except Exception:
        view = open_panel(window)
    view.locator('.message.user', has_text='Which folders are open?').wait_for()
    assert view.locator('.message.user', has_text='Write me a greeting function').count() == 1
    assert view.locator('.tool-card[data-status="ok"] .tool-name', has_text='workspace_get_folders').count() == 2
    assert view.locator('.tool-card[data-status="ok"] .tool-name', has_text='editor_open_file').count() == 1
    assert 'Back online.' in last_reply(view).inner_text()
    assert view.locator('.code-block button[aria-label="Insert at cursor"]').count() >= 1


def reload_webviews(window, view):
    """"Developer: Reload Webviews", until the panel's new page has handled its state (the model list is filled
    from it, and the draft put back)."""
    view.locator('body').evaluate('(body) => body.setAttribute("data-old-page", "")')
    window.run_command('Developer: Reload Webviews')

    def loaded_again():
        try:
            return view.locator('body[data-old-page]').count() == 0 and view.locator('#model-select option').count() > 0
        except Exception:  # the frame is being replaced
            return False
    wait_until(loaded_again, 60, what='the panel to load again')


def test_an_unsent_draft_survives_the_panel_reloading_and_a_sent_one_does_not_come_back(window, llm):
    view = open_panel(window)
    prompt = view.locator('#prompt')
    prompt.click()
    prompt.press_sequentially('half a thought')
    reload_webviews(window, view)
    assert prompt.input_value() == 'half a thought'
    llm.script(Reply(text_events('Noted.', piece=3), delay_ms=5))
    prompt.press('Enter')
    wait_until(lambda: 'Noted.' in last_reply(view).inner_text(), 20, what='the reply')
    wait_idle(view)
    reload_webviews(window, view)
    assert view.locator('.message.user', has_text='half a thought').count() == 1
    assert prompt.input_value() == ''


def test_the_panel_leaves_the_keyboard_where_the_user_is_when_it_loads(window):
    """The panel used to take the keyboard whenever it loaded or a turn ended, wherever the user was: after a
    reload it closed the command palette the user had just opened, and what they typed in the editor went into
    the panel's prompt. Now the prompt takes the keyboard only when VS Code focuses the view."""
    page = window.page
    view = open_panel(window)
    wait_until(lambda: view.locator('#prompt').evaluate('(e) => document.hasFocus() && document.activeElement === e'),
               15, what='Open Chat Panel to put the caret in the prompt')
    window.run_command('File: New Untitled Text File')
    editor = page.locator('.editor-group-container.active .monaco-editor').first
    editor.click()
    reload_webviews(window, view)  # the panel loads anew while the editor has the keyboard
    page.keyboard.type('typed in the editor')
    lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first
    wait_until(lambda: 'typed in the editor' in lines.inner_text().replace('\u00a0', ' '), 15,
               what='the typing in the editor')
    assert view.locator('#prompt').input_value() == ''
    window.run_command('View: Revert and Close Editor')


def stored_messages(server):
    """The side panel's conversation as the store on disk has it (what a reload or another window would see)."""
    [path] = server.user_data.glob('User/workspaceStorage/*/hermes-agent.hermes-agent/conversations.json')
    data = json.loads(path.read_text())
    panel_conversation = [c for c in data['conversations'] if c['id'] == data['panel']][0]
    return panel_conversation['messages']


def test_the_llm_closing_the_stream_mid_answer_keeps_the_partial_answer_says_so_and_retry_works(
        window, vscode_window, llm, artifacts):
    """The LLM server drops the connection half way through a streamed answer: what arrived stays on the page and
    in the store, the error says the stream was cut, Retry asks again and the answer comes whole."""
    view = panel(window.page)
    llm.script(Reply(text_events('The first half arrives, then the line goes dead.', piece=6), cut_after=4),
               Reply(text_events('The whole answer, this time.', piece=6)))
    send(view, 'Tell me something long')
    reply = last_reply(view)
    banner = view.locator('.banner')
    banner.locator('button', has_text='Retry').wait_for()
    wait_idle(view)
    partial = 'The first half arrives, then the line goes dead.'[:18]  # a role chunk, then 3 pieces of 6, then the cut
    assert partial in reply.inner_text() and 'goes dead' not in reply.inner_text()
    error = banner.inner_text()
    assert (f'The connection to the LLM at {llm.endpoint} broke in the middle of the answer (the server closed the '
            'connection); what arrived is kept.') in error, error
    window.screenshot(artifacts / 'panel-stream-cut.png')
    def reply_text(message):  # a stored reply is its parts: {kind: 'text', text}, tool calls, …
        return ''.join(part['text'] for part in message.get('parts', []) if part['kind'] == 'text')
    stored = wait_until(lambda: (lambda messages: messages if messages[-1]['role'] == 'assistant' and
                                 partial in reply_text(messages[-1]) else None)(stored_messages(vscode_window)),
                        30, what='the partial answer in the store')
    assert stored[-1]['status'] == 'error' and 'goes dead' not in reply_text(stored[-1])
    assert stored[-2]['role'] == 'user' and stored[-2]['text'] == 'Tell me something long'
    banner.locator('button', has_text='Retry').click()
    wait_until(lambda: 'The whole answer, this time.' in last_reply(view).inner_text(), 30, what='the retried answer')
    wait_idle(view)
    assert view.locator('.message.user', has_text='Tell me something long').count() == 1  # retried, not resent
    assert view.locator('.banner').count() == 0


def test_light_and_dark_screenshots(window, vscode_window):
    artifacts = ROOT / 'tests' / 'artifacts'
    view = panel(window.page)
    view.locator('.tool-card details.tool-result summary').first.click()
    view.locator('.code-block').first.scroll_into_view_if_needed()
    view.locator('#transcript').evaluate("(t) => { t.querySelector('.code-block').scrollIntoView(); }")
    for theme, name in (('Default Dark Modern', 'panel-dark.png'), ('Default Light Modern', 'panel-light.png'),
                        ('Default High Contrast', 'panel-high-contrast.png')):
        update_settings(window, vscode_window, **{'workbench.colorTheme': theme})
        kind = 'vscode-light' if 'Light' in theme else 'vscode-high-contrast' if 'High' in theme else 'vscode-dark'
        wait_until(lambda: kind in (view.locator('body').get_attribute('class') or ''), 20, what=f'the {theme} theme')
        window.screenshot(artifacts / name)
        window.page.locator('.part.sidebar').screenshot(path=str(artifacts / name.replace('.png', '-closeup.png')))


def test_new_chat_clears_the_conversation_and_the_empty_state_says_how_to_start(window, vscode_window):
    view = panel(window.page)
    view.locator('#new-chat').click()
    empty = view.locator('#empty-state')
    empty.wait_for(state='visible')
    assert view.locator('.message').count() == 0
    update_settings(window, vscode_window, **{'hermes.llm.endpoint': f'http://127.0.0.1:{closed_port()}/v1'})
    hint = empty.locator('.empty-warning')
    hint.wait_for()
    assert 'ollama serve' in hint.inner_text() and "Can't reach the LLM" in hint.inner_text()
    window.page.locator('.part.sidebar').screenshot(path=str(ROOT / 'tests' / 'artifacts' / 'panel-empty-unreachable.png'))


def test_the_webview_loaded_without_csp_violations(console_problems):
    assert console_problems == []
