"""Files changed on disk during a span (hermes.host.changes.disk_changes): which changed (the watcher, late events
too), their text before (what the writer said, an open editor's text, a listing that proves a file new), and what
is never recorded (unknown before-text, a file replaced that the watcher calls created, editor saves, .git, past
the bound, outside the workspace)."""
import asyncio
import os

import pytest

import vscode
from fake_clock import FakeClock
from hermes.host.changes import disk_changes, workspace_listing
from hermes.host.changes.log import ChangeLog
from hermes.host.changes.disk_changes import DiskChangeSpan, LATE_EVENTS_MS

AGENT = {'client': 'e2e-agent', 'session': 's1', 'turn': 't1'}


class DiskFiles:
    async def read(self, path):
        try:
            with open(path, newline='') as handle:
                return handle.read()
        except FileNotFoundError:
            return None

    async def write(self, path, text):
        raise AssertionError('not written in these tests')


def disk_world(tmp_path):
    """A workspace folder on disk (the only one open, no documents), its change log, and the span's timers (a
    FakeClock: they fire when the test advances it; the log's own never fire here)."""
    folder = tmp_path / 'ws'
    folder.mkdir()
    vscode.workspace.open_folders([str(folder)])
    vscode.workspace.textDocuments.clear()
    log = ChangeLog(DiskFiles(), confined=lambda path: path.startswith(str(folder) + '/'), timers=FakeClock())
    return {'folder': folder, 'timers': FakeClock(), 'log': log}


@pytest.fixture
def world(tmp_path):
    return disk_world(tmp_path)


def changed(path, kind='change'):
    vscode.workspace.file_changed(vscode.Uri.file(str(path)), kind)


def pending(log):
    return [(item['path'], item['author']['client'], item.get('created', False), item['added'], item['removed'])
            for item in log.pending()]


def test_a_file_open_in_an_editor_is_recorded_with_the_text_it_had_and_a_new_file_as_created(world):
    folder = world['folder']
    (folder / 'open.py').write_text('a = 1\n')
    vscode.workspace.openTextDocument(vscode.Uri.file(str(folder / 'open.py')))
    span = DiskChangeSpan(None, None, world['timers'])
    (folder / 'open.py').write_text('a = 2\n')  # a command rewrites it; VS Code reloads the editor later
    (folder / 'made.txt').write_text('new\n')
    changed(folder / 'open.py')
    changed(folder / 'made.txt', 'create')
    paths = span.end()
    assert paths == [str(folder / 'open.py'), str(folder / 'made.txt')]
    assert span.record(world['log'], paths, AGENT) == 2
    assert pending(world['log']) == [(str(folder / 'open.py'), 'e2e-agent', False, 1, 1),
                                     (str(folder / 'made.txt'), 'e2e-agent', True, 1, 0)]
    assert world['log'].entry(str(folder / 'open.py'))['base'] == 'a = 1\n'


def test_a_file_replaced_by_a_new_one_that_the_watcher_calls_created_is_listed_not_recorded_as_created(world):
    folder = world['folder']
    (folder / 'kept.txt').write_text('mine\n')  # existed, not open: its text before is unknown
    span = DiskChangeSpan(None, None, world['timers'])
    (folder / 'kept.txt').write_text('sed -i made this\n')
    changed(folder / 'kept.txt', 'create')  # a rename over the old file
    paths = span.end()
    assert paths == [str(folder / 'kept.txt')]
    assert span.record(world['log'], paths, AGENT) == 0
    assert world['log'].pending() == []  # recorded as created, Undo would delete the user's file
    # and the Changes view says so (core/changes/notes.py)
    assert [(note['kind'], note['path'], note['client']) for note in world['log'].notes.items] == \
        [('unknown-before', str(folder / 'kept.txt'), 'e2e-agent')]


def test_what_the_writer_said_before_writing_comes_first(world):
    folder = world['folder']
    (folder / 'named.txt').write_text('before\n')
    span = DiskChangeSpan(None, None, world['timers'])
    span.note(str(folder / 'named.txt'))  # read now, when the writer names it
    span.note(str(folder / 'diffed.txt'), 'from the diff\n', True)
    (folder / 'named.txt').write_text('after\n')
    (folder / 'diffed.txt').write_text('written\n')
    changed(folder / 'named.txt')
    assert span.record(world['log'], span.end([str(folder / 'diffed.txt')]), AGENT) == 2
    assert world['log'].entry(str(folder / 'named.txt'))['base'] == 'before\n'
    assert world['log'].entry(str(folder / 'diffed.txt'))['base'] == 'from the diff\n'


def test_late_events_are_recorded_until_the_window_closes_then_the_watcher_is_gone(world):
    folder = world['folder']
    span = DiskChangeSpan(None, None, world['timers'])
    late = []
    span.on_late = late.append
    assert span.record(world['log'], span.end(), AGENT) == 0
    assert world['timers'].delays() == [LATE_EVENTS_MS]
    (folder / 'late.txt').write_text('written before the end, reported after it\n')
    changed(folder / 'late.txt', 'create')
    assert late == [[str(folder / 'late.txt')]]
    assert pending(world['log']) == [(str(folder / 'late.txt'), 'e2e-agent', True, 1, 0)]
    world['timers'].advance(LATE_EVENTS_MS)
    assert vscode.workspace.file_watchers == []
    (folder / 'later.txt').write_text('after the window\n')
    changed(folder / 'later.txt', 'create')  # nobody listens
    assert len(world['log'].pending()) == 1


def test_editor_saves_git_internals_and_files_already_recorded_are_skipped(world):
    folder = world['folder']
    (folder / 'saved.py').write_text('x\n')
    document = vscode.workspace.openTextDocument(vscode.Uri.file(str(folder / 'saved.py')))
    span = DiskChangeSpan(None, None, world['timers'])
    (folder / 'saved.py').write_text('y\n')
    vscode.workspace._document_saved.fire(document)  # through the editor: a tool (recorded by it) or the user
    changed(folder / 'saved.py')
    changed(folder / '.git' / 'index')
    assert span.end() == [str(folder / 'saved.py')]
    assert span.record(world['log'], [str(folder / 'saved.py')], AGENT) == 0
    assert world['log'].pending() == []


def test_past_the_bound_files_are_counted_not_listed(world, monkeypatch):
    monkeypatch.setattr(disk_changes, 'MAX_CHANGED', 2)
    folder = world['folder']
    span = DiskChangeSpan(None, None, world['timers'])
    for name in ['a', 'b', 'c', 'd']:
        (folder / name).write_text(name)
        changed(folder / name, 'create')
    paths = span.end()
    assert paths == [str(folder / 'a'), str(folder / 'b')] and span.overflow == 2
    span.record(world['log'], paths, AGENT)
    assert [(note['kind'], note['path'], note['detail']) for note in world['log'].notes.items] == \
        [('too-many', str(folder / 'b'), '2')]


def test_an_incomplete_listing_proves_no_file_new(world, monkeypatch):
    monkeypatch.setattr(workspace_listing, 'MAX_LISTED', 1)
    folder = world['folder']
    (folder / 'one').write_text('1')
    (folder / 'two').write_text('2')
    span = DiskChangeSpan(None, None, world['timers'])
    (folder / 'three').write_text('3')
    changed(folder / 'three', 'create')
    assert span.record(world['log'], span.end(), AGENT) == 0


def test_files_outside_the_workspace_are_never_recorded(world, tmp_path):
    outside = tmp_path / 'outside.txt'
    span = DiskChangeSpan(None, None, world['timers'], [str(world['folder']), str(tmp_path)])
    outside.write_text('secret\n')
    changed(outside, 'create')
    assert span.end() == [str(outside)]
    assert span.record(world['log'], [str(outside)], AGENT) == 0  # the change log's own confinement
    assert world['log'].pending() == []


def test_a_file_changed_before_the_span_began_and_reported_late_is_not_the_spans(world):
    folder = world['folder']
    (folder / 'early.txt').write_text('written just before\n')
    span = DiskChangeSpan(None, None, world['timers'])
    os.utime(folder / 'early.txt', ns=(int((span.started - 5000) * 1e6),) * 2)  # its mtime: before the start
    changed(folder / 'early.txt', 'create')  # the watcher's report comes during the span
    assert span.record(world['log'], span.end(), AGENT) == 0 and world['log'].pending() == []
