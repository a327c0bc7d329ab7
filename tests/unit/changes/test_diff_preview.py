"""A proposed change as a card's lines (core/changes/diff_preview.py): hunks with removed and added lines, a created file,
and the bounds that keep a huge change a small message."""
from hermes.core.changes.diff_preview import diff_preview, MAX_HUNKS, MAX_TEXT


def test_a_change_is_its_hunks_with_one_based_lines():
    preview = diff_preview('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n')
    assert preview == {'added': 2, 'removed': 1, 'created': False, 'more': 0, 'tooLarge': False,
                       'hunks': [{'line': 2, 'removed': ['b'], 'added': ['B']}, {'line': 5, 'removed': [], 'added': ['e']}]}


def test_a_created_file_is_all_added_lines():
    preview = diff_preview(None, 'one\r\ntwo')
    assert preview['created'] is True and preview['hunks'] == [{'line': 1, 'removed': [], 'added': ['one', 'two']}]


def test_many_hunks_and_long_hunks_are_cut_with_a_count():
    old = ''.join('same\nold %d\n' % n for n in range(30))
    new = ''.join('same\nnew %d\n' % n for n in range(30))
    preview = diff_preview(old, new)
    assert (preview['added'], preview['removed'], len(preview['hunks']), preview['more']) == (30, 30, MAX_HUNKS, 30 - MAX_HUNKS)
    long = diff_preview('', ''.join('line %d\n' % n for n in range(100)))
    assert long['hunks'][0]['added'][-1] == '… (80 more lines)' and long['added'] == 100


def test_a_text_too_large_is_not_diffed():
    assert diff_preview('x' * (MAX_TEXT + 1), 'y') == {'added': 0, 'removed': 0, 'created': False, 'hunks': [],
                                                      'more': 0, 'tooLarge': True}
    assert diff_preview('same', 'same')['hunks'] == []
