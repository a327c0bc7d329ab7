"""The change log as agents read it (hermes.core.changes.report): capped lines, the view, its text."""
from hermes.core.changes.report import (capped_lines, agent_view, undo_note, view_text, MAX_FILES, MAX_HUNK_LINES,
                                       MAX_LINE_CHARS, MAX_UNDO_NOTE_FILES)


def test_capped_lines_cut_long_lines_and_long_hunks_and_say_so():
    assert capped_lines(['short']) == ['short']
    long_line = 'x' * (MAX_LINE_CHARS + 7)
    assert capped_lines([long_line]) == ['x' * MAX_LINE_CHARS + '… (7 more characters)']
    many = ['line %d' % n for n in range(MAX_HUNK_LINES + 3)]
    assert capped_lines(many) == many[:MAX_HUNK_LINES] + ['… (3 more lines)']


def item(path, client='claude-code', hunks=1):
    return {'path': path, 'client': client, 'session': None, 'turn': None, 'added': hunks, 'removed': 0,
            'hunks': [{'id': 'h%d' % n, 'start': n, 'base_start': n, 'before_lines': [], 'after_lines': ['new'],
                       'added': 1, 'removed': 0} for n in range(hunks)]}


def test_the_view_is_bounded_and_counts_everything():
    pending = [item('f%d.py' % n) for n in range(MAX_FILES + 5)]
    view = agent_view(pending, [], False)
    assert len(view['pending']) == MAX_FILES and view['summary']['files'] == MAX_FILES + 5
    assert view['truncated'] == '5 more file items not listed; filter by client or turn'
    assert 'added_lines' not in view['pending'][0]['hunks'][0]
    assert view_text(view).endswith('(5 more file items not listed; filter by client or turn)')


def test_the_text_names_created_deleted_and_moved_files():
    created = dict(item('new.py'), created=True)
    deleted = dict(item('old.py'), deleted=True, renamed_to='moved.py')
    text = view_text(agent_view([created, deleted], [], True))
    assert '- new.py (created): +1 −0 by claude-code, hunks at line 1' in text
    assert '- old.py (moved to moved.py): +1 −0 by claude-code' in text
    assert view_text(agent_view([], [], True)) == 'No pending changes.'


def decided(path, action='undone', session='conv-1', hunks=1, time=2000):
    return {'path': path, 'action': action, 'client': 'Hermes', 'session': session, 'turn': 't1', 'hunks': hunks,
            'added': 1, 'removed': 0, 'time': time}


def test_an_agent_is_told_once_what_of_its_own_the_user_undid_since_its_previous_turn():
    history = [decided('/w/a.py', hunks=2), decided('/w/a.py'), decided('/w/b.py', action='kept'),
               decided('/w/c.py', session='conv-2'), decided('/w/d.py', time=500)]
    note = undo_note(history, 'conv-1', 1000)
    assert note == ('[Note from the editor] Since your previous turn the user undid some of your changes: '
                    '/w/a.py (3 changes). Those files are as the user left them: read them again before you edit '
                    'them, and do not redo what was undone unless asked.')
    assert undo_note(history, 'conv-1', None) is None  # a first turn: nothing of its own to undo
    assert undo_note(history, 'conv-1', 2001) is None  # undone before the previous turn: told then
    assert undo_note(history, 'conv-3', 0) is None


def test_the_undo_note_names_at_most_ten_files():
    history = [decided('/w/f%d.py' % n) for n in range(MAX_UNDO_NOTE_FILES + 2)]
    note = undo_note(history, 'conv-1', 0)
    assert '/w/f9.py (1 change) and 2 more files.' in note and '/w/f10.py' not in note
