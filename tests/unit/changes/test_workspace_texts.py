"""The workspace's texts at a span's start (hermes.host.changes.workspace_texts) as DiskChangeSpan's source for files a shell
command changed: recorded with their text before and after, ahead of a note read while the writer ran; re-read only
when a file changed; bounded (file size, total, count, binary files); a span keeps what it started with."""
import pytest

from hermes.host.changes import workspace_texts
from hermes.host.changes.disk_changes import DiskChangeSpan
from hermes.host.changes.workspace_index import WorkspaceIndex
from hermes.host.changes.workspace_listing import list_workspace_files
from hermes.host.changes.workspace_texts import WorkspaceTexts

from test_disk_changes import AGENT, changed, disk_world, pending


@pytest.fixture
def world(tmp_path):
    return disk_world(tmp_path)


class CountingRead:
    def __init__(self):
        self.paths = []

    def __call__(self, path):
        self.paths.append(path)
        with open(path, newline='') as handle:
            return handle.read()


def test_a_file_a_shell_command_rewrote_is_recorded_with_its_text_before_and_after(world):
    folder = world['folder']
    (folder / 'config.ini').write_text('debug = false\nport = 1\n')
    span = DiskChangeSpan(None, None, world["timers"], None, WorkspaceIndex())
    (folder / 'config.ini').write_text('debug = true\nport = 1\n')  # `sed -i …` run by the agent: no file named
    changed(folder / 'config.ini')
    assert span.record(world['log'], span.end(), AGENT) == 1
    entry = world['log'].entry(str(folder / 'config.ini'))
    assert (entry['base'], entry['text']) == ('debug = false\nport = 1\n', 'debug = true\nport = 1\n')
    assert pending(world['log']) == [(str(folder / 'config.ini'), 'e2e-agent', False, 1, 1)]


def test_without_the_texts_such_a_file_is_listed_but_not_recorded(world):
    folder = world['folder']
    (folder / 'config.ini').write_text('debug = false\n')
    span = DiskChangeSpan(None, None, world['timers'])
    (folder / 'config.ini').write_text('debug = true\n')
    changed(folder / 'config.ini')
    paths = span.end()
    assert paths == [str(folder / 'config.ini')]
    assert span.record(world['log'], paths, AGENT) == 0
    assert world['log'].entry(str(folder / 'config.ini')) is None


def test_the_start_text_beats_a_note_read_after_the_writer_already_wrote(world):
    folder = world['folder']
    (folder / 'raced.txt').write_text('before\n')
    span = DiskChangeSpan(None, None, world["timers"], None, WorkspaceIndex())
    (folder / 'raced.txt').write_text('after\n')
    span.note(str(folder / 'raced.txt'))  # the tool call's announcement came after its write
    changed(folder / 'raced.txt')
    assert span.record(world['log'], span.end(), AGENT) == 1
    assert world['log'].entry(str(folder / 'raced.txt'))['base'] == 'before\n'


def test_a_refresh_reads_only_new_and_changed_files_and_a_span_keeps_its_start(world):
    folder = world['folder']
    (folder / 'a.txt').write_text('a\n')
    (folder / 'b.txt').write_text('b\n')
    read = CountingRead()
    texts = WorkspaceTexts(None, read)
    first = texts.refresh(list_workspace_files([str(folder)]))
    assert sorted(read.paths) == [str(folder / 'a.txt'), str(folder / 'b.txt')]
    read.paths.clear()
    (folder / 'b.txt').write_text('bb\n')
    second = texts.refresh(list_workspace_files([str(folder)]))
    assert read.paths == [str(folder / 'b.txt')]
    assert first['k:' + str(folder / 'b.txt')]['text'] == 'b\n'  # what the earlier span started with
    assert second['k:' + str(folder / 'b.txt')]['text'] == 'bb\n'
    assert second['k:' + str(folder / 'a.txt')] is first['k:' + str(folder / 'a.txt')]


def test_a_link_to_a_file_outside_is_not_read(world, tmp_path):
    folder = world['folder']
    (tmp_path / 'secret.txt').write_text('outside\n')
    (folder / 'link.txt').symlink_to(tmp_path / 'secret.txt')
    (folder / 'real.txt').write_text('inside\n')
    read = CountingRead()
    kept = WorkspaceTexts(None, read).refresh(list_workspace_files([str(folder)]))
    assert list(kept.keys()) == ['k:' + str(folder / 'real.txt')] and read.paths == [str(folder / 'real.txt')]


def test_large_binary_and_too_many_files_are_left_out(world, monkeypatch):
    folder = world['folder']
    monkeypatch.setattr(workspace_texts, 'MAX_FILE_BYTES', 10)
    monkeypatch.setattr(workspace_texts, 'MAX_TOTAL_BYTES', 12)
    (folder / 'big.txt').write_text('x' * 11)
    (folder / 'bin.dat').write_bytes(b'a\x00b')
    (folder / 'small.txt').write_text('0123456789')
    kept = WorkspaceTexts().refresh(list_workspace_files([str(folder)]))
    assert list(kept.keys()) == ['k:' + str(folder / 'small.txt')]
    (folder / 'second.txt').write_text('0123')  # fits alone, not beside small.txt (12 bytes in all)
    kept = WorkspaceTexts().refresh(list_workspace_files([str(folder)]))
    assert len(kept) == 1
    monkeypatch.setattr(workspace_texts, 'MAX_TOTAL_BYTES', 1000)
    monkeypatch.setattr(workspace_texts, 'MAX_FILES', 1)
    assert len(WorkspaceTexts().refresh(list_workspace_files([str(folder)]))) == 1
    monkeypatch.setattr(workspace_texts, 'MAX_FILES', 5)
    assert len(WorkspaceTexts().refresh(list_workspace_files([str(folder)]))) == 2
