"""workspace_get_folders on a typed fake of its one service (docs/ARCHITECTURE.md, "A tool", step 4): the
workspace's folders as call.services.paths describes them. The host's side (VS Code's folders, read fresh) is
tested over the shim in test_host_tools.py."""
from service_fakes import FakePaths, run_tool


def test_the_folders_and_the_workspace_name_as_the_paths_service_has_them():
    result = run_tool('workspace_get_folders', {}, paths=FakePaths('/home/me/project'))
    assert result['isError'] is False
    assert result['structuredContent'] == {'name': 'project', 'folders': [
        {'name': 'project', 'path': '/home/me/project', 'uri': 'file:///home/me/project', 'index': 0}]}

