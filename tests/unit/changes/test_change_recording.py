"""Every write a tool makes is recorded in the change log with who made it (the ToolCall's author), through the
host's write functions — editor_edit_file, file_write, file_create, file_delete, lsp_rename, workspace_set_config, and the files a terminal_run command changes — and Keep/Undo act on the real
files through the editor (the vscode shim over tmp_path)."""
import asyncio
import json

import pytest

import vscode
from fake_clock import FakeClock
from hermes.core.mcp.protocol import mcp_author
from hermes.core.mcp.resources import CHANGES
from hermes.host.mcp.features import register_mcp_features
from hermes.host.terminals import register_terminals
from hermes.core.tools import ToolCall
from hermes.host import configuration
from hermes.host.changes.files import EditorFiles
from hermes.host.changes.log import ChangeLog, ChangeConflict
from hermes.host.documents import open_document_for
from hermes.host.language_service import LanguageService
from hermes.tools.catalog import build_registry
from shim_services import shim_services

MARK = '\x1b]633;C\x07'  # where a command's output starts (shell integration)
CLAUDE = mcp_author({'name': 'claude-code', 'version': '2.1'})
PANEL = {'client': 'Hermes panel', 'session': 'c1', 'turn': 't1'}


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / 'project'
    root.mkdir()
    (root / 'app.py').write_text('one\ntwo\nthree\nfour\nfive\n')
    vscode.workspace.open_folders([str(root)])
    return root


@pytest.fixture
def log():
    settings = {'changes.trackExternal': True, 'changes.autoKeep': 'never', 'changes.autoKeepSeconds': 300}
    return ChangeLog(EditorFiles(), None, settings.get, None, None, None, FakeClock())  # its timers never fire


def tool(log, name, arguments, author):
    call = ToolCall()
    call.author = author
    registry = build_registry(None, shim_services(changes=log))
    result = asyncio.run(registry.call(name, arguments, call))
    return result


def ok(log, name, arguments, author=PANEL):
    result = tool(log, name, arguments, author)
    assert result['isError'] is False, result['content'][0]['text']
    return result


def test_mcp_author_names_the_client_and_marks_it_external():
    assert CLAUDE == {'client': 'claude-code', 'session': None, 'turn': None, 'external': True}
    assert mcp_author({'title': 'Some Client'})['client'] == 'Some Client'
    assert mcp_author(None)['client'] == 'an MCP client'


def test_editor_edit_file_is_recorded_with_its_author_and_undone_through_the_editor(ws, log):
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'two', 'new_text': 'TWO'},
                                                             {'old_text': 'five', 'new_text': 'FIVE'}]}, CLAUDE)
    [item] = log.pending()
    assert item['client'] == 'claude-code' and item['path'] == str(ws / 'app.py')
    assert [(h['start'], h['before_lines'], h['after_lines']) for h in item['hunks']] == [
        (1, ['two'], ['TWO']), (4, ['five'], ['FIVE'])]
    log.keep(str(ws / 'app.py'), item['hunks'][0]['id'])
    asyncio.run(log.undo(str(ws / 'app.py'), item['hunks'][1]['id']))
    assert (ws / 'app.py').read_text() == 'one\nTWO\nthree\nfour\nfive\n'
    assert log.pending() == []


def test_file_write_create_and_delete_are_recorded(ws, log):
    ok(log, 'file_write', {'path': 'app.py', 'content': 'one\n2\nthree\nfour\nfive\n'})
    ok(log, 'file_create', {'path': 'new/made.py', 'content': 'x = 1\n'})
    (ws / 'gone.txt').write_text('bye\n')
    ok(log, 'file_delete', {'path': 'gone.txt'})
    items = {item['path']: item for item in log.pending()}
    assert items[str(ws / 'app.py')]['hunks'][0]['after_lines'] == ['2']
    assert items[str(ws / 'new' / 'made.py')]['created'] is True
    assert items[str(ws / 'gone.txt')]['deleted'] is True
    result = asyncio.run(log.undo_all())
    assert result == {'undone': 3, 'conflicts': []}
    assert (ws / 'app.py').read_text() == 'one\ntwo\nthree\nfour\nfive\n'
    assert not (ws / 'new' / 'made.py').exists()
    assert (ws / 'gone.txt').read_text() == 'bye\n'


def test_undo_into_an_open_editor_keeps_the_users_unsaved_edits_elsewhere(ws, log):
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'five', 'new_text': 'FIVE'}]})
    document = open_document_for(str(ws / 'app.py')) or asyncio.run(
        vscode.workspace.openTextDocument(vscode.Uri.file(str(ws / 'app.py'))))
    edit = vscode.WorkspaceEdit()
    edit.insert(document.uri, vscode.Position(0, 0), 'mine\n')
    assert vscode.workspace.applyEdit(edit)
    asyncio.run(log.undo(str(ws / 'app.py')))
    assert document.getText() == 'mine\none\ntwo\nthree\nfour\nfive\n'
    assert document.isDirty  # the user's unsaved edit stays theirs to save


def test_another_clients_pending_hunk_is_refused_until_the_file_is_read(ws, log):
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'two', 'new_text': 'TWO'}]}, PANEL)
    refused = tool(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'TWO', 'new_text': '2'}]},
                   CLAUDE)
    assert refused['isError'] is True
    assert refused['content'][0]['text'].startswith('Refused: lines 2-2 of this file hold a change by Hermes panel')
    assert 'TWO' in (ws / 'app.py').read_text()
    whole = tool(log, 'file_write', {'path': 'app.py', 'content': 'x\n'}, CLAUDE)
    assert whole['isError'] is True and (ws / 'app.py').read_text() != 'x\n'
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'four', 'new_text': '4'}]}, CLAUDE)
    ok(log, 'file_read', {'path': 'app.py'}, CLAUDE)
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'TWO', 'new_text': '2'}]}, CLAUDE)
    assert (ws / 'app.py').read_text() == 'one\n2\nthree\n4\nfive\n'


def test_a_registry_without_a_change_log_still_writes(ws):
    registry = build_registry(None, shim_services())
    result = asyncio.run(registry.call('file_write', {'path': 'app.py', 'content': 'plain\n'}, ToolCall()))
    assert result['isError'] is False and (ws / 'app.py').read_text() == 'plain\n'


def test_undo_of_a_hunk_the_user_changed_in_the_file_is_a_conflict(ws, log):
    ok(log, 'file_write', {'path': 'app.py', 'content': 'one\nTWO\nthree\nfour\nfive\n'})
    (ws / 'app.py').write_text('one\nTWO!\nthree\nfour\nfive\n')
    with pytest.raises(ChangeConflict):
        asyncio.run(log.undo(str(ws / 'app.py')))
    assert (ws / 'app.py').read_text() == 'one\nTWO!\nthree\nfour\nfive\n'


def test_lsp_rename_records_every_file_it_changes(ws, log):
    (ws / 'lib.py').write_text('def greet():\n    pass\n')
    (ws / 'main.py').write_text('from lib import greet\n\ngreet()\n')

    async def rename(uri, position, new_name):
        edit = vscode.WorkspaceEdit()
        edit.replace(vscode.Uri.file(str(ws / 'lib.py')), vscode.Range(0, 4, 0, 9), new_name)
        edit.replace(vscode.Uri.file(str(ws / 'main.py')), vscode.Range(0, 16, 0, 21), new_name)
        edit.replace(vscode.Uri.file(str(ws / 'main.py')), vscode.Range(2, 0, 2, 5), new_name)
        return edit
    vscode.commands.registerCommand('vscode.executeDocumentRenameProvider', rename)
    call = ToolCall()
    call.author = CLAUDE
    registry = build_registry(None, shim_services(changes=log, language=LanguageService()))
    result = asyncio.run(registry.call('lsp_rename', {'path': 'lib.py', 'symbol': 'greet', 'new_name': 'welcome'},
                                       call))
    assert result['isError'] is False, result['content'][0]['text']
    items = {item['path']: item for item in log.pending()}
    assert sorted(items) == [str(ws / 'lib.py'), str(ws / 'main.py')]
    assert [h['after_lines'] for h in items[str(ws / 'main.py')]['hunks']] == [['from lib import welcome'], ['welcome()']]
    assert {item['client'] for item in items.values()} == {'claude-code'}
    asyncio.run(log.undo_all())
    assert (ws / 'main.py').read_text() == 'from lib import greet\n\ngreet()\n'


def test_workspace_set_config_records_the_workspace_settings_file(ws, log, monkeypatch):
    settings_file = ws / '.vscode' / 'settings.json'

    async def write_setting(key, value, target_name):  # VS Code writes the folder's settings.json
        settings_file.parent.mkdir(exist_ok=True)
        settings_file.write_text('{\n  "' + key + '": ' + json.dumps(value) + '\n}\n')
        return {'key': key, 'value': value}
    monkeypatch.setattr(configuration, 'write_setting', write_setting)
    registry = build_registry(None, shim_services(changes=log, configuration=configuration.ConfigurationService()))
    call = ToolCall()
    call.author = PANEL
    result = asyncio.run(registry.call('workspace_set_config', {'key': 'editor.tabSize', 'value': 2}, call))
    assert result['isError'] is False
    [item] = log.pending()
    assert item['path'] == str(settings_file) and item['created'] is True
    assert item['hunks'][0]['after_lines'] == ['{', '  "editor.tabSize": 2', '}']
    assert configuration.settings_file_of('user') is None


def test_user_settings_are_not_recorded(ws, log, monkeypatch):
    async def write_setting(key, value, target_name):
        return {'key': key, 'value': value}
    monkeypatch.setattr(configuration, 'write_setting', write_setting)
    registry = build_registry(None, shim_services(changes=log, configuration=configuration.ConfigurationService()))
    result = asyncio.run(registry.call('workspace_set_config', {'key': 'editor.tabSize', 'value': 2, 'target': 'user'},
                                       ToolCall()))
    assert result['isError'] is False and log.pending() == []


def test_changes_list_shows_who_changed_what_and_what_the_user_decided(ws, log):
    ok(log, 'editor_edit_file', {'path': 'app.py', 'edits': [{'old_text': 'two', 'new_text': 'TWO'}]}, CLAUDE)
    ok(log, 'file_create', {'path': 'b.py', 'content': 'b = 1\n'}, PANEL)
    log.keep(str(ws / 'b.py'))
    result = ok(log, 'changes_list', {}, CLAUDE)
    view = result['structuredContent']
    assert view['summary'] == {'files': 1, 'hunks': 1, 'added': 1, 'removed': 1}
    [item] = view['pending']
    assert (item['path'], item['client']) == ('app.py', 'claude-code')
    assert item['hunks'] == [{'id': 'h1', 'line': 2, 'added': 1, 'removed': 1, 'removed_lines': ['two'],
                              'added_lines': ['TWO']}]
    assert [(h['action'], h['path'], h['client']) for h in view['history']] == [('kept', 'b.py', 'Hermes panel')]
    assert result['content'][0]['text'] == (
        '1 file with pending changes (1 hunk, +1 −1), waiting for the user to keep or undo:\n'
        '- app.py: +1 −1 by claude-code, hunks at line 2\n'
        'Decided by the user, newest last:\n'
        '- kept: b.py +1 −0 by Hermes panel (session c1), turn t1')
    only = ok(log, 'changes_list', {'client': 'nobody', 'include_lines': False})['structuredContent']
    assert only['pending'] == [] and only['history'] == []
    mine = ok(log, 'changes_list', {'mine': True}, PANEL)['structuredContent']
    assert mine['pending'] == [] and [h['path'] for h in mine['history']] == ['b.py']


def test_changes_list_without_a_change_log_says_so(ws):
    registry = build_registry(None, shim_services())
    result = asyncio.run(registry.call('changes_list', {}, ToolCall()))
    assert result['isError'] is True
    assert result['content'][0]['text'] == ('The change log is not available: the Hermes extension is not fully '
                                            'active in this window.')


def test_the_changes_resource_reads_the_log_and_changes_with_it(ws, log, context):
    features = register_mcp_features(context, register_terminals(context), log)
    heard = []
    features.hub.subscribe(CHANGES, heard.append)
    ok(log, 'file_write', {'path': 'app.py', 'content': 'one\n'}, CLAUDE)
    assert heard == [CHANGES]
    [contents] = asyncio.run(features.catalog.read(CHANGES))
    assert contents['mimeType'] == 'application/json'
    view = json.loads(contents['text'])
    assert view['pending'][0]['path'] == 'app.py' and view['pending'][0]['client'] == 'claude-code'
    assert CHANGES in [resource['uri'] for resource in features.catalog.list()]


def test_changes_list_shows_a_move_at_both_ends(ws, log):
    (ws / 'app.py').rename(ws / 'moved.py')
    log.record_rename(str(ws / 'app.py'), str(ws / 'moved.py'), 'one\ntwo\nthree\nfour\nfive\n',
                      'one\ntwo\nthree\nfour\nfive\n', PANEL)
    result = ok(log, 'changes_list', {'include_lines': False})
    assert [(item['path'], item.get('renamed_from'), item.get('renamed_to'))
            for item in result['structuredContent']['pending']] == [('app.py', None, 'moved.py'),
                                                                    ('moved.py', 'app.py', None)]
    assert '- moved.py (moved from app.py): +5 −0 by Hermes panel (session c1), turn t1, hunks at line 1' in \
        result['content'][0]['text']
    asyncio.run(log.undo(str(ws / 'app.py')))
    assert (ws / 'app.py').read_text() == 'one\ntwo\nthree\nfour\nfive\n' and not (ws / 'moved.py').exists()


# ------------------------------------------------------------------------------ the built-in loop's authors

def loop_authors(sinks, runs=1):
    """The author each tool call carries, over `runs` runs of one loop, for the given sinks."""
    from hermes.core.agent_loop import AgentLoop
    from hermes.core.tools import Tool, ToolRegistry
    seen = []

    async def who(args, tool_call):
        seen.append(tool_call.author)
        return 'ok'
    registry = ToolRegistry()
    registry.add(Tool('who', 'Who calls.', {'type': 'object', 'properties': {}}, who))

    class Client:
        def __init__(self):
            self.replies = [{'tool_calls': [{'id': 'c1', 'type': 'function',
                                             'function': {'name': 'who', 'arguments': '{}'}}]}, {'content': 'done'}] * runs

        async def stream_chat(self, body, on_delta, cancellation):
            reply = self.replies.pop(0)
            return {'content': reply.get('content', ''), 'tool_calls': reply.get('tool_calls', []),
                    'finish_reason': 'stop', 'usage': None}

        async def model_info(self, model):
            return None
    loop = AgentLoop(Client(), registry)
    for _ in range(runs):
        asyncio.run(loop.run([{'role': 'user', 'content': 'go'}], sinks))
    return seen


class NamedSink:
    def __init__(self, author):
        self.author = author

    def change_author(self):
        return self.author


def test_the_loops_tool_calls_carry_the_front_ends_author_with_a_turn():
    [author] = loop_authors(NamedSink({'client': 'Hermes panel', 'session': 'c9', 'turn': '4'}))
    assert author == {'client': 'Hermes panel', 'session': 'c9', 'turn': '4'}
    [author] = loop_authors(NamedSink({'client': '@hermes', 'session': None, 'turn': None}))
    assert author['client'] == '@hermes' and author['turn'].startswith('run-')
    [author] = loop_authors([NamedSink({'client': '@hermes', 'session': None, 'turn': None}),
                             NamedSink({'client': 'Hermes session', 'session': 's1', 'turn': None})])
    assert (author['client'], author['session']) == ('Hermes session', 's1')  # the listener is the more specific
    first, second = loop_authors(None, 2)
    assert first['client'] == 'Hermes' and first['turn'] != second['turn']


def test_the_front_ends_name_themselves():
    from hermes.ui.chat.lm_provider import TextSink
    assert TextSink(None).change_author()['client'] == 'Hermes language model'


def test_the_panel_and_a_session_name_their_conversation_and_turn():
    """Each sink has one change_author (a second definition further down a class would replace the first)."""
    from types import SimpleNamespace
    from hermes.ui.chat.sessions import TurnRecorder
    from hermes.ui.panel.builtin_turn import PanelSink
    from hermes.ui.panel.state import Turn
    controller = SimpleNamespace(conversation=SimpleNamespace(id='conv-1'))
    panel = PanelSink(controller, Turn(1, 'hi', None, None, 't7')).change_author()
    assert (panel['session'], panel['turn']) == ('conv-1', 't7') and panel['client']
    session = TurnRecorder(None, SimpleNamespace(id='conv-2'), None, 't8').change_author()
    assert (session['session'], session['turn']) == ('conv-2', 't8') and session['client']


def test_at_hermes_names_itself_once_its_turn_is_set():
    from hermes.ui.chat.participant import ChatStreamSink
    sink = ChatStreamSink(None, None, None)
    sink.author = {'client': '@hermes', 'session': None, 'turn': 't3'}
    assert sink.change_author() == {'client': '@hermes', 'session': None, 'turn': 't3'}


def test_a_folders_deletion_records_each_text_file_and_undo_brings_them_back(ws, log):
    (ws / 'pkg' / 'sub').mkdir(parents=True)
    (ws / 'pkg' / 'a.py').write_text('a = 1\n')
    (ws / 'pkg' / 'sub' / 'b.txt').write_text('b\r\n')
    (ws / 'pkg' / 'blob.bin').write_bytes(b'\x00\x01binary')
    ok(log, 'file_delete', {'path': 'pkg', 'recursive': True}, CLAUDE)
    assert not (ws / 'pkg').exists()
    items = log.pending()
    assert sorted((item['path'], item.get('deleted')) for item in items) == [
        (str(ws / 'pkg' / 'a.py'), True), (str(ws / 'pkg' / 'sub' / 'b.txt'), True)]
    assert asyncio.run(log.undo_all({'client': 'claude-code'})) == {'undone': 2, 'conflicts': []}
    assert (ws / 'pkg' / 'a.py').read_text() == 'a = 1\n' and (ws / 'pkg' / 'sub' / 'b.txt').read_bytes() == b'b\r\n'


def test_a_folder_with_too_many_files_is_deleted_unrecorded(ws, log, monkeypatch):
    from hermes.host import files
    monkeypatch.setattr(files, 'MAX_RECORDED_FILES', 2)
    (ws / 'many').mkdir()
    for n in range(3):
        (ws / 'many' / ('f%d.txt' % n)).write_text('x\n')
    ok(log, 'file_delete', {'path': 'many', 'recursive': True})
    assert not (ws / 'many').exists() and log.pending() == []


def test_files_a_terminal_command_changes_are_recorded_as_the_calls_and_can_be_undone(ws, log, context):
    (ws / 'notes.txt').write_text('mine, not open\n')
    document = vscode.workspace.openTextDocument(vscode.Uri.file(str(ws / 'app.py')))  # open, nothing unsaved

    def command_writes():  # what `./generate.sh` does to the disk; VS Code's watcher reports it
        (ws / 'app.py').write_text('one\ntwo\nTHREE\nfour\nfive\n')
        (ws / 'gen.py').write_text('generated = True\n')
        (ws / 'notes.txt').write_text('rewritten\n')
        for name, kind in [('app.py', 'change'), ('gen.py', 'create'), ('notes.txt', 'create')]:
            vscode.workspace.file_changed(vscode.Uri.file(str(ws / name)), kind)
    vscode.window.shell_commands['./generate.sh'] = ([MARK + 'ok\r\n'], 0, command_writes)
    registry = build_registry(None, shim_services(changes=log, terminals=register_terminals(context)))
    call = ToolCall()
    call.author = CLAUDE
    result = asyncio.run(registry.call('terminal_run', {'command': './generate.sh'}, call))
    assert result['isError'] is False, result['content'][0]['text']
    items = {item['path']: item for item in log.pending()}
    # notes.txt existed and was not open: its text before is unknown, so it is not recorded (not as "created")
    assert sorted(items) == [str(ws / 'app.py'), str(ws / 'gen.py')]
    assert {item['client'] for item in items.values()} == {'claude-code'}
    assert [h['after_lines'] for h in items[str(ws / 'app.py')]['hunks']] == [['THREE']]
    assert items[str(ws / 'gen.py')]['created'] is True
    # the editor has not reloaded app.py from the disk yet (code-server: over a second later): the disk is the truth
    assert document.getText() == 'one\ntwo\nthree\nfour\nfive\n' and not document.isDirty
    assert asyncio.run(log.undo_all()) == {'undone': 2, 'conflicts': []}
    assert (ws / 'app.py').read_text() == 'one\ntwo\nthree\nfour\nfive\n' and not (ws / 'gen.py').exists()
    assert (ws / 'notes.txt').read_text() == 'rewritten\n'


def test_with_the_windows_index_a_terminal_command_knows_the_texts_before_and_does_not_walk_again(ws, log, context):
    from hermes.host.changes.window_index import WindowIndex
    (ws / 'notes.txt').write_text('mine, not open\n')
    window_index = WindowIndex(context)

    def command_writes():
        (ws / 'notes.txt').write_text('rewritten\n')
        vscode.workspace.file_changed(vscode.Uri.file(str(ws / 'notes.txt')), 'create')  # an atomic write
    vscode.window.shell_commands['./generate.sh'] = ([MARK + 'ok\r\n'], 0, command_writes)
    vscode.window.shell_commands['true'] = ([MARK + '\r\n'], 0, lambda: None)
    registry = build_registry(None, shim_services(changes=log, terminals=register_terminals(context, window_index)))
    call = ToolCall()
    call.author = CLAUDE
    result = asyncio.run(registry.call('terminal_run', {'command': './generate.sh'}, call))
    assert result['isError'] is False, result['content'][0]['text']
    # not open, but the window's index knew its text before the command: recorded (not as "created")
    [item] = log.pending()
    assert (item['path'], item['created'] if 'created' in item else False) == (str(ws / 'notes.txt'), False)
    assert log.entry(str(ws / 'notes.txt'))['base'] == 'mine, not open\n'
    result = asyncio.run(registry.call('terminal_run', {'command': 'true'}, call))
    assert result['isError'] is False and window_index.index().walks == 1  # the next command's start walked nothing


def test_a_command_cancelled_while_the_index_walks_never_runs(ws, log, context):
    """The command waits for the index's first walk after the shell is ready: a Stop in that moment used to be
    seen only after the command had started (Ctrl+C sent to a command that already ran)."""
    from hermes.host.changes.window_index import WindowIndex
    window_index = WindowIndex(context)
    ran = []
    vscode.window.shell_commands['rm -rf build'] = ([MARK + '\r\n'], 0, lambda: ran.append(True))
    registry = build_registry(None, shim_services(changes=log, terminals=register_terminals(context, window_index)))
    call = ToolCall()
    call.author = CLAUDE

    async def walk_then_stop():  # the walk is still going when the user presses Stop
        call.cancel('user')
    window_index.ready = lambda: walk_then_stop()
    result = asyncio.run(registry.call('terminal_run', {'command': 'rm -rf build'}, call))
    assert ran == []
    assert log.pending() == []
    assert 'cancel' in result['content'][0]['text'].lower(), result['content'][0]['text']
