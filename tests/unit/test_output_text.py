"""Terminal output cleaning and size caps (hermes.core.output_text)."""
from hermes.core.output_text import strip_ansi, cap_head, cap_tail, cap_list, count_lines


def test_strip_ansi_removes_shell_integration_marks_colours_and_titles():
    raw = ('\x1b]633;C\x07\x1b[1;32mok\x1b[0m done\r\n'
           '\x1b]0;user@host: ~\x07second\x1b[K line\r\n'
           '\x1b]633;D;0\x1b\\')
    assert strip_ansi(raw) == 'ok done\nsecond line\n'


def test_strip_ansi_keeps_what_a_carriage_return_left_on_screen():
    assert strip_ansi('progress 10%\rprogress 50%\rprogress 100%\r\nnext\n') == 'progress 100%\nnext\n'
    assert strip_ansi('a\x08b\x07c\tz') == 'abc\tz'


def test_cap_head_names_what_was_left_out():
    text = ''.join(f'line {n}\n' for n in range(100))
    capped = cap_head(text, 100)
    assert capped.startswith('line 0\n') and len(capped.split('\n')[0]) < 100
    assert capped.endswith('more characters)')
    kept = capped[:capped.index('…')]
    note_lines = int(capped.split('truncated: ')[1].split(' ')[0])
    assert count_lines(kept) + note_lines == 100
    assert cap_head('short', 100) == 'short'


def test_cap_tail_keeps_the_most_recent_output():
    text = ''.join(f'line {n}\n' for n in range(100))
    capped = cap_tail(text, 60)
    assert capped.startswith('… (truncated: ') and capped.endswith('line 99\n')
    assert 'earlier lines' in capped


def test_cap_list():
    assert cap_list([1, 2, 3], 5) == ([1, 2, 3], None)
    assert cap_list([1, 2, 3], 2) == ([1, 2], '… (truncated: 1 more)')
