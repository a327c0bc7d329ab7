"""An ACP agent's options as pickers in the side panel, and Fork Conversation, in a real VS Code (code-server), with
our scripted agent (tests/acp_agent/agent.py in its `config` mode: a model, a thinking level and a yes/no option;
`options` says the session's values, `think_hard` changes one itself; it forks sessions with session/fork and
`forked` says which session a fork came from):

- the side panel: after the first turn, the agent's options are pickers above the input; a choice there reaches the
  agent (session/set_config_option) and its next turn says it; a value the agent changes itself moves the picker;
- a "+" Hermes Agent session forked with "Hermes: Fork Conversation": the fork is in the sessions list as "Fork of …"
  with the history, and its next turn runs in the new agent session the agent forked.

The tests run in order on one window.
"""
import pytest

from acp_agents import scripted_agent
from chat_view import (first_window, last_response, new_hermes_session, open_panel, open_session, send as send_in_chat,
                       send_in_panel, session_row, show_sessions)
from conftest import copy_of_fixture_workspace, running_code_server, scripted_agent_settings
from vscode_server import wait_until

TITLE = 'hello there fork'


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'acp-fork-ws')
    settings = scripted_agent_settings(scripted_agent(args=['config']))
    with running_code_server(tmp_path_factory, workspace, 'acp-fork', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'acp-fork') as bench:
        yield bench


def send(view, text):
    send_in_panel(view, text, until_idle=True)


def test_the_agents_options_are_pickers_in_the_panel_and_a_choice_reaches_it(window, artifacts):
    view = open_panel(window)
    wait_until(lambda: view.locator('#backend-select').input_value() == 'Scripted', 60, what='the scripted agent')
    send(view, 'hello')
    bar = view.locator('#agent-options')
    bar.wait_for(state='visible')
    assert bar.locator('label.model-label').all_inner_texts() == ['Mode', 'Model', 'Thinking']
    assert view.locator('#option-config_thought_level').input_value() == 'medium'
    view.locator('#option-config_thought_level').select_option('low')
    view.locator('#option-config_auto_approve').check()
    window.screenshot(artifacts / 'acp-options-panel.png')
    send(view, 'options')
    reply = view.locator('.message.assistant').last
    reply.get_by_text('config model=scripted-a thought_level=low auto_approve=true').wait_for()
    send(view, 'think_hard')  # the agent sets thought_level to high itself
    wait_until(lambda: view.locator('#option-config_thought_level').input_value() == 'high', 30,
               what='the picker to follow the agent')
    assert view.locator('#option-config_auto_approve').is_checked()
    window.screenshot(artifacts / 'acp-options-panel-agent-changed.png')


def test_fork_conversation_makes_a_session_with_the_history_that_goes_on_in_the_forked_agent_session(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send_in_chat(page, TITLE)
    last_response(page).get_by_text('you said: ' + TITLE).first.wait_for(state='visible', timeout=60000)
    window.run_command('Hermes: Fork Conversation')
    box = page.locator('.quick-input-widget input')
    box.wait_for(state='visible')
    box.fill(TITLE)
    page.locator('.quick-input-list .monaco-list-row', has_text=TITLE).first.wait_for(state='visible')
    page.keyboard.press('Enter')
    toast = page.locator('.notifications-toasts', has_text='Fork of ' + TITLE)
    toast.first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-fork-done.png')
    row = show_sessions(window, session_row(page, 'Fork of ' + TITLE))
    open_session(page, row, page.locator('.interactive-request', has_text=TITLE).last)
    send_in_chat(page, 'forked')
    answer = last_response(page).get_by_text('forked from sess-')
    answer.first.wait_for(state='visible', timeout=60000)
    said = answer.first.inner_text()
    assert said.split(' forked from ')[0] != said.split(' forked from ')[1]  # a new session, from the original's
    window.screenshot(artifacts / 'acp-fork-session.png')
