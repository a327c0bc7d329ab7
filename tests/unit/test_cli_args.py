"""Command-line parsing of dist/mcp-server.js (hermes.cli.args)."""
import pytest

from hermes.cli.args import USAGE, UsageError, parse_args


def test_defaults():
    assert parse_args(['health']) == {'command': 'health', 'url': None, 'token': None, 'port': None,
                                      'client': 'all', 'json': False, 'help': False}


def test_value_flags_both_spellings_and_any_position():
    options = parse_args(['--port', '20001', 'config', '--client=claude', '--token', 'abc'])
    assert options['command'] == 'config'
    assert options['port'] == 20001
    assert options['client'] == 'claude'
    assert options['token'] == 'abc'
    options = parse_args(['stdio', '--url=http://127.0.0.1:5/mcp', '--token=t=with=equals'])
    assert options['url'] == 'http://127.0.0.1:5/mcp'
    assert options['token'] == 't=with=equals'


def test_json_switch():
    assert parse_args(['health', '--json'])['json'] is True
    assert parse_args(['config', '--json'])['json'] is True


@pytest.mark.parametrize('argv', [['--help'], ['-h'], ['help'], ['health', '--help']])
def test_help(argv):
    assert parse_args(argv)['help'] is True


def test_help_wins_over_a_missing_command():
    assert parse_args(['--port', '5', '--help'])['help'] is True


@pytest.mark.parametrize('argv, words', [
    ([], 'missing command'),
    (['bogus'], 'unknown command bogus'),
    (['health', 'extra'], 'unexpected argument extra'),
    (['health', '--verbose'], 'unknown option --verbose'),
    (['health', '-v'], 'unknown option -v'),
    (['health', '--port'], '--port needs a value'),
    (['health', '--port', '--json'], '--port needs a value'),
    (['health', '--port='], '--port needs a value'),
    (['health', '--port', 'abc'], '--port must be a number'),
    (['health', '--port', '0'], '--port must be a number'),
    (['health', '--port', '65536'], '--port must be a number'),
    (['health', '--port', '-1'], '--port must be a number'),
    (['health', '--port', '1.5'], '--port must be a number'),
    (['config', '--client', 'emacs'], '--client must be one of'),
    (['health', '--client', 'claude'], '--client applies to config only'),
    (['stdio', '--json'], '--json does not apply to stdio'),
    (['health', '--json=yes'], '--json takes no value'),
    (['health', '--url', 'ftp://x'], '--url must be an http'),
])
def test_usage_errors(argv, words):
    with pytest.raises(UsageError) as caught:
        parse_args(argv)
    assert words in caught.value.text
    assert words in str(caught.value)


def test_port_bounds_accepted():
    assert parse_args(['health', '--port', '1'])['port'] == 1
    assert parse_args(['health', '--port', '65535'])['port'] == 65535


def test_usage_text_names_every_command_and_option():
    for word in ['health', 'config', 'stdio', '--url', '--token', '--port', '--client', '--json', '--help']:
        assert word in USAGE
