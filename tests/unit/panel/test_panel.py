"""The side panel wired to (the shim of) VS Code: the page and its CSP, the message round trip,
the conversation store on disk, insert at cursor, the commands."""
import asyncio
import base64
import json
import os
import re

import pytest

import vscode
from hermes.js import modules_cpython
from hermes.ui.panel.view import register_panel, render_html, VIEW_ID, OPEN_COMMAND
from hermes.host.chat.conversation_store import register_conversation_store, store_path
from fake_clock import FakeClock
from panel_fakes import Log


class _Crypto(modules_cpython.NODE_MODULES['crypto']):
    @staticmethod
    def randomBytes(size):
        class Bytes:
            def __init__(self, data):
                self.data = data

            def toString(self, encoding):
                assert encoding == 'base64'
                return base64.b64encode(self.data).decode()
        return Bytes(os.urandom(size))


@pytest.fixture(autouse=True)
def crypto(monkeypatch):
    monkeypatch.setitem(modules_cpython.NODE_MODULES, 'crypto', _Crypto)


async def list_models():
    return ['m1', 'm2']


async def run_turn(history, user_text, sink, cancel):
    sink.on_text('echo: ' + user_text)
    return None


def resolve(context, log=None, turn=run_turn):
    log = log or Log()
    panel = register_panel(context, log, turn, list_models, register_conversation_store(context, log))
    provider, options = vscode.window.webview_view_providers[VIEW_ID]
    assert options == {'webviewOptions': {'retainContextWhenHidden': True}}
    view = vscode.WebviewView()
    assert panel.loaded is None, 'the controller is made when the view first resolves'
    provider['resolveWebviewView'](view, {}, None)
    return panel.loaded, view


def drain(view, message):
    """Deliver a message from the page and let the (async) handler finish."""
    async def go():
        view.webview.receive(message)
        for _ in range(20):
            await asyncio.sleep(0)
    asyncio.run(go())
    return view.webview.posted


def test_the_page_has_a_strict_csp_with_a_fresh_nonce_and_no_inline_code(context):
    _, view = resolve(context)
    html = view.webview.html
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    assert csp.startswith("default-src 'none'; ")
    assert "style-src https://shim.vscode-cdn.net;" in csp and "font-src https://shim.vscode-cdn.net;" in csp
    nonce = re.search(r"script-src 'nonce-([A-Za-z0-9+/=]+)';", csp).group(1)
    assert len(base64.b64decode(nonce)) == 16
    scripts = re.findall(r'<script([^>]*)>(.*?)</script>', html, re.S)
    assert scripts == [(f' nonce="{nonce}" src="https://shim.vscode-cdn.net{context.extensionUri.path}/dist/webview/panel.js"', '')]
    assert '<style' not in html and ' style=' not in html
    assert not re.search(r'\son[a-z]+\s*=', html)  # no inline event handlers
    options = view.webview.options
    assert options['enableScripts'] is True
    assert [uri.path for uri in options['localResourceRoots']] == [context.extensionUri.path + '/dist/webview']
    # a second render gets another nonce
    other = vscode.WebviewView()
    vscode.window.webview_view_providers[VIEW_ID][0]['resolveWebviewView'](other, {}, None)
    assert re.search(r"nonce-([^']+)'", other.webview.html).group(1) != nonce


def test_render_html_escapes_what_it_is_given():
    html = render_html('https://x', 'n"><script>', 'https://x/a.js?"', 'https://x/a.css', 'https://x/c.css')
    assert '"><script>' not in html and 'a.js?&quot;' in html


def test_ready_then_send_streams_and_stores_in_the_conversation_store(context):
    _, view = resolve(context)
    posted = drain(view, {'type': 'ready'})
    assert [message['type'] for message in posted] == ['state', 'models']
    assert posted[1]['models'] == ['m1', 'm2'] and posted[1]['current'] == 'qwen2.5:7b'
    posted = drain(view, {'type': 'send', 'text': 'hello'})
    assert [message['type'] for message in posted[2:]] == ['userMessage', 'turnStarted', 'textDelta', 'turnEnded']
    context.dispose_all()  # the window reloads: the store written behind its changes is flushed
    with open(store_path(context)) as file:
        stored = json.load(file)
    [conversation] = stored['conversations']
    assert stored['panel'] == conversation['id'] and conversation['title'] == 'hello'
    assert [message['role'] for message in conversation['messages']] == ['user', 'assistant']


def test_the_conversation_survives_a_reload(context):
    _, view = resolve(context)
    drain(view, {'type': 'send', 'text': 'remember me'})
    context.dispose_all()
    vscode.reset()
    reloaded = vscode.ExtensionContext(storage_dir=context.globalStorageUri.fsPath)
    _, view = resolve(reloaded)
    posted = drain(view, {'type': 'ready'})
    first = posted[0]['messages'][0]
    assert first == {'role': 'user', 'text': 'remember me', 'turn': first['turn']} and first['turn'].startswith('t'), \
        'the turn keeps its checkpoint id across a reload'
    assert posted[0]['messages'][1]['parts'] == [{'kind': 'text', 'text': 'echo: remember me'}]


def test_malformed_messages_are_logged_and_ignored(context):
    log = Log()
    _, view = resolve(context, log)
    posted = drain(view, {'type': 'insertCode', 'code': ['rm -rf /']})
    assert posted == []
    assert log.lines == [('warn', 'Panel: ignored a message from the webview: "insertCode.code" must be a string, '
                                  'got array')]


def test_insert_code_replaces_every_selection_of_the_active_editor(context):
    _, view = resolve(context)
    editor = vscode.TextEditor(selections=[vscode.Selection(0, 0, 0, 0), vscode.Selection(3, 1, 3, 4)])
    vscode.window.activeTextEditor = editor
    drain(view, {'type': 'insertCode', 'code': 'print(1)\n'})
    assert [(selection.start.line, text) for selection, text in editor.edits] == [(0, 'print(1)\n'), (3, 'print(1)\n')]
    editor.edits.clear()
    drain(view, {'type': 'insertCode', 'code': 'a = 1\nb = 2'})  # a code block's text has no final newline
    assert [text for selection, text in editor.edits] == ['a = 1\nb = 2\n', 'a = 1\nb = 2']


def test_insert_code_without_an_editor_says_so(context):
    _, view = resolve(context)
    drain(view, {'type': 'insertCode', 'code': 'x'})
    assert vscode.window.messages[-1][0] == 'warning'
    assert 'open a file' in vscode.window.messages[-1][1]


def test_copy_and_settings_and_model(context):
    _, view = resolve(context)
    drain(view, {'type': 'copyCode', 'code': 'ls -la'})
    assert vscode.env.clipboard.text == 'ls -la'
    vscode.commands.registerCommand('workbench.action.openSettings', lambda query: query)
    drain(view, {'type': 'openSettings'})
    assert vscode.commands.executed[-1] == ('workbench.action.openSettings', ('@ext:hermes-agent.hermes-agent',))
    posted = drain(view, {'type': 'selectModel', 'model': 'm2'})
    assert vscode.workspace.settings['hermes.llm.model'] == 'm2'
    assert posted[-1]['type'] == 'models' and posted[-1]['current'] == 'm2'


def test_open_panel_focuses_the_view(context):
    resolve(context)
    focused = []
    async def focus():
        focused.append(True)
    vscode.commands.registerCommand(VIEW_ID + '.focus', focus)
    assert asyncio.run(vscode.commands.executeCommand(OPEN_COMMAND)) is True
    assert focused == [True]


def test_a_disposed_view_gets_no_more_messages(context):
    controller, view = resolve(context)
    view.dispose()
    controller.post({'type': 'textDelta', 'text': 'x'})
    assert view.webview.posted == []
    assert vscode.window.webview_view_providers
    context.dispose_all()
    assert not vscode.window.webview_view_providers and OPEN_COMMAND not in vscode.commands.handlers


def test_the_panel_is_posted_its_changes_only_when_its_conversations_changes_move(context, tmp_path):
    """Another client's writes are no news for the panel's conversation: nothing is posted to the webview for them."""
    from hermes.host.changes.log import ChangeLog
    log = Log()
    changes = ChangeLog(None, None, lambda key: True if key == 'changes.trackExternal' else None, None, None,
                        lambda path: True)
    panel = register_panel(context, log, run_turn, list_models, register_conversation_store(context, log), None,
                           changes)
    provider, _ = vscode.window.webview_view_providers[VIEW_ID]
    view = vscode.WebviewView()
    provider['resolveWebviewView'](view, {}, None)
    drain(view, {'type': 'ready'})  # the page loaded: it gets the state, its changes included
    drain(view, {'type': 'send', 'text': 'Fix a.py'})  # a turn: the conversation is stored, with its id

    def posted_changes():
        return [message for message in view.webview.posted if message['type'] == 'changes']
    before = len(posted_changes())
    assert before >= 1 and posted_changes()[-1]['turns'] == {}
    changes.record(str(tmp_path / 'other.py'), None, 'x\n', {'client': 'claude-code', 'session': 'mcp-1', 'turn': None})
    assert len(posted_changes()) == before
    mine = {'client': 'Hermes', 'session': panel.conversation.id, 'turn': 't1'}
    changes.record(str(tmp_path / 'a.py'), 'a\n', 'A\n', mine)
    assert len(posted_changes()) == before + 1
    assert posted_changes()[-1]['turns']['t1']['files'][0]['label'] == 'a.py'
    changes.record(str(tmp_path / 'other.py'), 'x\n', 'y\n', {'client': 'claude-code', 'session': 'mcp-1', 'turn': None})
    assert len(posted_changes()) == before + 1


def test_the_controller_is_made_when_first_needed_and_starts_from_the_store_as_it_is_then(context):
    """Before the view resolves nothing updates a page (a store change, a setting); showing a conversation makes the
    controller, which starts from the store's panel conversation of that moment."""
    log = Log()
    store = register_conversation_store(context, log, FakeClock())
    panel = register_panel(context, log, run_turn, list_models, store)
    assert panel.loaded is None and panel.conversation is None
    from hermes.core.chat.conversations import Conversation
    other = Conversation()
    other.title = 'Other'
    store.put(other, 'session')  # a chat session's change: no controller to tell
    assert panel.loaded is None
    assert panel.show(other) is True
    assert panel.loaded is not None and panel.conversation is other
    assert store.panel_id == other.id
    assert panel.controller() is panel.loaded
