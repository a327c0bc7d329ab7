"""What an ACP agent's turns use and cost, and images sent to it, in a real VS Code (code-server), with our scripted
agent (tests/acp_agent/agent.py run with --rich: it reads images and embedded files; `costly` grows the session's cost
by $0.25 and answers with 1,234 tokens; `blocks` says the content blocks its prompt carried):

- the side panel: a line under each turn says its tokens and what it cost; the header says the session's cost;
- the side panel: an image picked with the attach button shows as a chip, goes with the next message as an `image`
  block, and the chip is gone after the send;
- a "+" Hermes Agent session: the same line under its turn, and the session item's tooltip sums the session;
- a "+" Hermes Agent session: an image attached in VS Code's own chat (Add Context, then an image file of the
  workspace found by the picker's search: VS Code attaches it as image data, since Hermes' model says it reads
  images) reaches the agent as an `image` block.

The tests run in order on one window.
"""
import base64

import pytest

from acp_agents import scripted_agent
from chat_view import first_window, last_response, new_hermes_session, open_panel, send as send_in_chat, send_in_panel
from conftest import copy_of_fixture_workspace, running_code_server, scripted_agent_settings
from vscode_server import wait_until

TURN = 'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking) · $0.25'
# a 1×1 PNG
PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'acp-usage-ws')
    (workspace / 'dot.png').write_bytes(PNG)
    settings = scripted_agent_settings(scripted_agent(args=['--rich']))
    with running_code_server(tmp_path_factory, workspace, 'acp-usage', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'acp-usage') as bench:
        yield bench


def send(view, text):
    send_in_panel(view, text, until_idle=True)


def test_each_turn_in_the_panel_says_what_it_used_and_cost(window, artifacts):
    view = open_panel(window)
    wait_until(lambda: view.locator('#backend-select').input_value() == 'Scripted', 60, what='the scripted agent')
    send(view, 'costly')
    send(view, 'costly')
    replies = view.locator('.message.assistant')
    wait_until(lambda: replies.locator('.turn-usage').count() == 2, 30, what='the usage lines')
    assert replies.locator('.turn-usage').all_inner_texts() == [TURN, TURN]
    assert view.locator('#usage').inner_text() == '27% of context · $0.50'  # the header: the session's cost
    window.screenshot(artifacts / 'acp-usage-panel.png')


def test_an_image_attached_in_the_panel_reaches_the_agent_as_an_image_block(window, artifacts, tmp_path):
    view = open_panel(window)
    image = tmp_path / 'dot.png'
    image.write_bytes(PNG)
    view.locator('#attach-image').wait_for(state='visible')  # (an ACP agent answers: images can go)
    view.locator('#image-picker').set_input_files(str(image))
    chip = view.locator('#attachments .attachment')
    chip.wait_for(state='visible')
    assert chip.inner_text().strip() == 'dot.png'
    window.screenshot(artifacts / 'acp-image-attached-panel.png')
    send(view, 'blocks')
    reply = view.locator('.message.assistant').last
    expected = 'blocks: text(6 chars) image(image/png, ' + str(len(base64.b64encode(PNG))) + ' base64 chars)'
    reply.get_by_text(expected).wait_for()
    assert view.locator('#attachments .attachment').count() == 0
    window.screenshot(artifacts / 'acp-image-sent-panel.png')


def test_a_session_turn_says_what_it_used_and_cost_and_its_item_sums_the_session(window, artifacts):
    page = window.page
    new_hermes_session(page)
    send_in_chat(page, 'costly')
    last_response(page).get_by_text(TURN).first.wait_for(state='visible', timeout=60000)
    window.screenshot(artifacts / 'acp-usage-session.png')


def test_an_image_attached_in_a_sessions_chat_reaches_the_agent_as_an_image_block(window, artifacts):
    page = window.page
    new_hermes_session(page)
    page.locator('.interactive-input-part a.action-label[aria-label^="Add Context"]').last.click()
    page.locator('.quick-input-widget .monaco-list-row', has_text='Files & Folders').first.wait_for(state='visible')
    page.keyboard.type('dot.png')  # the picker's own file search: an image file comes as image data
    page.locator('.quick-input-widget .monaco-list-row', has_text='dot.png').first.wait_for(state='visible')
    page.keyboard.press('Enter')
    chip = page.locator('.interactive-input-part .chat-attached-context-attachment', has_text='dot.png').last
    chip.wait_for(state='visible')
    window.screenshot(artifacts / 'acp-image-attached-session.png')
    send_in_chat(page, 'blocks')
    said = 'blocks: text(6 chars) image(image/png, ' + str(len(base64.b64encode(PNG))) + ' base64 chars, file://'
    last_response(page).get_by_text(said).first.wait_for(state='visible', timeout=60000)
    assert last_response(page).get_by_text('/dot.png)').count() >= 1  # its file, as the block's uri
    window.screenshot(artifacts / 'acp-image-sent-session.png')
