"""The hunk model of the change log (hermes.core.changes.hunks): split, diff, ids, keep, undo with unrelated later edits,
conflicting edits, created and deleted files, CRLF, huge files. Every call here is also a parity vector (the
functions take and return plain values)."""
import random

from hermes.core.changes.hunks import (split_lines, join_lines, visible_line, diff_lines, diff_texts, assign_ids,
                               undo_plan, undo_lines, keep_in_base, revert_in_text, rebase, counts, hunk_view,
                               same_lines, MAX_DIFF_WORK)


def apply(base_lines, hunks):
    """Rebuild the text lines from the base and the hunks (what a correct diff must allow)."""
    out = []
    at = 0
    for hunk in hunks:
        out.extend(base_lines[at:hunk['base_start']])
        out.extend(hunk['after'])
        at = hunk['base_start'] + len(hunk['before'])
    out.extend(base_lines[at:])
    return out


def with_ids(base, text):
    return assign_ids(diff_texts(base, text), [], 1, {'author': 'a'})['hunks']


def test_split_lines_keeps_every_terminator_and_a_missing_last_newline():
    assert split_lines('') == []
    assert split_lines('a') == ['a']
    assert split_lines('a\nb\n') == ['a\n', 'b\n']
    assert split_lines('a\r\nb') == ['a\r\n', 'b']
    assert split_lines('\n\n') == ['\n', '\n']
    for text in ['', 'x', 'a\r\nb\r\n', 'mixed\r\nends\nhere', '\r\n']:
        assert join_lines(split_lines(text)) == text
    assert [visible_line(line) for line in split_lines('a\r\nb\nc')] == ['a', 'b', 'c']


def test_diff_of_equal_texts_is_empty_and_of_one_change_is_one_hunk():
    assert diff_texts('a\nb\n', 'a\nb\n') == []
    hunks = diff_texts('a\nb\nc\n', 'a\nB\nc\n')
    assert hunks == [{'start': 1, 'base_start': 1, 'before': ['b\n'], 'after': ['B\n']}]


def test_diff_splits_separate_changes_into_separate_hunks():
    base = ''.join('line %d\n' % n for n in range(20))
    text = base.replace('line 2\n', 'two\n').replace('line 15\n', '').replace('line 9\n', 'line 9\nnew\n')
    hunks = diff_texts(base, text)
    assert [(h['base_start'], h['start'], len(h['before']), len(h['after'])) for h in hunks] == [
        (2, 2, 1, 1), (10, 10, 0, 1), (15, 16, 1, 0)]
    assert counts(hunks) == {'added': 2, 'removed': 2}


def test_diff_rebuilds_the_text_on_random_edits():
    rng = random.Random(7)
    for _ in range(200):
        base = ['%d\n' % rng.randrange(6) for _ in range(rng.randrange(15))]
        text = base[:]
        for _ in range(rng.randrange(5)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and at < len(text):
                text.pop(at)
            else:
                text.insert(at, '%d\n' % rng.randrange(6))
        hunks = diff_lines(base, text)
        assert apply(base, hunks) == text
        assert all(h['before'] or h['after'] for h in hunks)


def test_created_and_deleted_files_are_one_hunk_each():
    assert diff_texts(None, 'a\nb') == [{'start': 0, 'base_start': 0, 'before': [], 'after': ['a\n', 'b']}]
    assert diff_texts('a\n', None) == [{'start': 0, 'base_start': 0, 'before': ['a\n'], 'after': []}]
    assert diff_texts(None, '') == []


def test_crlf_is_kept_exactly_through_diff_and_undo():
    base = 'one\r\ntwo\r\nthree\r\n'
    text = 'one\r\nTWO\r\nthree\r\n'
    hunks = with_ids(base, text)
    assert hunks[0]['before'] == ['two\r\n'] and hunks[0]['after'] == ['TWO\r\n']
    result = undo_lines(split_lines(text), split_lines(text), hunks, False)
    assert join_lines(result['lines']) == base
    assert hunk_view(hunks[0])['before_lines'] == ['two']


def test_a_work_budget_makes_the_middle_one_hunk_and_stays_exact():
    base = ['%d\n' % n for n in range(400)]
    text = ['x%d\n' % n if n % 2 else '%d\n' % n for n in range(400)]
    fine = diff_lines(base, text)
    assert len(fine) == 200
    coarse = diff_lines(base, text, 50)
    assert len(coarse) == 1 and coarse[0]['base_start'] == 1 and len(coarse[0]['before']) == 399
    assert apply(base, coarse) == text
    assert MAX_DIFF_WORK >= 100000


def test_a_huge_file_with_a_small_change_is_cheap_and_exact():
    base = ['line %d\n' % n for n in range(200000)]
    text = base[:]
    text[100000] = 'changed\n'
    hunks = diff_lines(base, text)
    assert [(h['base_start'], h['after']) for h in hunks] == [(100000, ['changed\n'])]


def test_ids_are_new_for_new_hunks_and_kept_for_unchanged_ones():
    first = assign_ids(diff_texts('a\nb\nc\n', 'A\nb\nc\n'), [], 1, {'author': 'one'})
    assert [h['id'] for h in first['hunks']] == ['h1'] and first['next_id'] == 2
    again = assign_ids(diff_texts('a\nb\nc\n', 'A\nb\nC\n'), first['hunks'], first['next_id'], {'author': 'two'})
    assert [(h['id'], h['author']) for h in again['hunks']] == [('h1', 'one'), ('h2', 'two')]
    assert again['next_id'] == 3


def test_undo_one_hunk_restores_its_before_text_and_leaves_the_others():
    base = 'a\nb\nc\nd\ne\n'
    text = 'A\nb\nc\nd\nE\n'
    hunks = with_ids(base, text)
    result = undo_lines(split_lines(text), split_lines(text), [hunks[1]], False)
    assert join_lines(result['lines']) == 'A\nb\nc\nd\ne\n'
    assert result['undone'] == [hunks[1]['id']] and result['conflicts'] == []


def test_undo_after_the_user_edited_elsewhere_moves_with_the_edit():
    base = 'a\nb\nc\nd\ne\n'
    text = 'a\nb\nc\nd\nE\n'
    hunks = with_ids(base, text)
    current = 'new first\nnew second\na\nb\nd\nE\n'  # two lines inserted above, 'c' deleted: not the hunk
    result = undo_lines(split_lines(text), split_lines(current), hunks, False)
    assert join_lines(result['lines']) == 'new first\nnew second\na\nb\nd\ne\n'
    plan = undo_plan(split_lines(text), split_lines(current), hunks, False)
    assert plan == [{'id': hunks[0]['id'], 'from': 5, 'to': 6, 'conflict': False}]


def test_undo_of_a_hunk_the_user_edited_is_a_conflict_unless_forced():
    base = 'a\nb\nc\n'
    text = 'a\nB\nc\n'
    hunks = with_ids(base, text)
    current = 'a\nB and mine\nc\n'
    result = undo_lines(split_lines(text), split_lines(current), hunks, False)
    assert result['conflicts'] == [hunks[0]['id']] and result['undone'] == []
    assert join_lines(result['lines']) == current
    forced = undo_lines(split_lines(text), split_lines(current), hunks, True)
    assert join_lines(forced['lines']) == base and forced['undone'] == [hunks[0]['id']]


def test_an_insertion_right_at_a_deleted_spot_is_a_conflict():
    base = 'a\nb\nc\n'
    text = 'a\nc\n'  # 'b' deleted: an empty hunk at line 1
    hunks = with_ids(base, text)
    result = undo_lines(split_lines(text), split_lines('a\nmine\nc\n'), hunks, False)
    assert result['conflicts'] == [hunks[0]['id']]
    elsewhere = undo_lines(split_lines(text), split_lines('a\nc\nmine\n'), hunks, False)
    assert join_lines(elsewhere['lines']) == 'a\nb\nc\nmine\n'


def test_undo_of_a_created_file_empties_it_and_of_a_deleted_file_restores_it():
    created = with_ids(None, 'x\ny\n')
    assert undo_lines(split_lines('x\ny\n'), split_lines('x\ny\n'), created, False)['lines'] == []
    deleted = with_ids('x\r\ny', None)
    assert join_lines(undo_lines([], [], deleted, False)['lines']) == 'x\r\ny'
    assert undo_lines([], ['someone\n'], deleted, False)['conflicts'] == [deleted[0]['id']]


def test_keep_moves_a_hunk_into_the_base_and_revert_takes_it_out_of_the_text():
    base = 'a\nb\nc\n'
    text = 'A\nb\nC\n'
    hunks = with_ids(base, text)
    kept = keep_in_base(split_lines(base), hunks[0])
    assert join_lines(kept) == 'A\nb\nc\n'
    assert [h['after'] for h in diff_lines(kept, split_lines(text))] == [['C\n']]
    reverted = revert_in_text(split_lines(text), hunks[1])
    assert join_lines(reverted) == 'A\nb\nc\n'


def test_rebase_takes_out_untouched_hunks_and_keeps_what_the_user_edited():
    base = 'a\nb\nc\nd\n'
    text = 'A\nb\nc\nD\n'
    hunks = with_ids(base, text)
    current = 'A!\nb\nc\nD\nmine\n'  # the user edited the first hunk and added a line
    assert join_lines(rebase(split_lines(base), split_lines(text), hunks, split_lines(current))) == \
        'A!\nb\nc\nd\nmine\n'


def test_same_lines_compares_contents():
    assert same_lines(['a'], ['a']) and not same_lines(['a'], ['b']) and not same_lines([], ['a'])


def test_two_forced_hunks_over_one_user_edit_undo_once():
    base = 'a\nb\nc\n'
    text = 'A\nb\nC\n'
    hunks = with_ids(base, text)
    current = 'Z\n'  # the user replaced everything
    result = undo_lines(split_lines(text), split_lines(current), hunks, True)
    assert len(result['undone']) == 1 and len(result['conflicts']) == 1


def test_diff_texts_trims_on_whole_lines_and_rebuilds_the_text_on_random_edits():
    rng = random.Random(11)
    pieces = ['a', 'b', 'ab', 'X', '', '\r']
    for _ in range(400):
        base = ''.join(rng.choice(pieces) + ('\n' if rng.random() < 0.6 else '') for _ in range(rng.randrange(12)))
        text = list(base)
        for _ in range(rng.randrange(4)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and at < len(text):
                text.pop(at)
            else:
                text.insert(at, rng.choice(['\n', 'Y', 'b']))
        text = ''.join(text)
        hunks = diff_texts(base, text)
        assert apply(split_lines(base), hunks) == split_lines(text), (base, text)
        base_lines = split_lines(base)
        for hunk in hunks:  # whole lines of each text: before-lines are the base's own lines
            assert hunk['before'] == base_lines[hunk['base_start']:hunk['base_start'] + len(hunk['before'])]
            assert hunk['after'] == split_lines(text)[hunk['start']:hunk['start'] + len(hunk['after'])]


def test_diff_texts_keeps_a_changed_line_whole_when_its_end_matches_the_next_line():
    assert diff_texts('a\nX\n', 'a\nYX\n') == [{'start': 1, 'base_start': 1, 'before': ['X\n'], 'after': ['YX\n']}]
    assert diff_texts('a\nb', 'a\nb\n') == [{'start': 1, 'base_start': 1, 'before': ['b'], 'after': ['b\n']}]


def test_diff_texts_over_many_chunks_finds_the_same_hunks_as_the_line_diff():
    rng = random.Random(5)
    for _ in range(30):
        base = ''.join('line %d %s\n' % (n, rng.choice(['x', 'yy'])) for n in range(rng.randrange(200, 900)))
        text = list(split_lines(base))
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(text))
            text[at] = 'changed %d\n' % at if rng.random() < 0.7 else ''
        text = ''.join(text)
        assert diff_texts(base, text) == diff_lines(split_lines(base), split_lines(text))


def test_a_file_rewritten_through_and_through_is_one_hunk_at_once():
    base = ['old %d\n' % n for n in range(3000)]
    text = ['new %d\n' % n for n in range(3000)]
    assert diff_lines(base, text) == [{'start': 0, 'base_start': 0, 'before': base, 'after': text}]
    from hermes.core.changes.hunks import _share_a_line
    assert not _share_a_line(base, 0, 3000, text, 0, 3000)
    assert _share_a_line(['a\n', 'b\n'], 0, 2, ['x\n', 'y\n', 'b\n'], 1, 3)
    assert not _share_a_line(['a\n', 'b\n'], 0, 1, ['b\n'], 0, 1)  # outside the ranges
    assert not _share_a_line(['__proto__\n'], 0, 1, ['constructor\n'], 0, 1)
    assert len(diff_lines(['a\n', 'x\n', 'b\n'], ['c\n', 'x\n', 'd\n'])) == 2  # one shared line: aligned on it
