"""The conversation store shared by the side panel and the chat sessions: bounds, restore, the file on
disk (a corrupt one moved aside, never a failed activation)."""
import json
import os

import pytest

from hermes.core.chat.conversations import (ConversationStore, Conversation, StoreCorrupt, MAX_CONVERSATIONS, title_from,
                                       add_tool, finish_tool, end_reply, remember_turn, RESULT_LIMIT)
from hermes.host.chat.conversation_store import load_store, save_store, register_conversation_store, store_path
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
    log = Log()
    store = register_conversation_store(context, log)
    conversation = store.create()
    conversation.add({'role': 'user', 'text': 'remember me'})
    store.put(conversation)
    again = load_store(store_path(context), log)
    assert [c.title for c in again.conversations] == ['remember me'] and log.lines == []


def test_a_corrupt_file_is_moved_aside_with_a_warning_and_a_fresh_store_starts(context):
    path = store_path(context)
    os.makedirs(os.path.dirname(path))
    with open(path, 'w') as file:
        file.write('{"version": 1, "conversations": [tru')
    log = Log()
    store = register_conversation_store(context, log)
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
