"""Signing in to an ACP agent in a real VS Code (code-server), with our scripted agent in its `auth_terminal` mode:
initialize offers the terminal method `login` (ACP's terminal authentication: the client runs the agent's own
program with `--login` in a terminal) and `logout`; session/new answers -32000 auth_required until the login ran.

- a session's first turn says the agent needs a sign-in, with a "Sign in to Scripted" button;
- the button runs the agent's program itself in a terminal named "Sign in: Scripted" (it asks for a key there); when
  it exits with 0 Hermes says so and the next turn answers;
- "Hermes: Sign Out of an Agent" calls the agent's `logout`: its sign-in is gone (the agent removed it).
"""
import pytest

from acp_agents import scripted_agent
from chat_view import first_window, RESPONSE, last_response, new_hermes_session, send
from conftest import copy_of_fixture_workspace, running_code_server, scripted_agent_settings
from vscode_server import wait_until


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'acp-sign-in-ws')
    settings = scripted_agent_settings(scripted_agent(args=['auth_terminal']))
    with running_code_server(tmp_path_factory, workspace, 'acp-sign-in', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'acp-sign-in') as bench:
        yield bench


def kept_sign_in(server):
    """The scripted agent's sign-in, kept in the agents' private folder of Hermes' global storage."""
    return list(server.user_data.glob('User/globalStorage/hermes-agent.hermes-agent/agent-home/scripted-login'))


def test_the_sign_in_button_runs_the_agents_login_in_a_terminal_and_the_next_turn_answers(window, server, artifacts):
    page = window.page
    new_hermes_session(page)
    send(page, 'hello')
    response = last_response(page)
    response.get_by_text('Scripted needs you to sign in').first.wait_for(state='visible')
    button = response.get_by_role('button', name='Sign in to Scripted').first
    button.wait_for(state='visible')
    window.screenshot(artifacts / 'acp-sign-in-button.png')
    assert kept_sign_in(server) == []

    button.click()
    terminal = page.locator('.terminal-tab, .single-terminal-tab, .tabs-container', has_text='Sign in: Scripted')
    terminal.first.wait_for(state='visible')
    # (what the terminal shows is drawn on a canvas: the key is typed as soon as the terminal is there — the pty keeps
    # it until the agent's prompt reads it — and the screenshot shows the prompt with it)
    page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').last.click()
    page.keyboard.type('key-123')
    window.screenshot(artifacts / 'acp-sign-in-terminal.png')
    page.keyboard.press('Enter')
    page.get_by_text('Hermes: signed in to Scripted.').first.wait_for(state='visible')
    [kept] = kept_sign_in(server)
    assert kept.read_text() == 'key-123\n'  # the login ran as the agent's program, in the agents' folder

    responses = page.locator(RESPONSE).count()
    send(page, 'hello again')
    wait_until(lambda: page.locator(RESPONSE).count() > responses, 60, what='the next turn\'s response')
    last_response(page).get_by_text('you said: hello again').first.wait_for(state='visible')
    server.wait_for_log(r'ACP: signed in to Scripted in a terminal')


def test_sign_out_calls_the_agents_logout(window, server):
    assert kept_sign_in(server) != []
    window.run_command('Hermes: Sign Out of an Agent')
    window.page.get_by_text('Hermes: signed out of Scripted.').first.wait_for(state='visible')
    wait_until(lambda: kept_sign_in(server) == [], 30, what='the agent to forget its sign-in')
