"""Services are passed, not fetched: a tool handler uses the services of the registry that runs it
(`call.services`), the resources provider and its events the terminals they were built with. Fakes
stand in for the window's services here; the tools' own tests run them against the shim."""
import asyncio
from types import SimpleNamespace

from hermes.core.mcp.resources import terminal_uri
from hermes.core.tools import Services, ToolCall, ToolRegistry, Tool
from hermes.host.resource_events import ResourceEvents
from hermes.host.resource_provider import HostResources
from hermes.tools.catalog import build_registry
from service_fakes import (FakeConfiguration, FakeDebugging, FakeDocuments, FakeFiles, FakeLanguage, FakePaths,
                           FakeTabs, FakeTerminals, run_tool, text as fake_text)

NOT_ACTIVE = ' is not available: the Hermes extension is not fully active in this window.'


class FakeRecord:
    def __init__(self, terminal_id, name):
        self.id = terminal_id
        self.name = name
        self.executions = []
        self.owned = True  # made by Hermes: a resource shows its commands
        self.terminal = SimpleNamespace(shellIntegration={})

    def label(self):
        return self.name

    def describe(self):
        return {'id': self.id, 'name': self.name, 'active': False, 'shellIntegration': True, 'running': None,
                'exitCode': None, 'executions': 0}


class ListenedTerminals:
    """What the resources need of the terminal service (records, on_change): host code, not a tool."""

    def __init__(self, *records):
        self.records = list(records)
        self.listeners = []

    def on_change(self, listener):
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)


class FakeHub:
    def __init__(self):
        self.changes = []

    def changed(self, key):
        self.changes.append(key)

    def list_changed(self):
        self.changes.append('list')


def call(registry, name, arguments=None):
    result = asyncio.run(registry.call(name, arguments or {}, ToolCall()))
    return result['content'][0]['text']


def test_a_handler_uses_the_services_of_the_registry_that_runs_it():
    build = build_registry(None, Services(terminals=FakeTerminals([FakeRecord(1, 'build')])))
    watch = build_registry(None, Services(terminals=FakeTerminals([FakeRecord(5, 'watch')])))
    assert call(build, 'terminal_list') == '1 "build": shell integration on, 0 captured commands'
    assert call(watch, 'terminal_list') == '5 "watch": shell integration on, 0 captured commands'
    assert call(build_registry(None, Services(debugging=FakeDebugging())), 'debug_stop') == 'No debug session is running.'


def test_the_debug_tools_set_breakpoints_through_the_debug_service():
    debugging = FakeDebugging()
    files = FakeFiles({'/w/app.js': 'a\nb\nc\n'})
    text = fake_text(run_tool('debug_set_breakpoints', {'path': 'app.js', 'lines': [2, 3]}, debugging=debugging,
                              files=files))
    assert text == 'Breakpoints in app.js at line 2, 3. They apply to running and future debug sessions.'
    assert debugging.calls == [('/w/app.js', [2, 3], None, True)]  # the schema's default replace
    past = run_tool('debug_set_breakpoints', {'path': 'app.js', 'lines': [4]}, debugging=debugging, files=files)
    assert [fake_text(past), len(debugging.calls)] == ['Line 4 is past the end of app.js (3 lines).', 1]
    missing = run_tool('debug_set_breakpoints', {'path': 'gone.js', 'lines': [1]}, debugging=debugging, files=files)
    assert [fake_text(missing), len(debugging.calls)] == [
        'Cannot read "gone.js": set breakpoints in an existing file.', 1]


def test_the_editor_tools_use_the_tabs_and_problems_of_their_call():
    path = '/w/app.js'
    tabs = FakeTabs({path: ['left tab', 'right tab']})
    paths, documents = FakePaths(), FakeDocuments(FakeFiles({path: 'let a\nlet b c\n'}))
    assert call(build_registry(None, Services(tabs=tabs, paths=paths, documents=documents)), 'editor_close_tab',
                {'path': 'app.js'}) == 'Closed 2 tabs showing app.js.'
    assert tabs.done == [('close', ['left tab', 'right tab'])]
    tabs = FakeTabs()
    language = FakeLanguage(asked=tabs.done, problems_after_wait=[
        {'path': 'app.js', 'line': 2, 'column': 5, 'severity': 'error', 'code': None, 'message': "';' expected.",
         'source': 'ts'}])
    text = call(build_registry(None, Services(tabs=tabs, language=language, paths=paths)), 'editor_get_diagnostics',
                {'path': 'app.js'})
    assert text == "1 problem in app.js (1 error):\napp.js:2:5 error: ';' expected. (ts)"
    # not open: opened in the background, reported on (3 s by default), closed again
    assert tabs.done == [('open', 'app.js'), ('wait', 3000), ('close', ['tab of app.js'])]


def test_the_diagnostics_of_every_file_withhold_the_paths_of_files_outside_the_workspace():
    language = FakeLanguage()
    language.found_problems = [
        {'path': 'app.js', 'line': 2, 'column': 5, 'severity': 'error', 'code': None, 'message': 'x', 'source': None},
        {'path': 'a file outside the workspace', 'withheld': True, 'line': 1, 'column': 1, 'severity': 'warning',
         'code': None, 'message': '', 'source': None}]  # what host/diagnostics.py `describe` makes of an outside one
    registry = build_registry(None, Services(language=language))
    text = call(registry, 'editor_get_diagnostics')
    assert text == ('1 problem in the workspace (1 error):\napp.js:2:5 error: x\n'
                    '[not listed: 1 problem in files outside the workspace, whose paths are withheld]')
    language.found_problems = language.found_problems[1:]
    assert call(registry, 'editor_get_diagnostics') == ('No problems reported for the workspace.\n[not listed: 1 '
                                                        'problem in files outside the workspace, whose paths are withheld]')


def test_the_host_withholds_problems_of_outside_files_by_the_one_rule(tmp_path):
    """host/diagnostics.py `describe` (through host/confinement.py): an outside file's problem says only "a file
    outside the workspace", without its message; the user's own setting shows it."""
    import vscode
    from hermes.host.language_service import LanguageService
    (tmp_path / 'ws').mkdir()
    vscode.workspace.open_folders([str(tmp_path / 'ws')])
    outside = str(tmp_path / 'elsewhere' / 'secret-project' / 'notes.js')
    vscode.languages.set_diagnostics(vscode.Uri.file(outside), [vscode.Diagnostic(vscode.Range(0, 0, 0, 1), 'the key is k')])
    vscode.languages.set_diagnostics(vscode.Uri.file(str(tmp_path / 'ws' / 'app.js')),
                                     [vscode.Diagnostic(vscode.Range(1, 4, 1, 5), 'x')])
    problems = LanguageService().problems()
    assert [problem['path'] for problem in problems] == ['a file outside the workspace', 'app.js']
    assert problems[0]['withheld'] is True and problems[0]['message'] == '' and 'withheld' not in problems[1]
    registry = build_registry(None, Services(language=LanguageService()))
    assert 'secret-project' not in call(registry, 'editor_get_diagnostics')
    vscode.workspace.set_setting('hermes.tools.allowOutsideWorkspace', True)  # the user allows outside paths
    assert outside + ':1:1' in call(registry, 'editor_get_diagnostics')


def test_the_settings_tools_use_the_settings_service_of_their_call():
    configuration = FakeConfiguration({'editor.tabSize': 2})
    registry = build_registry(None, Services(configuration=configuration))
    assert call(registry, 'workspace_get_config', {'key': 'editor.tabSize'}) == \
        '{\n  "key": "editor.tabSize",\n  "value": 2,\n  "known": true\n}'
    call(registry, 'workspace_set_config', {'key': 'editor.tabSize', 'value': 3})
    call(registry, 'workspace_set_config', {'key': 'editor.tabSize', 'value': None, 'target': 'user'})
    # without a target the service picks it (this folder's settings, or the user's when none is open)
    assert configuration.written == [('editor.tabSize', 3, None), ('editor.tabSize', None, 'user')]


def test_the_registry_hands_its_services_and_gate_to_each_call():
    seen = []

    async def handler(args, call):
        seen.append((call.services, call.gate))
        return 'ok'
    services, gate = Services(terminals=FakeTerminals()), None
    registry = ToolRegistry(gate, services)
    registry.add(Tool('probe', 'Probe.', {'type': 'object'}, handler))
    call(registry, 'probe')
    assert seen == [(services, None)]


def test_a_service_the_registry_was_built_without_is_a_clear_tool_error():
    bare = build_registry()
    assert call(bare, 'terminal_list') == 'The terminal service' + NOT_ACTIVE
    assert call(bare, 'debug_stop') == 'The debug service' + NOT_ACTIVE
    assert call(build_registry(None, Services(terminals=FakeTerminals())), 'debug_get_variables') == \
        'The debug service' + NOT_ACTIVE
    assert call(bare, 'lsp_workspace_symbols', {'query': 'x'}) == 'The language service' + NOT_ACTIVE
    assert call(bare, 'editor_get_open_tabs') == 'The editor tab service' + NOT_ACTIVE
    assert call(bare, 'workspace_set_config', {'key': 'editor.tabSize', 'value': 3}) == 'The settings service' + NOT_ACTIVE


def test_the_resources_read_the_terminals_they_were_built_with():
    terminals = ListenedTerminals(FakeRecord(3, 'server'))
    provider = HostResources(None, terminals)
    assert provider.terminals() == [{'id': 3, 'name': 'server'}]
    assert provider.terminal_output(3) == '(no command has run in this terminal since Hermes started)'
    assert provider.terminal_output(4) is None


def test_the_resource_events_follow_the_terminals_they_were_built_with(context):
    terminals, hub = ListenedTerminals(), FakeHub()
    disposables = ResourceEvents(hub, terminals).listen()
    [listener] = terminals.listeners
    listener(FakeRecord(2, 'x'), 'output')
    listener(FakeRecord(2, 'x'), 'opened')
    assert hub.changes == [terminal_uri(2), 'list']
    for disposable in disposables:
        disposable.dispose()
    assert terminals.listeners == []
