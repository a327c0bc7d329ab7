"""host/doors/watch.py: what a connected CLI writes on disk becomes its pending change, once the disk is quiet; the
user's own saves cost no new span; the last CLI to connect is the writer; nothing is watched with no CLI connected."""
from fake_clock import FakeClock
from hermes.core.changes.notes import ChangeNotes
from hermes.host.doors.watch import DoorWatch, QUIET_MS, LONGEST_MS

CLAUDE = {'client': 'Claude Code', 'session': 'claudeCode-1', 'turn': None}
GEMINI = {'client': 'Gemini CLI', 'session': 'gemini-2', 'turn': None}


class FakeSpan:
    """A DiskChangeSpan as the watch uses it: the paths the watcher saw, the editor's saves, the known befores."""

    def __init__(self, spans, unknown=()):
        self.paths, self.saved, self.on_seen = [], {}, None
        self.ended = self.stopped = False
        self.recorded = None
        self.unknown = list(unknown)
        spans.append(self)

    def seen(self, path, saved=False):
        self.paths.append(path)
        if saved:
            self.saved['k:' + path] = True
        self.on_seen(path)

    def end(self, named=None):
        self.ended = True
        return self.paths + [path for path in named or [] if path not in self.paths]

    def note(self, path):
        pass

    def record(self, change_log, paths, author, recorded=None):
        self.recorded = (paths, author)
        written = [path for path in paths if path not in self.unknown and ('k:' + path) not in self.saved]
        if recorded is not None:
            recorded.extend(written)
        return len(written)

    def stop(self):
        self.stopped = True


class FakeChangeLog:
    def __init__(self):
        self.notes = ChangeNotes()


def watch_with(spans, clock, unknown=(), change_log=None):
    return DoorWatch(change_log or FakeChangeLog(), lambda: FakeSpan(spans, unknown), clock, clock.now)


def test_nothing_is_watched_until_a_cli_connects_and_the_last_one_to_leave_ends_it():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock)
    assert spans == []
    watch.attach(CLAUDE)
    watch.attach(GEMINI)
    assert len(spans) == 1, 'one span for every connected CLI'
    watch.detach(CLAUDE)
    assert not spans[0].stopped
    watch.detach(GEMINI)
    assert spans[-1].stopped


def test_a_change_on_disk_is_recorded_as_the_latest_clis_once_the_disk_is_quiet():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock)
    watch.attach(CLAUDE)
    watch.attach(GEMINI)
    spans[0].seen('/ws/a.py')
    clock.advance(QUIET_MS - 1)
    assert spans[0].recorded is None
    clock.advance(1)
    assert spans[0].recorded == (['/ws/a.py'], GEMINI)
    assert watch.recorded == 1
    assert len(spans) == 2, 'a new span begins after a record'


def test_a_change_listed_under_one_of_several_clis_connected_is_noted_as_a_guess():
    spans, clock, change_log = [], FakeClock(), FakeChangeLog()
    watch = watch_with(spans, clock, unknown=['/ws/big.bin'], change_log=change_log)
    watch.attach(CLAUDE)
    spans[0].seen('/ws/alone.py')
    clock.advance(QUIET_MS)
    assert change_log.notes.items == [], 'one CLI connected: its change, no guess'
    watch.attach(GEMINI)
    watch.attach(dict(CLAUDE, session='claudeCode-3'))
    spans[1].seen('/ws/a.py')
    spans[1].seen('/ws/big.bin')  # not recorded (the span notes why): no guess about it
    spans[1].seen('/ws/mine.py', saved=True)
    clock.advance(QUIET_MS)
    assert [(note['kind'], note['path'], note['client'], note['detail']) for note in change_log.notes.items] == \
        [('guessed', '/ws/a.py', 'Claude Code', 'Gemini CLI')]


def test_a_stream_of_changes_is_recorded_at_the_latest_after_the_longest_wait():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock)
    watch.attach(CLAUDE)
    for step in range(LONGEST_MS // 500 + 1):
        if spans[0].recorded is None:
            spans[0].seen(f'/ws/{step}.py')
        clock.advance(500)
    assert spans[0].recorded is not None


def test_the_users_own_saves_are_not_recorded_and_cost_no_new_span():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock)
    watch.attach(CLAUDE)
    spans[0].seen('/ws/mine.py', saved=True)
    clock.advance(QUIET_MS)
    assert spans[0].recorded is None and not spans[0].ended
    assert len(spans) == 1 and spans[0].paths == [] and spans[0].saved == {}


def test_an_announced_write_is_recorded_when_done_and_an_unknown_before_text_left_to_the_span():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock, unknown=['/ws/big.bin'])
    watch.attach(CLAUDE)
    watch.about_to_write('/ws/big.bin')  # Claude Code's getDiagnostics {uri} before a write of its own
    spans[0].seen('/ws/big.bin')
    watch.writes_done()  # its getDiagnostics {} after: recorded at once
    assert spans[0].recorded == (['/ws/big.bin'], CLAUDE)
    assert watch.recorded == 0


def test_a_file_announced_but_not_yet_reported_by_the_watcher_is_recorded_too():
    spans, clock = [], FakeClock()
    watch = watch_with(spans, clock)
    watch.attach(CLAUDE)
    watch.about_to_write('/ws/late.py')
    watch.writes_done()
    assert spans[0].recorded == (['/ws/late.py'], CLAUDE)
