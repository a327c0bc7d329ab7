"""The file tools on typed fakes of their services (service_fakes.py): what each tool makes of what the services
answer — the text a model reads, the arguments it hands on. What the host does to real files (VS Code's file
system, the trash, editors with unsaved changes, ripgrep) is tested through the same tools over the shim in
test_editor_file_tools.py."""
from service_fakes import FakeDocument, FakeDocuments, FakeFiles, FakeSearch, run_tool, text


def test_file_read_says_when_the_editor_holds_unsaved_changes():
    files = FakeFiles({'/w/a.txt': 'one\ntwo\nthree\n'})
    result = run_tool('file_read', {'path': 'a.txt', 'start_line': 2}, files=files,
                      documents=FakeDocuments(files, [FakeDocument('/w/a.txt', 'edited', dirty=True)]))
    assert text(result) == ('a.txt (lines 2-3 of 3) (on disk; the editor holds unsaved changes: editor_get_content '
                            'shows them)\ntwo\nthree')


def test_file_write_create_and_delete_say_what_they_did():
    files = FakeFiles({'/w/a.txt': 'old'})
    assert text(run_tool('file_write', {'path': 'a.txt', 'content': 'new'}, files=files)) == \
        'Replaced the content of a.txt (3 characters).'
    assert text(run_tool('file_write', {'path': 'b/c.txt', 'content': 'hi'}, files=files)) == \
        'Created b/c.txt (2 characters).'
    assert text(run_tool('file_create', {'path': 'd', 'directory': True}, files=files)) == 'Created the folder d.'
    refused = run_tool('file_create', {'path': 'e', 'directory': True, 'content': 'x'}, files=files)
    assert [refused['isError'], text(refused)] == [True, 'A folder has no content: drop content or directory.']
    assert text(run_tool('file_delete', {'path': 'a.txt'}, files=files)) == 'Moved a.txt to the trash.'
    assert files.texts == {'/w/b/c.txt': 'hi'}
    assert files.calls == [('write_text', '/w/a.txt'), ('write_text', '/w/b/c.txt'), ('create_folder', '/w/d'),
                           ('delete_path', '/w/a.txt')]


def test_file_list_directory_draws_the_tree_to_its_depth():
    files = FakeFiles({'/w/src/app.ts': '', '/w/src/lib/util.ts': '', '/w/README.md': ''})
    assert text(run_tool('file_list_directory', {'depth': 2}, files=files)) == (
        './ (depth 2, 4 entries; folders end with /)\n  src/\n    lib/\n    app.ts\n  README.md')
    assert text(run_tool('file_list_directory', {'path': 'README.md'}, files=files)) == \
        '"README.md" is a file, not a folder (file_read reads files).'


def test_file_search_shows_workspace_paths_and_refuses_a_pattern_climbing_out():
    search = FakeSearch(found_files=['/w/src/app.ts', '/w/src/lib/util.ts'])
    files = FakeFiles({'/w/src/app.ts': ''})
    assert text(run_tool('file_search', {'pattern': '**/*.ts', 'path': 'src'}, files=files, search=search)) == (
        '2 files match "**/*.ts" under src:\nsrc/app.ts\nsrc/lib/util.ts')
    assert search.asked == [('**/*.ts', '/w/src')]
    climbing = run_tool('file_search', {'pattern': '../*.ts'}, files=files, search=search)
    assert climbing['isError'] is True and text(climbing).startswith('The glob "../*.ts" reaches outside its folder')
    assert len(search.asked) == 1


def test_file_search_content_groups_lines_by_file_with_gaps_marked():
    search = FakeSearch(matches=[{'path': '/w/a.py', 'lines': [
        {'line': 1, 'text': 'import os', 'match': True}, {'line': 2, 'text': '', 'match': False},
        {'line': 9, 'text': 'os.getcwd()', 'match': True}]}])
    result = run_tool('file_search_content', {'query': 'os', 'context_lines': 1}, files=FakeFiles(), search=search)
    assert text(result) == ('2 matches in 1 file for text "os" (line: match, line- context):\na.py\n  1: import os\n'
                            '  2- \n  --\n  9: os.getcwd()')
    [(query, options)] = search.asked
    assert (query, options['literal'], options['context'], options['paths']) == ('os', True, 1, ['/w'])


def test_the_file_tools_add_the_next_step_to_the_fact_the_files_service_states():
    """host/files.py states what is so ('"x" does not exist.', a ServiceProblem of a kind); the tools name the tool that
    helps (tools/file_parts.py NEXT_STEP), for every tool that reads or writes a whole file."""
    files = FakeFiles({'/w/a.txt': 'old'})
    missing = '"/w/nope.txt" does not exist. Use file_list_directory or file_search to find the right path.'
    for name in ['file_read', 'editor_get_content']:
        result = run_tool(name, {'path': 'nope.txt'}, files=files, documents=FakeDocuments(files, []))
        assert [result['isError'], text(result)] == [True, missing]
    exists = run_tool('file_create', {'path': 'a.txt', 'content': 'x'}, files=files)
    assert [exists['isError'], text(exists)] == [
        True, '"/w/a.txt" already exists. Use file_write to replace its content, or editor_edit_file to change part of it.']
    assert files.texts == {'/w/a.txt': 'old'}
