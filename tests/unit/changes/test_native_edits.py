"""Native edits (hermes.ui.changes.native_edits, hermes.core.changes.edit_scopes): a chat turn's writes inside
ChatResponseStream.externalEdit, and VS Code's Keep/Undo kept in step with the change log both ways. The real
behaviour in VS Code is proved in code-server (tests/e2e/test_native_review.py); these pin the logic."""
import asyncio

import pytest

import vscode
from hermes.core.changes.edit_scopes import EditScopes, scope_key
from hermes.core.tools import ToolError
from hermes.ui.changes import native_edits as native_module
from hermes.ui.changes.native_edits import NativeEdits, ACCEPT_FILE_COMMAND, DISCARD_FILE_COMMAND, follow_actions

from test_change_log import FakeFiles, make_log

TURN = {'client': 'Hermes', 'session': 'c1', 'turn': 't1'}
OTHER = {'client': 'Review Agent', 'session': None, 'turn': None, 'external': True}
PATH = '/ws/a.py'


def run(coroutine):
    return asyncio.run(coroutine)


class Stream:
    """A response stream with externalEdit: records the uris, runs the callback (or refuses before it)."""

    def __init__(self, refuse=None):
        self.edited = []
        self.refuse = refuse

    async def externalEdit(self, uris, callback):
        if self.refuse:
            raise RuntimeError(self.refuse)
        self.edited.append([uri.fsPath for uri in uris])
        await callback()
        return 'undo-stop'


class PlainStream:
    def markdown(self, text):
        return None


@pytest.fixture
def existing(monkeypatch):
    """Which paths exist for the native edits (they ask the file system through host/files.py stat)."""
    paths = {PATH}

    async def stat_or_none(path):
        return {'kind': 'file'} if path in paths else None
    monkeypatch.setattr(native_module, '_stat_or_none', stat_or_none)
    return paths


def setup():
    files = FakeFiles()
    log = make_log(files)
    commands = []

    async def run_command(command, uri):
        commands.append((command, uri.fsPath))
    native = NativeEdits(log, None, run_command)
    log.on_change(native.log_changed)  # as register_native_edits subscribes it
    follow_actions(vscode.ExtensionContext(), native, HearingParticipant())  # chatParticipantAdditions on
    return files, log, native, commands


class HearingParticipant:
    """A chat participant with the proposal enabled: it tells of Keep/Undo in VS Code's editing session."""

    def __init__(self):
        self.listeners = []

    def onDidPerformAction(self, listener):
        self.listeners.append(listener)
        return vscode.Disposable(lambda: None)


class StableParticipant:
    """A chat participant in stable VS Code (chatParticipantAdditions off): the proposal's getter throws."""

    @property
    def onDidPerformAction(self):
        raise RuntimeError('Extension \'hermes\' CANNOT use API proposal: chatParticipantAdditions.')


def tool_write(files, log, path, text, author=TURN):
    """What a tool's write does inside its scope: write, then record."""
    async def write():
        before = files.texts.get(path)
        files.texts[path] = text
        log.record(path, before, text, author)
        return 'replaced'
    return log.edit_scopes.around(author, [path], write)


def test_scope_keys_name_the_turn_and_an_author_without_a_turn_has_none():
    assert scope_key(TURN) == 's:Hermes\nc1\nt1'
    assert scope_key({'client': '@hermes', 'session': None, 'turn': 't9'}) == 's:@hermes\n\nt9'
    assert scope_key(OTHER) is None
    assert scope_key(None) is None


def test_a_scope_runs_its_turns_writes_and_closing_an_old_one_leaves_a_newer_one():
    scopes = EditScopes()
    seen = []

    async def first(paths, write):
        seen.append(('first', paths))
        return await write()

    async def second(paths, write):
        seen.append(('second', paths))
        return await write()

    async def write():
        return 'done'
    close_first = scopes.open(TURN, first)
    scopes.open(TURN, second)
    close_first()  # the first turn's scope was replaced: closing it must not close the second
    assert run(scopes.around(TURN, ['/ws/a.py'], write)) == 'done'
    assert seen == [('second', ['/ws/a.py'])]
    assert run(scopes.around(OTHER, ['/ws/a.py'], write)) == 'done'  # no scope: written as it is
    assert len(seen) == 1


def test_a_turns_write_goes_through_external_edit_and_only_while_the_turn_runs(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\n'
    stream = Stream()
    close = native.open(stream, TURN)
    assert run(tool_write(files, log, PATH, 'b\n')) == 'replaced'
    assert stream.edited == [[PATH]]
    assert native.tracked(PATH) == [TURN]
    assert [hunk['added'] for hunk in native.pending_hunks(PATH)] == [1]
    close()
    run(tool_write(files, log, PATH, 'c\n'))
    assert stream.edited == [[PATH]], 'after the turn, writes are not VS Code\'s chat edits'


def test_no_scope_without_external_edit_in_the_stream(existing):
    files, log, native, commands = setup()
    native.open(PlainStream(), TURN)
    assert log.edit_scopes.find(TURN) is None


def test_without_the_proposal_a_turns_writes_never_join_vs_codes_keep_undo(existing):
    """Stable VS Code gives the stream externalEdit but no onDidPerformAction: a Keep in VS Code's bar would go
    unheard, the edit stay pending in Hermes and Hermes' Undo All revert it. So the write stays Hermes' own."""
    files = FakeFiles()
    log = make_log(files)
    native = NativeEdits(log, None, None)
    follow_actions(vscode.ExtensionContext(), native, StableParticipant())
    files.texts[PATH] = 'a\n'
    stream = Stream()
    native.open(stream, TURN)
    assert log.edit_scopes.find(TURN) is None
    run(tool_write(files, log, PATH, 'b\n'))
    assert stream.edited == []
    assert native.tracked(PATH) == []
    assert [item['path'] for item in log.pending()] == [PATH], 'Hermes\' own review has the edit'


def test_a_write_that_fails_fails_with_its_own_error(existing):
    files, log, native, commands = setup()
    stream = Stream()
    native.open(stream, TURN)

    async def write():
        raise ToolError('"a.py" is open with unsaved changes.')
    with pytest.raises(ToolError, match='unsaved changes'):
        run(log.edit_scopes.around(TURN, [PATH], write))


def test_when_vs_code_refuses_the_external_edit_the_write_still_happens_once(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\n'
    native.open(Stream(refuse='Response stream has been closed'), TURN)
    assert run(tool_write(files, log, PATH, 'b\n')) == 'replaced'
    assert files.texts[PATH] == 'b\n'
    assert len(log.pending()) == 1


def test_a_file_the_turn_creates_is_left_to_hermes_review(existing):
    files, log, native, commands = setup()
    stream = Stream()
    native.open(stream, TURN)
    run(tool_write(files, log, '/ws/new.py', 'x\n'))
    assert stream.edited == []
    assert native.tracked('/ws/new.py') == []
    assert len(log.pending()) == 1, 'still reviewed by Hermes'


def event(kind, outcome, path=PATH, **more):
    action = dict({'kind': kind, 'outcome': outcome, 'uri': vscode.Uri.file(path)}, **more)
    return {'action': action, 'result': {}}


def test_keep_of_a_file_in_vs_code_keeps_the_turns_hunks_and_no_one_elses(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\nb\nc\nd\ne\nf\ng\n'
    log.record(PATH, files.texts[PATH], 'A\nb\nc\nd\ne\nf\ng\n', OTHER)  # an MCP client's hunk
    files.texts[PATH] = 'A\nb\nc\nd\ne\nf\ng\n'
    native.open(Stream(), TURN)
    run(tool_write(files, log, PATH, 'A\nb\nc\nd\ne\nf\nG\n'))
    assert sum(len(item['hunks']) for item in log.pending()) == 2
    assert run(native.on_action(event('chatEditingSessionAction', 1))) == 1
    left = log.pending()
    assert [item['client'] for item in left] == ['Review Agent']


def test_keep_of_one_hunk_in_vs_code_keeps_the_one_with_its_counts_or_none_when_unsure(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\nb\nc\nd\ne\nf\ng\nh\ni\n'
    native.open(Stream(), TURN)
    run(tool_write(files, log, PATH, 'A\nb\nc\nd\ne\nF\nG\nh\ni\n'))  # hunks of 1 and 2 lines
    assert run(native.on_action(event('chatEditingHunkAction', 1, linesAdded=2, linesRemoved=2,
                                      hasRemainingEdits=True))) == 1
    assert [hunk['added'] for hunk in native.pending_hunks(PATH)] == [1]
    run(tool_write(files, log, PATH, 'A\nb\nc\nD\ne\nF\nG\nh\ni\n'))  # two hunks of one line now
    assert run(native.on_action(event('chatEditingHunkAction', 1, linesAdded=1, linesRemoved=1,
                                      hasRemainingEdits=True))) == 0, 'two candidates: left pending'


def test_actions_on_files_vs_code_does_not_track_for_us_are_ignored(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\n'
    log.record(PATH, 'a\n', 'b\n', OTHER)
    files.texts[PATH] = 'b\n'
    assert run(native.on_action(event('chatEditingSessionAction', 1))) is None
    assert run(native.on_action({'action': {'kind': 'vote', 'direction': 1}})) is None
    assert len(log.pending()) == 1


def test_a_file_reviewed_whole_in_hermes_is_kept_in_vs_code_or_undone_there_when_gone(existing):
    files, log, native, commands = setup()
    files.texts[PATH] = 'a\n'
    native.open(Stream(), TURN)
    run(tool_write(files, log, PATH, 'b\n'))

    async def keep_and_settle():
        log.keep(PATH)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    run(keep_and_settle())
    assert commands == [(ACCEPT_FILE_COMMAND, PATH)]
    assert native.tracked(PATH) == []
    existing.discard(PATH)  # the next turn's file is gone by the time the log tells (an undone edit, say)
    existing.add('/ws/b.py')
    files.texts['/ws/b.py'] = 'x\n'
    native.open(Stream(), TURN)
    run(tool_write(files, log, '/ws/b.py', 'y\n'))
    existing.discard('/ws/b.py')

    async def forget_and_settle():
        log.keep('/ws/b.py')
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    run(forget_and_settle())
    assert commands[-1] == (DISCARD_FILE_COMMAND, '/ws/b.py')
