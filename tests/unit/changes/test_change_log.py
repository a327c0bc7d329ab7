"""The change log (hermes.host.changes.log): recording with authors, pending() for the views, keep and undo per
hunk, per file and per author, conflicts, created/deleted/huge files, autoKeep, the re-read rule, and the store
(bounded, safe writes, corrupt file moved aside and reported once, reload, outside files never stored)."""
import asyncio
import json
import os

import pytest

import vscode
from fake_clock import FakeClock, HeldTimers
from hermes.core.changes import model as change_model_module
from hermes.host.changes.log import ChangeLog, ChangeConflict, MAX_FILE_CHARS, ANNOUNCE_QUIET_MS
from hermes.host.changes.announcer import ANNOUNCE_LONGEST_MS
from hermes.host.changes.journal import SNAPSHOT_QUIET_MS, SNAPSHOT_MAX_WAIT_MS
from hermes.host.changes.store import ChangeStore, FORMAT
from hermes.js.modules_cpython import _NodeFs, _node_error

CLAUDE = {'client': 'Claude Code', 'session': None, 'turn': None, 'external': True}
PANEL = {'client': 'Hermes panel', 'session': 'c1', 'turn': 't1'}


def run(coroutine):
    return asyncio.run(coroutine)


class FakeFiles:
    """The files as the user sees them: a dict of path → text (a missing key: no file)."""

    def __init__(self):
        self.texts = {}
        self.writes = []

    async def read(self, path):
        return self.texts.get(path)

    async def write(self, path, text):
        self.writes.append((path, text))
        if text is None:
            self.texts.pop(path, None)
        else:
            self.texts[path] = text


def settings_of(values):
    defaults = {'changes.trackExternal': True, 'changes.autoKeep': 'never', 'changes.autoKeepSeconds': 300}
    defaults.update(values)
    return lambda key: defaults[key]


def make_log(files=None, store=None, settings=None, clock=None, reports=None, confined=None):
    """A log whose time is `clock`'s (a FakeClock moved by hand: `clock.time += ms`) and whose timers wait until the
    test fires them (`log._timers`)."""
    return ChangeLog(files or FakeFiles(), store, settings or settings_of({}),
                     (reports.append if reports is not None else None), (clock or FakeClock()).now,
                     confined or (lambda path: path.startswith('/ws/')), HeldTimers())


def write(log, files, path, text, author=PANEL):
    """What a tool does: the file changes and the host records it."""
    before = files.texts.get(path)
    files.texts[path] = text
    return log.record(path, before, text, author)


def test_record_lists_the_file_with_its_author_hunks_and_counts():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'one\ntwo\nthree\n'
    log = make_log(files)
    entry = write(log, files, '/ws/a.py', 'one\nTWO\nthree\nfour\n')
    assert entry['path'] == '/ws/a.py'
    [item] = log.pending()
    assert item['path'] == '/ws/a.py' and item['uri'] == 'file:///ws/a.py'
    assert (item['client'], item['session'], item['turn']) == ('Hermes panel', 'c1', 't1')
    assert (item['added'], item['removed']) == (2, 1)
    assert [(h['id'], h['start'], h['before_lines'], h['after_lines']) for h in item['hunks']] == [
        ('h1', 1, ['two'], ['TWO']), ('h2', 3, [], ['four'])]
    assert 'created' not in item and 'deleted' not in item
    assert log.summary() == {'files': 1, 'hunks': 2, 'added': 2, 'removed': 1}


def test_two_authors_on_one_file_are_two_groups_and_filters_pick_one():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\nd\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\nb\nc\nd\n', PANEL)
    write(log, files, '/ws/a.py', 'A\nb\nc\nD\n', CLAUDE)
    groups = log.pending()
    assert [(g['client'], [h['after_lines'] for h in g['hunks']]) for g in groups] == [
        ('Hermes panel', [['A']]), ('Claude Code', [['D']])]
    assert [g['client'] for g in log.pending({'client': 'Claude Code'})] == ['Claude Code']
    assert log.pending({'turn': 't1'})[0]['client'] == 'Hermes panel'


def test_keep_one_hunk_and_undo_another_leave_exactly_the_expected_text():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\nd\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\nb\nc\nD\n')
    assert log.keep('/ws/a.py', 'h1') == ['h1']
    assert [h['id'] for h in log.pending()[0]['hunks']] == ['h2']
    assert run(log.undo('/ws/a.py', 'h2')) == ['h2']
    assert files.texts['/ws/a.py'] == 'A\nb\nc\nd\n'
    assert log.pending() == [] and log.entry('/ws/a.py') is None


def test_undo_survives_the_users_edits_elsewhere_and_asks_when_they_edited_the_hunk():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\nd\ne\nf\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\nb\nc\nd\nE\nf\n')
    files.texts['/ws/a.py'] = 'A\nb\nd\nE\nf\nmine\n'  # the user: 'c' gone, a line at the end (not the agent's)
    assert run(log.undo('/ws/a.py', 'h2')) == ['h2']
    assert files.texts['/ws/a.py'] == 'A\nb\nd\ne\nf\nmine\n'
    files.texts['/ws/a.py'] = 'A, edited by me\nb\nd\ne\nf\nmine\n'
    with pytest.raises(ChangeConflict) as conflict:
        run(log.undo('/ws/a.py', 'h1'))
    assert conflict.value.hunk_ids == ['h1'] and 'You edited 1 of these changes' in str(conflict.value)
    assert files.texts['/ws/a.py'] == 'A, edited by me\nb\nd\ne\nf\nmine\n'  # nothing written
    assert run(log.undo('/ws/a.py', 'h1', True)) == ['h1']
    assert files.texts['/ws/a.py'] == 'a\nb\nd\ne\nf\nmine\n'
    assert log.pending() == []


def test_crlf_files_come_back_byte_for_byte():
    files = FakeFiles()
    files.texts['/ws/w.txt'] = 'one\r\ntwo\r\nthree'
    log = make_log(files)
    write(log, files, '/ws/w.txt', 'one\r\n2\r\nthree\r\nfour')
    run(log.undo('/ws/w.txt'))
    assert files.texts['/ws/w.txt'] == 'one\r\ntwo\r\nthree'


def test_a_created_file_is_deleted_by_undo_and_a_deleted_file_comes_back():
    files = FakeFiles()
    log = make_log(files)
    write(log, files, '/ws/new.py', 'print(1)\n')
    assert log.pending()[0]['created'] is True
    assert run(log.undo('/ws/new.py')) == ['h1']
    assert '/ws/new.py' not in files.texts and files.writes[-1] == ('/ws/new.py', None)
    files.texts['/ws/old.py'] = 'keep me\n'
    log.record('/ws/old.py', 'keep me\n', None, PANEL)
    files.texts.pop('/ws/old.py')
    assert log.pending()[0]['deleted'] is True
    run(log.undo('/ws/old.py'))
    assert files.texts['/ws/old.py'] == 'keep me\n'


def test_undoing_a_created_file_the_user_edited_asks_first():
    files = FakeFiles()
    log = make_log(files)
    write(log, files, '/ws/new.py', 'x\n')
    files.texts['/ws/new.py'] = 'x\nmine\n'
    with pytest.raises(ChangeConflict):
        run(log.undo('/ws/new.py'))
    assert files.texts['/ws/new.py'] == 'x\nmine\n'


def test_a_second_write_over_the_users_edits_keeps_them_in_the_base():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\nb\nc\n')
    files.texts['/ws/a.py'] = 'A\nb\nc\nmine\n'  # the user adds a line
    write(log, files, '/ws/a.py', 'A\nb\nC\nmine\n', CLAUDE)  # another agent edits again
    assert [(g['client'], [(h['id'], h['after_lines']) for h in g['hunks']]) for g in log.pending()] == [
        ('Hermes panel', [('h1', ['A'])]), ('Claude Code', [('h2', ['C'])])]
    write(log, files, '/ws/a.py', 'A\nB\nC\nmine\n', CLAUDE)  # adjacent changes become one hunk, the latest author's
    assert [(g['client'], [(h['id'], h['after_lines']) for h in g['hunks']]) for g in log.pending()] == [
        ('Claude Code', [('h3', ['A', 'B', 'C'])])]
    run(log.undo('/ws/a.py'))
    assert files.texts['/ws/a.py'] == 'a\nb\nc\nmine\n'  # the user's line stays


def test_writing_the_original_text_back_leaves_nothing_pending():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'b\n')
    write(log, files, '/ws/a.py', 'a\n')
    assert log.pending() == []


def test_keep_all_and_undo_all_by_author():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\n'
    files.texts['/ws/b.py'] = 'b\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\n', PANEL)
    write(log, files, '/ws/b.py', 'B\n', CLAUDE)
    assert run(log.undo_all({'client': 'Claude Code'})) == {'undone': 1, 'conflicts': []}
    assert files.texts['/ws/b.py'] == 'b\n'
    assert log.keep_all({'session': 'c1'}) == 1
    assert files.texts['/ws/a.py'] == 'A\n' and log.pending() == []


def test_undo_all_reports_conflicts_and_undoes_the_rest():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\n'
    files.texts['/ws/b.py'] = 'b\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'A\n')
    write(log, files, '/ws/b.py', 'B\n')
    files.texts['/ws/a.py'] = 'A!\n'
    result = run(log.undo_all())
    assert result == {'undone': 1, 'conflicts': [{'path': '/ws/a.py', 'hunk_ids': ['h1']}]}
    assert files.texts['/ws/b.py'] == 'b\n' and files.texts['/ws/a.py'] == 'A!\n'


def test_a_file_too_large_is_listed_without_its_text_kept_but_not_undone():
    files = FakeFiles()
    log = make_log(files)
    big = 'x' * (MAX_FILE_CHARS + 1)
    log.record('/ws/big.txt', 'small\n', big, PANEL)
    [item] = log.pending()
    assert item['too_large'] is True and log.entry('/ws/big.txt')['text'] == ''
    with pytest.raises(ValueError, match='too large for the change log'):
        run(log.undo('/ws/big.txt'))
    assert log.keep('/ws/big.txt') == ['h1'] and log.pending() == []


def test_external_clients_are_not_recorded_when_tracking_is_off():
    files = FakeFiles()
    log = make_log(files, settings=settings_of({'changes.trackExternal': False}))
    assert log.record('/ws/a.py', 'a\n', 'b\n', CLAUDE) is None
    assert log.record('/ws/a.py', 'a\n', 'b\n', PANEL) is not None
    assert [g['client'] for g in log.pending()] == ['Hermes panel']


def test_files_outside_the_workspace_are_never_recorded():
    log = make_log()
    assert log.record('/home/me/.bashrc', 'secret\n', 'changed\n', PANEL) is None
    assert log.pending() == [] and 'secret' not in json.dumps(log.to_data())


def test_auto_keep_when_the_next_turn_starts():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\n'
    log = make_log(files, settings=settings_of({'changes.autoKeep': 'nextTurn'}))
    write(log, files, '/ws/a.py', 'A\nb\nc\n', PANEL)
    write(log, files, '/ws/a.py', 'A\nb\nC\n', dict(PANEL, turn='t2'))
    assert [(g['turn'], len(g['hunks'])) for g in log.pending()] == [('t2', 1)]
    log.start_turn(dict(PANEL, turn='t3'))
    assert log.pending() == [] and files.texts['/ws/a.py'] == 'A\nb\nC\n'


def test_auto_keep_after_a_delay():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\n'
    clock = FakeClock()
    log = make_log(files, settings=settings_of({'changes.autoKeep': 'afterDelay', 'changes.autoKeepSeconds': 60}),
                   clock=clock)
    write(log, files, '/ws/a.py', 'A\nb\nc\n')
    clock.time += 30000
    write(log, files, '/ws/a.py', 'A\nb\nC\n')
    clock.time += 31000
    assert log.keep_expired() == 1
    assert [h['after_lines'] for h in log.pending()[0]['hunks']] == [['C']]
    assert log._timers.pending, 'a timer is set while changes are pending'
    clock.time += 60000
    log._timers.fire_all()
    assert log.pending() == []


def test_an_edit_of_another_clients_pending_hunk_needs_a_read_first():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\nc\n'
    clock = FakeClock()
    log = make_log(files, clock=clock)
    write(log, files, '/ws/a.py', 'a\nB\nc\n', PANEL)
    refusal = log.edit_refusal(CLAUDE, '/ws/a.py', [[1, 1]])
    assert refusal.startswith('Refused: lines 2-2 of this file hold a change by Hermes panel')
    assert 'Read the file again' in refusal
    assert log.edit_refusal(CLAUDE, '/ws/a.py', [[2, 2]]) is None  # another line
    assert log.edit_refusal(PANEL, '/ws/a.py', None) is None  # its own change
    assert log.edit_refusal(CLAUDE, '/ws/a.py', None) is not None  # a whole-file write
    log.note_read('Claude Code', '/ws/a.py')  # at the same millisecond: order counts, not the clock
    assert log.edit_refusal(CLAUDE, '/ws/a.py', [[1, 1]]) is None


def test_on_change_tells_listeners_until_disposed():
    files = FakeFiles()
    log = make_log(files)
    heard = []
    subscription = log.on_change(heard.append)
    write(log, files, '/ws/a.py', 'x\n')
    subscription.dispose()
    log.keep('/ws/a.py')
    assert heard == [['/ws/a.py']]


def announcing_log(tmp_path, files, clock=None):
    """The window's log: stored, its listeners told once changes pause (host/services.py)."""
    return ChangeLog(files, ChangeStore(str(tmp_path / 'changes.json'), lambda text: None), settings_of({}), None,
                     (clock or FakeClock()).now, lambda path: path.startswith('/ws/'), HeldTimers(),
                     announce_quiet_ms=ANNOUNCE_QUIET_MS)


def announcements(log):
    return [handle for handle in log._timers.pending if handle[0] == log._announcer._timer._fire]


def saves(log):
    return [handle for handle in log._timers.pending if handle[0] == log._journal._saver._fire]


def test_a_burst_of_writes_is_heard_once_after_the_delay_with_each_file_once_and_all_in_the_journal(tmp_path):
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\n'
    log = announcing_log(tmp_path, files)
    heard = []
    log.on_change(lambda paths: heard.append((list(paths), len(journal_lines(tmp_path)), log.summary()['files'])))
    for text in ['A\nb\n', 'A\nB\n', 'A\nB\nc\n']:
        write(log, files, '/ws/a.py', text, CLAUDE)
    write(log, files, '/ws/b.py', 'new\n', PANEL)
    log.keep('/ws/b.py')
    assert heard == [], 'no listener runs inside the writes (the tool has not replied yet)'
    assert len(journal_lines(tmp_path)) == 5, 'yet every change is in the journal already'
    assert len(announcements(log)) == 1, 'one announcement for the burst'
    log._timers.fire(announcements(log)[0])
    assert heard == [(['/ws/a.py', '/ws/b.py'], 5, 1)], 'once, each path once, the latest state'
    log.announce_now()
    assert len(heard) == 1, 'nothing new: nothing told'
    write(log, files, '/ws/c.py', 'c\n', PANEL)
    log.announce_now()  # (tests and flushes may tell at once)
    assert heard[1][0] == ['/ws/c.py'] and announcements(log) == []


def test_a_listener_that_fails_does_not_keep_the_others_from_hearing(tmp_path):
    files = FakeFiles()
    log = announcing_log(tmp_path, files)
    heard = []

    def broken(paths):
        raise ValueError('a view that throws')
    log.on_change(broken)
    log.on_change(heard.append)
    write(log, files, '/ws/a.py', 'x\n')
    log.announce_now()
    assert heard == [['/ws/a.py']]


def test_disposing_the_log_drops_an_announcement_still_waiting(tmp_path):
    files = FakeFiles()
    log = announcing_log(tmp_path, files)
    heard = []
    log.on_change(heard.append)
    write(log, files, '/ws/a.py', 'x\n')
    log.dispose()
    assert announcements(log) == [] and heard == []
    assert json.loads((tmp_path / 'changes.json').read_text())['files'][0]['path'] == '/ws/a.py'


def test_the_snapshot_waits_for_a_quiet_moment_and_at_most_the_longest_wait(tmp_path):
    files = FakeFiles()
    clock = FakeClock()
    log = announcing_log(tmp_path, files, clock)

    start = clock.time
    for step in range(12):  # a change every 400 ms: never a quiet second
        write(log, files, '/ws/a.py', 'x%d\n' % step)
        assert len(saves(log)) == 1, 'one snapshot waiting, moved on by each change'
        assert saves(log)[0][1] == min(SNAPSHOT_QUIET_MS, start + SNAPSHOT_MAX_WAIT_MS - clock.time)
        clock.time += 400
    assert saves(log)[0][1] == 600 and not (tmp_path / 'changes.json').exists()
    log._timers.fire(saves(log)[0])
    assert json.loads((tmp_path / 'changes.json').read_text())['journal_seq'] == 12
    assert not (tmp_path / 'changes.journal').exists()
    write(log, files, '/ws/a.py', 'later\n')  # the next burst waits a whole quiet moment again
    assert saves(log)[0][1] == SNAPSHOT_QUIET_MS


def test_listeners_hear_when_the_changes_pause_and_at_least_every_longest_wait_while_they_do_not(tmp_path):
    files = FakeFiles()
    clock = FakeClock()
    log = announcing_log(tmp_path, files, clock)
    heard = []
    log.on_change(lambda paths: heard.append(list(paths)))
    start = clock.time
    for step in range(7):  # a write every 150 ms: never a quiet moment
        write(log, files, '/ws/f%d.py' % step, 'x\n')
        [waiting] = announcements(log)
        assert waiting[1] == min(ANNOUNCE_QUIET_MS, start + ANNOUNCE_LONGEST_MS - clock.time)
        clock.time += 150
    assert heard == [] and announcements(log)[0][1] == 100, 'the last write came 900 ms after the first'
    log._timers.fire(announcements(log)[0])
    assert heard == [['/ws/f%d.py' % step for step in range(7)]]
    write(log, files, '/ws/g.py', 'x\n')
    assert announcements(log)[0][1] == ANNOUNCE_QUIET_MS, 'a new burst: a whole quiet moment'


def test_unknown_ids_and_paths_change_nothing():
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\n'
    log = make_log(files)
    write(log, files, '/ws/a.py', 'b\n')
    assert log.keep('/ws/a.py', 'h99') == [] and log.keep('/ws/none.py') == []
    assert run(log.undo('/ws/a.py', 'h99')) == [] and run(log.undo('/ws/none.py')) == []
    assert files.writes == [] and len(log.pending()) == 1


# ----------------------------------------------------------------------------------------- the store


def stored_log(path, files, reports=None):
    reports = [] if reports is None else reports
    return make_log(files, ChangeStore(str(path), reports.append), reports=reports)


def test_the_log_survives_a_reload(tmp_path):
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\n'
    log = stored_log(tmp_path / 'changes.json', files)
    write(log, files, '/ws/a.py', 'A\nb\nc\n', CLAUDE)
    log.dispose()  # saves at once
    stat = os.stat(tmp_path / 'changes.json')
    assert stat.st_mode & 0o777 == 0o600
    assert not (tmp_path / 'changes.json.tmp').exists()
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.pending() == log.pending()
    run(again.undo('/ws/a.py', 'h1'))
    assert files.texts['/ws/a.py'] == 'a\nb\nc\n'


def test_saves_wait_for_the_timer_and_coalesce(tmp_path):
    files = FakeFiles()
    log = stored_log(tmp_path / 'changes.json', files)
    write(log, files, '/ws/a.py', 'x\n')
    write(log, files, '/ws/b.py', 'y\n')
    assert not (tmp_path / 'changes.json').exists()
    assert len(log._timers.pending) == 1
    log._timers.fire_all()
    data = json.loads((tmp_path / 'changes.json').read_text())
    assert data['format'] == FORMAT and [f['path'] for f in data['files']] == ['/ws/a.py', '/ws/b.py']


@pytest.mark.parametrize('content', ['{not json', '[]', '{"format": 1, "files": [{"hunks": []}]}',
                                     '{"format": 99, "files": []}'])
def test_a_corrupt_store_is_moved_aside_and_reported_once(tmp_path, content):
    (tmp_path / 'changes.json').write_text(content)
    reports = []
    log = stored_log(tmp_path / 'changes.json', FakeFiles(), reports)
    assert log.pending() == []
    assert len(reports) == 1 and 'could not be read' in reports[0] and 'started an empty log' in reports[0]
    moved = [name for name in os.listdir(tmp_path) if name.startswith('changes.corrupt-')]
    assert len(moved) == 1 and (tmp_path / moved[0]).read_text() == content
    assert not (tmp_path / 'changes.json').exists()
    stored_log(tmp_path / 'changes.json', FakeFiles(), reports)
    assert len(reports) == 1  # the next start finds no corrupt file to report


def journal_lines(tmp_path):
    return [json.loads(line) for line in (tmp_path / 'changes.journal').read_text().splitlines()]


def test_a_change_is_in_the_journal_before_anyone_hears_of_it_and_a_killed_window_loads_it(tmp_path):
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\nb\n'
    log = stored_log(tmp_path / 'changes.json', files)
    heard = []
    log.on_change(lambda paths: heard.append(journal_lines(tmp_path)[-1]['seq']))
    write(log, files, '/ws/a.py', 'A\nb\n', CLAUDE)
    write(log, files, '/ws/b.py', 'new\n', PANEL)
    log.keep('/ws/b.py')
    assert heard == [1, 2, 3]  # each listener (a view, the tool's result) comes after its line is written
    assert not (tmp_path / 'changes.json').exists()  # the snapshot's timer never fired: the window was killed
    assert (tmp_path / 'changes.journal').stat().st_mode & 0o777 == 0o600
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.pending() == log.pending() and [h['action'] for h in again.history()] == ['kept']
    # loading compacted the journal into the snapshot
    assert not (tmp_path / 'changes.journal').exists()
    assert json.loads((tmp_path / 'changes.json').read_text())['journal_seq'] == 3


def test_journal_lines_leave_out_what_the_line_before_holds_and_load_back_exactly(tmp_path):
    files = FakeFiles()
    files.texts['/ws/a.py'] = ''.join('line %d\n' % n for n in range(40))
    log = stored_log(tmp_path / 'changes.json', files)
    write(log, files, '/ws/a.py', files.texts['/ws/a.py'].replace('line 3\n', 'LINE 3\n'), CLAUDE)
    write(log, files, '/ws/a.py', files.texts['/ws/a.py'].replace('line 30\n', 'LINE 30\nmore\n'), CLAUDE)
    files.texts['/ws/a.py'] = 'mine\n' + files.texts['/ws/a.py']  # the user's edit, then the agent again
    write(log, files, '/ws/a.py', files.texts['/ws/a.py'].replace('line 20\n', ''), PANEL)
    log.keep('/ws/a.py', 'h1')
    lines = journal_lines(tmp_path)
    assert 'base' in lines[0]['files'][0] and lines[1]['files'][0]['same_base'] is True and 'base' not in lines[1]['files'][0]
    assert all('before' not in hunk and 'after' not in hunk for line in lines for entry in line['files']
               for hunk in entry['hunks'])
    assert len(lines) == 4 and lines[2]['files'][0].get('same_base') is None  # the user's edit moved the base
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.pending() == log.pending() and again.entry('/ws/a.py') == log.entry('/ws/a.py')


def test_the_snapshot_takes_the_journal_in_and_lines_it_holds_are_not_replayed_twice(tmp_path):
    files = FakeFiles()
    log = stored_log(tmp_path / 'changes.json', files)
    write(log, files, '/ws/a.py', 'x\n')
    log.keep('/ws/a.py')
    journal = (tmp_path / 'changes.journal').read_text()
    log._timers.fire_all()  # the snapshot is written and the journal removed
    assert not (tmp_path / 'changes.journal').exists()
    (tmp_path / 'changes.journal').write_text(journal)  # a kill between the snapshot's rename and the removal
    write(log, files, '/ws/c.py', 'z\n')  # appended after the stale lines, seq 3
    again = stored_log(tmp_path / 'changes.json', files)
    assert [h['action'] for h in again.history()] == ['kept']  # not twice
    assert again.paths() == ['/ws/c.py']


def test_a_journal_line_cut_short_by_a_kill_is_ignored_silently(tmp_path):
    files = FakeFiles()
    reports = []
    log = stored_log(tmp_path / 'changes.json', files, reports)
    write(log, files, '/ws/a.py', 'one\n')
    write(log, files, '/ws/b.py', 'two\n')
    text = (tmp_path / 'changes.journal').read_text()
    cut = text[:len(text) - 40]  # the second line half written, never acknowledged
    (tmp_path / 'changes.journal').write_text(cut)
    again = stored_log(tmp_path / 'changes.json', files, reports)
    assert again.paths() == ['/ws/a.py'] and reports == []
    write(again, files, '/ws/c.py', 'three\n')  # the next line starts a fresh journal, not after the torn one
    assert stored_log(tmp_path / 'changes.json', files, reports).paths() == ['/ws/a.py', '/ws/c.py']
    assert reports == []


def test_a_bad_journal_line_keeps_the_lines_before_it_and_is_reported_once(tmp_path):
    files = FakeFiles()
    reports = []
    log = stored_log(tmp_path / 'changes.json', files, reports)
    write(log, files, '/ws/a.py', 'one\n')
    write(log, files, '/ws/b.py', 'two\n')
    lines = (tmp_path / 'changes.journal').read_text().splitlines()
    (tmp_path / 'changes.journal').write_text(lines[0] + '\n{"seq": "x"}\n' + lines[1] + '\n')
    again = stored_log(tmp_path / 'changes.json', files, reports)
    assert again.paths() == ['/ws/a.py']
    assert len(reports) == 1 and reports[0].startswith("Changes: the change log's journal ")
    assert 'could not be read (line 2: not a journal line); moved it to ' in reports[0]
    moved = [name for name in os.listdir(tmp_path) if name.startswith('changes.journal.corrupt-')]
    assert len(moved) == 1


def test_a_full_disk_is_reported_once_the_log_goes_on_in_memory_and_what_was_stored_is_unchanged(tmp_path,
                                                                                                    monkeypatch):
    files = FakeFiles()
    reports = []
    log = stored_log(tmp_path / 'changes.json', files, reports)
    write(log, files, '/ws/a.py', 'one\n')
    saved = (tmp_path / 'changes.journal').read_text()

    def full(*args, **kwargs):  # as the kernel answers a write to a full disk
        raise _node_error('write', args[0], OSError(28, os.strerror(28)))
    with monkeypatch.context() as patch:
        patch.setattr(_NodeFs, 'appendFileSync', staticmethod(full))
        patch.setattr(_NodeFs, 'writeFileSync', staticmethod(full))
        write(log, files, '/ws/b.py', 'two\n')
        write(log, files, '/ws/c.py', 'three\n')
        log._timers.fire_all()
    assert len(reports) == 1 and reports[0].startswith('Changes: could not save the change log to ')
    assert 'ENOSPC' in reports[0] and reports[0].endswith('Pending changes are kept for this window; what was saved '
                                                          'before is unchanged.')
    assert log.paths() == ['/ws/a.py', '/ws/b.py', '/ws/c.py']
    assert (tmp_path / 'changes.journal').read_text() == saved and not (tmp_path / 'changes.json').exists()
    assert [name for name in os.listdir(tmp_path) if name.endswith('.tmp')] == []
    write(log, files, '/ws/d.py', 'four\n')  # room again: after a failed write the whole log is written, not a line
    assert 'works again' not in ' '.join(reports)
    assert stored_log(tmp_path / 'changes.json', files).paths() == ['/ws/a.py', '/ws/b.py', '/ws/c.py', '/ws/d.py']


def test_entries_outside_the_workspace_are_dropped_on_load(tmp_path):
    data = {'format': FORMAT, 'files': [{'path': '/elsewhere/x.py', 'uri': 'file:///elsewhere/x.py', 'base': 'secret',
                                         'text': 'b', 'hunks': [], 'next_id': 1, 'too_large': False}]}
    (tmp_path / 'changes.json').write_text(json.dumps(data))
    log = stored_log(tmp_path / 'changes.json', FakeFiles())
    assert log.paths() == []
    assert 'secret' not in (tmp_path / 'changes.json').read_text()  # gone from the disk at load, not at a later save


def test_the_log_is_bounded_dropping_the_oldest_files(monkeypatch):
    monkeypatch.setattr(change_model_module, 'MAX_STORED_CHARS', 100)
    files = FakeFiles()
    reports = []
    log = make_log(files, reports=reports)
    for name in ['a', 'b', 'c']:
        log.record('/ws/' + name + '.txt', None, name * 40, PANEL)
    assert log.paths() == ['/ws/b.txt', '/ws/c.txt'] and log.dropped == 1
    assert 'the change log is full' in reports[0] and '/ws/a.txt' in reports[0]


def test_without_a_workspace_the_log_lives_in_memory(tmp_path):
    store = ChangeStore(None, print)
    assert store.load() is None and store.save_now({'format': FORMAT, 'files': []}) is True


def test_a_move_is_listed_at_both_ends_and_undone_as_a_whole():
    files = FakeFiles()
    files.texts['/ws/old.py'] = 'a\nb\n'
    log = make_log(files)
    files.texts.pop('/ws/old.py')
    files.texts['/ws/new.py'] = 'a\nB\n'
    log.record_rename('/ws/old.py', '/ws/new.py', 'a\nb\n', 'a\nB\n', CLAUDE)
    items = {item['path']: item for item in log.pending()}
    assert items['/ws/old.py']['deleted'] is True and items['/ws/old.py']['renamed_to'] == '/ws/new.py'
    assert items['/ws/new.py']['created'] is True and items['/ws/new.py']['renamed_from'] == '/ws/old.py'
    assert run(log.undo('/ws/new.py')) == ['h1']
    assert files.texts == {'/ws/old.py': 'a\nb\n'} and log.pending() == []
    assert [h['action'] for h in log.history()] == ['undone', 'undone']


def test_keeping_one_end_of_a_move_keeps_the_move():
    files = FakeFiles()
    files.texts['/ws/new.py'] = 'x\n'
    log = make_log(files)
    log.record_rename('/ws/old.py', '/ws/new.py', 'x\n', 'x\n', PANEL)
    assert log.keep_all({'client': 'Hermes panel'}) == 1
    assert log.pending() == [] and files.texts == {'/ws/new.py': 'x\n'}


def test_undoing_a_move_whose_new_file_the_user_edited_asks_first():
    files = FakeFiles()
    files.texts['/ws/new.py'] = 'x\nmine\n'
    log = make_log(files)
    log.record_rename('/ws/old.py', '/ws/new.py', 'x\n', 'x\n', PANEL)
    with pytest.raises(ChangeConflict) as conflict:
        run(log.undo('/ws/old.py'))
    assert conflict.value.path == '/ws/new.py'
    assert files.texts == {'/ws/new.py': 'x\nmine\n'} and len(log.pending()) == 2


def test_a_read_after_a_reload_counts_as_after_the_stored_hunks(tmp_path):
    files = FakeFiles()
    files.texts['/ws/a.py'] = 'a\n'
    log = stored_log(tmp_path / 'changes.json', files)
    for text in ['b\n', 'c\n', 'd\n']:
        write(log, files, '/ws/a.py', text, PANEL)
    log.dispose()
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.edit_refusal(CLAUDE, '/ws/a.py', None) is not None
    again.note_read('Claude Code', '/ws/a.py')
    assert again.edit_refusal(CLAUDE, '/ws/a.py', None) is None


def test_undo_confines_the_path_again_when_it_writes():
    """A folder on the way became a link to elsewhere after the change was recorded: Undo of the recorded deletion
    writes nothing there (the confinement is asked at the write, not only when recording)."""
    files = FakeFiles()
    linked = set()
    log = make_log(files, confined=lambda path: path.startswith('/ws/') and not any(path.startswith(link)
                                                                                    for link in linked))
    files.texts['/ws/docs/notes.md'] = 'mine\n'
    log.record('/ws/docs/notes.md', 'mine\n', None, PANEL)  # an agent deleted it
    files.texts.pop('/ws/docs/notes.md')
    linked.add('/ws/docs/')  # …and its shell made docs/ a link to a folder outside the workspace
    with pytest.raises(ValueError, match='it now leads outside the workspace'):
        run(log.undo('/ws/docs/notes.md'))
    assert files.writes == [] and '/ws/docs/notes.md' not in files.texts
    assert log.pending()[0]['deleted'] is True  # still pending: nothing was undone


def test_a_reload_while_the_old_window_still_saves_loses_nothing(tmp_path, monkeypatch):
    """In a window reload the old extension host may save (snapshot written, journal removed) while the new one
    loads: here it saves right after the new one's first read of the store. The new one still has every change
    (it read the old snapshot, then no journal, when it read the snapshot first)."""
    from hermes.js import modules_cpython
    files = FakeFiles()
    old = stored_log(tmp_path / 'changes.json', files)
    write(old, files, '/ws/a.py', 'A\n', CLAUDE)
    old.flush()  # a snapshot with a.py
    write(old, files, '/ws/b.py', 'B\n', CLAUDE)  # b.py only in the journal
    read = modules_cpython._NodeFs.readFileSync
    saved = []

    def old_window_saves_after_the_first_read(path, encoding=None):
        text = read(path, encoding)
        if not saved and str(path).startswith(str(tmp_path / 'changes')):
            saved.append(path)
            old.flush()  # the old host's deactivate, between the new host's two reads
        return text
    monkeypatch.setattr(modules_cpython._NodeFs, 'readFileSync', staticmethod(old_window_saves_after_the_first_read))
    new = stored_log(tmp_path / 'changes.json', files)
    assert saved and sorted(item['path'] for item in new.pending()) == ['/ws/a.py', '/ws/b.py']
