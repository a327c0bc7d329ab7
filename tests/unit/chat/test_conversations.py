"""The conversation store shared by the side panel and the chat sessions: bounds, restore, the file on
disk (a corrupt one moved aside, never a failed activation)."""
import json
import os

import pytest

import vscode

from hermes.core.chat.conversations import (ConversationStore, Conversation, StoreCorrupt, MAX_CONVERSATIONS, title_from,
                                       add_tool, finish_tool, end_reply, remember_turn, RESULT_LIMIT)
from hermes.host.chat.conversation_store import (load_store, save_store, register_conversation_store, store_path,
                                               SAVE_QUIET_MS, SAVE_LONGEST_MS)
from fake_clock import FakeClock
from panel_fakes import Log


def clock_from(start=1000):
    now = [start]

    def clock():
        now[0] += 1
        return now[0]
    return clock


def ids():
    count = [0]

    def make_id():
        count[0] += 1
        return f'c{count[0]}'
    return make_id


def store_with(*prompts):
    store = ConversationStore(ids(), clock_from())
    for prompt in prompts:
        conversation = store.create()
        conversation.add({'role': 'user', 'text': prompt})
        store.put(conversation)
    return store


def test_titles_come_from_the_first_line_of_the_first_prompt():
    assert title_from('\n  Fix the parser  \nplease') == 'Fix the parser'
    assert title_from('x' * 100) == 'x' * 59 + '…'
    assert title_from('   ') == 'New conversation'


def test_an_empty_conversation_is_not_listed_until_it_has_a_message():
    store = ConversationStore(ids(), clock_from())
    conversation = store.create()
    store.put(conversation)
    assert store.conversations == []
    conversation.add({'role': 'user', 'text': 'hi'})
    store.put(conversation)
    assert store.conversations == [conversation] and conversation.title == 'hi'


def test_only_the_last_50_conversations_are_kept_newest_first():
    store = store_with(*[f'prompt {index}' for index in range(MAX_CONVERSATIONS + 5)])
    listed = store.newest_first()
    assert len(listed) == MAX_CONVERSATIONS
    assert listed[0].title == f'prompt {MAX_CONVERSATIONS + 4}' and listed[-1].title == 'prompt 5'


def test_a_changed_conversation_moves_to_the_top_and_listeners_hear_who_changed_it():
    store = store_with('old', 'new')
    heard = []
    store.on_change(lambda conversation, origin: heard.append((conversation.title, origin)))
    old = store.get('c1')
    store.put(old, 'panel')
    assert [conversation.title for conversation in store.newest_first()] == ['old', 'new']
    assert heard == [('old', 'panel')]


def test_status_follows_the_last_reply():
    conversation = Conversation([{'role': 'user', 'text': 'q'}])
    assert conversation.status() == 'completed'
    reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
    conversation.add(reply)
    assert conversation.status() == 'in_progress'
    part = add_tool(reply, {'id': 't', 'name': 'file_write', 'arguments': {'path': 'a.txt'}})
    part['status'] = 'waiting'
    assert conversation.status() == 'needs_input'
    end_reply(reply, 'error', 'boom')
    assert conversation.status() == 'failed' and part['status'] == 'cancelled'


def test_long_tool_results_are_cut_in_what_is_shown_and_what_the_model_sees():
    conversation = Conversation([{'role': 'user', 'text': 'q'}])
    reply = {'role': 'assistant', 'status': 'running', 'error': None, 'parts': []}
    part = add_tool(reply, {'id': 't', 'name': 'file_read', 'arguments': {}})
    finish_tool(part, {'content': [{'type': 'text', 'text': 'x' * 50000}]})
    assert len(part['result']) < RESULT_LIMIT + 100
    remember_turn(conversation, 'q', reply, [{'role': 'user', 'content': 'q'},
                                             {'role': 'tool', 'tool_call_id': 't', 'content': 'y' * 50000}])
    assert len(conversation.history[1]['content']) < 8100


def test_file_changing_calls_are_the_sessions_changes():
    conversation = Conversation()
    conversation.note_changes({'name': 'file_write', 'arguments': {'path': 'src/a.py'}})
    conversation.note_changes({'name': 'file_read', 'arguments': {'path': 'src/b.py'}})
    conversation.note_changes({'name': 'editor_edit_file', 'arguments': {'path': 'src/a.py'}})
    assert conversation.changes == ['src/a.py']


def test_the_store_round_trips_through_its_data():
    store = store_with('one', 'two')
    store.set_panel(store.get('c2'))
    store.get('c1').archived = True
    restored = ConversationStore.restore(json.loads(json.dumps(store.to_data())), ids(), clock_from())
    assert [c.title for c in restored.newest_first()] == ['two', 'one']
    assert restored.panel_id == 'c2' and restored.get('c1').archived is True


@pytest.mark.parametrize('data, message', [
    ([1, 2], 'not a Hermes conversation store'),
    ({'conversations': 'x', 'version': 1}, 'not a Hermes conversation store'),
    ({'conversations': [], 'version': 7}, 'unknown store version 7'),
])
def test_data_that_is_not_a_store_is_refused(data, message):
    with pytest.raises(StoreCorrupt, match=message):
        ConversationStore.restore(data, ids(), clock_from())


def test_malformed_conversations_inside_a_good_store_are_dropped():
    data = {'version': 1, 'panel': 'gone', 'conversations': [
        {'id': 'a', 'messages': [{'role': 'user', 'text': 'kept'}]},
        {'id': 'a', 'messages': [{'role': 'user', 'text': 'duplicate id'}]},
        {'messages': [{'role': 'user', 'text': 'no id'}]},
        {'id': 'b', 'messages': []}, 'junk']}
    store = ConversationStore.restore(data, ids(), clock_from())
    assert [c.title for c in store.conversations] == ['kept'] and store.panel_id is None


def test_the_file_survives_a_reload(context):
    """Written behind the change; the window's reload (its subscriptions disposed) flushes it."""
    log, clock = Log(), FakeClock()
    store = register_conversation_store(context, log, clock, clock.now)
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'remember me'})
    store.put(conversation)
    assert not os.path.exists(store_path(context)) and clock.waiting == 1
    context.dispose_all()
    again = load_store(store_path(context), log)
    assert [c.title for c in again.conversations] == ['remember me'] and log.lines == [] and clock.waiting == 0


def saved_titles(context):
    with open(store_path(context)) as file:
        return [c['title'] for c in json.load(file)['conversations']]


def counting_writes(monkeypatch, fail=None, during=None):
    """StoreFile's writes, counted: [text…]. `fail()` true: the write raises ENOSPC (as Node would). `during(text)`:
    called inside each write, before the file is replaced (a change made while a write runs)."""
    from hermes.host.chat import conversation_store
    writes = []
    real = conversation_store.write_file_atomically

    def write(path, text):
        if during:
            during(text)
        if fail and fail():
            raise OSError('ENOSPC: no space left on device, open ' + repr(path))
        writes.append(text)
        real(path, text)
    monkeypatch.setattr(conversation_store, 'write_file_atomically', write)
    return writes


def say(store, text):
    conversation = store.create()
    conversation.add({'role': 'user', 'text': text})
    store.put(conversation)
    return conversation


def test_changes_are_coalesced_into_one_write_once_the_store_is_quiet(context, monkeypatch):
    writes = counting_writes(monkeypatch)
    clock = FakeClock()
    store = register_conversation_store(context, Log(), clock, clock.now)
    say(store, 'one')
    clock.advance(60)
    say(store, 'two')
    say(store, 'three')
    clock.advance(SAVE_QUIET_MS - 1)
    assert writes == []  # still changing less than SAVE_QUIET_MS ago
    clock.advance(1)
    assert len(writes) == 1 and saved_titles(context) == ['one', 'two', 'three']
    clock.advance(10 * SAVE_LONGEST_MS)
    assert len(writes) == 1, 'nothing changed since'


def test_changes_that_never_pause_are_written_at_the_latest_after_the_longest_wait(context, monkeypatch):
    writes = counting_writes(monkeypatch)
    clock = FakeClock()
    store = register_conversation_store(context, Log(), clock, clock.now)
    for turn in range(SAVE_LONGEST_MS // 50 + 1):  # a change every 50 ms: never quiet for SAVE_QUIET_MS
        say(store, 'turn %d' % turn)
        clock.advance(50)
    assert len(writes) == 1 and saved_titles(context) == ['turn %d' % turn for turn in range(SAVE_LONGEST_MS // 50)]
    clock.advance(SAVE_QUIET_MS)
    assert len(writes) == 2 and saved_titles(context)[-1] == 'turn %d' % (SAVE_LONGEST_MS // 50)


def test_each_write_holds_the_store_as_it_is_then_in_order_of_the_changes(context, monkeypatch):
    writes = counting_writes(monkeypatch)
    clock = FakeClock()
    store = register_conversation_store(context, Log(), clock, clock.now)
    first = say(store, 'first')
    clock.advance(SAVE_QUIET_MS)
    first.add({'role': 'assistant', 'text': 'answer'})
    store.put(first)
    say(store, 'second')
    clock.advance(SAVE_QUIET_MS)
    assert [[c['title'] for c in json.loads(text)['conversations']] for text in writes] == \
        [['first'], ['first', 'second']]
    assert [m['text'] for m in json.loads(writes[-1])['conversations'][0]['messages']] == ['first', 'answer']


def test_a_change_made_while_a_write_runs_is_written_next_not_lost(context, monkeypatch):
    """Two saves racing: a change arriving in the middle of a write (a listener, a turn's end) is not in that write;
    it arms the timer again and the next write carries it — the file never goes back to an older store."""
    clock = FakeClock()
    holder = {}

    def during(text):
        if 'late' not in text and 'late' not in [c.title for c in holder['store'].conversations]:
            say(holder['store'], 'late')
    writes = counting_writes(monkeypatch, during=during)
    holder['store'] = store = register_conversation_store(context, Log(), clock, clock.now)
    say(store, 'early')
    clock.advance(SAVE_QUIET_MS)
    assert len(writes) == 1 and saved_titles(context) == ['early']
    assert clock.waiting == 1, 'the late change waits for its own write'
    clock.advance(SAVE_QUIET_MS)
    assert len(writes) == 2 and saved_titles(context) == ['early', 'late']


def test_dispose_flushes_what_waits_and_later_changes_are_written_at_once(context, monkeypatch):
    writes = counting_writes(monkeypatch)
    clock = FakeClock()
    store = register_conversation_store(context, Log(), clock, clock.now)
    context.dispose_all()
    assert writes == [], 'nothing waited: nothing written'
    say(store, 'during deactivation')  # a turn stopped as the window closes: no timer would ever fire
    assert len(writes) == 1 and saved_titles(context) == ['during deactivation'] and clock.waiting == 0


def test_a_failing_write_behind_is_reported_once_and_saving_resumes_with_everything_kept(context, monkeypatch):
    failing = [True]
    writes = counting_writes(monkeypatch, fail=lambda: failing[0])
    clock, log = FakeClock(), Log()
    store = register_conversation_store(context, log, clock, clock.now)
    errors = lambda: [m for m in vscode.window.messages if m[0] == 'error' and 'cannot save conversations' in m[1]]
    before = len(errors())
    say(store, 'lost 1')
    clock.advance(SAVE_QUIET_MS)
    say(store, 'lost 2')
    clock.advance(SAVE_QUIET_MS)
    assert writes == [] and len(errors()) == before + 1, 'told once, not at every write'
    assert [line for level, line in log.lines if level == 'warn'][-1].startswith(
        'Conversations: could not save to ' + store_path(context) + ': ENOSPC: no space left on device')
    failing[0] = False
    say(store, 'works')
    clock.advance(SAVE_QUIET_MS)
    assert saved_titles(context) == ['lost 1', 'lost 2', 'works'] and len(errors()) == before + 1
    assert log.lines[-1] == ('info', 'Conversations: saving to ' + store_path(context) + ' works again.')


def test_a_corrupt_file_is_moved_aside_with_a_warning_and_a_fresh_store_starts(context):
    path = store_path(context)
    os.makedirs(os.path.dirname(path))
    with open(path, 'w') as file:
        file.write('{"version": 1, "conversations": [tru')
    log = Log()
    store = register_conversation_store(context, log, FakeClock())
    assert store.conversations == []
    [aside] = [name for name in os.listdir(os.path.dirname(path)) if name.startswith('conversations.corrupt-')]
    with open(os.path.join(os.path.dirname(path), aside)) as file:
        assert file.read() == '{"version": 1, "conversations": [tru'
    [(level, line)] = log.lines
    assert level == 'warn' and line.startswith('Conversations: the stored conversations in ' + path + ' could not be read')
    assert line.endswith('; moved it to ' + os.path.join(os.path.dirname(path), aside) + ' and started a fresh store.')
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'fresh'})
    store.put(conversation)
    assert save_store(store, path, log) and json.load(open(path))['conversations'][0]['title'] == 'fresh'


def test_a_save_of_what_the_file_already_holds_is_not_written_and_a_failed_one_is_written_next_time(context,
                                                                                                    monkeypatch):
    """A turn saves at its start, before its prompt and at its end; an unchanged store costs no second write (an
    fsync of the file and its folder). A write that failed is not taken for written: the same store is written at
    the next save."""
    from hermes.host.chat import conversation_store
    writes, failing = [], [False]
    real = conversation_store.write_file_atomically

    def write(path, text):
        if failing[0]:
            raise OSError('ENOSPC: no space left on device')
        writes.append(text)
        real(path, text)
    monkeypatch.setattr(conversation_store, 'write_file_atomically', write)
    log = Log()
    written = conversation_store.StoreFile(store_path(context), log)
    store = store_with('once')
    assert written.save(store) and written.save(store)
    assert len(writes) == 1
    failing[0] = True
    [conversation] = store.conversations
    conversation.add({'role': 'assistant', 'text': 'twice'})
    assert not written.save(store)
    assert len(writes) == 1 and log.lines[-1][1].startswith('Conversations: could not save to ')
    failing[0] = False
    assert written.save(store)
    assert len(writes) == 2
    assert [m['text'] for m in json.load(open(store_path(context)))['conversations'][0]['messages']] == ['once', 'twice']


def test_a_window_without_a_folder_keeps_its_conversations_in_the_global_storage(context):
    context.storageUri = None
    assert store_path(context) == os.path.join(context.globalStorageUri.fsPath, 'conversations-no-folder.json')


def test_a_card_shows_a_result_as_the_model_reads_it():
    """One rendering of a tool result (core/tools.py result_text) for the loop's history and the cards."""
    from hermes.core.tools import result_text, marked_error
    result = {'content': [{'type': 'text', 'text': 'Saved.'}, {'type': 'image', 'data': 'AA==', 'mimeType': 'image/png'},
                          {'type': 'resource', 'resource': {'uri': 'file:///a.txt', 'text': 'alpha'}},
                          {'type': 'resource', 'resource': {'uri': 'file:///b.bin', 'blob': 'AA=='}}],
              'isError': False}
    part = finish_tool(add_tool({'role': 'assistant', 'status': 'running', 'error': None, 'parts': []},
                                {'id': 'c1', 'name': 'file_write', 'arguments': {}}), result)
    assert part['result'] == result_text(result) == 'Saved.\n[image: image/png]\nalpha\n[resource: file:///b.bin]'
    assert result_text('plain') == 'plain' and result_text(None) == '' and result_text({'content': 'x'}) == ''
    assert marked_error('no such file', True) == 'Error: no such file'
    assert marked_error('Error: twice', True) == 'Error: twice' and marked_error('fine', False) == 'fine'
