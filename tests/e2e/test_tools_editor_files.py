"""The editor, file, workspace and command tools in a real VS Code (code-server), called over MCP by the
official Python SDK, each checked against the real thing: the file on disk, the workbench's tabs, the
TypeScript service's diagnostic, the diff editor's ✓ button, the task's exit code, the user settings
file, the modal confirmation dialog. Runs with "hermes.tools.confirm": "never" (conftest.py) except
the one test that switches to "destructive" and answers the real dialog.

Everything here happens under editor/ of the fixture workspace (and user-level settings), and is put
back at the end, so the other tool tests sharing the workspace see a clean repository."""
import json
import os
import subprocess

import pytest

from mcp_session import McpSession
from vscode_server import wait_until


def git(workspace, *args):
    return subprocess.run(['git', *args], cwd=workspace, capture_output=True, text=True).stdout


@pytest.fixture(scope='module')
def mcp(code_server, workbench, workspace):
    info = code_server.discovery_for(workspace)
    client = McpSession(info['url'], info['token'])
    # code-server, being VS Code for the web, auto-saves after a second by default; these tests need to
    # see unsaved editor changes stay unsaved.
    client.ok('workspace_set_config', {'key': 'files.autoSave', 'value': 'off', 'target': 'user'})
    yield client
    try:
        client.call('workspace_set_config', {'key': 'files.autoSave', 'value': None, 'target': 'user'})
        client.call('workspace_set_config', {'key': 'hermes.tools.confirm', 'value': 'never', 'target': 'user'})
        client.call('workspace_set_config', {'key': 'editor.tabSize', 'value': None, 'target': 'user'})
        client.call('command_execute', {'command': 'workbench.action.files.saveAll'})
        client.call('command_execute', {'command': 'workbench.action.closeAllEditors'})
    finally:
        client.close()
        for link in ['editor/outside-link']:
            if os.path.lexists(workspace / link):
                os.remove(workspace / link)
        git(workspace, 'checkout', '--', 'editor')
        git(workspace, 'clean', '-fdxq', '--', 'editor')


def has_tab(workbench, label):
    return workbench.page.locator('.tabs-container .tab', has_text=label).count() > 0


def tab_count(workbench):
    return workbench.page.locator('.tabs-container .tab').count()


# ------------------------------------------------------------------------------------------- files

def test_files_are_created_read_written_listed_and_deleted_on_disk(mcp, workspace):
    notes = workspace / 'editor' / 'notes' / 'todo.md'
    text, _ = mcp.ok('file_create', {'path': 'editor/notes/todo.md', 'content': '# Todo\n\n- write tests\n'})
    assert text == 'Created editor/notes/todo.md.'
    assert notes.read_text() == '# Todo\n\n- write tests\n', 'created on disk, parent folder included'
    assert 'already exists' in mcp.refused('file_create', {'path': 'editor/notes/todo.md'})

    text, _ = mcp.ok('file_read', {'path': 'editor/notes/todo.md', 'start_line': 3})
    assert text == 'editor/notes/todo.md (lines 3-3 of 3)\n- write tests'
    (workspace / 'editor' / 'logo.png').write_bytes(b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00')
    assert 'looks like a binary file' in mcp.refused('file_read', {'path': 'editor/logo.png'})

    text, _ = mcp.ok('file_write', {'path': 'editor/notes/todo.md', 'content': '# Done\n'})
    assert text.startswith('Replaced the content of editor/notes/todo.md')
    assert notes.read_text() == '# Done\n'

    text, _ = mcp.ok('file_list_directory', {'path': 'editor', 'depth': 2})
    assert '  notes/\n    todo.md\n' in text and '  sample.ts' in text and '  .gitignore' in text

    text, _ = mcp.ok('file_delete', {'path': 'editor/notes', 'recursive': True})
    assert text.startswith(('Moved editor/notes to the trash.', 'Deleted editor/notes (this file system has no trash'))
    assert not notes.parent.exists(), 'deleted from disk'
    print('file_delete in code-server:', text)


def test_paths_and_globs_that_leave_the_workspace_are_refused(mcp, workspace):
    os.symlink('/etc', workspace / 'editor' / 'outside-link')
    for path in ['../../etc/passwd', '/etc/passwd', 'editor/outside-link/passwd']:
        assert 'is outside the workspace' in mcp.refused('file_read', {'path': path}), path
    assert 'is outside the workspace' in mcp.refused('file_write', {'path': 'editor/outside-link/x.conf',
                                                                    'content': 'x'})
    assert not os.path.exists('/etc/x.conf')
    assert 'reaches outside its folder' in mcp.refused('file_search', {'pattern': '../**/passwd'})
    assert 'reaches outside the workspace' in mcp.refused('file_search_content', {'query': 'root',
                                                                                   'include': '../../etc/*'})
    assert 'is outside the workspace' in mcp.refused('file_list_directory', {'path': '..'})


def test_file_search_and_content_search_honour_gitignore(mcp, workspace):
    generated = workspace / 'editor' / 'generated'
    generated.mkdir()
    (generated / 'bundle.ts').write_text('export function add() { return "generated"; }\n')
    text, _ = mcp.ok('file_search', {'pattern': 'editor/**/*.ts'})
    assert text == '2 files match "editor/**/*.ts":\neditor/broken.ts\neditor/sample.ts'
    text, _ = mcp.ok('file_search', {'pattern': '**/*.ts', 'path': 'editor', 'use_ignore_files': False})
    assert 'editor/generated/bundle.ts' in text

    text, _ = mcp.ok('file_search_content', {'query': r'function \w+\(left', 'regex': True, 'context_lines': 1})
    assert text == ('1 match in 1 file for regex "function \\w+\\(left" (line: match, line- context):\n'
                    'editor/sample.ts\n'
                    '  1- // Edited, diffed and searched by tests/e2e/test_tools_editor_files.py.\n'
                    '  2: export function add(left: number, right: number): number {\n'
                    '  3-   return left + right;')
    text, _ = mcp.ok('file_search_content', {'query': 'export function add', 'include': '*.ts'})
    assert 'generated' not in text, 'ripgrep skips what .gitignore ignores'
    text, _ = mcp.ok('file_search_content', {'query': 'no such text anywhere 1234'})
    assert text.startswith('No matches for text')


# ------------------------------------------------------------------------------------------- editor

def test_editor_open_select_type_edit_and_close(mcp, workspace, workbench, artifacts):
    text, _ = mcp.ok('editor_open_file', {'path': 'editor/sample.ts', 'line': 3, 'column': 10, 'end_line': 3,
                                          'end_column': 14, 'preview': False})
    assert text == 'Opened editor/sample.ts at line 3 in the editor (6 lines, typescript).'
    wait_until(lambda: has_tab(workbench, 'sample.ts'), 15, what='the sample.ts tab in the workbench')
    _, tabs = mcp.ok('editor_get_open_tabs')
    assert [tab for tab in tabs['tabs'] if tab['label'] == 'sample.ts' and tab['active']]

    _, selection = mcp.ok('editor_get_selection')
    assert selection['path'] == 'editor/sample.ts' and selection['languageId'] == 'typescript'
    assert selection['selections'][0]['text'] == 'left' and selection['selections'][0]['start'] == {'line': 3, 'column': 10}

    # The user types without saving: the editor tools see it, the disk (file_read) does not.
    workbench.page.keyboard.press('End')
    workbench.page.keyboard.type(' // typed by the user')
    text, _ = wait_until(lambda: (lambda r: r if 'typed by the user' in r[0] else None)(
        mcp.ok('editor_get_content', {'path': 'editor/sample.ts', 'start_line': 3, 'end_line': 3})), 15,
        what='the typed text in editor_get_content')
    assert text == ('editor/sample.ts (lines 3-3 of 6) (typescript, unsaved changes included)\n'
                    '  return left + right; // typed by the user')
    assert 'typed by the user' not in mcp.ok('file_read', {'path': 'editor/sample.ts'})[0]

    text, _ = mcp.ok('editor_edit_file', {'path': 'editor/sample.ts', 'edits': [
        {'old_text': 'add(40, 2)', 'new_text': 'add(40, 3)'}]})
    assert 'not saved (the editor had unsaved changes)' in text, text
    assert 'add(40, 2)' in (workspace / 'editor' / 'sample.ts').read_text(), 'the unsaved editor was respected'

    assert 'has unsaved changes. Pass save: true' in mcp.refused('editor_close_tab', {'path': 'editor/sample.ts'})
    workbench.screenshot(artifacts / 'editor-tools-unsaved.png')
    text, _ = mcp.ok('editor_close_tab', {'path': 'editor/sample.ts', 'save': True})
    assert text == 'Closed 1 tab showing editor/sample.ts.'
    on_disk = (workspace / 'editor' / 'sample.ts').read_text()
    assert '  return left + right; // typed by the user\n' in on_disk and 'add(40, 3)' in on_disk
    wait_until(lambda: not has_tab(workbench, 'sample.ts'), 15, what='the tab to close in the workbench')


def test_editor_edit_file_on_a_closed_file_saves_it(mcp, workspace):
    text, _ = mcp.ok('editor_edit_file', {'path': 'editor/sample.ts', 'edits': [
        {'start_line': 1, 'end_line': 1, 'new_text': '// First line replaced by editor_edit_file.'},
        {'old_text': 'left + right', 'new_text': 'right + left'}]})
    assert text.startswith('Edited editor/sample.ts: 2 replacements at line 1, 3 of the original; saved.'), text
    content = (workspace / 'editor' / 'sample.ts').read_text()
    assert content.startswith('// First line replaced by editor_edit_file.\n') and 'return right + left;' in content
    message = mcp.refused('editor_edit_file', {'path': 'editor/sample.ts', 'edits': [{'old_text': 'number',
                                                                                       'new_text': 'bigint'}]})
    assert 'old_text occurs 3 times in editor/sample.ts (at lines 2, 2, 2)' in message


def test_editor_get_content_reads_a_file_no_editor_has_loaded(mcp, workspace):
    # `(await read_text(path))['text']` took ['text'] of the promise in the bundle: this call failed with
    # "Cannot read properties of undefined (reading 'py_split')" (the Transcrypt lint's await-member rule).
    (workspace / 'editor' / 'never_opened.txt').write_text('one\ntwo\n')
    text, _ = mcp.ok('editor_get_content', {'path': 'editor/never_opened.txt'})
    assert '(not open in an editor)' in text and 'one\ntwo' in text, text


def test_diagnostics_come_from_the_real_typescript_service(mcp, workbench):
    def reported():
        text, _ = mcp.ok('editor_get_diagnostics', {'path': 'editor/broken.ts', 'wait_seconds': 5})
        return text if 'TS' in text or 'error' in text else None
    text = wait_until(reported, 90, interval=1, what='a TypeScript diagnostic for editor/broken.ts')
    assert "editor/broken.ts:2:7 error 2322: Type 'string' is not assignable to type 'number'. (ts)" in text, text
    assert not has_tab(workbench, 'broken.ts'), 'the tab opened for the language service is closed again'
    mcp.ok('editor_open_file', {'path': 'editor/broken.ts'})  # open: its problems stay listed for all files
    text = wait_until(lambda: (lambda t: t if 'broken.ts' in t else None)(
        mcp.ok('editor_get_diagnostics', {'severity': 'error'})[0]), 30, what='broken.ts among all problems')
    assert "editor/broken.ts:2:7 error 2322: Type 'string' is not assignable to type 'number'. (ts)" in text
    text, _ = mcp.ok('editor_get_diagnostics', {'path': 'editor/sample.ts', 'severity': 'error', 'wait_seconds': 1})
    assert text == 'No problems reported for editor/sample.ts at severity error or worse.'


def test_open_diff_is_accepted_with_the_title_bar_button(mcp, workspace, workbench, artifacts):
    before = (workspace / 'editor' / 'sample.ts').read_text()
    waiting = mcp.start('editor_open_diff', {'path': 'editor/sample.ts', 'timeout_seconds': 120, 'edits': [
        {'old_text': 'export const answer', 'new_text': '/** The answer. */\nexport const answer'}]})
    accept = workbench.page.locator('.editor-actions a.action-label[aria-label*="Accept Proposed Change"]').first
    accept.wait_for(state='visible')
    assert workbench.page.locator('.monaco-diff-editor').count() > 0
    workbench.screenshot(artifacts / 'editor-open-diff.png')
    assert not waiting.done(), 'the tool waits for the user'
    accept.click()
    result = waiting.result(30)
    assert result.is_error is False and result.structured_content['decision'] == 'accepted'
    assert result.structured_content['applied'] is True
    after = (workspace / 'editor' / 'sample.ts').read_text()
    assert after == before.replace('export const answer', '/** The answer. */\nexport const answer')
    wait_until(lambda: workbench.page.locator('.monaco-diff-editor').count() == 0, 15, what='the diff to close')


def test_open_diff_is_rejected_from_the_command_palette_or_times_out(mcp, workspace, workbench):
    before = (workspace / 'editor' / 'sample.ts').read_text()
    waiting = mcp.start('editor_open_diff', {'path': 'editor/sample.ts', 'new_content': 'replaced entirely\n',
                                             'timeout_seconds': 120})
    workbench.page.locator('.editor-actions a.action-label[aria-label*="Reject Proposed Change"]').first.wait_for(
        state='visible', timeout=30000)
    workbench.run_command('Hermes: Reject Proposed Change')
    result = waiting.result(30)
    assert result.structured_content['decision'] == 'rejected', result.content[0].text
    assert (workspace / 'editor' / 'sample.ts').read_text() == before

    _, timed_out = mcp.ok('editor_open_diff', {'path': 'editor/sample.ts', 'new_content': 'x\n', 'timeout_seconds': 2})
    assert timed_out['decision'] == 'timeout' and (workspace / 'editor' / 'sample.ts').read_text() == before
    wait_until(lambda: workbench.page.locator('.monaco-diff-editor').count() == 0, 15, what='the diff to close')


# ------------------------------------------------------------------------------------------- workspace

def test_settings_are_read_and_written_in_the_real_user_settings(mcp, code_server):
    _, tab_size = mcp.ok('workspace_get_config', {'key': 'editor.tabSize'})
    assert tab_size['value'] == 4 and tab_size['defaultValue'] == 4 and tab_size['known'] is True
    _, written = mcp.ok('workspace_set_config', {'key': 'editor.tabSize', 'value': 3, 'target': 'user'})
    assert written['value'] == 3 and written['userValue'] == 3
    settings = code_server.user_data / 'User' / 'settings.json'
    assert wait_until(lambda: json.loads(settings.read_text()).get('editor.tabSize') == 3, 15,
                      what='editor.tabSize in the user settings.json')
    _, section = mcp.ok('workspace_get_config', {'key': 'hermes.tools'})
    assert section['value']['confirm'] == 'never'
    message = mcp.refused('workspace_set_config', {'key': 'no.such.setting', 'value': 1, 'target': 'user'})
    assert message.startswith('VS Code refused to change "no.such.setting"'), message


def test_tasks_run_to_their_exit_code(mcp, workspace):
    _, done = mcp.ok('workspace_run_task', {'name': 'hermes-e2e: succeed', 'timeout_seconds': 90}, timeout=150)
    assert done['exitCode'] == 0, done
    assert (workspace / 'editor' / 'task-output.txt').read_text().strip() == 'task-ran'
    _, failed = mcp.ok('workspace_run_task', {'name': 'hermes-e2e: fail', 'timeout_seconds': 90}, timeout=150)
    assert failed['exitCode'] == 3, failed
    message = mcp.refused('workspace_run_task', {'name': 'no such task'})
    assert message.startswith('No task called "no such task". Available: ') and 'hermes-e2e: succeed' in message


def test_commands_run_and_are_listed(mcp, workbench):
    text, _ = mcp.ok('command_execute', {'command': 'vscode.open', 'args': [{'$uri': 'editor/broken.ts'}]})
    assert text == 'The command ran; it returned nothing.'
    wait_until(lambda: has_tab(workbench, 'broken.ts'), 15, what='vscode.open to show broken.ts')
    mcp.ok('command_execute', {'command': 'workbench.action.closeAllEditors'})
    wait_until(lambda: tab_count(workbench) == 0, 15, what='closeAllEditors to close every tab')
    assert 'not found' in mcp.refused('command_execute', {'command': 'hermes.no.such.command'})
    text, _ = mcp.ok('command_list_common', {'filter': 'hermes.diff', 'include_all': True})
    assert 'hermes.diff.accept' in text and 'hermes.diff.reject' in text


# ------------------------------------------------------------------------------------------- confirmation

def click_dialog_button(workbench, name):
    dialog = workbench.page.locator('.monaco-dialog-box')
    dialog.wait_for(state='visible')
    dialog.get_by_role('button', name=name, exact=True).click()
    dialog.wait_for(state='hidden')


def test_a_destructive_call_waits_for_the_real_modal_dialog(mcp, workspace, workbench, artifacts):
    mcp.ok('workspace_set_config', {'key': 'hermes.tools.confirm', 'value': 'destructive', 'target': 'user'})
    target = workspace / 'editor' / 'approved.txt'

    waiting = mcp.start('file_write', {'path': 'editor/approved.txt', 'content': 'the user said yes\n'})
    dialog = workbench.page.locator('.monaco-dialog-box')
    dialog.wait_for(state='visible')
    assert 'Allow Hermes to run "Write file"?' in dialog.inner_text()
    assert 'editor/approved.txt' in dialog.inner_text(), 'the dialog shows the arguments'
    workbench.screenshot(artifacts / 'editor-tools-confirm-dialog.png')
    assert not waiting.done() and not target.exists(), 'nothing happens before the user answers'
    click_dialog_button(workbench, 'Allow')
    assert waiting.result(30).is_error is False
    assert target.read_text() == 'the user said yes\n'

    waiting = mcp.start('file_delete', {'path': 'editor/approved.txt'})
    click_dialog_button(workbench, 'Cancel')
    result = waiting.result(30)
    assert result.is_error is True and 'The user declined to run file_delete' in result.content[0].text
    assert target.exists(), 'declined: the file is still there'

    assert mcp.ok('file_read', {'path': 'editor/approved.txt'})[0].endswith('the user said yes'), \
        'read-only tools run without a question'
    waiting = mcp.start('workspace_set_config', {'key': 'hermes.tools.confirm', 'value': 'never', 'target': 'user'})
    click_dialog_button(workbench, 'Allow')  # back to what conftest.py set, for the tests that follow
    assert waiting.result(30).structured_content['value'] == 'never'
