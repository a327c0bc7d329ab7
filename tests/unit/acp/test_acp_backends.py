"""core/acp/backends.py path_outside: the PATH an agent process gets cannot lead into the workspace. Every call here
is also a parity vector (`inv parity`)."""
from hermes.core.acp.backends import path_outside


def test_an_agents_path_keeps_only_absolute_folders_outside_the_workspace():
    value = '/usr/local/bin::./node_modules/.bin:bin:/ws/tools:/ws-other/bin:/usr/bin:/usr/local/bin:/ws'
    assert path_outside(value, ':', ['/ws']) == '/usr/local/bin:/ws-other/bin:/usr/bin'
    assert path_outside('/ws/a/bin:/opt/x', ':', ['/ws/', '/other']) == '/opt/x'


def test_windows_paths_and_no_path():
    value = 'C:\\Windows;;.\\bin;D:\\ws\\tools;D:/tools'
    assert path_outside(value, ';', ['D:\\ws'], '\\') == 'C:\\Windows;D:/tools'
    assert path_outside(None, ':', ['/ws']) is None
