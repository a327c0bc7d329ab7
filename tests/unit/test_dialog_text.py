"""core/dialog_text.py: what a confirmation dialog shows cannot hide or reorder characters."""
import pytest

from hermes.core.dialog_text import agent_title, escape_invisible, MAX_TITLE_CHARS


@pytest.mark.parametrize('text, shown', [
    ('plain ü é 中文', 'plain ü é 中文'), ('a\u202eb', 'a\\u{202E}b'), ('a\u2066b\u2069', 'a\\u{2066}b\\u{2069}'),
    ('zero\u200bwidth', 'zero\\u{200B}width'), ('bell\x07', 'bell\\u{0007}'), ('line\u2028sep', 'line\\u{2028}sep'),
    ('bom\ufeff', 'bom\\u{FEFF}'), ('esc\x1b[31m', 'esc\\u{001B}[31m'), ('a\nb', 'a\\u{000A}b'),
])
def test_escape_invisible(text, shown):
    assert escape_invisible(text) == shown


def test_newlines_kept_when_asked():
    assert escape_invisible('a\n\u202eb', True) == 'a\n\\u{202E}b'


def test_an_agents_title_is_one_bounded_line_without_invisible_characters():
    hostile = '\x1b[2J\u202eevil\u202c title\n\twith\u200b breaks ' + 'x' * 300000
    title = agent_title(hostile)
    assert len(title) == MAX_TITLE_CHARS and title.endswith('…')
    assert title.startswith('[2J evil title with breaks xxx')  # escapes, bidi and zero-width gone, one line
    assert agent_title('  Fix the build  ') == 'Fix the build'
    assert agent_title('\u200b \n') is None and agent_title(42) is None and agent_title(None) is None
