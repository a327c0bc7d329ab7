"""Workspace path rules for every tool that touches the disk."""
import os

import pytest

import vscode
from hermes.core.tools import ToolError
from hermes.host.paths import display_path, resolve_path


@pytest.fixture
def project(tmp_path):
    root = tmp_path / 'project'
    (root / 'src').mkdir(parents=True)
    (root / 'src' / 'app.py').write_text('x = 1\n')
    (tmp_path / 'secret.txt').write_text('no\n')
    vscode.workspace.open_folders([str(root)])
    return root


def test_relative_paths_resolve_in_the_workspace(project):
    assert resolve_path('src/app.py') == str(project / 'src' / 'app.py')
    assert resolve_path('./src/../src/app.py') == str(project / 'src' / 'app.py')
    assert resolve_path('new/file.txt') == str(project / 'new' / 'file.txt')
    assert resolve_path(str(project / 'src')) == str(project / 'src')


@pytest.mark.parametrize('path', ['../secret.txt', 'src/../../secret.txt', '/etc/passwd'])
def test_paths_leaving_the_workspace_are_refused(project, path):
    with pytest.raises(ToolError, match=r'is outside the workspace .*"hermes.tools.allowOutsideWorkspace"'):
        resolve_path(path)


def test_symlinks_pointing_outside_are_refused(project, tmp_path):
    os.symlink(tmp_path / 'secret.txt', project / 'link.txt')
    os.symlink(tmp_path, project / 'escape')
    for path in ('link.txt', 'escape/secret.txt', 'escape/new-file.txt'):
        with pytest.raises(ToolError, match='is outside the workspace'):
            resolve_path(path)


def test_the_setting_allows_outside_paths(project, tmp_path):
    vscode.workspace.settings['hermes.tools.allowOutsideWorkspace'] = True
    assert resolve_path('../secret.txt') == str(tmp_path / 'secret.txt')


def test_no_folder_open_and_empty_path():
    with pytest.raises(ToolError, match='No folder is open in VS Code'):
        resolve_path('a.txt')
    with pytest.raises(ToolError, match='The path is empty'):
        resolve_path('  ')


def test_multi_root_names_pick_their_folder(tmp_path):
    (tmp_path / 'api').mkdir()
    (tmp_path / 'web').mkdir()
    vscode.workspace.open_folders([str(tmp_path / 'api'), str(tmp_path / 'web')])
    assert resolve_path('web/index.html') == str(tmp_path / 'web' / 'index.html')
    assert resolve_path('index.html') == str(tmp_path / 'api' / 'index.html')


def test_display_path(project):
    assert display_path(str(project / 'src' / 'app.py')) == 'src/app.py'
    assert display_path(str(project)) == '.'
    assert display_path('/elsewhere/x') == '/elsewhere/x'


def test_display_path_cuts_plain_paths_as_path_relative_would():
    from hermes.host.paths import folder_paths, is_inside
    from hermes.js.modules import node

    def by_path_relative(path):  # what display_path always did
        for folder in folder_paths():
            if is_inside(path, folder):
                relative = node('path').relative(folder, path)
                return relative if relative != '' else '.'
        return path
    folders = ['/w/project', '/w/.hidden/project', '/w/pro//ject', '/', '/w/project/']
    rests = ['a.ts', 'src/a.ts', '.env', 'src/.cfg/x', 'a/../b', 'a/./b', 'a//b', 'a/', 'x..y/z', 'a b/ü.ts', '..a', '']
    for folder in folders:
        vscode.workspace.open_folders([folder])
        for rest in rests:
            for path in [folder.rstrip('/') + '/' + rest, folder + rest, folder.rstrip('/') + rest]:
                assert display_path(path) == by_path_relative(path), (folder, path)
