"""The window's one index of the workspace (hermes.host.changes.window_index WindowIndex) handed to every user of spans:
made on first use (its module a part), disposed with the window; the ACP sessions, the doors and terminal_run get the
same one; an ACP turn and a door's watch that overlap both stay exact; a door's span waits for the warm-up, or
starts at once when the CLI names a file it is about to write."""
import asyncio

import vscode
from fake_clock import FakeClock, HeldTimers
from hermes.core.acp.conversation import AcpConversations
from hermes.host.changes.disk_changes import DiskChangeSpan, LATE_EVENTS_MS
from hermes.host.changes.window_index import WindowIndex
from hermes.host.changes.workspace_index import WorkspaceIndex
from hermes.host.changes.workspace_texts import WorkspaceTexts
from hermes.host.doors.watch import DoorWatch
from hermes.host.terminals import register_terminals

from test_disk_changes import AGENT, changed, disk_world

CLAUDE = {'client': 'Claude Code', 'session': 'claudeCode-1', 'turn': None}


def test_one_index_made_on_first_use_handed_to_every_user_and_disposed_with_the_window(tmp_path, context):
    disk_world(tmp_path)
    window_index = WindowIndex(context)
    assert window_index.made is None  # nothing loaded, no watcher, until a user asks
    assert register_terminals(context, window_index).window_index is window_index

    async def first_use():  # (on the event loop: the index's own timers are the window's)
        index = window_index.index()
        assert isinstance(index, WorkspaceIndex) and window_index.index() is index
        span = DiskChangeSpan(None, None, FakeClock(), None, index)
        span.stop()
        assert len(vscode.workspace.file_watchers) == 1  # the index's: one for the window
        context.dispose_all()
    asyncio.run(first_use())
    assert vscode.workspace.file_watchers == []


def test_an_acp_turn_and_a_doors_watch_that_overlap_on_the_one_index_both_stay_exact(tmp_path):
    world = disk_world(tmp_path)
    folder = world['folder']
    (folder / 'shared.txt').write_text('before both\n')
    (folder / 'door.txt').write_text('before the CLI\n')
    timers = world['timers']
    window_index = WindowIndex(None, lambda: WorkspaceIndex(WorkspaceTexts(), None))

    def acp_span():  # as ui/acp/session.py makes a turn's
        return DiskChangeSpan(None, None, timers, None, window_index.index())
    quiet = HeldTimers()  # the door's quiet wait: it flushes when the test says
    watch = DoorWatch(world['log'], lambda: DiskChangeSpan(None, None, timers, None, window_index.index()), quiet,
                      timers.now, None, window_index.ready)
    watch.attach(CLAUDE)  # the CLI connected: the door's span begins
    turn = acp_span()  # an ACP turn begins while it runs
    assert window_index.index().walks == 1 and len(window_index.index().starts) == 2
    (folder / 'shared.txt').write_text('the agent wrote\n')  # during both: the turn's (the door's span sees it too)
    changed(folder / 'shared.txt')
    assert turn.record(world['log'], turn.end(), AGENT) == 1
    timers.advance(LATE_EVENTS_MS)
    second = acp_span()  # the next turn: the index takes the agent's write in while the door's span still runs
    assert second.before_of(str(folder / 'shared.txt'))['text'] == 'the agent wrote\n'
    door = watch._span  # the door's span kept what it began with, though the index took the write in since
    assert door.before_of(str(folder / 'shared.txt'))['text'] == 'before both\n'
    (folder / 'door.txt').write_text('the CLI wrote\n')
    changed(folder / 'door.txt')
    assert second.before_of(str(folder / 'door.txt'))['text'] == 'before the CLI\n'  # the turn's start: before it
    assert watch.flush() == 1  # door.txt (shared.txt is recorded already, by the turn, with this very text)
    assert world['log'].entry(str(folder / 'door.txt'))['base'] == 'before the CLI\n'
    assert world['log'].entry(str(folder / 'shared.txt'))['base'] == 'before both\n'
    third = acp_span()  # a start after the door's flush: the CLI's write is taken in
    assert third.before_of(str(folder / 'door.txt'))['text'] == 'the CLI wrote\n'
    assert second.before_of(str(folder / 'door.txt'))['text'] == 'before the CLI\n'
    third.stop()
    second.stop()
    watch.dispose()
    assert window_index.index().walks == 1


def test_a_doors_span_waits_for_the_warm_up_or_starts_at_once_when_the_cli_names_a_file(tmp_path, monkeypatch):
    world = disk_world(tmp_path)
    folder = world['folder']
    (folder / 'a.txt').write_text('a before\n')
    held = HeldTimers()
    window_index = WindowIndex(None, lambda: WorkspaceIndex(WorkspaceTexts(), held))
    spans = []

    def make_span():
        spans.append(DiskChangeSpan(None, None, world['timers'], None, window_index.index()))
        return spans[-1]

    async def connect_and_wait():
        watch = DoorWatch(world['log'], make_span, world['timers'], world['timers'].now, None, window_index.ready)
        watch.attach(CLAUDE)
        assert spans == [] and len(held.pending) == 1  # the walk runs in the background; no span yet
        held.fire()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(spans) == 1 and spans[0].before_of(str(folder / 'a.txt'))['text'] == 'a before\n'
        watch.dispose()

        window_index.made = None  # a window whose index walks again: the CLI names a file before the walk ended
        watch = DoorWatch(world['log'], make_span, world['timers'], world['timers'].now, None, window_index.ready)
        watch.attach(CLAUDE)
        assert len(spans) == 1
        watch.about_to_write(str(folder / 'a.txt'))
        assert len(spans) == 2 and window_index.index().folders is not None  # the walk finished at once
        (folder / 'a.txt').write_text('the CLI wrote\n')
        changed(folder / 'a.txt')
        assert watch.flush() == 1
        assert world['log'].entry(str(folder / 'a.txt'))['base'] == 'a before\n'
        await asyncio.sleep(0)
        assert len(spans) == 3  # the next span after the flush; the late promise began none of its own
        watch.dispose()
    asyncio.run(connect_and_wait())


def test_an_acp_turn_waits_for_the_warm_up_before_its_watch_starts():
    order = []

    async def ready_later():
        order.append('waited')

    def make_watch():
        order.append('watch')
        raise RuntimeError('enough: the watch was made')
    conversations = AcpConversations(None, None, None, make_watch, None, None, lambda: ready_later())

    async def run():
        try:
            await conversations.run({'name': 'agent'}, None, {'user': {}, 'reply': {}}, [], None, None, None, None)
        except RuntimeError:
            pass
    asyncio.run(run())
    assert order == ['waited', 'watch']
