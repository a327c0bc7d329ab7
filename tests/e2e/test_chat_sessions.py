"""Hermes chat sessions in a real VS Code (code-server enables API proposals for every extension), with the
scripted OpenAI-compatible LLM server (tests/llm_server) as `hermes.llm.endpoint`:

the Chat view's "+" menu offers "New Hermes Agent Session"; a new session answers a question with a tool
call; the Agent Sessions list shows it with its title and status; a side panel conversation is listed too,
as needing input while a tool waits for the user's confirmation; after a window reload the list still has it, opening it shows its history, and a follow-up continues it
(the request the LLM gets carries the first turn, tool call included); "Mark as Done" archives a conversation
and "Delete Conversation" in the row's context menu removes one, in the store on disk too.

The tests in this module run in order on one window, each building on the one before.
"""
import json

import pytest

from chat_view import (RESPONSE, SESSION_ROW, new_hermes_session, open_plus_menu, open_session, reload_window, send,
                       session_row, show_sessions, wait_for_first_window)
from conftest import BUILTIN_MODEL, copy_of_fixture_workspace, open_window, running_code_server
from llm_server.scenarios import Reply, text_events, tool_events
from vscode_server import attempts, holds_within, wait_until

QUESTION = 'What does hello.py do?'
ANSWER = 'hello.py prints a greeting.'
PANEL_QUESTION = 'Hello from the side panel'


@pytest.fixture(scope='module')
def sessions_server(tmp_path_factory, llm):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'sessions-ws')
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': BUILTIN_MODEL, 'hermes.mcp.port': 0,
                'hermes.agent.backend': 'builtin'}  # the built-in loop, even where Hermes Agent is installed
    with running_code_server(tmp_path_factory, workspace, 'sessions', settings=settings) as server:
        yield server


@pytest.fixture(scope='module')
def window(browser, sessions_server):
    with open_window(browser, sessions_server, 'sessions') as bench:
        wait_for_first_window(sessions_server, bench)
        yield bench


def test_the_plus_menu_offers_hermes_agent(window, artifacts):
    page = window.page
    window.run_command('Notifications: Clear All Notifications')
    open_plus_menu(page)
    assert 'New Chat Window' in page.get_by_role('menu').first.inner_text()
    window.screenshot(artifacts / 'sessions-plus-menu.png')
    new_hermes_session(page)
    page.get_by_text('Ask Hermes: Hermes Agent itself answers').first.wait_for(state='visible')


def test_a_new_session_answers_with_a_tool_call(window, llm, artifacts):
    llm.script(Reply(tool_events([('call_read', 'file_read', {'path': 'hello.py'})], text_before='Let me read it.')),
           Reply(text_events(ANSWER, piece=4)))
    page = window.page
    send(page, QUESTION)
    page.locator(RESPONSE).last.get_by_text(ANSWER).first.wait_for(state='visible')
    requests = llm.chat_requests()
    first, second = requests[-2]['body']['messages'], requests[-1]['body']['messages']
    assert first[-1] == {'role': 'user', 'content': QUESTION}
    assert [m['role'] for m in second[-3:]] == ['user', 'assistant', 'tool']
    assert second[-2]['tool_calls'][0]['function']['name'] == 'file_read'
    assert 'print' in second[-1]['content']  # the tool really read hello.py
    assert page.locator('.part.auxiliarybar', has_text=QUESTION).count() > 0  # the session's title
    window.screenshot(artifacts / 'sessions-session.png')


def test_the_session_is_listed_with_its_title_and_status(window, artifacts):
    page = window.page
    row = show_sessions(window, session_row(page, QUESTION))
    wait_until(lambda: f'{QUESTION} (Completed)' in (row.get_attribute('aria-label') or ''), 15,
               what='the Completed status in the row')
    window.screenshot(artifacts / 'sessions-list.png')


def test_a_side_panel_conversation_is_listed(window, llm):
    llm.script(Reply(text_events('Hi from the panel.')))
    page = window.page
    window.run_command('Hermes: Open Chat Panel')
    view = page.frame_locator('iframe.webview').frame_locator('iframe#active-frame')
    prompt = view.locator('#prompt')
    prompt.wait_for(state='visible')
    prompt.click()
    prompt.fill(PANEL_QUESTION)
    prompt.press('Enter')
    view.locator('.message.assistant').last.get_by_text('Hi from the panel.').first.wait_for()
    show_sessions(window, session_row(page, PANEL_QUESTION))


def test_a_tool_waiting_for_confirmation_shows_needs_input(window, llm, sessions_server, artifacts):
    llm.script(Reply(tool_events([('call_create', 'file_create', {'path': 'from-panel.txt', 'content': 'hi'})])),
           Reply(text_events('The file is there now.')))
    page = window.page
    view = page.frame_locator('iframe.webview').frame_locator('iframe#active-frame')
    view.locator('#prompt').fill('Create from-panel.txt')
    view.locator('#prompt').press('Enter')
    dialog = page.locator('.monaco-dialog-box')
    dialog.wait_for(state='visible')  # the confirmation gate asks (hermes.tools.confirm: destructive)
    row = session_row(page, PANEL_QUESTION)
    wait_until(lambda: f'{PANEL_QUESTION} (Needs Input)' in (row.get_attribute('aria-label') or ''), 15,
               what='the Needs Input status in the row')
    window.screenshot(artifacts / 'sessions-needs-input.png')
    dialog.get_by_role('button', name='Allow', exact=True).click()
    view.locator('.message.assistant').last.get_by_text('The file is there now.').first.wait_for()
    wait_until(lambda: f'{PANEL_QUESTION} (Completed)' in (row.get_attribute('aria-label') or ''), 15,
               what='the Completed status in the row')


def test_after_a_reload_reopening_shows_the_history_and_a_follow_up_continues(window, llm, sessions_server,
                                                                              artifacts):
    page = window.page
    reload_window(window, sessions_server)
    row = show_sessions(window, session_row(page, QUESTION))
    session_row(page, PANEL_QUESTION).wait_for(state='visible')  # the list may fill row by row
    open_session(page, row, page.locator(RESPONSE).get_by_text(ANSWER).first)
    llm.script(Reply(text_events('You asked about hello.py.')))
    send(page, 'What did I ask before?')
    page.locator(RESPONSE).last.get_by_text('You asked about hello.py.').first.wait_for(state='visible')
    messages = [m for m in llm.chat_requests()[-1]['body']['messages'] if m['role'] != 'system']
    assert [m['role'] for m in messages] == ['user', 'assistant', 'tool', 'assistant', 'user']
    assert messages[0]['content'] == QUESTION and messages[3]['content'] == ANSWER
    assert messages[-1]['content'] == 'What did I ask before?'
    window.screenshot(artifacts / 'sessions-reopened.png')


def stored_conversations(server):
    [path] = server.user_data.glob('User/workspaceStorage/*/hermes-agent.hermes-agent/conversations.json')
    return {conversation['title']: conversation for conversation in json.loads(path.read_text())['conversations']}


def context_menu_action(page, row, name, done, before_click=None):
    """Run `name` from the row's context menu until `done()` (a click on a menu that is still settling
    can be lost: the menu then stays open)."""
    for _ in attempts():
        page.keyboard.press('Escape')
        row.click(button='right')
        item = page.get_by_role('menuitem', name=name).first
        if not holds_within(item.is_visible, 10):
            continue
        if before_click is not None:
            before_click()
        item.click()
        if holds_within(done, 10):
            return True
    raise AssertionError(f'"{name}" from the context menu never took effect')


def test_done_in_the_list_archives_and_delete_from_its_context_menu_removes(window, sessions_server, artifacts):
    page = window.page
    archived = lambda: stored_conversations(sessions_server)[PANEL_QUESTION]['archived'] is True
    row = session_row(page, PANEL_QUESTION)
    for _ in attempts():  # the row's inline ✓ is "Mark as Done", VS Code 1.139's archive
        row.hover()
        row.locator('a.codicon-check').first.click()
        if holds_within(archived, 10):
            break
    assert archived()
    context_menu_action(page, session_row(page, QUESTION), 'Delete Conversation',
                        lambda: QUESTION not in stored_conversations(sessions_server),
                        lambda: window.screenshot(artifacts / 'sessions-context-menu.png'))
    assert PANEL_QUESTION in stored_conversations(sessions_server)
    wait_until(lambda: page.locator(SESSION_ROW, has_text=QUESTION).count() == 0, 15,
               what='the row to leave the list')
