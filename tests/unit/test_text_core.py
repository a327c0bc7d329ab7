"""The pure pieces behind the file and editor tools: globs, line windows, edit planning."""
import pytest

from hermes.core.globs import GlobSet, climbs_out, glob_to_regex
from hermes.core.text_edits import apply_planned, plan_edits
from hermes.core.text_window import count_lines, line_window, split_lines
from hermes.core.tools import ToolError


@pytest.mark.parametrize('pattern,path,expected', [
    ('**/.git', '.git', True), ('**/.git', 'a/b/.git', True), ('**/.git', 'a/.github', False),
    ('build', 'build', True), ('build', 'src/build', False), ('build/**', 'build', True),
    ('build/**', 'build/x/y.js', True), ('*.ts', 'a.ts', True), ('*.ts', 'src/a.ts', False),
    ('**/*.ts', 'src/deep/a.ts', True), ('**/*.{ts,js}', 'x/a.js', True), ('**/*.{ts,js}', 'x/a.py', False),
    ('src/?.py', 'src/a.py', True), ('src/?.py', 'src/ab.py', False), ('[ab].txt', 'b.txt', True),
    ('[!ab].txt', 'b.txt', False), ('a+b(c).txt', 'a+b(c).txt', True), ('**/node_modules', 'x/node_modules', True),
    ('src/**/test_*.py', 'src/test_a.py', True), ('src/**/test_*.py', 'src/x/y/test_a.py', True),
])
def test_globs_follow_vscode(pattern, path, expected):
    assert GlobSet([pattern]).matches(path) is expected, glob_to_regex(pattern)


@pytest.mark.parametrize('pattern,expected', [
    ('../x', True), ('a/../../b', True), ('/etc/*', True), ('C:/x', True), ('{..,src}/*', True), ('src/{a,..}', True),
    ('**/*.ts', False), ('src/..x/a', False), ('a..b', False),
])
def test_climbing_globs(pattern, expected):
    assert climbs_out(pattern) is expected


def test_line_window_edges():
    assert split_lines('') == [] and split_lines('a\n') == ['a'] and split_lines('a\nb') == ['a', 'b']
    assert line_window('') == {'text': '', 'start': 0, 'end': 0, 'total': 0, 'note': None}
    window = line_window('a\nb\nc\n', 2, 99)
    assert (window['text'], window['start'], window['end'], window['note']) == ('b\nc', 2, 3, None)
    window = line_window('a\nb\nc\nd\n', 1, None, max_lines=2)
    assert window['note'] == '[truncated: 2 more lines (3-4 of 4); continue with start_line=3]'
    window = line_window('aaaa\nbbbb\ncccc\n', 1, None, max_chars=11)
    assert window['text'] == 'aaaa\nbbbb' and window['end'] == 2
    with pytest.raises(ToolError, match='end_line 1 is before start_line 2'):
        line_window('a\nb\n', 2, 1)


def test_line_window_cuts_the_same_lines_as_splitting_the_whole_text():
    def by_splitting(text, start, end, max_lines, max_chars):  # what line_window did before it stopped splitting
        lines = split_lines(text)
        last = len(lines) if end is None else min(end, len(lines))
        kept, size = [], 0
        for line in lines[start - 1:last]:
            if len(kept) >= max_lines or size + len(line) + 1 > max_chars:
                break
            kept.append(line)
            size += len(line) + 1
        return '\n'.join(kept), len(lines)
    texts = ['a', 'a\n', '\n', '\n\n', 'a\r\nb\r\n', 'one\n\nthree', 'x\ny\nz\n\n', 'é\n✓\r\n\n  tail']
    for text in texts:
        total = count_lines(text)
        assert total == len(split_lines(text))
        for start in range(1, total + 1):
            for end in [None, start, total + 2]:
                for max_lines, max_chars in [(2000, 100000), (1, 100000), (2, 6)]:
                    window = line_window(text, start, end, max_lines, max_chars)
                    expected, _ = by_splitting(text, start, end, max_lines, max_chars)
                    if window['note'] is None or 'has' not in window['note']:  # (the long-line cut is its own case)
                        assert (window['text'], window['total']) == (expected, total), (text, start, end)


def test_plan_edits_edges():
    assert count_lines('') == 0 and count_lines('x') == 1 and count_lines('x\n') == 1 and count_lines('x\ny') == 2
    assert apply_planned('', plan_edits('', [{'start_line': 1, 'end_line': 0, 'new_text': 'first'}])) == 'first\n'
    assert apply_planned('a', plan_edits('a', [{'start_line': 2, 'end_line': 1, 'new_text': 'b'}])) == 'a\nb\n'
    assert apply_planned('a\nb', plan_edits('a\nb', [{'start_line': 2, 'end_line': 2, 'new_text': 'B'}])) == 'a\nB'
    assert apply_planned('a\nb\n', plan_edits('a\nb\n', [{'start_line': 1, 'end_line': 0, 'new_text': 'z'}])) == \
        'z\na\nb\n'
    crlf = 'a\r\nb\r\n'
    assert apply_planned(crlf, plan_edits(crlf, [{'start_line': 2, 'end_line': 2, 'new_text': 'x\ny'}])) == \
        'a\r\nx\r\ny\r\n'
    with pytest.raises(ToolError, match='old_text is empty'):
        plan_edits('a', [{'old_text': '', 'new_text': 'b'}])
    with pytest.raises(ToolError, match='end_line 5 must be between'):
        plan_edits('a\nb\n', [{'start_line': 1, 'end_line': 5, 'new_text': 'b'}])
