"""Which window the CLI talks to (hermes.cli.select_window): pure logic over discovery dicts."""
import pytest

from hermes.cli.select_window import NO_WINDOW, NoWindowError, contains_path, select_window


def window(port, folders, token='tok', pid=100):
    return {'url': f'http://127.0.0.1:{port}/mcp', 'port': port, 'token': token + str(port), 'pid': pid + port,
            'workspaceFolders': folders}


NEWEST = window(20003, ['/home/u/web'])
NESTED = window(20002, ['/home/u/monorepo/packages/app'])
OUTER = window(20001, ['/home/u/monorepo', '/home/u/notes'])
WINDOWS = [NEWEST, NESTED, OUTER]  # newest first, as list_discovery() returns them


def options(**given):
    return dict({'url': None, 'token': None, 'port': None}, **given)


def test_no_window_at_all():
    with pytest.raises(NoWindowError) as caught:
        select_window([], '/home/u', options())
    assert str(caught.value) == NO_WINDOW
    assert 'Open VS Code with the Hermes extension installed' in NO_WINDOW
    assert 'hermes.mcp.enabled' in NO_WINDOW


def test_cwd_inside_a_workspace_picks_that_window():
    chosen = select_window(WINDOWS, '/home/u/notes/2024', options())
    assert chosen['port'] == 20001
    assert chosen['token'] == 'tok20001'
    assert chosen['url'] == 'http://127.0.0.1:20001/mcp'
    assert chosen['pid'] == 20101
    assert chosen['workspaceFolders'] == ['/home/u/monorepo', '/home/u/notes']
    assert chosen['reason'] == 'its workspace holds the current directory'
    assert chosen['count'] == 3


def test_deepest_folder_wins():
    assert select_window(WINDOWS, '/home/u/monorepo/packages/app/src', options())['port'] == 20002
    assert select_window(WINDOWS, '/home/u/monorepo/packages/lib', options())['port'] == 20001
    assert select_window(WINDOWS, '/home/u/monorepo', options())['port'] == 20001


def test_no_match_falls_back_to_the_newest():
    chosen = select_window(WINDOWS, '/tmp', options())
    assert chosen['port'] == 20003
    assert chosen['reason'] == 'the newest window'
    assert select_window([OUTER], '/tmp', options())['reason'] == 'the only window'


def test_prefix_of_a_name_is_not_containment():
    assert select_window(WINDOWS, '/home/u/monorepo2', options())['port'] == 20003


def test_port_picks_that_window_even_outside_its_workspace():
    chosen = select_window(WINDOWS, '/home/u/web', options(port=20002))
    assert chosen['port'] == 20002
    assert chosen['token'] == 'tok20002'
    assert chosen['reason'] == 'chosen with --port'


def test_unknown_port_lists_the_running_windows():
    with pytest.raises(NoWindowError) as caught:
        select_window(WINDOWS, '/tmp', options(port=1234))
    text = str(caught.value)
    assert 'No running Hermes window serves on port 1234' in text
    assert '20001 (/home/u/monorepo, /home/u/notes)' in text
    with pytest.raises(NoWindowError) as caught:
        select_window([], '/tmp', options(port=1234))
    assert NO_WINDOW in str(caught.value)


def test_token_flag_overrides_the_discovery_token():
    assert select_window(WINDOWS, '/tmp', options(token='mine'))['token'] == 'mine'
    assert select_window(WINDOWS, '/tmp', options(port=20001, token='mine'))['token'] == 'mine'


def test_url_wins_and_borrows_the_token_of_the_same_port():
    chosen = select_window(WINDOWS, '/home/u/web', options(url='http://127.0.0.1:20002/mcp'))
    assert chosen['url'] == 'http://127.0.0.1:20002/mcp'
    assert chosen['token'] == 'tok20002'
    assert chosen['pid'] == 20102
    assert chosen['reason'] == 'given with --url'
    chosen = select_window(WINDOWS, '/tmp', options(url='http://localhost:20002/mcp', token='given'))
    assert chosen['token'] == 'given'
    assert chosen['url'] == 'http://localhost:20002/mcp'


def test_url_without_a_discovery_file_needs_no_window():
    chosen = select_window([], '/tmp', options(url='http://127.0.0.1:4000/mcp'))
    assert chosen == {'url': 'http://127.0.0.1:4000/mcp', 'token': None, 'port': 4000, 'pid': None,
                      'workspaceFolders': [], 'reason': 'given with --url', 'count': 0}
    assert select_window([], '/tmp', options(url='http://127.0.0.1:4000/mcp', token='t'))['token'] == 't'


def test_malformed_discovery_entries_are_tolerated():
    odd = {'url': 'http://127.0.0.1:7/mcp', 'port': 7, 'workspaceFolders': None}
    odder = {'url': 'http://127.0.0.1:8/mcp', 'port': 8, 'workspaceFolders': [None, 5, '/srv']}
    assert select_window([odd, odder], '/srv/x', options())['port'] == 8
    chosen = select_window([odd], '/srv', options())
    assert chosen['token'] is None and chosen['workspaceFolders'] == []


@pytest.mark.parametrize('folder, path, inside', [
    ('/a/b', '/a/b', True),
    ('/a/b', '/a/b/c', True),
    ('/a/b/', '/a/b/c', True),
    ('/a/b', '/a/b/', True),
    ('/a/b', '/a/bc', False),
    ('/a/b', '/a', False),
    ('/', '/anything', True),
    ('', '/a', False),
    (None, '/a', False),
    ('C:\\Users\\me\\proj', 'c:\\users\\me\\proj\\src', True),
    ('C:\\Users\\me\\proj', 'C:\\Users\\me\\project', False),
    ('C:\\', 'C:\\x', True),
])
def test_contains_path(folder, path, inside):
    assert contains_path(folder, path) is inside


@pytest.mark.parametrize('url', ['http://127.0.0.2:20002/mcp', 'http://localhost:20002/mcp', 'https://127.0.0.1:20002/mcp',
                                 'http://evil.example:20002/mcp', 'http://127.0.0.1@evil.example:20002/mcp',
                                 'http://user@127.0.0.1:20002/mcp', 'ftp://127.0.0.1:20002/mcp'])
def test_a_url_gets_no_token_unless_a_discovery_file_names_that_very_address(url):
    chosen = select_window(WINDOWS, '/home/u/web', options(url=url))
    assert chosen['token'] is None and chosen['url'] == url


@pytest.mark.parametrize('url', ['http://127.0.0.1:20002/mcp', 'HTTP://127.0.0.1:20002/other', 'http://127.0.0.1:20002'])
def test_the_address_a_discovery_file_names_gets_its_token(url):
    assert select_window(WINDOWS, '/tmp', options(url=url))['token'] == 'tok20002'


def test_a_discovery_file_without_an_url_is_no_window_to_talk_to():
    # A live pid's file in ~/.hermes/ide/ that names no URL (cut short, or another writer's) cannot be talked to:
    # chosen, it printed client config with "None" for the URL and crashed `health` and `stdio`.
    broken = {'port': 20009, 'pid': 7, 'token': 5, 'workspaceFolders': ['/home/u/web']}
    chosen = select_window([broken] + WINDOWS, '/home/u/web/src', options())
    assert chosen['url'] == NEWEST['url']
    assert chosen['count'] == 3
    with pytest.raises(NoWindowError) as caught:
        select_window([broken], '/home/u/web', options())
    assert str(caught.value) == NO_WINDOW


def test_a_token_or_numbers_of_the_wrong_type_are_left_out():
    odd = dict(window(20005, ['/home/u/odd']), token=12345, port='20005', pid='x')
    chosen = select_window([odd], '/home/u/odd', options())
    assert chosen['url'] == 'http://127.0.0.1:20005/mcp'
    assert chosen['token'] is None  # a header value must be text; the user is told to pass --token
    assert chosen['port'] is None and chosen['pid'] is None
