"""MCP resources, prompts and completions through a real McpSession, the real host providers and
the vscode shim (real files in tmp_path); change notifications on a clock the test drives."""
import asyncio
import json

import pytest

import vscode
from hermes.core.mcp.protocol import McpSession, LATEST_PROTOCOL_VERSION
from hermes.core.mcp.resources import ResourceHub, parse_uri, resource_key, mime_type
from hermes.core.mcp.prompts import PROMPTS
from hermes.core.chat.prompts import COMMAND_PROMPTS, CHAT_SUBJECT, task_prompt
from hermes.core.completions import rank_paths
from hermes.core.tools import ToolRegistry
from hermes.host.mcp.features import McpFeatures
from hermes.host.recent_files import RecentFiles
from hermes.host.resource_provider import HostResources
from hermes.host.resource_events import ResourceEvents
from hermes.host.terminals import register_terminals

from fake_clock import FakeClock

APP = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n'


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / 'project'
    (root / 'src').mkdir(parents=True)
    (root / 'src' / 'app.py').write_text(APP)
    (root / 'src' / 'util.py').write_text('X = 1\n')
    (root / 'README.md').write_text('# Project\n')
    (tmp_path / 'secret.txt').write_text('secret\n')
    vscode.workspace.open_folders([str(root)])
    return root


class Client:
    """One MCP client session over the window's features, with its notifications."""

    def __init__(self, features):
        self.sent = []
        self.session = McpSession({'name': 'hermes-vscode', 'version': '0'}, ToolRegistry(),
                                  lambda message, related: self.sent.append(message))
        features.add_to(self.session)
        self.next_id = 1
        self.capabilities = self.result('initialize', {'protocolVersion': LATEST_PROTOCOL_VERSION,
                                                       'capabilities': {}, 'clientInfo': {'name': 't'}})['capabilities']

    def request(self, method, params=None):
        self.next_id += 1
        message = {'jsonrpc': '2.0', 'id': self.next_id, 'method': method}
        if params is not None:
            message['params'] = params
        return asyncio.run(self.session.handle(message))

    def result(self, method, params=None):
        response = self.request(method, params)
        assert 'result' in response, response
        return response['result']

    def error(self, method, params=None):
        response = self.request(method, params)
        assert 'error' in response, response
        return response['error']['code'], response['error']['message']

    def read(self, uri):
        return self.result('resources/read', {'uri': uri})['contents'][0]

    def updates(self):
        return [message['params']['uri'] for message in self.sent
                if message['method'] == 'notifications/resources/updated']


@pytest.fixture
def window(ws, context):
    clock = FakeClock()
    hub = ResourceHub(200, clock)
    terminals = register_terminals(context)
    recent = RecentFiles()
    context.subscriptions.push(recent.listen())
    for disposable in ResourceEvents(hub, terminals).listen():
        context.subscriptions.push(disposable)
    features = McpFeatures(hub, HostResources(recent, terminals))
    return {'clock': clock, 'hub': hub, 'features': features, 'recent': recent}


@pytest.fixture
def client(window):
    return Client(window['features'])


def open_editor(path, selection=None):
    options = {} if selection is None else {'selection': selection}
    async def show():
        return await vscode.window.showTextDocument(vscode.Uri.file(str(path)), options)
    editor = asyncio.run(show())
    vscode.window.make_active(editor)
    return editor


# ------------------------------------------------------------------------------------------ catalog

def test_capabilities_announce_resources_prompts_and_completions(client):
    assert client.capabilities['resources'] == {'subscribe': True, 'listChanged': True}
    assert client.capabilities['prompts'] == {'listChanged': False}
    assert client.capabilities['completions'] == {}


def test_the_list_names_every_resource_with_its_type_and_the_templates(client):
    resources = client.result('resources/list')['resources']
    assert [(item['uri'], item['mimeType']) for item in resources] == [
        ('hermes://editor/active', 'application/json'), ('hermes://editor/selection', 'text/plain'),
        ('hermes://editor/tabs', 'application/json'), ('hermes://diagnostics', 'application/json'),
        ('hermes://workspace', 'application/json'), ('hermes://changes', 'application/json')]
    templates = client.result('resources/templates/list')['resourceTemplates']
    assert [item['uriTemplate'] for item in templates] == ['file:///{+path}', 'hermes://terminal/{id}']


@pytest.mark.parametrize('uri, parsed', [
    ('hermes://editor/selection', {'kind': 'selection'}),
    ('hermes://terminal/12', {'kind': 'terminal', 'id': 12}),
    ('file:///home/u/a%20b.py', {'kind': 'file', 'path': '/home/u/a b.py'}),
    ('file:///c:/x.py', {'kind': 'file', 'path': 'c:/x.py'}),
    ('hermes://terminal/x', None), ('hermes://editor', None), ('file:///a?x=1', None), ('file:///%E0%A4%A', None),
    ('https://example.com/', None), (42, None),
])
def test_parse_uri(uri, parsed):
    assert parse_uri(uri) == parsed


def test_file_keys_ignore_how_the_path_is_escaped():
    assert resource_key('file:///p/a%20b.py') == resource_key('file:///p/a b.py') == 'file:/p/a b.py'
    assert mime_type('/p/x.PY') == 'text/x-python' and mime_type('/p/Makefile') == 'text/plain'


# ------------------------------------------------------------------------------------------ reading

def test_the_selection_reads_as_exactly_the_selected_text_with_path_and_range(ws, client):
    open_editor(ws / 'src' / 'app.py', vscode.Selection(1, 4, 1, 16))
    contents = client.read('hermes://editor/selection')
    assert contents['text'] == 'return a + b'
    assert contents['mimeType'] == 'text/plain'
    assert contents['_meta']['path'] == 'src/app.py'
    assert contents['_meta']['range'] == {'start': {'line': 2, 'column': 5}, 'end': {'line': 2, 'column': 17}}


def test_without_an_editor_the_selection_is_empty_and_active_is_null(client):
    assert client.read('hermes://editor/selection')['text'] == ''
    assert json.loads(client.read('hermes://editor/active')['text']) is None


def test_the_active_editor_describes_path_language_dirty_cursor(ws, client):
    open_editor(ws / 'src' / 'app.py', vscode.Selection(4, 0, 4, 3))
    active = json.loads(client.read('hermes://editor/active')['text'])
    assert (active['path'], active['languageId'], active['isDirty'], active['lineCount']) == \
        ('src/app.py', 'python', False, 7)
    assert active['cursor'] == {'line': 5, 'column': 4}
    assert active['selections'][0]['start'] == {'line': 5, 'column': 1}


def test_tabs_by_group_and_diagnostics_errors_first(ws, client):
    open_editor(ws / 'src' / 'app.py')
    open_editor(ws / 'README.md')
    groups = json.loads(client.read('hermes://editor/tabs')['text'])['groups']
    assert [tab['path'] for tab in groups[0]['tabs']] == ['src/app.py', 'README.md']
    assert [tab['active'] for tab in groups[0]['tabs']] == [False, True]
    vscode.languages.set_diagnostics(vscode.Uri.file(str(ws / 'README.md')), [
        vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'style', vscode.DiagnosticSeverity.Warning)])
    vscode.languages.set_diagnostics(vscode.Uri.file(str(ws / 'src' / 'util.py')), [
        vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'broken', vscode.DiagnosticSeverity.Error)])
    files = json.loads(client.read('hermes://diagnostics')['text'])['files']
    assert [(item['path'], item['errors'], item['warnings']) for item in files] == [
        ('src/util.py', 1, 0), ('README.md', 0, 1)]
    assert files[0]['problems'][0]['message'] == 'broken'


def test_workspace_lists_folders_and_says_when_there_is_no_git(ws, client):
    workspace = json.loads(client.read('hermes://workspace')['text'])
    assert workspace['folders'] == [{'name': 'project', 'path': str(ws), 'git': None}]


def test_a_workspace_file_reads_like_file_read(ws, client):
    contents = client.read('file://' + str(ws / 'src' / 'app.py'))
    assert contents == {'uri': 'file://' + str(ws / 'src' / 'app.py'), 'mimeType': 'text/x-python', 'text': APP}


def test_files_outside_the_workspace_are_refused_and_not_read(ws, tmp_path, client):
    code, message = client.error('resources/read', {'uri': 'file://' + str(tmp_path / 'secret.txt')})
    assert code == -32602 and 'is outside the workspace' in message
    code, message = client.error('resources/read', {'uri': 'file://' + str(ws) + '/../secret.txt'})
    assert code == -32602 and 'is outside the workspace' in message
    code, message = client.error('resources/subscribe', {'uri': 'file://' + str(tmp_path / 'secret.txt')})
    assert code == -32602 and 'is outside the workspace' in message


WITHHELD = 'The file is outside the workspace: its path and text are withheld.'


def test_the_selection_in_a_file_outside_the_workspace_is_withheld_with_its_path(ws, tmp_path, client):
    open_editor(tmp_path / 'secret.txt', vscode.Selection(0, 0, 0, 6))
    contents = client.read('hermes://editor/selection')
    assert contents['text'] == '' and contents['_meta']['withheld'] == WITHHELD
    assert contents['_meta']['path'] is None and str(tmp_path) not in json.dumps(contents)


def test_the_active_editor_outside_the_workspace_shows_no_path(ws, tmp_path, client):
    open_editor(tmp_path / 'secret.txt')
    text = client.read('hermes://editor/active')['text']
    active = json.loads(text)
    assert (active['path'], active['uri'], active['insideWorkspace'], active['withheld']) == (None, None, False, WITHHELD)
    assert str(tmp_path) not in text and 'secret' not in text


def test_tabs_and_problems_of_outside_files_show_no_path(ws, tmp_path, client):
    open_editor(ws / 'README.md')
    open_editor(tmp_path / 'secret.txt')
    tabs = client.read('hermes://editor/tabs')['text']
    assert [(tab['label'], tab['path']) for tab in json.loads(tabs)['groups'][0]['tabs']] == [
        ('README.md', 'README.md'), ('a file outside the workspace', None)]
    assert str(tmp_path) not in tabs.replace(str(ws), 'WS') and 'secret' not in tabs
    vscode.languages.set_diagnostics(vscode.Uri.file(str(tmp_path / 'secret.txt')), [
        vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'broken', vscode.DiagnosticSeverity.Error)])
    vscode.languages.set_diagnostics(vscode.Uri.file(str(ws / 'README.md')), [
        vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'style', vscode.DiagnosticSeverity.Warning)])
    text = client.read('hermes://diagnostics')['text']
    problems = json.loads(text)
    assert [item['path'] for item in problems['files']] == ['README.md']
    assert problems['withheld'] == '1 problems in files outside the workspace (their paths are withheld)'
    assert 'secret' not in text


def test_outside_paths_are_shown_when_the_user_allows_outside_access(ws, tmp_path, client):
    vscode.workspace.set_setting('hermes.tools.allowOutsideWorkspace', True)
    open_editor(tmp_path / 'secret.txt')
    active = json.loads(client.read('hermes://editor/active')['text'])
    assert (active['path'], active['insideWorkspace']) == (str(tmp_path / 'secret.txt'), True)
    assert 'withheld' not in active


def test_binary_missing_and_unknown_resources(ws, client):
    (ws / 'blob.bin').write_bytes(b'\x00\x01\x02')
    assert 'looks like a binary file' in client.error('resources/read', {'uri': 'file://' + str(ws / 'blob.bin')})[1]
    assert 'does not exist' in client.error('resources/read', {'uri': 'file://' + str(ws / 'nope.py')})[1]
    assert client.error('resources/read', {'uri': 'hermes://editor/nothing'}) == (
        -32002, 'Resource not found: hermes://editor/nothing (see resources/list and resources/templates/list)')
    assert client.error('resources/read', {'uri': 'hermes://terminal/7'})[0] == -32002
    assert client.error('resources/read', {}) == (
        -32602, 'resources/read: params.uri must be a string, such as "hermes://editor/selection"')


# ------------------------------------------------------------------------------------------ notifications

def test_a_subscriber_hears_of_selection_changes_at_most_every_200_ms_and_last_after_the_burst(ws, window, client):
    editor = open_editor(ws / 'src' / 'app.py')
    assert client.result('resources/subscribe', {'uri': 'hermes://editor/selection'}) == {}
    clock = window['clock']
    for column in range(100):
        vscode.window.select(editor, vscode.Selection(0, 0, 0, column % 14))
        clock.advance(3)
    assert 1 <= len(client.updates()) <= 3
    clock.advance(1000)
    updates = client.updates()
    assert updates == ['hermes://editor/selection'] * len(updates) and len(updates) <= 4
    assert client.read('hermes://editor/selection')['text'] == 'def add(a, b)'[:99 % 14]
    # each update carries the time the throttle let it through: 200 ms apart, the last after the last change
    sent_at = [message['params']['_meta']['hermes/sentAt'] for message in client.sent
               if message['method'] == 'notifications/resources/updated']
    assert sent_at[0] == 1000 and all(later - earlier >= 200 for earlier, later in zip(sent_at, sent_at[1:]))
    assert sent_at[-1] >= 1000 + 99 * 3


def test_unsubscribe_and_close_stop_notifications(ws, window, client):
    editor = open_editor(ws / 'src' / 'app.py')
    client.result('resources/subscribe', {'uri': 'hermes://editor/selection'})
    client.result('resources/unsubscribe', {'uri': 'hermes://editor/selection'})
    vscode.window.select(editor, vscode.Selection(0, 0, 0, 3))
    window['clock'].advance(1000)
    assert client.updates() == []
    other = Client(window['features'])
    other.result('resources/subscribe', {'uri': 'hermes://editor/active'})
    other.session.close()
    vscode.window.select(editor, vscode.Selection(0, 0, 0, 4))
    window['clock'].advance(1000)
    assert other.updates() == [] and not window['hub'].watched('hermes://editor/active')


def test_each_client_is_told_with_the_uri_it_subscribed_with(ws, window, client):
    path = str(ws / 'src' / 'app.py')
    client.result('resources/subscribe', {'uri': 'file://' + path})
    client.result('resources/subscribe', {'uri': 'hermes://diagnostics'})
    client.result('resources/subscribe', {'uri': 'hermes://editor/tabs'})
    document = vscode._load_document(vscode.Uri.file(path))
    vscode.workspace._document_saved.fire(document)
    vscode.languages.set_diagnostics(vscode.Uri.file(path), [vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'x')])
    open_editor(ws / 'README.md')
    assert client.updates() == ['file://' + path, 'hermes://diagnostics', 'hermes://editor/tabs']


def test_terminals_are_listed_and_their_comings_and_goings_announced(window, client):
    terminal = vscode.window.createTerminal({'name': 'build'})
    messages = [message['method'] for message in client.sent]
    assert 'notifications/resources/list_changed' in messages
    listed = [item for item in client.result('resources/list')['resources'] if item['uri'].startswith('hermes://terminal/')]
    assert len(listed) == 1 and listed[0]['title'].endswith(': build')
    text = client.read(listed[0]['uri'])['text']
    assert text.startswith('(a terminal the user opened: its commands and output are withheld here')  # not ours


# ------------------------------------------------------------------------------------------ prompts

def test_the_prompts_are_the_chat_commands_texts(client):
    prompts = client.result('prompts/list')['prompts']
    assert [prompt['name'] for prompt in prompts] == ['explain', 'fix', 'write_tests']
    assert [argument['name'] for argument in prompts[0]['arguments']] == ['path', 'selection']
    for prompt, command in zip(PROMPTS, ['explain', 'fix', 'test']):
        assert task_prompt(prompt['task'], CHAT_SUBJECT) == COMMAND_PROMPTS[command]


def test_a_prompt_comes_back_with_the_file_embedded(ws, client):
    result = client.result('prompts/get', {'name': 'explain', 'arguments': {'path': 'src/app.py'}})
    resource = result['messages'][0]['content']
    assert resource == {'type': 'resource', 'resource': {
        'uri': 'file://' + str(ws / 'src' / 'app.py'), 'mimeType': 'text/x-python', 'text': APP}}
    assert result['messages'][1]['content'] == {'type': 'text', 'text': task_prompt('explain', '`src/app.py`')}


def test_a_prompt_about_some_lines_quotes_them(client):
    result = client.result('prompts/get', {'name': 'write_tests', 'arguments': {'path': 'src/app.py', 'selection': '5-6'}})
    text = result['messages'][1]['content']['text']
    assert text.startswith('Write tests for lines 5-6 of `src/app.py` in the style')
    assert text.endswith('```\ndef sub(a, b):\n    return a - b\n```')


@pytest.mark.parametrize('arguments, expected', [
    ({}, 'prompts/get fix: the argument "path" is required (a file relative to the workspace)'),
    ({'path': '../secret.txt'}, 'is outside the workspace'),
    ({'path': 'src/app.py', 'selection': 'a-b'}, 'selection must be a line range "START-END" or a line "N", not "a-b"'),
    ({'path': 'src/app.py', 'selection': '9-3'}, 'selection "9-3" is not a line range of the file (it has 7 lines)'),
])
def test_prompt_arguments_are_checked(client, arguments, expected):
    code, message = client.error('prompts/get', {'name': 'fix', 'arguments': arguments})
    assert code == -32602 and expected in message


def test_an_unknown_prompt_is_an_error(client):
    assert client.error('prompts/get', {'name': 'poem'}) == (-32602, 'Unknown prompt: poem (prompts: explain, fix, write_tests)')


# ------------------------------------------------------------------------------------------ completions

def test_paths_rank_by_recent_use_then_match_then_name():
    candidates = ['src/app.py', 'src/util.py', 'apps/x.py', 'README.md', 'docs/mapping.md']
    assert rank_paths(candidates, [], 'ap') == ['src/app.py', 'apps/x.py', 'docs/mapping.md']
    assert rank_paths(candidates, ['docs/mapping.md'], 'ap') == ['docs/mapping.md', 'src/app.py', 'apps/x.py']
    assert rank_paths(candidates, ['src/util.py'], '') == ['src/util.py', 'apps/x.py', 'docs/mapping.md',
                                                             'README.md', 'src/app.py']  # case-insensitive


def test_prompt_paths_complete_with_recently_used_files_first(ws, client):
    open_editor(ws / 'src' / 'util.py')
    open_editor(ws / 'README.md')
    completion = client.result('completion/complete', {'ref': {'type': 'ref/prompt', 'name': 'explain'},
                                                       'argument': {'name': 'path', 'value': ''}})['completion']
    assert completion['values'][:3] == ['README.md', 'src/util.py', 'src/app.py']
    assert completion['hasMore'] is False and completion['total'] == 3
    typed = client.result('completion/complete', {'ref': {'type': 'ref/prompt', 'name': 'explain'},
                                                  'argument': {'name': 'path', 'value': 'app'}})['completion']
    assert typed['values'] == ['src/app.py']


def test_the_file_template_completes_absolute_paths(ws, client):
    completion = client.result('completion/complete', {'ref': {'type': 'ref/resource', 'uri': 'file:///{+path}'},
                                                       'argument': {'name': 'path', 'value': 'util'}})['completion']
    assert completion['values'] == [str(ws / 'src' / 'util.py')[1:]]


def test_completion_refuses_unknown_references(client):
    assert client.error('completion/complete', {'ref': {'type': 'ref/prompt', 'name': 'poem'},
                                                'argument': {'name': 'path', 'value': ''}})[0] == -32602
    assert client.error('completion/complete', {'ref': {'type': 'ref/tool'},
                                                'argument': {'name': 'path', 'value': ''}})[0] == -32602


# ------------------------------------------------------------------------------------------ 2026-07-28

class StatelessServer:
    """What core/mcp/stateless.py offers features: add_feature, add_event_source."""

    def __init__(self):
        self.features = []
        self.sources = []

    def add_feature(self, feature):
        self.features.append(feature)

    def add_event_source(self, source):
        self.sources.append(source)

    def handler(self, method):
        for feature in self.features:
            handler = feature.handler(method)
            if handler is not None:
                return handler
        return None


def test_the_2026_server_gets_list_read_and_an_event_source_for_listen(ws, window, tmp_path):
    server = StatelessServer()
    window['features'].add_to_stateless(server)
    assert server.handler('resources/read') is not None and server.handler('prompts/get') is not None
    assert server.handler('resources/subscribe') is None  # removed in 2026-07-28: listen instead
    [source] = server.sources
    heard = []
    stop = source.on_resource_updated('hermes://editor/selection', lambda: heard.append('selection'))
    stop_list = source.on_list_changed('resources', lambda: heard.append('list'))
    assert source.on_list_changed('prompts', lambda: None) is None
    assert source.on_resource_updated('file://' + str(tmp_path / 'secret.txt'), lambda: None) is None
    assert source.on_resource_updated('hermes://nothing', lambda: None) is None
    editor = open_editor(ws / 'src' / 'app.py')
    vscode.window.select(editor, vscode.Selection(0, 0, 0, 3))
    vscode.window.createTerminal({'name': 'x'})
    assert heard == ['selection', 'list']
    stop()
    stop_list()
    window['clock'].advance(1000)
    vscode.window.select(editor, vscode.Selection(0, 0, 0, 4))
    vscode.window.createTerminal({'name': 'y'})
    assert heard == ['selection', 'list']


def test_sessions_may_close_after_the_hub_is_disposed(ws, window, client):
    client.result('resources/subscribe', {'uri': 'hermes://editor/selection'})
    window['features'].dispose()  # the window's subscriptions go first when VS Code shuts the extension down
    client.session.close()
    assert client.session.closed


def test_path_candidates_checked_a_slice_at_a_time_are_the_same(ws, client, monkeypatch):
    from hermes.host import resource_provider
    values = lambda: client.result('completion/complete', {'ref': {'type': 'ref/prompt', 'name': 'explain'},
                                                           'argument': {'name': 'path', 'value': ''}})['completion']
    whole = values()
    monkeypatch.setattr(resource_provider, 'CONFINE_SLICE', 1)  # each candidate in a turn of its own
    assert values() == whole and whole['total'] == 3
