"""The review UI under CPython with the shim: what the Changes view, the status bar, the editor's marks and
lenses show for the change log's pending changes, and what Keep / Undo / Keep All / Undo All / next / previous
do, the conflict question included. The change log is a small fake with the real one's interface
(host/changes/log.py), so these tests hold the UI to that interface only."""
import asyncio
import inspect

import pytest
import vscode
from fake_clock import HeldTimers

from hermes.host.changes.log import ChangeLog
from hermes.core.changes.view import (change_tree, changed_files, hunk_marks, matches, next_line, status_text,
                                     text_before, before_text, counts_text)
from hermes.ui.changes.review import register_change_review, IN_EDITOR_CONTEXT
from hermes.ui.changes.commands import register_change_commands, CONFLICT_TEXT, UNDO_ANYWAY
from hermes.ui.changes.diff import register_before_texts, before_uri, SCHEME
from hermes.ui.changes.view import register_changes_view, VIEW_ID, FOCUS_COMMAND

CLAUDE = {'client': 'Claude Code', 'session': None, 'turn': None}
HERMES_T1 = {'client': 'Hermes', 'session': 'conv-1', 'turn': '1'}
HERMES_T2 = {'client': 'Hermes', 'session': 'conv-1', 'turn': '2'}


class DiskFiles:
    """The change log's way to the files (host/changes/files.py EditorFiles), on the disk only."""

    async def read(self, path):
        try:
            return open(path).read()
        except FileNotFoundError:
            return None

    async def write(self, path, text):
        with open(path, 'w') as handle:
            handle.write(text)


class Workspace(ChangeLog):
    """The real change log over two files of a temporary folder; `edit` is an agent's write (the file, then its
    record, as the host's write functions do)."""

    def edit(self, path, before, after, author):
        with open(path, 'w') as handle:
            handle.write(after)
        self.record(path, before, after, author)

    def hunk_ids(self, path):
        return [hunk['id'] for item in self.pending() if item['path'] == path for hunk in item['hunks']]


def run(value):
    """The value of a command or a Thenable, awaited to the end."""
    async def settle(result):
        while inspect.isawaitable(result):
            result = await result
        return result
    return asyncio.run(settle(value)) if inspect.isawaitable(value) else value


@pytest.fixture
def changes(tmp_path):
    log = Workspace(DiskFiles(), None, lambda key: None, None, None, lambda path: True)
    log.a = str(tmp_path / 'a.py')
    log.b = str(tmp_path / 'b.py')
    with open(log.a, 'w') as handle:
        handle.write('one\ntwo\nthree\nfour\n')
    with open(log.b, 'w') as handle:
        handle.write('alpha\nbeta\n')
    return log


@pytest.fixture
def ui(context, changes):
    review = register_change_review(context, changes)
    commands = register_change_commands(context, changes, review, None)
    register_before_texts(context, changes)
    view = register_changes_view(context, changes, lambda session: 'Fix the tests' if session == 'conv-1' else None,
                                 lambda session, turn: 'Run the tests\nand fix them' if turn == '1' else None)
    return {'review': review, 'commands': commands, 'view': view}


# ------------------------------------------------------------------------------------ the pure model

def test_change_tree_groups_by_client_and_session_then_turn_then_file(changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\nfive\n', CLAUDE)
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\n', HERMES_T1)
    changes.edit(changes.a, 'one\nTWO\nthree\nfour\nfive\n', 'zero\none\nTWO\nthree\nfour\nfive\n', HERMES_T2)
    tree = change_tree(changes.pending(), lambda session: 'Fix the tests')
    assert [group['label'] for group in tree] == ['Claude Code', 'Hermes: Fix the tests']
    assert [(turn['label'], [f['label'] for f in turn['files']]) for turn in tree[1]['turns']] == \
        [('Turn 1', ['b.py']), ('Turn 2', ['a.py'])]
    assert (tree[0]['added'], tree[0]['removed'], tree[0]['files']) == (2, 1, 1)
    assert (tree[1]['added'], tree[1]['removed'], tree[1]['files']) == (1, 1, 2)
    assert tree[1]['turns'][0]['filter'] == {'client': 'Hermes', 'session': 'conv-1', 'turn': '1'}
    assert [item['path'] for item in changed_files(changes.pending())] == [changes.a, changes.b]


def test_a_client_without_a_name_and_a_session_without_a_title_are_still_told_apart():
    pending = [{'path': '/w/x', 'uri': None, 'author': {'client': '', 'session': 'abcdef123456', 'turn': 3},
                'hunks': [], 'added': 1, 'removed': 0}]
    [group] = change_tree(pending)
    assert group['label'] == 'an MCP client (session abcdef12)'
    assert group['turns'][0]['label'] == 'Turn 1', 'numbered by its place in the group'


def test_filters_match_exactly_the_keys_they_name():
    entry = {'author': {'client': 'Hermes', 'session': 'conv-1', 'turn': '2'}}
    assert matches(entry, None)
    assert matches(entry, {'client': 'Hermes'})
    assert matches(entry, {'client': 'Hermes', 'session': 'conv-1', 'turn': 2})
    assert not matches(entry, {'client': 'Hermes', 'session': 'conv-1', 'turn': '1'})
    assert matches(entry, {'client': 'Hermes', 'session': None}), 'None matches anything, as in the change log'
    assert not matches(entry, {'client': 'Claude Code'})


def test_next_and_previous_change_wrap_around():
    assert next_line([10, 2, 30], 2, True) == 10
    assert next_line([10, 2, 30], 30, True) == 2
    assert next_line([10, 2, 30], 10, False) == 2
    assert next_line([10, 2, 30], 2, False) == 30
    assert next_line([], 5, True) is None


def test_hunk_marks_for_a_replacement_an_insertion_and_a_deletion_past_the_end():
    replaced = hunk_marks({'start': 1, 'before_lines': ['old\n', 'older\n'], 'after_lines': ['new\n']}, 5)
    assert replaced == {'added': [1, 1], 'anchor': 1, 'removed': 2, 'preview': 'old  (1 more removed line)'}
    inserted = hunk_marks({'start': 0, 'before_lines': [], 'after_lines': ['a\n', 'b\n']}, 5)
    assert inserted == {'added': [0, 1], 'anchor': 0, 'removed': 0, 'preview': None}
    deleted = hunk_marks({'start': 4, 'before_lines': ['x' * 200 + '\r\n'], 'after_lines': []}, 4)
    assert deleted['added'] is None and deleted['anchor'] == 3
    assert len(deleted['preview']) == 80 and deleted['preview'].endswith('\u2026')


def test_text_before_undoes_only_the_given_hunks_keeping_line_ends():
    text = 'zero\r\none\nTWO\nthree\n'
    hunks = [{'start': 0, 'before': [], 'after': ['zero\r\n']},
             {'start': 2, 'before': ['two\n', '2\n'], 'after': ['TWO\n']}]
    assert text_before(text, hunks) == 'one\ntwo\n2\nthree\n'
    assert text_before(text, hunks[:1]) == 'one\nTWO\nthree\n'
    assert text_before('', [{'start': 0, 'before': ['gone'], 'after': []}]) == 'gone'


def test_before_text_of_a_log_entry_for_everything_a_turn_and_a_created_file(changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'ONE\ntwo\nthree\nfour\n', HERMES_T1)
    changes.edit(changes.a, 'ONE\ntwo\nthree\nfour\n', 'ONE\ntwo\nthree\nFOUR\r\n', HERMES_T2)
    entry = changes.entry(changes.a)
    assert before_text(entry, None) == 'one\ntwo\nthree\nfour\n'
    assert before_text(entry, {'turn': '2'}) == 'ONE\ntwo\nthree\nfour\n'
    assert before_text(entry, {'turn': '1'}) == 'one\ntwo\nthree\nFOUR\r\n'
    created = changes.a + '.new'
    changes.edit(created, None, 'fresh\n', CLAUDE)
    assert before_text(changes.entry(created), None) == ''


def test_status_text_counts_files():
    assert status_text(0) is None
    assert status_text(1) == '$(diff) 1 file to review'
    assert status_text(3) == '$(diff) 3 files to review'
    assert counts_text(4, 2) == '+4 \u22122'


# ------------------------------------------------------------------------------------ the editor

def open_editor(path):
    return run(vscode.window.showTextDocument(vscode.Uri.file(path)))


def test_marks_and_lenses_follow_the_pending_hunks(ui, changes):
    editor = open_editor(changes.a)
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\nfive\n', CLAUDE)
    vscode.window._visible_changed.fire(vscode.window.visibleTextEditors)
    review = ui['review']
    added = editor.decorations[review.added_type]
    assert [(item['range'].start.line, item['range'].end.line) for item in added] == [(1, 1), (4, 4)]
    removed = editor.decorations[review.removed_type]
    assert [item['renderOptions']['after']['contentText'] for item in removed] == ['\u2212 two']
    assert '-two' in removed[0]['hoverMessage'].value and '+TWO' in removed[0]['hoverMessage'].value
    [(selector, provider)] = vscode.languages.code_lens_providers
    lenses = provider['provideCodeLenses'](editor.document)
    assert [lens.command['title'] for lens in lenses] == [
        '$(check) Keep', '$(discard) Undo', 'Claude Code \u00b7 +1 \u22121',
        '$(check) Keep', '$(discard) Undo', 'Claude Code \u00b7 +1 \u22120']
    assert lenses[0].command['command'] == 'hermes.changes.keep'
    assert lenses[0].command['arguments'] == [changes.a, changes.hunk_ids(changes.a)[0]]
    assert vscode.commands.context_keys[IN_EDITOR_CONTEXT] is True
    changes.keep(changes.a)
    assert editor.decorations[review.added_type] == [] and editor.decorations[review.removed_type] == []
    assert provider['provideCodeLenses'](editor.document) == []


def test_keep_one_hunk_and_undo_another_through_the_commands(ui, changes):
    open_editor(changes.a)
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\nfive\n', CLAUDE)
    first, second = changes.hunk_ids(changes.a)
    assert run(vscode.commands.executeCommand('hermes.changes.keep', changes.a, first)) is True
    assert changes.hunk_ids(changes.a) == [second]
    assert run(vscode.commands.executeCommand('hermes.changes.undo', changes.a, second)) is True
    assert open(changes.a).read() == 'one\nTWO\nthree\nfour\n'
    assert changes.pending() == []


def test_undo_at_the_cursor_and_navigation(ui, changes):
    editor = open_editor(changes.a)
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\nfive\n', CLAUDE)
    assert run(vscode.commands.executeCommand('hermes.changes.next')) == 1
    assert editor.selection.active.line == 1
    assert run(vscode.commands.executeCommand('hermes.changes.next')) == 4
    assert run(vscode.commands.executeCommand('hermes.changes.next')) == 1  # wraps
    assert run(vscode.commands.executeCommand('hermes.changes.previous')) == 4
    assert run(vscode.commands.executeCommand('hermes.changes.undo')) is True  # the hunk at the cursor: line 4
    assert open(changes.a).read() == 'one\nTWO\nthree\nfour\n'
    editor.selection = vscode.Selection(2, 0, 2, 0)  # no change on line 3
    assert run(vscode.commands.executeCommand('hermes.changes.keep')) is False
    assert vscode.window.status_messages[-1] == 'Hermes: the cursor is not on a pending change'


def test_undo_asks_when_the_user_edited_the_same_lines(ui, changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\n', CLAUDE)
    [hunk] = changes.hunk_ids(changes.a)
    with open(changes.a, 'w') as handle:
        handle.write('one\nTWO, said the user\nthree\nfour\n')  # the user edits the agent's line
    vscode.window.message_answers.append(None)  # the user closes the question
    assert run(vscode.commands.executeCommand('hermes.changes.undo', changes.a, hunk)) is False
    assert vscode.window.messages[-1] == ('warning', CONFLICT_TEXT, [{'modal': True}, UNDO_ANYWAY])
    assert open(changes.a).read() == 'one\nTWO, said the user\nthree\nfour\n', 'nothing written'
    vscode.window.message_answers.append(UNDO_ANYWAY)
    assert run(vscode.commands.executeCommand('hermes.changes.undo', changes.a, hunk)) is True
    assert open(changes.a).read() == 'one\ntwo\nthree\nfour\n'


def test_file_level_keep_and_undo_take_a_uri_or_the_active_editor(ui, changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'ONE\ntwo\nthree\nFOUR\n', CLAUDE)
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\nBETA\n', CLAUDE)
    run(vscode.commands.executeCommand('hermes.changes.undoFile', vscode.Uri.file(changes.a)))
    assert open(changes.a).read() == 'one\ntwo\nthree\nfour\n'
    open_editor(changes.b)
    run(vscode.commands.executeCommand('hermes.changes.keepFile'))
    assert open(changes.b).read() == 'alpha\nBETA\n'
    assert changes.pending() == []


# ------------------------------------------------------------------------------------ the view and status bar

def test_the_view_lists_changes_and_the_status_bar_counts_files(ui, changes):
    [status] = [item for item in vscode.window.status_bar_items if item.id == 'hermes.changes']
    assert status.visible is False
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\n', CLAUDE)
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\n', HERMES_T1)
    assert status.visible is True and status.text == '$(diff) 2 files to review'
    assert status.command == FOCUS_COMMAND
    view = vscode.window.tree_views[VIEW_ID]
    assert view.badge['value'] == 2
    tree = view.items()
    shown = [(item.label, item.description, [(turn.label, turn.description,
                                              [(f.label, f.description) for f, _, _ in files])
                                             for turn, _, files in turns]) for item, _, turns in tree]
    assert shown == [
        ('Claude Code', '+1 \u22121 \u00b7 1 file', [('Edits', '+1 \u22121', [('a.py', '+1 \u22121')])]),
        ('Hermes: Fix the tests', '+0 \u22121 \u00b7 1 file', [('Run the tests', '+0 \u22121', [('b.py', '+0 \u22121')])]),
    ]
    group_item, group, _ = tree[0]
    assert group_item.contextValue == 'hermes.change.group'
    file_item = tree[1][2][0][2][0][0]
    assert file_item.command['command'] == 'vscode.diff'
    assert file_item.command['arguments'][0].scheme == SCHEME
    changes.keep_all(None)
    assert status.visible is False and view.badge is None and view.items() == []


class Pushes:
    """What the review UI told VS Code: setContext calls, tree and lens refreshes, status item shows and hides,
    badges set."""

    def __init__(self, ui):
        self.counts = {}
        ui['view']['tree'].changed.event(lambda data: self.count('tree'))
        ui['review'].lens_changed.event(lambda data: self.count('lenses'))
        [status] = [item for item in vscode.window.status_bar_items if item.id == 'hermes.changes']
        show, hide = status.show, status.hide
        status.show = lambda: (self.count('status'), show())
        status.hide = lambda: (self.count('status'), hide())
        self.status = status
        self.view = vscode.window.tree_views[VIEW_ID]
        self.badge = self.view.badge
        self.executed = len(vscode.commands.executed)

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def take(self):
        """The pushes since the last take, as {what: how many}."""
        for command, arguments in vscode.commands.executed[self.executed:]:
            if command == 'setContext':
                self.count('context ' + arguments[0])
        self.executed = len(vscode.commands.executed)
        if self.view.badge is not self.badge:
            self.count('badge')
            self.badge = self.view.badge
        counts, self.counts = self.counts, {}
        return counts


def test_the_views_tell_vscode_only_what_changed_since_they_last_heard(context, tmp_path):
    """Each push is work for the workbench that an agent's next write waits behind (measured in code-server:
    15-50 ms a write): a burst that changes nothing the user sees costs VS Code nothing, a second write to a file
    already listed re-draws its tree and lenses only."""
    timers = HeldTimers()
    log = Workspace(DiskFiles(), None, lambda key: None, None, None, lambda path: True, timers,
                    announce_quiet_ms=200)
    a = str(tmp_path / 'a.py')
    with open(a, 'w') as handle:
        handle.write('one\ntwo\nthree\n')
    ui = {'review': register_change_review(context, log), 'view': register_changes_view(context, log)}
    pushes = Pushes(ui)
    log.edit(a, 'one\ntwo\nthree\n', 'ONE\ntwo\nthree\n', CLAUDE)
    log.keep(a)
    assert len(timers.pending) == 1 and pushes.take() == {}, 'nothing told inside the burst'
    timers.fire()
    assert pushes.take() == {}, 'written and kept before the views heard: nothing to show, nothing told'
    log.edit(a, 'ONE\ntwo\nthree\n', 'ONE\nTWO\nthree\n', CLAUDE)
    log.announce_now()
    assert pushes.take() == {'tree': 1, 'lenses': 1, 'status': 1, 'badge': 1, 'context hermes.changes.paths': 1}
    assert pushes.status.text == '$(diff) 1 file to review'
    log.edit(a, 'ONE\nTWO\nthree\n', 'ONE\nTWO\nTHREE\n', CLAUDE)
    log.announce_now()
    assert pushes.take() == {'tree': 1, 'lenses': 1}, 'the same one file: its counts and hunks moved, nothing else'
    log.announce_now()
    assert pushes.take() == {}


def test_keep_all_and_undo_all_for_a_turn_from_the_view(ui, changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\n', HERMES_T1)
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\n', HERMES_T2)
    view = vscode.window.tree_views[VIEW_ID]
    [(_, group, turns)] = view.items()
    turn_one, turn_two = turns[0][1], turns[1][1]
    run(vscode.commands.executeCommand('hermes.changes.undoAll', turn_two))
    assert open(changes.b).read() == 'alpha\nbeta\n'
    assert open(changes.a).read() == 'one\nTWO\nthree\nfour\n'  # turn 1 untouched
    run(vscode.commands.executeCommand('hermes.changes.keepAll', turn_one))
    assert changes.pending() == []
    assert open(changes.a).read() == 'one\nTWO\nthree\nfour\n'


def test_undo_all_of_everything_asks_first(ui, changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\n', CLAUDE)
    vscode.window.message_answers.append(None)
    assert run(vscode.commands.executeCommand('hermes.changes.undoAll')) is False
    assert open(changes.a).read() == 'one\nTWO\nthree\nfour\n'
    assert vscode.window.messages[-1][1] == 'Undo the changes agents made to 1 file and not kept yet?'
    vscode.window.message_answers.append('Undo All')
    assert run(vscode.commands.executeCommand('hermes.changes.undoAll')) is True
    assert open(changes.a).read() == 'one\ntwo\nthree\nfour\n'


def test_open_changes_shows_the_text_before_in_the_multi_file_diff(ui, changes):
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\n', HERMES_T1)
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\n', HERMES_T2)
    assert run(vscode.commands.executeCommand('hermes.changes.showDiff')) == 2
    [shown] = vscode.window.multi_diffs
    assert shown.title == 'Changes by every agent'
    assert [resource[0].fsPath for resource in shown.resources] == [changes.a, changes.b]
    provider = vscode.workspace.content_providers[SCHEME]
    assert run(provider['provideTextDocumentContent'](shown.resources[0][1])) == 'one\ntwo\nthree\nfour\n'
    turn_two = before_uri(changes.b, {'client': 'Hermes', 'session': 'conv-1', 'turn': '2'})
    assert run(provider['provideTextDocumentContent'](turn_two)) == 'alpha\nbeta\n'
    turn_one_only = before_uri(changes.b, {'client': 'Hermes', 'session': 'conv-1', 'turn': '1'})
    assert run(provider['provideTextDocumentContent'](turn_one_only)) == 'alpha\n'  # turn 1 did not touch b.py
    changes.keep_all(None)
    assert run(provider['provideTextDocumentContent'](shown.resources[0][1])) == 'one\nTWO\nthree\nfour\n', \
        'nothing pending: the file as it is'
    assert run(vscode.commands.executeCommand('hermes.changes.showDiff', {'client': 'Nobody'})) == 0
    assert vscode.window.messages[-1] == ('info', 'Hermes: no pending changes by Nobody.', [])


# ------------------------------------------------------------------------------------ checkpoints

from hermes.core.changes.checkpoints import cut_conversation, put_back, turns_from, history_cut, new_turn_id, last_turn
from hermes.core.chat.conversations import Conversation, ConversationStore
from hermes.ui.changes.checkpoints import register_checkpoints, UNDO_RESTORE


def three_turns():
    conversation = Conversation()
    for number in ['1', '2', '3']:
        conversation.add({'role': 'user', 'text': 'ask ' + number, 'turn': 't' + number})
        conversation.add({'role': 'assistant', 'status': 'done', 'error': None,
                          'parts': [{'kind': 'text', 'text': 'answer ' + number}]})
        conversation.history.extend([{'role': 'user', 'content': 'ask ' + number},
                                     {'role': 'assistant', 'content': None, 'tool_calls': []},
                                     {'role': 'tool', 'content': 'ok'},
                                     {'role': 'assistant', 'content': 'answer ' + number}])
    return conversation


def test_cutting_a_conversation_before_a_turn_and_putting_it_back():
    conversation = three_turns()
    assert turns_from(conversation.messages, 't2') == ['t2', 't3']
    assert turns_from(conversation.messages, 'nope') == []
    assert history_cut(conversation.history, 2) == 4 and history_cut(conversation.history, 0) == 12
    saved = cut_conversation(conversation, 't2')
    assert [message.get('text') for message in conversation.messages] == ['ask 1', None]
    assert [message['content'] for message in conversation.history] == ['ask 1', None, 'ok', 'answer 1']
    put_back(conversation, saved)
    assert len(conversation.messages) == 6 and len(conversation.history) == 12
    assert cut_conversation(conversation, 'nope') is None


def test_turn_ids_are_unique_and_survive_a_reload():
    ids = [new_turn_id()]
    for _ in range(49):  # within one millisecond: each after the one before
        ids.append(new_turn_id(ids[-1]))
    assert len(set(ids)) == 50 and all(turn.startswith('t') and turn[1:].isdigit() for turn in ids)
    assert [int(turn[1:]) for turn in ids] == sorted(int(turn[1:]) for turn in ids)
    ahead = 't' + str(int(ids[-1][1:]) + 10 ** 6)  # a clock set back since the conversation's last turn
    assert new_turn_id(ahead) == 't' + str(int(ahead[1:]) + 1)
    for other in [None, 'x12', 't', 't1.5', 't-3', 't' + '9' * 16, 5]:  # no turn id of ours: the clock alone
        assert int(new_turn_id(other)[1:]) > 1700000000000
    messages = [{'role': 'user', 'text': 'a', 'turn': 't7'}, {'role': 'assistant', 'turn': 't9'},
                {'role': 'user', 'text': 'b'}]
    assert last_turn(messages) == 't7' and last_turn([]) is None
    restored = Conversation.restore({'messages': [{'role': 'user', 'text': 'hi', 'turn': 't5'},
                                                  {'role': 'user', 'text': 'no id', 'turn': 5}]})
    assert restored.messages == [{'role': 'user', 'text': 'hi', 'turn': 't5'}, {'role': 'user', 'text': 'no id'}]


@pytest.fixture
def checkpoints(context, changes):
    store = ConversationStore(lambda: 'conv-1', lambda: 1000)
    conversation = three_turns()
    conversation.id = 'conv-1'
    store.conversations.append(conversation)
    return register_checkpoints(context, changes, store, DiskFiles()), conversation, store


def test_restore_files_and_conversation_then_undo_the_restore(checkpoints, changes):
    restorer, conversation, store = checkpoints
    turn = lambda number: {'client': 'Hermes', 'session': 'conv-1', 'turn': 't' + number}
    changes.edit(changes.a, 'one\ntwo\nthree\nfour\n', 'ONE\ntwo\nthree\nfour\n', turn('1'))
    changes.edit(changes.a, 'ONE\ntwo\nthree\nfour\n', 'ONE\ntwo\nthree\nFOUR\n', turn('2'))
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\nbeta\ngamma\n', turn('3'))
    vscode.window.quick_pick_answers.append(lambda items: items[0])  # files and conversation
    done = run(vscode.commands.executeCommand('hermes.restoreTurn', 'conv-1', 't2'))
    assert done == {'what': 'both', 'files': 2, 'turns': 2}
    assert open(changes.a).read() == 'ONE\ntwo\nthree\nfour\n', 'turn 1 stays, turn 2 is undone'
    assert open(changes.b).read() == 'alpha\nbeta\n'
    assert [message['text'] for message in conversation.messages if message['role'] == 'user'] == ['ask 1']
    assert [item['label'] for item in vscode.window.quick_picks[-1]] == [
        'Files and conversation', 'Files only', 'Conversation only']
    assert run(vscode.commands.executeCommand('hermes.undoRestore')) is True
    assert open(changes.a).read() == 'ONE\ntwo\nthree\nFOUR\n'
    assert open(changes.b).read() == 'alpha\nbeta\ngamma\n'
    assert len(conversation.messages) == 6
    assert {item['path'] for item in changes.pending()} == {changes.a, changes.b}, 'pending review again'
    assert run(vscode.commands.executeCommand('hermes.undoRestore')) is False


def test_a_conversation_restored_to_before_its_first_turn_comes_back_whole(checkpoints, changes):
    restorer, conversation, store = checkpoints
    assert run(vscode.commands.executeCommand('hermes.restoreTurn', 'conv-1', 't1', 'conversation'))['turns'] == 3
    store.put(conversation, 'checkpoint')
    assert store.get('conv-1') is None, 'an empty conversation leaves the list'
    assert run(vscode.commands.executeCommand('hermes.undoRestore')) is True
    assert store.get('conv-1') is conversation and len(conversation.messages) == 6


def test_restore_the_conversation_only_leaves_the_files(checkpoints, changes):
    restorer, conversation, store = checkpoints
    changes.edit(changes.b, 'alpha\nbeta\n', 'alpha\n', {'client': 'Hermes', 'session': 'conv-1', 'turn': 't3'})
    done = run(vscode.commands.executeCommand('hermes.restoreTurn', 'conv-1', 't3', 'conversation'))
    assert done == {'what': 'conversation', 'files': 0, 'turns': 1}
    assert open(changes.b).read() == 'alpha\n'
    assert len(conversation.messages) == 4


def test_restore_refuses_a_turn_it_cannot_find(checkpoints):
    assert run(vscode.commands.executeCommand('hermes.restoreTurn', 'conv-1', 't9', 'both')) is None
    assert vscode.window.messages[-1] == ('warning', 'Hermes: this turn is no longer in the conversation.', [])
    assert run(vscode.commands.executeCommand('hermes.restoreTurn', 'gone', 't1', 'both')) is None
    assert 'no checkpoint to restore' in vscode.window.messages[-1][1]


def test_the_panel_sessions_and_at_hermes_name_their_conversation_and_turn_as_the_author():
    """What the loop hands the change log as the author of a turn's writes (its sink's change_author())."""
    import types
    from hermes.ui.chat.sessions import TurnRecorder
    from hermes.ui.chat.participant import ChatStreamSink
    from hermes.ui.panel.builtin_turn import PanelSink
    from hermes.ui.panel.state import Turn
    conversation = Conversation()
    conversation.id = 'conv-9'
    recorder = TurnRecorder(None, conversation, {'parts': []}, 't5')
    assert recorder.change_author() == {'client': 'Hermes', 'session': 'conv-9', 'turn': 't5'}
    chat = ChatStreamSink(None, None, None)
    chat.author = {'client': '@hermes', 'session': None, 'turn': 't6'}
    assert chat.change_author() == {'client': '@hermes', 'session': None, 'turn': 't6'}
    panel = PanelSink(types.SimpleNamespace(conversation=conversation), Turn(1, 'hi', {}, None, 't7'))
    assert panel.change_author() == {'client': 'Hermes', 'session': 'conv-9', 'turn': 't7'}
