from hermes.core.strip_chars import lstrip_chars, rstrip_chars


def test_strips_only_the_given_characters():
    assert lstrip_chars('  \t```', ' ') == '\t```'
    assert rstrip_chars('out  \n\n', '\n') == 'out  '
    assert lstrip_chars('xyxab', 'xy') == 'ab'
    assert rstrip_chars('', '\n') == '' and lstrip_chars('   ', ' ') == ''
