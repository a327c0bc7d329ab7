"""Nothing the user kept is ever undone (docs/SECURITY.md, "Nothing kept is lost"): for each way a later action
could reach a kept change — Undo All (of everyone, of the author, of the turn), a later write by the same or another
agent, a window reload, a killed window, the auto-keep rules, a restore of a later turn — the kept text stays on the
disk. VS Code's own Keep in its chat editing is the path tests/e2e/test_native_review.py and test_stable_vscode.py
prove in a real VS Code; these are the change log's own paths, one test each."""
import pytest

from fake_clock import FakeClock

from test_change_log import CLAUDE, PANEL, FakeFiles, make_log, run, settings_of, stored_log, write

KEPT = 'A\nb\nc\n'  # the user kept the first line's change
ORIGINAL = 'a\nb\nc\n'


def log_with_a_kept_change(files, log):
    """a.py: the panel changes line 1 and the user keeps it; the disk holds KEPT and nothing is pending."""
    files.texts['/ws/a.py'] = ORIGINAL
    write(log, files, '/ws/a.py', KEPT, PANEL)
    assert log.keep('/ws/a.py') == ['h1'] and log.pending() == []
    return log


@pytest.mark.parametrize('wanted', [None, {'client': 'Hermes panel'}, {'turn': 't1'}, {'session': 'c1'}])
def test_undo_all_after_a_keep_undoes_nothing(wanted):
    files = FakeFiles()
    log = log_with_a_kept_change(files, make_log(files))
    assert run(log.undo_all(wanted)) == {'undone': 0, 'conflicts': []}
    assert files.texts['/ws/a.py'] == KEPT


def test_a_later_write_by_the_same_author_is_undone_to_the_kept_text_not_to_the_original():
    files = FakeFiles()
    log = log_with_a_kept_change(files, make_log(files))
    write(log, files, '/ws/a.py', 'A\nb\nC\n', dict(PANEL, turn='t2'))
    run(log.undo_all())
    assert files.texts['/ws/a.py'] == KEPT


def test_another_agents_change_in_the_same_file_is_undone_alone():
    files = FakeFiles()
    log = log_with_a_kept_change(files, make_log(files))
    write(log, files, '/ws/a.py', 'A\nB\nc\n', CLAUDE)  # next to the kept line: a hunk that touches it
    run(log.undo_all({'client': 'Claude Code'}))
    assert files.texts['/ws/a.py'] == KEPT
    write(log, files, '/ws/a.py', 'X\nb\nc\n', CLAUDE)  # over the kept line itself
    run(log.undo_all())
    assert files.texts['/ws/a.py'] == KEPT


def test_a_keep_survives_a_window_reload(tmp_path):
    files = FakeFiles()
    log = log_with_a_kept_change(files, stored_log(tmp_path / 'changes.json', files))
    log.dispose()
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.pending() == [] and [h['action'] for h in again.history()] == ['kept']
    write(again, files, '/ws/a.py', 'A\nb\nC\n', dict(PANEL, turn='t2'))
    run(again.undo_all())
    assert files.texts['/ws/a.py'] == KEPT


def test_a_keep_survives_a_killed_window(tmp_path):
    """The window dies before its snapshot is written: the keep is in the journal, and the next window loads it."""
    files = FakeFiles()
    log = log_with_a_kept_change(files, stored_log(tmp_path / 'changes.json', files))
    assert not (tmp_path / 'changes.json').exists()  # killed: the snapshot's timer never fired
    again = stored_log(tmp_path / 'changes.json', files)
    assert again.pending() == []
    assert run(again.undo_all()) == {'undone': 0, 'conflicts': []}
    assert files.texts['/ws/a.py'] == KEPT


@pytest.mark.parametrize('rule', ['nextTurn', 'afterDelay'])
def test_what_an_auto_keep_rule_kept_stays_kept(rule):
    files = FakeFiles()
    clock = FakeClock()
    log = make_log(files, settings=settings_of({'changes.autoKeep': rule, 'changes.autoKeepSeconds': 1}), clock=clock)
    files.texts['/ws/a.py'] = ORIGINAL
    write(log, files, '/ws/a.py', KEPT, PANEL)
    if rule == 'nextTurn':
        log.start_turn(dict(PANEL, turn='t2'))
    else:
        clock.time += 1000
        log._timers.fire_all()
    assert log.pending() == []
    write(log, files, '/ws/a.py', 'A\nb\nC\n', dict(PANEL, turn='t2'))
    run(log.undo_all())
    assert files.texts['/ws/a.py'] == KEPT


def test_restoring_a_later_turn_leaves_an_earlier_turns_keep():
    """"Restore to before this turn" undoes that turn's and every later turn's pending changes (ui/changes/checkpoints.py
    goes through undo_all by turn): an earlier turn's kept change is not among them."""
    files = FakeFiles()
    log = log_with_a_kept_change(files, make_log(files))
    write(log, files, '/ws/a.py', 'A\nb\nC\n', dict(PANEL, turn='t2'))
    run(log.undo_all({'turn': 't2'}))
    assert files.texts['/ws/a.py'] == KEPT
