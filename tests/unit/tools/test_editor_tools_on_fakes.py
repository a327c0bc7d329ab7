"""The editor tools on typed fakes of their services (service_fakes.py): what each tool makes of what the services
answer. What the host does in a real window (WorkspaceEdit, undo, saving, tabs, confinement of outside files) is
tested through the same tools over the shim in test_editor_file_tools.py and test_confinement.py."""
from hermes.core.tools import ToolCall
from service_fakes import (FakeChanges, FakeDocument, FakeDocuments, FakeEditor, FakeFiles, FakeReviews, FakeTabs,
                           run_tool, text)


def test_editor_edit_file_saves_unless_the_editor_held_unsaved_work():
    files = FakeFiles({'/w/a.py': 'x = 1\ny = 2\n'})
    documents = FakeDocuments(files)
    edit = {'path': 'a.py', 'edits': [{'old_text': 'y = 2', 'new_text': 'y = 3'}]}
    assert text(run_tool('editor_edit_file', edit, documents=documents)) == (
        'Edited a.py: 1 replacement at line 2 of the original; saved. It now has 2 lines. Undo is available in the '
        'editor.')
    assert files.texts['/w/a.py'] == 'x = 1\ny = 3\n'
    dirty = FakeDocument('/w/b.py', 'mine\n', dirty=True)
    documents = FakeDocuments(FakeFiles({'/w/b.py': ''}), [dirty])
    result = run_tool('editor_edit_file', {'path': 'b.py', 'edits': [{'start_line': 1, 'end_line': 0, 'new_text': 'ours\n'}]},
                      documents=documents)
    assert text(result).endswith('; not saved (the editor had unsaved changes). It now has 2 lines. Undo is available '
                                 'in the editor.')
    assert [dirty.text, dirty.saved] == ['ours\nmine\n', 0]


def test_editor_get_content_withholds_an_outside_editor_and_notes_what_it_read():
    documents = FakeDocuments(FakeFiles())
    documents.active = FakeEditor(FakeDocument('/home/me/other/secret.py', 'token = 1\n'))
    assert text(run_tool('editor_get_content', {}, documents=documents)) == (
        'The active editor shows a file outside the workspace (or no workspace file): its path and text are withheld.')
    changes = FakeChanges()
    call = ToolCall()
    call.author = {'client': 'claude-code'}
    files = FakeFiles({'/w/a.py': 'print(1)\n'})
    result = run_tool('editor_get_content', {'path': 'a.py'}, files=files, documents=FakeDocuments(files),
                      changes=changes, call=call)
    assert text(result) == 'a.py (lines 1-1 of 1) (not open in an editor)\nprint(1)'
    assert changes.reads == [('claude-code', '/w/a.py')]


def test_editor_get_selection_of_an_outside_file_gives_positions_only():
    documents = FakeDocuments(FakeFiles())
    documents.active = FakeEditor(FakeDocument('/elsewhere/x.py', 'secret', language_id='python'))
    result = run_tool('editor_get_selection', {}, documents=documents)
    assert result['structuredContent'] == {
        'path': None, 'withheld': 'The active editor shows a file outside the workspace (or no workspace file): its '
                                  'path and text are withheld.', 'languageId': 'python', 'isDirty': False,
        'selections': [{'start': {'line': 1, 'column': 1}, 'end': {'line': 1, 'column': 1},
                        'active': {'line': 1, 'column': 1}, 'isEmpty': True}]}


def test_editor_close_tab_refuses_unsaved_work_without_save():
    documents = FakeDocuments(FakeFiles({'/w/a.py': ''}), [FakeDocument('/w/a.py', 'mine', dirty=True)])
    tabs = FakeTabs({'/w/a.py': ['tab']})
    result = run_tool('editor_close_tab', {'path': 'a.py'}, documents=documents, tabs=tabs)
    assert [result['isError'], text(result), tabs.done] == [
        True, '"a.py" has unsaved changes. Pass save: true to save them and close, or ask the user what to do with '
              'them.', []]


def test_editor_edit_file_errors_say_how_often_and_where_and_change_nothing():
    original = 'x = 1\nprint(x)\nx = 1\n    indented()\n'
    files = FakeFiles({'/w/dup.py': original})
    documents = FakeDocuments(files)

    def error(edits):
        result = run_tool('editor_edit_file', {'path': 'dup.py', 'edits': edits}, documents=documents)
        assert result['isError'] is True
        return text(result)
    message = error([{'old_text': 'x = 1', 'new_text': 'x = 2'}])
    assert 'old_text occurs 2 times in dup.py (at lines 1, 3)' in message and 'replace_all' in message
    assert 'old_text was not found in dup.py' in error([{'old_text': 'y = 1', 'new_text': ''}])
    assert 'Its first line occurs at line(s) 4' in error([{'old_text': '  indented()\n  more', 'new_text': ''}])
    assert 'when leading/trailing whitespace is ignored (line 2)' in error([{'old_text': '\tprint(x)', 'new_text': ''}])
    assert 'edits[0] and edits[1] overlap' in error([{'old_text': 'print(x)', 'new_text': 'a'},
                                                     {'start_line': 2, 'end_line': 3, 'new_text': 'b'}])
    assert 'start_line 9 is outside dup.py' in error([{'start_line': 9, 'new_text': 'z'}])
    assert 'needs either old_text' in error([{'new_text': 'z'}])
    assert files.texts['/w/dup.py'] == original and documents.open['/w/dup.py'].text == original  # nothing applied


def test_editor_open_diff_shows_the_proposal_and_applies_only_what_the_user_accepted():
    files = FakeFiles({'/w/README.md': '# Project\n'})
    rejecting = FakeReviews('rejected')
    result = run_tool('editor_open_diff', {'path': 'README.md', 'new_content': '# Better\n'}, files=files,
                      documents=FakeDocuments(files), reviews=rejecting)
    assert result['structuredContent'] == {'decision': 'rejected', 'path': 'README.md', 'applied': False,
                                           'message': 'The user rejected the change; README.md is unchanged.'}
    assert rejecting.shown == [('/w/README.md', '# Better\n')] and files.texts['/w/README.md'] == '# Project\n'
    accepting = FakeReviews('accepted')
    edits = {'path': 'README.md', 'edits': [{'old_text': 'Project', 'new_text': 'Hermes'}]}
    result = run_tool('editor_open_diff', edits, files=files, documents=FakeDocuments(files), reviews=accepting)
    assert result['structuredContent']['applied'] is True and files.texts['/w/README.md'] == '# Hermes\n'


def test_editor_open_diff_argument_errors_show_nothing():
    files = FakeFiles({'/w/README.md': '# Project\n\nHello world\n'})
    reviews = FakeReviews()

    def error(arguments):
        result = run_tool('editor_open_diff', arguments, files=files, documents=FakeDocuments(files), reviews=reviews)
        assert result['isError'] is True
        return text(result)
    assert error({'path': 'README.md'}) == ('Give exactly one of new_content (the whole proposed file) or edits '
                                            '(changes to it).')
    assert error({'path': 'README.md', 'new_content': '# Project\n\nHello world\n'}) == (
        'The proposed content is the same as the current content of "README.md".')
    assert error({'path': 'nope.md', 'edits': [{'old_text': 'a', 'new_text': 'b'}]}) == (
        '"nope.md" does not exist; propose a new file with new_content.')
    assert 'old_text was not found' in error({'path': 'README.md', 'edits': [{'old_text': 'zzz', 'new_text': 'b'}]})
    assert reviews.shown == [] and files.texts == {'/w/README.md': '# Project\n\nHello world\n'}
