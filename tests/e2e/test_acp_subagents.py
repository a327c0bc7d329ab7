"""Hermes Agent's subagents (its main branch's acp_adapter/subagents.py, emulated by the scripted agent's
`subagents` script: a `delegate_task` call, two children, a grandchild) in a real VS Code (code-server):

- a "+" Hermes Agent session: the delegating call is VS Code's subagent part and the children's tool invocations are
  grouped under it (expanded: their titles inside it);
- the side panel: the children are lines nested under the delegating call's card, the grandchild under its parent.

The tests run in order on one window.
"""
import pytest

from acp_agents import scripted_agent
from chat_view import last_response, new_hermes_session, open_panel, send as send_in_chat, send_in_panel, \
    wait_for_first_window
from conftest import copy_of_fixture_workspace, open_window, running_code_server
from vscode_server import wait_until


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'acp-subagents-ws')
    settings = {'hermes.mcp.port': 0, 'hermes.acp.agents': [scripted_agent()], 'hermes.agent.backend': 'Scripted',
                'workbench.colorTheme': 'Default Dark Modern'}
    with running_code_server(tmp_path_factory, workspace, 'acp-subagents', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with open_window(browser, server, 'acp-subagents') as bench:
        wait_for_first_window(server, bench)
        yield bench


def test_a_sessions_subagents_are_grouped_under_the_call_that_delegated_them(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send_in_chat(page, 'subagents')
    response = last_response(page)
    response.get_by_text('delegated').first.wait_for(state='visible', timeout=60000)
    steps = response.get_by_text('Completed', exact=False).first  # VS Code folds a turn's tool calls into steps
    if steps.is_visible():
        steps.click()
    response.get_by_text('delegate batch (2 tasks)').first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-subagents-session-collapsed.png')
    response.get_by_text('delegate batch (2 tasks)').first.click()  # expand the subagent part
    for title in ['Review docs', 'Check tests', 'Summarize notes']:
        response.get_by_text(title).first.wait_for(state='visible', timeout=30000)
    window.screenshot(artifacts / 'acp-subagents-session.png')


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
    parent.scroll_into_view_if_needed()
    window.screenshot(artifacts / 'acp-subagents-panel.png')
    parent.screenshot(path=str(artifacts / 'acp-subagents-panel-card.png'))
