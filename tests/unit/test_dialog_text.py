"""core/dialog_text.py: what a confirmation dialog shows cannot hide or reorder characters."""
import pytest

from hermes.core.dialog_text import escape_invisible


@pytest.mark.parametrize('text, shown', [
    ('plain ü é 中文', 'plain ü é 中文'), ('a\u202eb', 'a\\u{202E}b'), ('a\u2066b\u2069', 'a\\u{2066}b\\u{2069}'),
    ('zero\u200bwidth', 'zero\\u{200B}width'), ('bell\x07', 'bell\\u{0007}'), ('line\u2028sep', 'line\\u{2028}sep'),
    ('bom\ufeff', 'bom\\u{FEFF}'), ('esc\x1b[31m', 'esc\\u{001B}[31m'), ('a\nb', 'a\\u{000A}b'),
])
def test_escape_invisible(text, shown):
    assert escape_invisible(text) == shown


def test_newlines_kept_when_asked():
    assert escape_invisible('a\n\u202eb', True) == 'a\n\\u{202E}b'
