"""An ACP agent's slash commands in a real VS Code (code-server), with our scripted agent (tests/acp_agent/agent.py,
in `hermes.acp.agents`): it sends `available_commands_update` (/help, /model ‹model name›, /tools) right after
`session/new`, as Hermes Agent 0.19.0 does, and answers a prompt "/NAME input" with "ran /NAME with "input"".

- the side panel: after the agent's first turn, "/" in the input lists its commands with their descriptions,
  filtered as the name is typed; arrow keys move, Enter puts "/name " into the input, Escape closes the list; the
  command then sent reaches the agent as typed;
- the "+" Hermes Agent session: "/" in its input offers the agent's commands in VS Code's own completion
  (chatSessionCustomizationProvider, ui/chat/session_commands.py) beside the session's own, filtered as typed; the picked
  `/model scripted-b`, a command typed whole and one our session contributes (`/help`) all reach the agent as the
  prompt's text. (Where VS Code cannot list them, the chat says them once instead: tests/node/acp_sessions.test.js.)

The agent runs in its `config` mode (ACP config options: a model, a thinking level, a boolean): they are pickers
under the session's input, and one chosen there reaches the agent's next turn; the panel's header says the context
used and what the session cost.

The tests run in order on one window.
"""
import pytest

from acp_agents import scripted_agent
from chat_view import (first_window, INPUT, RESPONSE, last_response, new_hermes_session, open_panel, send,
                       wait_idle)
from conftest import copy_of_fixture_workspace, running_code_server, scripted_agent_settings
from vscode_server import wait_until

SUGGEST_ROWS = '.suggest-widget.visible .monaco-list-row'


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'acp-commands-ws')
    settings = scripted_agent_settings(scripted_agent(args=['config']))
    with running_code_server(tmp_path_factory, workspace, 'acp-commands', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'acp-commands') as bench:
        yield bench


def rows(view):
    return view.locator('#command-list .command-row')


def test_slash_in_the_panel_lists_the_agents_commands_to_pick_with_the_keyboard(window, artifacts):
    view = open_panel(window)
    prompt = view.locator('#prompt')
    wait_until(lambda: view.locator('#backend-select').input_value() == 'Scripted', 60, what='the Agent choice')
    prompt.click()
    prompt.fill('hello there')
    prompt.press('Enter')
    view.locator('.message.assistant').last.get_by_text('you said: hello there').wait_for()
    wait_idle(view)
    assert view.locator('.message.assistant').last.locator('.markdown').all_inner_texts() == [
        'Hello', ', you said: hello there']  # the panel's reply has no hint: its "/" lists them
    assert 'for commands' in prompt.get_attribute('placeholder')
    assert view.locator('#usage').inner_text() == '1% of context · $0.01'  # the agent's usage_update, with its cost
    # the status bar's total of what agent sessions cost today (this one: the agent's $0.0123, in cents)
    today = window.page.locator('.statusbar-item', has_text='today')
    today.first.wait_for(state='visible')
    assert '$0.01 today' in today.first.inner_text()
    window.screenshot(artifacts / 'acp-cost-today.png')

    prompt.click()
    prompt.press('/')
    view.locator('#command-list').wait_for(state='visible')
    assert rows(view).locator('.command-name').all_inner_texts() == ['/help', '/model', '/tools']
    assert rows(view).nth(1).locator('.command-description').inner_text() == 'Show or switch the model'
    assert rows(view).nth(1).locator('.command-hint').inner_text() == 'model name'
    assert prompt.get_attribute('aria-expanded') == 'true'
    assert prompt.get_attribute('aria-activedescendant') == 'command-0'
    prompt.press('ArrowDown')
    assert rows(view).nth(1).get_attribute('aria-selected') == 'true'
    assert prompt.get_attribute('aria-activedescendant') == 'command-1'
    window.screenshot(artifacts / 'panel-slash-commands.png')
    prompt.press('ArrowUp')
    prompt.press('ArrowUp')  # wraps to the last
    assert rows(view).nth(2).get_attribute('aria-selected') == 'true'

    prompt.press('Escape')  # closes the list, keeps the text, and does not stop anything
    view.locator('#command-list').wait_for(state='hidden')
    assert prompt.input_value() == '/' and prompt.get_attribute('aria-expanded') == 'false'

    prompt.type('mo')  # filtered as the name is typed
    view.locator('#command-list').wait_for(state='visible')
    assert rows(view).locator('.command-name').all_inner_texts() == ['/model']
    prompt.press('Enter')  # picks: "/model " in the input, nothing sent yet
    view.locator('#command-list').wait_for(state='hidden')
    assert prompt.input_value() == '/model '
    assert view.locator('.message.assistant').count() == 1
    prompt.type('scripted-b')
    prompt.press('Enter')
    view.locator('.message.assistant').last.get_by_text('ran /model with "scripted-b"').wait_for()
    wait_idle(view)

    prompt.type('/zzz')  # nothing fits: no list
    assert not view.locator('#command-list').is_visible()
    prompt.fill('')


def suggestions(page):
    """The rows of the "/" completion under the session's input, each as its label and description."""
    return [text.replace('\n', ' ') for text in page.locator(SUGGEST_ROWS).all_inner_texts()]


def test_slash_in_a_session_offers_the_agents_commands_and_sends_them_as_text(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send(page, 'hello there')
    first = last_response(page)
    first.get_by_text('you said: hello there').first.wait_for(state='visible')
    assert 'type one as your message' not in first.inner_text()  # VS Code offers them: the chat need not say them

    box = page.locator(INPUT).last
    box.click()
    page.keyboard.type('/')
    wait_until(lambda: '/model Show or switch the model ‹model name›' in suggestions(page), 60,
               what='the agent\'s commands in the "/" completion')
    offered = suggestions(page)
    assert '/tools List the tools' in offered
    assert len([row for row in offered if row.startswith('/help')]) == 1  # the session's own /help, not twice
    window.screenshot(artifacts / 'session-slash-commands.png')
    page.keyboard.type('mo')
    wait_until(lambda: suggestions(page)[:1] == ['/model Show or switch the model ‹model name›'], 30,
               what='the list filtered to /model')
    responses = page.locator(RESPONSE).count()
    page.keyboard.press('Tab')  # takes "/model " into the input
    page.keyboard.type('scripted-b')
    page.keyboard.press('Enter')
    wait_until(lambda: page.locator(RESPONSE).count() == responses + 1, 60, what='the second response')
    last_response(page).get_by_text('ran /model with "scripted-b"').wait_for(state='visible')

    send(page, '/tools  as typed')  # typed whole, without the completion: the prompt's text exactly
    wait_until(lambda: page.locator(RESPONSE).count() == responses + 2, 60, what='the third response')
    last_response(page).get_by_text('ran /tools with " as typed"').wait_for(state='visible')
    send(page, '/help me')  # a command the session contributes: VS Code hands it over as request.command
    wait_until(lambda: page.locator(RESPONSE).count() == responses + 3, 60, what='the fourth response')
    last_response(page).get_by_text('ran /help with "me"').wait_for(state='visible')


PICKER = '.interactive-input-part a.chat-session-option-picker'


def test_the_agents_config_options_are_pickers_and_a_choice_reaches_its_next_turn(window, artifacts):
    page = window.page
    thinking = page.locator(PICKER, has_text='Medium').first
    thinking.wait_for(state='visible')  # the session of the test before: its agent reported its options
    assert page.locator(PICKER, has_text='Scripted A').count() == 1  # the config option of category model…
    assert page.locator(PICKER, has_text='Ask').count() == 1  # … beside the deprecated modes (no config mode)
    thinking.click()
    page.locator('.action-widget .monaco-list-row', has_text='High').first.click()
    page.locator(PICKER, has_text='High').first.wait_for(state='visible')
    window.screenshot(artifacts / 'session-config-options.png')
    assert page.locator(PICKER, has_text='Approve edits by itself: Off').count() == 1  # a boolean says what it is
    send(page, 'options')
    last_response(page).get_by_text('thought_level=high').wait_for(state='visible')
