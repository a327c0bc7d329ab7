"""core/changes/notes.py: what the Changes view says about changes Hermes saw but could not put under review exactly."""
from hermes.core.changes.notes import (ChangeNotes, GUESSED, MAX_NOTES, TOO_MANY, UNKNOWN_BEFORE, note_text,
                                      notes_message)


def relative(path):
    return path.replace('/ws/', '')


def test_notes_are_kept_one_per_file_and_kind_newest_last_and_bounded():
    notes = ChangeNotes()
    heard = []
    stop = notes.on_change(lambda: heard.append(len(notes.items)))
    notes.add(UNKNOWN_BEFORE, '/ws/a.bin', 'Claude Code')
    notes.add(GUESSED, '/ws/b.py', 'Claude Code', 'Gemini CLI')
    notes.add(UNKNOWN_BEFORE, '/ws/a.bin', 'Gemini CLI')
    assert [(item['path'], item['client']) for item in notes.items] == [('/ws/b.py', 'Claude Code'),
                                                                        ('/ws/a.bin', 'Gemini CLI')]
    for number in range(MAX_NOTES + 5):
        notes.add(UNKNOWN_BEFORE, '/ws/%d' % number, 'Qwen Code')
    assert len(notes.items) == MAX_NOTES and notes.items[-1]['path'] == '/ws/%d' % (MAX_NOTES + 4)
    notes.clear()
    stop()
    notes.add(UNKNOWN_BEFORE, '/ws/after.bin', 'Claude Code')
    assert heard == [1, 2, 2] + list(range(3, MAX_NOTES + 1)) + [MAX_NOTES] * 7 + [0]


def test_each_kind_of_note_says_what_happened_and_what_it_means():
    item = {'kind': UNKNOWN_BEFORE, 'path': '/ws/data.bin', 'client': 'Claude Code', 'detail': ''}
    assert note_text(item, relative) == ('data.bin: changed by Claude Code; its text before is unknown, so it cannot '
                                         'be reviewed or undone here')
    guess = {'kind': GUESSED, 'path': '/ws/a.py', 'client': 'Claude Code', 'detail': 'Gemini CLI'}
    assert note_text(guess, relative) == ('a.py: changed on disk while Claude Code and Gemini CLI were connected; '
                                          'listed as Claude Code\'s (the one active last), which may be wrong')
    many = {'kind': TOO_MANY, 'path': '/ws/z.py', 'client': 'Gemini CLI', 'detail': '412'}
    assert note_text(many, relative) == ('z.py and 412 more files: changed at once by Gemini CLI, more than can be '
                                         'reviewed one by one; only the first are listed')


def test_the_views_message_names_the_newest_three_and_counts_the_rest():
    assert notes_message([], relative) == ''
    items = [{'kind': UNKNOWN_BEFORE, 'path': '/ws/%d.bin' % n, 'client': 'Claude Code', 'detail': ''}
             for n in range(5)]
    assert notes_message(items[:1], relative) == ('Not under review exactly: 0.bin: changed by Claude Code; its text '
                                                  'before is unknown, so it cannot be reviewed or undone here.')
    message = notes_message(items, relative)
    assert message.startswith('5 changes not under review exactly: 4.bin: changed by Claude Code;')
    assert '3.bin' in message and '2.bin' in message and '1.bin' not in message
    assert message.endswith('; and 2 more (Show Notes).')
