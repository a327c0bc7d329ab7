"""The change log's model (hermes.core.changes.model), called directly: entries from writes, keeping and undoing on
texts, authorship filters, the views, the re-read rule, the stored records. Pure, so `inv parity` replays these calls
on the bundle; tests/unit/changes/test_change_log.py drives the same model through the host's ChangeLog (files, store,
timers)."""
import pytest

from hermes.core.changes.model import (ChangeModel, ChangeConflict, MAX_FILE_CHARS, MAX_HISTORY, MAX_STORED_CHARS,
                                      matches, by_author, pending_items, summary_of, decisions_of, merged_entry,
                                      large_entry, kept_base, rediffed_entry, text_without, undo_plan_of, rebased_base,
                                      refusal_of, earlier_turns_of, dropped_text, carry_links, partner_of, overlaps,
                                      too_large, entry_size)

PANEL = {'client': 'Hermes panel', 'session': 'c1', 'turn': 't1'}
CLAUDE = {'client': 'Claude Code', 'session': None, 'turn': None, 'external': True}


def entry_of(before, after, author=PANEL, now=10, sequence=1, path='/ws/a.py'):
    return merged_entry(path, 'file://' + path, None, before, after, author, now, sequence)


def test_a_write_becomes_an_entry_with_ids_authors_and_the_texts():
    entry = entry_of('one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n')
    assert (entry['path'], entry['uri'], entry['base'], entry['text']) == (
        '/ws/a.py', 'file:///ws/a.py', 'one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n')
    assert [(h['id'], h['start'], h['before'], h['after']) for h in entry['hunks']] == [
        ('h1', 1, ['two\n'], ['TWO\n']), ('h2', 3, [], ['four\n'])]
    assert all(h['author'] == PANEL and h['time'] == 10 and h['sequence'] == 1 for h in entry['hunks'])
    assert entry['next_id'] == 3 and entry['too_large'] is False
    assert entry_of('same\n', 'same\n') is None


def test_a_second_write_keeps_the_ids_of_hunks_that_stay_and_rebases_user_edits():
    first = entry_of('a\nb\nc\n', 'a\nB\nc\n')
    second = merged_entry('/ws/a.py', 'file:///ws/a.py', first, 'a\nB\nc\n', 'a\nB\nc\nd\n', CLAUDE, 20, 2)
    assert [(h['id'], h['author']['client']) for h in second['hunks']] == [('h1', 'Hermes panel'), ('h2', 'Claude Code')]
    # the user edited line 0 between the writes: that edit becomes the base's
    third = merged_entry('/ws/a.py', 'file:///ws/a.py', first, 'A\nB\nc\n', 'A\nB\nC\n', CLAUDE, 30, 3)
    assert third['base'] == 'A\nb\nc\n'
    assert rebased_base(first, 'X\nB\nc\n') == 'X\nb\nc\n'


def test_keeping_moves_hunks_into_the_base_and_undoing_reverts_them_in_the_text():
    entry = entry_of('one\ntwo\nthree\n', 'ONE\ntwo\nTHREE\n')
    assert kept_base(entry, [entry['hunks'][1]]) == 'one\ntwo\nTHREE\n'
    assert text_without(entry, ['h1']) == 'one\ntwo\nTHREE\n'
    left = rediffed_entry('/ws/a.py', entry, 'one\ntwo\nTHREE\n', entry['text'], entry['hunks'], 40)
    assert [h['id'] for h in left['hunks']] == ['h1']
    assert rediffed_entry('/ws/a.py', entry, entry['text'], entry['text'], entry['hunks'], 40) is None
    created = entry_of(None, 'new\n')
    assert created['base'] is None and text_without(created, ['h1']) == ''
    deleted = entry_of('old\n', None)
    assert text_without(deleted, ['h1']) == 'old\n' and text_without(deleted, []) is None


def test_an_undo_plan_reverts_hunks_where_the_user_moved_them_and_names_conflicts():
    entry = entry_of('one\ntwo\nthree\n', 'ONE\ntwo\nTHREE\n')
    # the user added a line at the top since: the hunks moved down one line
    plan = undo_plan_of(entry, entry['hunks'], 'zero\nONE\ntwo\nTHREE\n', False)
    assert plan == {'file': False, 'conflicts': [], 'undone': ['h1', 'h2'], 'text': 'zero\none\ntwo\nthree\n'}
    # the user edited the second hunk itself: a conflict, unless forced
    edited = 'ONE\ntwo\nTHREE!\n'
    assert undo_plan_of(entry, [entry['hunks'][1]], edited, False)['conflicts'] == ['h2']
    assert undo_plan_of(entry, [entry['hunks'][1]], edited, True) == {
        'file': False, 'conflicts': [], 'undone': ['h2'], 'text': 'ONE\ntwo\nthree\n'}
    created = entry_of(None, 'new\n')
    assert undo_plan_of(created, created['hunks'], 'new\n', False) == {
        'file': True, 'conflicts': [], 'undone': ['h1'], 'text': None}
    assert undo_plan_of(created, created['hunks'], 'new, edited\n', False)['conflicts'] == ['h1']
    assert undo_plan_of(created, created['hunks'], 'new, edited\n', True)['conflicts'] == []
    deleted = entry_of('old\n', None)
    assert undo_plan_of(deleted, deleted['hunks'], None, False)['text'] == 'old\n'


def test_authors_filter_group_and_decide_the_history():
    assert matches(PANEL, None) and matches(PANEL, {'client': 'Hermes panel', 'turn': 't1'})
    assert not matches(PANEL, {'session': 'c2'}) and matches({'client': 'x', 'turn': '7'}, {'turn': 7})
    entry = merged_entry('/ws/a.py', 'u', entry_of('a\nb\nc\n', 'A\nb\nc\n'), 'A\nb\nc\n', 'A\nb\nC\n', CLAUDE, 20, 2)
    assert [len(group) for group in by_author(entry['hunks'] + [entry['hunks'][0]])] == [2, 1]
    items = pending_items([entry], None)
    assert [(item['client'], item['added'], item['removed'], item['time']) for item in items] == [
        ('Hermes panel', 1, 1, 10), ('Claude Code', 1, 1, 20)]
    assert pending_items([entry], {'client': 'Claude Code'})[0]['hunks'][0]['after_lines'] == ['C']
    assert summary_of(items) == {'files': 1, 'hunks': 2, 'added': 2, 'removed': 2}
    assert decisions_of('/ws/a.py', 'kept', entry['hunks'], 50) == [
        {'path': '/ws/a.py', 'action': 'kept', 'client': 'Hermes panel', 'session': 'c1', 'turn': 't1', 'hunks': 1,
         'added': 1, 'removed': 1, 'time': 50},
        {'path': '/ws/a.py', 'action': 'kept', 'client': 'Claude Code', 'session': None, 'turn': None, 'hunks': 1,
         'added': 1, 'removed': 1, 'time': 50}]
    later = dict(PANEL, turn='t2')
    assert earlier_turns_of([entry], later) == ['t1'] and earlier_turns_of([entry], PANEL) == []


def test_created_deleted_moved_and_too_large_files():
    created = entry_of(None, 'x\n')
    moved_from = entry_of('x\n', None, path='/ws/old.py')
    moved_from['renamed_to'] = '/ws/new.py'
    assert partner_of(moved_from) == '/ws/new.py' and partner_of(created) is None
    made = {}
    carry_links(moved_from, made)
    assert made == {'renamed_to': '/ws/new.py'}
    item = pending_items([moved_from, created], None)
    assert item[0]['deleted'] is True and item[0]['renamed_to'] == '/ws/new.py' and item[1]['created'] is True
    large = large_entry('/ws/big.txt', 'u', PANEL, 5, 9)
    assert large['too_large'] and [h['id'] for h in large['hunks']] == ['h1']
    assert pending_items([large], None)[0]['too_large'] is True
    assert too_large('x' * (MAX_FILE_CHARS + 1)) and not too_large(None) and not too_large('x')
    assert entry_size(created) == 2 and '/ws/a.py' in dropped_text('/ws/a.py', 100)


def test_the_re_read_rule():
    entry = entry_of('a\nb\nc\n', 'a\nB\nc\n', author=CLAUDE, sequence=5)
    assert refusal_of(entry, 'Hermes panel', -1, [[1, 1]]).startswith('Refused: lines 2-2 of this file')
    assert refusal_of(entry, 'Hermes panel', -1, None) is not None
    assert refusal_of(entry, 'Hermes panel', -1, [[2, 2]]) is None  # another line
    assert refusal_of(entry, 'Hermes panel', 6, [[1, 1]]) is None  # read after the hunk was recorded
    assert refusal_of(entry, 'Claude Code', -1, [[1, 1]]) is None  # its own change
    assert overlaps({'start': 3, 'after': []}, [[3, 3]]) and not overlaps({'start': 3, 'after': ['x']}, [[4, 9]])


def test_the_model_keeps_state_order_history_and_the_stored_records():
    model = ChangeModel()
    model.merge('/ws/a.py', 'ua', 'a\n', 'A\n', PANEL, 1)
    model.merge('/ws/b.py', 'ub', None, 'b\n', CLAUDE, 2)
    assert model.order == ['/ws/a.py', '/ws/b.py'] and model.entry('/ws/c.py') is None
    model.note_read('Hermes panel', '/ws/b.py')
    assert model.edit_refusal({'client': 'Hermes panel'}, '/ws/b.py', None) is None
    assert model.edit_refusal({'client': 'Other'}, '/ws/b.py', None) is not None
    entry = model.known('/ws/a.py')
    model.keep_hunks('/ws/a.py', entry, entry['hunks'], 'kept', 3)
    assert model.order == ['/ws/b.py'] and [item['action'] for item in model.history(None)] == ['kept']
    line = model.journal_line(['/ws/a.py', '/ws/b.py'])
    assert line['seq'] == 1 and [f['path'] for f in line['files']] == ['/ws/b.py'] and len(line['history']) == 1
    data = model.to_data(1)
    assert data['journal_seq'] == 1 and data['files'][0]['path'] == '/ws/b.py'
    again = ChangeModel()
    assert again.restore(data, lambda path: path != '/ws/b.py') is True  # outside now: left out
    assert again.order == [] and len(again.decisions) == 1
    assert ChangeModel().restore(data, lambda path: True) is False
    for index in range(MAX_HISTORY + 5):
        model.remember('/ws/x.py', 'undone', entry['hunks'], index)
    assert len(model.decisions) == MAX_HISTORY and model.take_reports() == []
    with pytest.raises(ValueError):
        model.known('/ws/nothing.py')


def test_past_the_bound_the_oldest_files_are_dropped_and_the_user_is_told():
    assert ChangeModel().max_stored_chars == MAX_STORED_CHARS
    model = ChangeModel(100)
    for name in ['a', 'b', 'c']:
        model.merge('/ws/' + name, 'u', None, name * 40, PANEL, 1)
    assert model.order == ['/ws/b', '/ws/c'] and model.dropped == 1
    [report] = model.take_reports()
    assert 'the change log is full (100 characters)' in report and '(/ws/a)' in report
    assert model.take_reports() == []


def test_a_conflict_names_the_hunks():
    conflict = ChangeConflict('/ws/a.py', ['h1', 'h3'])
    assert conflict.hunk_ids == ['h1', 'h3'] and str(conflict).startswith('You edited 2 of these changes')
