"""The window's index of the workspace (hermes.host.changes.workspace_index) behind DiskChangeSpan: walked once, then
kept by its own watcher (the shim's FileSystemWatcher: `changed` fires every live watcher, `only_span` the span's
alone, as if the index's watcher missed the event), so a span's start stats only what was reported since the last;
what a span records stays what it recorded when every start walked: a file changed, created, deleted or renamed
between spans or during one, a missed event caught by the end-of-span check, spans that overlap; the warm-up (the
first walk in slices, in the background) and what changes during it."""
import asyncio

import pytest

import vscode
from fake_clock import HeldTimers
from hermes.host.changes.log import SEAM_TIMERS
from hermes.host.changes.disk_changes import DiskChangeSpan, LATE_EVENTS_MS
from hermes.host.changes import workspace_index
from hermes.host.changes.workspace_index import WorkspaceIndex
from hermes.host.changes.workspace_listing import walk_folders
from hermes.host.changes.workspace_texts import WorkspaceTexts, _stat_of

from test_disk_changes import AGENT, changed, disk_world, pending


class CountingStat:
    def __init__(self):
        self.paths = []

    def __call__(self, path):
        self.paths.append(path)
        return _stat_of(path)


@pytest.fixture
def world(tmp_path):
    found = disk_world(tmp_path)
    found['stat'] = CountingStat()
    found['index'] = WorkspaceIndex(WorkspaceTexts(found['stat']))
    return found


def span_of(world):
    return DiskChangeSpan(None, None, world['timers'], None, world['index'])


def finish(world, span):
    recorded = span.record(world['log'], span.end(), AGENT)
    world['timers'].advance(LATE_EVENTS_MS)  # the late window closes: the span's watcher goes
    return recorded


def only_span(span, path, kind='change'):
    """The span's watcher reports `path`; the index's misses it (a watcher dropping events under load)."""
    getattr(span.watcher, '_' + kind).fire(vscode.Uri.file(str(path)))


def test_the_workspace_is_walked_once_then_only_what_the_watcher_reported_is_stated(world):
    folder = world['folder']
    for index in range(20):
        (folder / ('f%d.txt' % index)).write_text('text %d\n' % index)
    assert finish(world, span_of(world)) == 0
    assert world['index'].walks == 1 and len(world['stat'].paths) == 20
    world['stat'].paths.clear()
    (folder / 'f3.txt').write_text('the user changed it between turns\n')
    changed(folder / 'f3.txt')
    span = span_of(world)
    assert world['index'].walks == 1 and world['stat'].paths == [str(folder / 'f3.txt')]
    (folder / 'f3.txt').write_text('the agent\'s shell\n')
    changed(folder / 'f3.txt')
    assert finish(world, span) == 1
    entry = world['log'].entry(str(folder / 'f3.txt'))
    assert (entry['base'], entry['text']) == ('the user changed it between turns\n', 'the agent\'s shell\n')


def test_files_created_and_deleted_between_spans_are_listed_and_unlisted(world):
    folder = world['folder']
    (folder / 'gone.txt').write_text('old\n')
    finish(world, span_of(world))
    (folder / 'made.txt').write_text('the user made it\n')
    changed(folder / 'made.txt', 'create')
    (folder / 'gone.txt').unlink()
    changed(folder / 'gone.txt', 'delete')
    span = span_of(world)
    (folder / 'made.txt').write_text('the agent rewrote it\n')  # not created by the agent: it existed
    (folder / 'gone.txt').write_text('the agent made it\n')  # created by the agent: it was gone at the start
    changed(folder / 'made.txt')
    changed(folder / 'gone.txt', 'create')
    assert finish(world, span) == 2
    assert sorted(pending(world['log'])) == [(str(folder / 'gone.txt'), 'e2e-agent', True, 1, 0),
                                             (str(folder / 'made.txt'), 'e2e-agent', False, 1, 1)]
    assert world['log'].entry(str(folder / 'made.txt'))['base'] == 'the user made it\n'


def test_a_change_the_index_missed_is_caught_by_the_end_of_span_check(world):
    folder = world['folder']
    (folder / 'conf.ini').write_text('a = 1\n')
    span = span_of(world)
    (folder / 'conf.ini').write_text('a = 2\n')
    only_span(span, folder / 'conf.ini')
    assert finish(world, span) == 1
    world['stat'].paths.clear()
    span = span_of(world)  # the path the last span saw is stated again: its text now is the agent's
    assert world['stat'].paths == [str(folder / 'conf.ini')]
    (folder / 'conf.ini').write_text('a = 3\n')
    changed(folder / 'conf.ini')
    assert finish(world, span) == 1
    assert world['log'].entry(str(folder / 'conf.ini'))['text'] == 'a = 3\n'
    assert span.before_of(str(folder / 'conf.ini')) == {'known': True, 'text': 'a = 2\n'}


def test_a_rename_a_delete_and_a_file_made_and_removed_within_the_turn(world):
    folder = world['folder']
    (folder / 'old.py').write_text('x = 1\n')
    (folder / 'doomed.py').write_text('y = 1\n')
    finish(world, span_of(world))
    span = span_of(world)
    (folder / 'old.py').rename(folder / 'new.py')  # `git mv`
    changed(folder / 'old.py', 'delete')
    changed(folder / 'new.py', 'create')
    (folder / 'doomed.py').unlink()
    changed(folder / 'doomed.py', 'delete')
    (folder / 'scratch.tmp').write_text('tmp\n')
    changed(folder / 'scratch.tmp', 'create')
    (folder / 'scratch.tmp').unlink()
    changed(folder / 'scratch.tmp', 'delete')
    finish(world, span)
    assert sorted(pending(world['log'])) == [(str(folder / 'doomed.py'), 'e2e-agent', False, 0, 1),
                                             (str(folder / 'new.py'), 'e2e-agent', True, 1, 0),
                                             (str(folder / 'old.py'), 'e2e-agent', False, 0, 1)]
    span = span_of(world)  # the next start knows: old.py and doomed.py are gone, new.py is there with its text
    assert span.before_of(str(folder / 'old.py')) == {'known': True, 'text': None}
    assert span.before_of(str(folder / 'new.py')) == {'known': True, 'text': 'x = 1\n'}
    assert span.before_of(str(folder / 'scratch.tmp')) == {'known': True, 'text': None}
    finish(world, span)


def test_a_span_keeps_what_it_began_with_when_another_begins_while_it_runs(world):
    folder = world['folder']
    (folder / 'shared.txt').write_text('before both\n')
    terminal = span_of(world)
    (folder / 'shared.txt').write_text('the command wrote\n')
    changed(folder / 'shared.txt')
    turn = span_of(world)  # an ACP turn starts meanwhile: the index takes the change in
    assert turn.before_of(str(folder / 'shared.txt'))['text'] == 'the command wrote\n'
    assert terminal.before_of(str(folder / 'shared.txt'))['text'] == 'before both\n'
    assert finish(world, terminal) == 1
    assert world['log'].entry(str(folder / 'shared.txt'))['base'] == 'before both\n'
    finish(world, turn)
    assert world['index'].starts == []


def test_a_folder_reported_alone_is_walked_and_its_deletion_unlists_what_was_under_it(world):
    folder = world['folder']
    finish(world, span_of(world))
    (folder / 'pkg' / 'sub').mkdir(parents=True)
    (folder / 'pkg' / 'sub' / 'mod.py').write_text('z = 1\n')
    (folder / 'node_modules' / 'dep').mkdir(parents=True)
    (folder / 'node_modules' / 'dep' / 'index.js').write_text('x\n')
    changed(folder / 'pkg', 'create')  # `mv pkg .` or `cp -r`: one event for the folder
    changed(folder / 'node_modules', 'create')
    span = span_of(world)
    assert span.before_of(str(folder / 'pkg' / 'sub' / 'mod.py')) == {'known': True, 'text': 'z = 1\n'}
    assert not span.start.listed(str(folder / 'node_modules' / 'dep' / 'index.js'))
    finish(world, span)
    (folder / 'pkg' / 'sub' / 'mod.py').unlink()
    (folder / 'pkg' / 'sub').rmdir()
    (folder / 'pkg').rmdir()
    changed(folder / 'pkg', 'delete')
    span = span_of(world)
    assert span.before_of(str(folder / 'pkg' / 'sub' / 'mod.py')) == {'known': True, 'text': None}
    finish(world, span)


def test_other_workspace_folders_are_walked_again(world, tmp_path):
    (tmp_path / 'second').mkdir()
    (tmp_path / 'second' / 'b.txt').write_text('b\n')
    finish(world, span_of(world))
    vscode.workspace.open_folders([str(world['folder']), str(tmp_path / 'second')])
    span = span_of(world)
    assert world['index'].walks == 2
    assert span.before_of(str(tmp_path / 'second' / 'b.txt')) == {'known': True, 'text': 'b\n'}
    finish(world, span)
    world['index'].dispose()
    assert vscode.workspace.file_watchers == []


def test_changes_no_watcher_reported_are_found_by_the_walk_after_a_span(world, monkeypatch):
    monkeypatch.setattr(workspace_index, 'VERIFY_SLICE', 2)  # a tick at a time
    folder = world['folder']
    (folder / 'sub').mkdir()
    for name in ['a.txt', 'b.txt', 'sub/c.txt', 'sub/gone.txt']:
        (folder / name).write_text(name + ' before\n')
    world['index'] = WorkspaceIndex(WorkspaceTexts(world['stat']), world['timers'])
    span = span_of(world)
    # between the spans another program writes, creates and deletes; no event reaches anyone (watcherExclude, load)
    (folder / 'sub' / 'c.txt').write_text('changed unseen, a longer text\n')
    (folder / 'sub' / 'made.txt').write_text('made unseen\n')
    (folder / 'sub' / 'gone.txt').unlink()
    slices = []
    monkeypatch.setattr(world['index'], '_verify_slice', lambda original=world['index']._verify_slice:
                        slices.append(1) or original())
    finish(world, span)  # the span closes: the walk runs in slices on the timers, marking what differs
    assert len(slices) == 2 and world["index"]._verifying is None  # 2 entries a tick, a folder read whole: 3, then 2
    assert sorted(world['index'].dirty.keys()) == sorted('k:' + str(folder / 'sub' / name)
                                                         for name in ['c.txt', 'made.txt', 'gone.txt'])
    span = span_of(world)
    assert span.before_of(str(folder / 'sub' / 'c.txt')) == {'known': True, 'text': 'changed unseen, a longer text\n'}
    assert span.start.listed(str(folder / 'sub' / 'made.txt'))  # so the agent's rewrite is no "created" file
    assert span.before_of(str(folder / 'sub' / 'gone.txt')) == {'known': True, 'text': None}
    (folder / 'sub' / 'made.txt').write_text('the agent rewrote it\n')
    changed(folder / 'sub' / 'made.txt', 'create')  # an atomic write: no "created" file, its text before is known
    assert finish(world, span) == 1
    assert pending(world['log']) == [(str(folder / 'sub' / 'made.txt'), 'e2e-agent', False, 1, 1)]
    assert world['log'].entry(str(folder / 'sub' / 'made.txt'))['base'] == 'made unseen\n'
    assert len(slices) == 2  # no second walk within VERIFY_EVERY_MS of the first (a door closes a span a second)
    monkeypatch.setattr(workspace_index, 'VERIFY_EVERY_MS', 0)
    finish(world, span_of(world))
    assert len(slices) == 4
    world['index'].dispose()


# ------------------------------------------------------------------ the warm-up (a walk in slices before the first start)

def warm_world(world, monkeypatch, slice_entries=2):
    """The index on HeldTimers (each slice fires when the test says), VERIFY_SLICE entries a tick."""
    monkeypatch.setattr(workspace_index, 'VERIFY_SLICE', slice_entries)
    timers = HeldTimers()
    world['index'] = WorkspaceIndex(WorkspaceTexts(world['stat']), timers)
    world['index'].slice_ms = 0  # a slice of VERIFY_SLICE entries a tick
    return timers


def make_tree(folder):
    (folder / 'a').mkdir()
    (folder / 'b').mkdir()
    for name in ['top.txt', 'a/one.txt', 'a/two.txt', 'b/three.txt', 'b/four.txt']:
        (folder / name).write_text(name + ' before\n')


def test_the_warm_up_walks_a_slice_a_tick_and_a_start_after_it_walks_no_more(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']
    index.warm([str(folder)])
    assert vscode.workspace.file_watchers != [] and index.walks == 1  # the watcher first: nothing is missed meanwhile
    assert len(timers.pending) == 1 and index.folders is None and world['stat'].paths == []  # nothing read yet
    slices = 0
    while timers.pending:
        timers.fire()
        slices += 1
    assert slices == 3  # the root (3 entries), then a folder (2), then the other (2): a folder is read whole
    assert index.folders == [str(folder)] and index.listed_count == 5 and len(world['stat'].paths) == 5
    index.warm([str(folder)])  # walked: nothing more
    assert timers.pending == [] and index.ready([str(folder)]) is None
    world['stat'].paths.clear()
    span = span_of(world)
    assert index.walks == 1 and world['stat'].paths == []
    assert span.before_of(str(folder / 'b' / 'four.txt')) == {'known': True, 'text': 'b/four.txt before\n'}
    span.stop()
    index.dispose()


def test_what_changes_during_the_warm_up_is_taken_in_at_the_next_start(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']
    index.warm([str(folder)])
    timers.fire()  # the root is read: top.txt listed, a/ and b/ still to read
    timers.fire()  # one of them
    walked = 'b' if index.names.get('p:' + str(folder / 'b' / 'four.txt')) else 'a'
    other = 'a' if walked == 'b' else 'b'
    names = {'a': ['one.txt', 'two.txt'], 'b': ['three.txt', 'four.txt']}
    # while the walk goes on another program changes files in a folder read already and in one not read yet
    (folder / 'top.txt').write_text('top changed during the walk\n')
    changed(folder / 'top.txt')
    (folder / walked / 'made.txt').write_text('made in a folder walked\n')
    changed(folder / walked / 'made.txt', 'create')
    (folder / walked / names[walked][0]).unlink()
    changed(folder / walked / names[walked][0], 'delete')
    (folder / other / names[other][0]).write_text('changed before its folder was read\n')
    changed(folder / other / names[other][0])
    timers.fire()
    assert timers.pending == [] and index.folders == [str(folder)]
    span = span_of(world)
    assert span.before_of(str(folder / 'top.txt')) == {'known': True, 'text': 'top changed during the walk\n'}
    assert span.before_of(str(folder / walked / 'made.txt')) == {'known': True, 'text': 'made in a folder walked\n'}
    assert span.before_of(str(folder / walked / names[walked][0])) == {'known': True, 'text': None}
    assert span.before_of(str(folder / other / names[other][0])) == \
        {'known': True, 'text': 'changed before its folder was read\n'}
    assert index.walks == 1
    span.stop()
    index.dispose()


def test_a_start_before_the_warm_up_ended_finishes_the_walk_at_once(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']
    index.warm([str(folder)])
    timers.fire()
    span = span_of(world)  # a start that did not wait (a door's CLI named a file it is about to write)
    assert timers.pending == [] and index.walks == 1 and index.listed_count == 5
    assert span.before_of(str(folder / 'a' / 'two.txt')) == {'known': True, 'text': 'a/two.txt before\n'}
    (folder / 'a' / 'new.txt').write_text('the agent made it\n')
    changed(folder / 'a' / 'new.txt', 'create')
    assert span.before_of(str(folder / 'a' / 'new.txt')) == {'known': True, 'text': None}  # listed absent: created
    span.stop()
    index.dispose()


def test_a_start_that_waits_for_the_warm_up_holds_the_host_a_slice_at_a_time(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    monkeypatch.setattr(workspace_index, 'VERIFY_SLICE', 2)
    world['index'] = WorkspaceIndex(WorkspaceTexts(world['stat']), SEAM_TIMERS)  # real timers: the event loop's
    index = world['index']
    index.slice_ms = 0
    ticks = []

    async def turn():
        waiting = index.ready([str(folder)])
        assert waiting is not None and index.listed_count == 0  # nothing walked yet: the host goes on

        async def meanwhile():  # other work of the host runs between the slices
            while index.folders is None:
                ticks.append(index.listed_count)
                await asyncio.sleep(0)
        other = asyncio.ensure_future(meanwhile())
        await waiting
        await other
        span = span_of(world)
        before = span.before_of(str(folder / 'b' / 'three.txt'))
        span.stop()
        index.dispose()
        return before
    assert asyncio.run(turn()) == {'known': True, 'text': 'b/three.txt before\n'}
    assert index.walks == 1 and index.listed_count == 5 and len(ticks) >= 3 and ticks[0] == 0


def test_disposed_during_the_warm_up_whoever_waits_goes_on_and_no_watcher_is_left(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']

    async def wait():
        waiting = index.ready([str(folder)])
        index.dispose()  # the window closes
        await waiting
        return 'went on'
    assert asyncio.run(wait()) == 'went on'
    assert timers.pending == [] and vscode.workspace.file_watchers == []
    span = span_of(world)  # a start still waiting then walks, and makes no watcher for a closed window
    assert index.watcher is None and span.start.listed(str(folder / 'top.txt'))
    span.stop()


def test_the_warm_up_goes_on_in_the_same_tick_until_its_time_is_up(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']
    index.slice_ms = 60000  # a slow tick would end it; this one never does
    index.warm([str(folder)])
    timers.fire()
    assert timers.pending == [] and index.listed_count == 5 and index.folders == [str(folder)]
    index.dispose()


def test_without_timers_or_a_watcher_there_is_no_warm_up_and_each_start_walks(world, monkeypatch):
    folder = world['folder']
    (folder / 'a.txt').write_text('a\n')
    index = world['index']  # no timers
    index.warm([str(folder)])
    assert index.ready([str(folder)]) is None and index.walks == 0 and vscode.workspace.file_watchers == []
    finish(world, span_of(world))
    assert index.walks == 1
    timers = warm_world(world, monkeypatch)

    def no_watcher(pattern):
        raise OSError('no watcher here')
    monkeypatch.setattr(vscode.workspace, 'createFileSystemWatcher', no_watcher)
    world['index'].warm([str(folder)])
    assert timers.pending == [] and world['index'].ready([str(folder)]) is None


def test_a_warm_up_for_folders_the_workspace_no_longer_has_gives_way_to_one_for_its_folders(world, monkeypatch, tmp_path):
    folder = world['folder']
    make_tree(folder)
    added = tmp_path / 'added'
    added.mkdir()
    (added / 'other.txt').write_text('other before\n')
    timers = warm_world(world, monkeypatch)
    index = world['index']
    index.warm([str(folder)])
    timers.fire()
    both = [str(folder), str(added)]  # a folder was added to the workspace meanwhile
    vscode.workspace.open_folders(both)

    async def turn():
        waiting = index.ready(both)
        assert waiting is not None and index.walks == 2  # the new walk began, in the background again
        while timers.pending:
            timers.fire()
        await waiting
        return index.folders
    assert asyncio.run(turn()) == both
    world['stat'].paths.clear()
    span = span_of(world)
    assert index.walks == 2 and world['stat'].paths == []  # its start walked nothing on the host
    span.stop()
    index.dispose()


def test_a_warm_up_that_fails_lets_whoever_waits_go_on_and_the_next_start_walks(world, monkeypatch):
    folder = world['folder']
    make_tree(folder)
    timers = warm_world(world, monkeypatch)
    index = world['index']

    def broken(pending, take, limit):
        raise RuntimeError('a fault of ours')
    monkeypatch.setattr(workspace_index, 'walk_folders', broken)

    async def turn():
        waiting = index.ready([str(folder)])
        with pytest.raises(RuntimeError):
            timers.fire()
        await waiting  # released, not left waiting for ever
    asyncio.run(turn())
    monkeypatch.setattr(workspace_index, 'walk_folders', walk_folders)
    assert timers.pending == [] and index.folders is None  # not walked: nothing taken for the workspace
    span = span_of(world)  # the next start walks at once, exactly
    assert span.before_of(str(folder / 'a' / 'one.txt')) == {'known': True, 'text': 'a/one.txt before\n'}
    span.stop()
    index.dispose()
