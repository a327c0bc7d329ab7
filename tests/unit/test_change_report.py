"""The change log as agents read it (hermes.core.change_report): capped lines, the view, its text."""
from hermes.core.change_report import capped_lines, agent_view, view_text, MAX_FILES, MAX_HUNK_LINES, MAX_LINE_CHARS


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
