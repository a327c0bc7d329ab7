"""What an agent process starts with (host/acp/agent_launch.py): a program the repository cannot choose through a PATH
lookup, a PATH without entries that lead into the workspace, a working directory outside it; and no process at all
in Restricted Mode, whichever way a session asks for one."""
import asyncio
import os

import pytest
import vscode

from hermes.core.acp.backends import AcpAgentError, RESTRICTED_HINT
from hermes.host.acp.agent_launch import launch_spec, program_for, safe_path_entries, agent_home
from hermes.host.acp.agent_launch import find_program
from test_acp_sessions import make_world


def executable(path, text='#!/bin/sh\n'):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.fixture
def places(tmp_path, monkeypatch):
    workspace = tmp_path / 'repo'
    user_bin = tmp_path / 'user-bin'
    executable(workspace / 'agent')
    executable(workspace / 'bin' / 'agent')
    executable(user_bin / 'agent')
    monkeypatch.chdir(workspace)  # an empty or relative entry would be read against it
    vscode.workspace.open_folders([str(workspace)])
    return {'workspace': workspace, 'user_bin': user_bin, 'folders': [str(workspace)], 'tmp': tmp_path}


def test_a_bare_name_is_never_found_through_an_empty_relative_or_workspace_entry(places):
    path_value = ':.:bin:' + str(places['workspace'] / 'bin') + ':' + str(places['user_bin'])
    entries = safe_path_entries(path_value, places['folders'])
    assert entries == [str(places['user_bin'])]
    assert program_for('agent', entries, places['folders']) == str(places['user_bin'] / 'agent')


def test_a_link_in_a_safe_folder_that_points_into_the_workspace_is_not_taken(places):
    links = places['tmp'] / 'links'
    links.mkdir()
    (links / 'agent').symlink_to(places['workspace'] / 'agent')
    entries = safe_path_entries(str(links) + ':' + str(places['user_bin']), places['folders'])
    assert program_for('agent', entries, places['folders']) == str(places['user_bin'] / 'agent')
    # and a PATH entry that is a link to a workspace folder is no safe entry at all
    (places['tmp'] / 'bin-link').symlink_to(places['workspace'] / 'bin')
    assert safe_path_entries(str(places['tmp'] / 'bin-link'), places['folders']) == []


def test_a_relative_path_or_a_missing_program_is_refused_with_what_to_do(places):
    with pytest.raises(AcpAgentError, match='relative path'):
        program_for('bin/agent', [str(places['user_bin'])], places['folders'])
    with pytest.raises(AcpAgentError, match='not found on PATH'):
        program_for('agent', [], places['folders'])  # (the workspace has one: not searched)
    assert program_for('/opt/x/agent', [], places['folders']) == '/opt/x/agent'  # the user's absolute path


def test_hermes_is_not_found_in_the_workspace_either(places, monkeypatch):
    executable(places['workspace'] / 'hermes')
    monkeypatch.setenv('PATH', ':' + str(places['workspace']))
    assert find_program('hermes') is None
    executable(places['user_bin'] / 'hermes')
    assert find_program('hermes', [str(places['user_bin'])]) == str(places['user_bin'] / 'hermes')


def test_the_process_starts_outside_the_workspace_with_its_program_resolved(places, monkeypatch):
    monkeypatch.setenv('PATH', ':' + str(places['workspace']) + ':' + str(places['user_bin']))
    home = agent_home(str(places['tmp'] / 'storage'))
    spec = {'name': 'A', 'command': 'agent', 'args': ['--acp'], 'env': {'TOKENLESS': '1'}}
    launched = launch_spec(spec, {'TOKENLESS': '1'}, home, places['folders'])
    assert launched == {'name': 'A', 'command': str(places['user_bin'] / 'agent'), 'args': ['--acp'],
                        'env': {'TOKENLESS': '1'}, 'cwd': home}
    assert os.stat(home).st_mode & 0o777 == 0o700
    assert not home.startswith(str(places['workspace']))
    # the user's own PATH for the agent is where its program is looked up, its workspace entries left out too
    user_env = {'PATH': '.:' + str(places['workspace']) + ':' + str(places['user_bin'])}
    assert launch_spec(spec, user_env, home, places['folders'])['command'] == str(places['user_bin'] / 'agent')


def test_restricted_mode_starts_no_agent_for_a_turn_a_reopened_session_or_a_listing():
    world = make_world({'turns': []}, trusted=False)
    spec = world['acp'].choice.spec_named('Hermes Agent')
    with pytest.raises(AcpAgentError) as raised:
        asyncio.run(world['acp'].sessions.replay_session(spec, 'sess-1', lambda update: None))
    assert raised.value.message == RESTRICTED_HINT
    assert asyncio.run(world['acp'].sessions.list_sessions(spec)) == []
    assert world['made'] == []
