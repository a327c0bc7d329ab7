"""What Hermes Agent's main branch does after 0.19.0, emulated by the scripted agent, in a real VS Code (code-server):

- subagents (its acp_adapter/subagents.py; the scripted `subagents`: a `delegate_task` call, two children, a
  grandchild): in a "+" Hermes Agent session the delegating call is VS Code's subagent part and the children's tool
  invocations are grouped under it; in the side panel the children are lines nested under the delegating call's
  card, the grandchild under its parent;
- background work (its acp_adapter/background.py; the scripted `background`): the `_hermes/notification` that
  arrives after the turn is a message whose "Ask Hermes Agent" puts the prompt Hermes' CLI would send into the chat
  input, unsent;
- observe mode (its acp_adapter/plan_gate.py; the scripted agent started `plan_modes`): chosen in the panel's Mode
  picker, the agent's edit reaches the review as a pending change without a question, and the file is listed in the
  Changes view.

The tests run in order on one window.
"""
import pytest

from acp_agents import scripted_agent
from chat_view import (INPUT, STEPS, first_window, last_response, new_hermes_session, open_panel, send as send_in_chat,
                       send_in_panel)
from conftest import copy_of_fixture_workspace, running_code_server, scripted_agent_settings
from vscode_server import wait_until


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    return copy_of_fixture_workspace(tmp_path_factory, 'acp-hermes-main-ws')


@pytest.fixture(scope='module')
def server(tmp_path_factory, workspace):
    settings = scripted_agent_settings(scripted_agent(), scripted_agent('Hermes main', args=['plan_modes']))
    with running_code_server(tmp_path_factory, workspace, 'acp-hermes-main', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'acp-hermes-main') as bench:
        yield bench


def test_a_sessions_subagents_are_grouped_under_the_call_that_delegated_them(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send_in_chat(page, 'subagents')
    response = last_response(page)
    response.get_by_text('delegated').first.wait_for(state='visible', timeout=60000)
    steps = response.get_by_text(STEPS).first
    if steps.is_visible():
        steps.click()
    response.get_by_text('delegate batch (2 tasks)').first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-subagents-session-collapsed.png')
    response.get_by_text('delegate batch (2 tasks)').first.click()  # expand the subagent part
    for title in ['Review docs', 'Check tests', 'Summarize notes']:
        response.get_by_text(title).first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-subagents-session.png')


def test_a_background_notification_offers_its_prompt_and_ask_puts_it_into_the_chat_input(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send_in_chat(page, 'background')
    last_response(page).get_by_text('started it').first.wait_for(state='visible', timeout=60000)
    toast = page.locator('.notification-toast', has_text='Hermes Agent: Background process proc_1 finished').first
    toast.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-background-notification.png')
    toast.get_by_role('button', name='Ask Hermes Agent').click()
    chat_input = page.locator(INPUT).last
    # (Monaco draws spaces as no-break spaces, and wraps the line)
    wait_until(lambda: ' '.join(chat_input.inner_text().replace('\xa0', ' ').split()) ==
               '[Background process proc_1 exited with code 0]', 30,
               what='the prompt in the chat input')
    assert last_response(page).get_by_text('started it').count() == 1  # put there, not sent
    window.screenshot(artifacts / 'acp-background-prompt-in-input.png')


def test_the_panels_subagents_are_lines_nested_under_the_delegating_card(window, artifacts):
    view = open_panel(window)
    wait_until(lambda: view.locator('#backend-select').input_value() == 'Scripted', 60, what='the scripted agent')
    send_in_panel(view, 'subagents', until_idle=True)
    reply = view.locator('.message.assistant').last
    parent = reply.locator('.agent-tool[data-tool-id="tc-delegate1"]')
    parent.wait_for(state='visible')
    children = parent.locator(':scope > .tool-children > .subagent-card')
    wait_until(lambda: children.count() == 2, 30, what='the two children under the delegating card')
    assert children.locator(':scope > .tool-header .tool-name').all_inner_texts() == ['Review docs', 'Check tests']
    grandchild = children.first.locator(':scope > .tool-children > .subagent-card .tool-name')
    assert grandchild.all_inner_texts() == ['Summarize notes']
    assert children.nth(1).get_attribute('data-status') == 'error'
    page = window.page
    sash = page.locator('.part.sidebar').bounding_box()  # a wider side bar, so the nested cards read as lines
    page.mouse.move(sash['x'] + sash['width'] + 1, sash['y'] + 300)
    page.mouse.down()
    page.mouse.move(sash['x'] + 620, sash['y'] + 300, steps=8)
    page.mouse.up()
    parent.evaluate('card => card.scrollIntoView({block: "start"})')
    window.screenshot(artifacts / 'acp-subagents-panel.png')


CHANGES_VIEW = '.pane:has(.pane-header[aria-label^="Changes"])'


def test_in_observe_mode_the_agents_edit_lands_in_the_review_without_a_question(window, workspace, artifacts):
    view = open_panel(window)
    view.locator('#new-chat').click()  # the panel's conversation keeps its agent: a new one may choose another
    view.locator('#backend-select').select_option('Hermes main')
    send_in_panel(view, 'options', until_idle=True)  # the session: its modes are the Mode picker
    mode = view.locator('#option-mode')
    mode.wait_for(state='visible')
    assert mode.locator('option').all_inner_texts() == ['Ask', 'Plan', 'Observe']
    mode.select_option('observe')
    send_in_panel(view, 'propose hello.py print("observed")', until_idle=True)
    reply = view.locator('.message.assistant').last
    reply.get_by_text('propose: {}').wait_for()
    assert window.page.locator('.monaco-dialog-box').count() == 0  # nobody was asked
    wait_until(lambda: (workspace / 'hello.py').read_text() == 'print("observed")\n', 20, what='the edit')
    changes = window.page.locator(CHANGES_VIEW).first
    changes.locator('.monaco-list-row', has_text='hello.py').first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-observe-review.png')
