"""Hermes Agent itself (PyPI `hermes-agent[acp,mcp]==0.19.0`, installed by `inv setup` into its own folder) in
VS Code's native chat session, in code-server, against the scripted OpenAI-compatible model (tests/llm_server):

"+" → New Hermes Agent Session runs `hermes acp` (found through `hermes.acp.hermesPath`); a question whose answer
only this window's `mcp__vscode__file_read` can give (the MCP server handed to Hermes in session/new); a permission
prompt answered in the UI (an edit allowed: the file is written; a dangerous command denied: nothing ran); Stop in
the middle of a turn; after a reload the Hermes session is listed, reopens with its history, and a follow-up continues
the same Hermes session (Hermes sends the earlier turn to the model); a second model picked under the input answers
the next turn, which still has this window's tools; `/explain` (the session's command, not Hermes') sends Hermes the
task it stands for; and a Hermes without a model provider gives
the setup message with its button, not a JSON-RPC dump.

The tests run in order on one window, each building on the one before.
"""
import json
import secrets
from pathlib import Path

import pytest

from chat_view import (QUESTION_BOX, RESPONSE, SESSION_ROW, answer, last_response, new_hermes_session, open_session,
                       permission_question, reload_window, send, show_sessions, wait_for_first_window)
from conftest import copy_of_fixture_workspace, open_window, running_code_server
from acp_agents import MODEL, hermes_home_in, hermes_program, write_hermes_config
from hermes_acp import HermesAcp
from vscode_server import attempts, holds_within, wait_until

ROOT = Path(__file__).resolve().parents[2]

from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

QUESTION = 'What is the launch code in notes/proof.txt?'
ANSWER = 'Hermes read the launch code through VS Code.'
TITLE = 'Launch code lookup'
OTHER_MODEL = 'other-model'  # the scripted server's second model, which Hermes offers beside its default


def artifacts_dir():
    return ROOT / 'tests' / 'artifacts'


@pytest.fixture(scope='module')
def llm():
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello.'))], 'models': [MODEL, OTHER_MODEL],
                                'title': TITLE,
                                'model_fields': {'max_model_len': 131072}}).start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def proof():
    return 'The launch code is ' + secrets.token_hex(8) + '.'


@pytest.fixture(scope='module')
def hermes_workspace(tmp_path_factory, proof):
    workspace = copy_of_fixture_workspace(tmp_path_factory, 'hermes-ws')
    (workspace / 'notes').mkdir(exist_ok=True)
    (workspace / 'notes' / 'proof.txt').write_text(proof + '\n')
    (workspace / 'important').mkdir()
    (workspace / 'important' / 'keep.txt').write_text('do not delete\n')
    return workspace


@pytest.fixture(scope='module')
def hermes_server(tmp_path_factory, llm, hermes_workspace):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': MODEL, 'hermes.mcp.port': 0,
                'hermes.acp.hermesPath': str(hermes_program(required=True))}
    with running_code_server(tmp_path_factory, hermes_workspace, 'hermes', settings=settings) as server:
        write_hermes_config(hermes_home_in(server.user_home), llm.endpoint)
        yield server


@pytest.fixture(scope='module')
def window(browser, hermes_server):
    with open_window(browser, hermes_server, 'hermes') as bench:
        wait_for_first_window(hermes_server, bench)
        yield bench


# VS Code 1.139 asks a turn's question above the chat input; once answered it turns into a summary ("used").
def chat_bodies(llm):
    return [request['body'] for request in llm.chat_requests() if request['body'].get('stream') is True]


def test_a_new_hermes_session_answers_through_this_windows_mcp_tools(window, llm, proof, hermes_server, artifacts):
    llm.script(Reply(tool_events([('call_plan', 'todo', {'todos': [
                   {'id': '1', 'content': 'Read notes/proof.txt through VS Code', 'status': 'in_progress'},
                   {'id': '2', 'content': 'Answer with the launch code', 'status': 'pending'}]})])),
               Reply(tool_events([('call_read', 'mcp__vscode__file_read', {'path': 'notes/proof.txt'})],
                                 text_before='Let me read it.')),
               Reply(text_events(ANSWER, piece=4), delay_ms=400))  # slow enough to look at the turn mid-way
    page = window.page
    window.run_command('Notifications: Clear All Notifications')
    new_hermes_session(page)
    page.get_by_text('Ask Hermes').first.wait_for(state='visible')
    send(page, QUESTION)
    last_response(page).get_by_text('Hermes read').first.wait_for(state='visible', timeout=120000)
    window.screenshot(artifacts / 'hermes-session-mid-turn.png')
    last_response(page).get_by_text(ANSWER).first.wait_for(state='visible', timeout=120000)
    bodies = chat_bodies(llm)
    tool_names = [tool['function']['name'] for tool in bodies[0].get('tools', [])]
    assert 'mcp__vscode__file_read' in tool_names  # our server reached Hermes through session/new
    tool_results = [m for m in bodies[-1]['messages'] if m['role'] == 'tool']
    assert any(proof in json.dumps(m['content']) for m in tool_results)  # read through our MCP server
    # the plan is VS Code's to-do list (above the input), the tool calls are steps that ended
    page.get_by_text('Read notes/proof.txt through VS Code').first.wait_for(state='visible')
    steps = last_response(page).get_by_text('Completed 4 steps').first
    steps.click()
    last_response(page).get_by_text('mcp__vscode__file_read').first.wait_for(state='visible')
    assert 'todo (2 items)' in last_response(page).inner_text()  # Hermes' own todo tool, ended
    window.screenshot(artifacts / 'hermes-session-turn.png')
    hermes_server.wait_for_log(r'ACP: Hermes Agent started')


def test_an_edit_is_allowed_and_a_dangerous_command_is_denied_in_the_chat(window, llm, hermes_workspace,
                                                                         hermes_server, artifacts):
    llm.script(Reply(tool_events([('call_write', 'write_file', {'path': 'created.txt', 'content': 'made by hermes'})])),
               Reply(text_events('Written.')))
    page = window.page
    send(page, 'Create created.txt')
    box = permission_question(page, 'Approve edit: created.txt')
    assert page.locator('.monaco-dialog-box').count() == 0  # asked in the chat, not in a dialog
    last_response(page).get_by_role('button', name='Show Changes').first.wait_for(state='visible')
    window.screenshot(artifacts / 'hermes-permission.png')
    answer(page, 'Allow edit')
    last_response(page).get_by_text('Written.').first.wait_for(state='visible')
    assert (hermes_workspace / 'created.txt').read_text() == 'made by hermes'

    llm.script(Reply(tool_events([('call_rm', 'terminal', {'command': 'rm -rf important'})])),
               Reply(text_events('I did not delete it.')))
    send(page, 'Delete the important folder')
    box = permission_question(page, 'rm -rf important')
    options = [text.strip() for text in box.locator('.chat-question-list-label').all_inner_texts()]
    # every option Hermes offers; VS Code puts the default (ours: deny once) first and preselects it
    assert options == ['Deny', 'Allow once', 'Allow for session', 'Allow always', 'Deny always']
    assert 'Deny' in box.locator('.chat-question-list-item.selected').first.inner_text()
    window.screenshot(artifacts / 'hermes-permission-command.png')
    answer(page, 'Deny')
    last_response(page).get_by_text('I did not delete it.').first.wait_for(state='visible')
    assert (hermes_workspace / 'important' / 'keep.txt').exists()  # nothing ran
    hermes_server.wait_for_log(r'ACP: Hermes Agent started')


def test_the_mode_chosen_in_the_input_area_reaches_hermes(window, llm, hermes_workspace, artifacts):
    """Hermes' modes and models (from its session/new answer) are pickers under the input; Accept Edits makes
    Hermes write without asking (session/set_mode reached it)."""
    page = window.page
    mode = page.locator('.interactive-input-part a.chat-session-option-picker', has_text='Default').first
    mode.wait_for(state='visible')
    assert page.locator('.interactive-input-part a.chat-session-option-picker', has_text=MODEL).count() == 1
    mode.click()
    page.locator('.action-widget .monaco-list-row', has_text='Accept Edits').first.click()
    page.locator('.interactive-input-part a.chat-session-option-picker', has_text='Accept Edits').first.wait_for(
        state='visible')
    window.screenshot(artifacts / 'hermes-session-mode-picker.png')
    llm.script(Reply(tool_events([('call_write2', 'write_file', {'path': 'accepted.txt', 'content': 'no question'})])),
               Reply(text_events('Written without asking.')))
    send(page, 'Create accepted.txt')
    last_response(page).get_by_text('Written without asking.').first.wait_for(state='visible')
    assert (hermes_workspace / 'accepted.txt').read_text() == 'no question'
    assert page.locator(QUESTION_BOX).count() == 0


def test_a_model_picked_in_the_input_area_answers_and_keeps_this_windows_tools(window, llm, proof, artifacts):
    """Hermes 0.19.0 rebuilds its agent on session/set_model without the MCP servers a client handed it; the session
    hands them again, so the picked model's turn still reads through this window's file_read."""
    page = window.page
    picker = page.locator('.interactive-input-part a.chat-session-option-picker', has_text=MODEL).first
    picker.wait_for(state='visible')
    picker.click()
    page.locator('.action-widget .monaco-list-row', has_text=OTHER_MODEL).first.click()
    page.locator('.interactive-input-part a.chat-session-option-picker', has_text=OTHER_MODEL).first.wait_for(
        state='visible')
    window.screenshot(artifacts / 'hermes-session-model-picker.png')
    before = len(chat_bodies(llm))
    llm.script(Reply(tool_events([('call_read2', 'mcp__vscode__file_read', {'path': 'notes/proof.txt'})])),
               Reply(text_events('Read again with the other model.')))
    send(page, 'Read notes/proof.txt again')
    last_response(page).get_by_text('Read again with the other model.').first.wait_for(state='visible',
                                                                                      timeout=120000)
    bodies = chat_bodies(llm)[before:]
    assert [body['model'] for body in bodies] == [OTHER_MODEL, OTHER_MODEL]  # the pick reached Hermes
    assert 'mcp__vscode__file_read' in [tool['function']['name'] for tool in bodies[0].get('tools', [])]
    tool_results = [m for m in bodies[-1]['messages'] if m['role'] == 'tool']
    assert proof in json.dumps(tool_results[-1]['content'])  # read through this window's server after the change


def test_explain_sends_hermes_the_task_it_stands_for(window, llm):
    """/explain, /fix and /test are the session's commands, not Hermes' (it would not know '/explain'): Hermes gets
    the task, about the attached files, else the editor's selection, else its file, and what was typed after it."""
    page = window.page
    before = len(chat_bodies(llm))
    llm.script(Reply(text_events('It opens the vault.')))
    send(page, '/explain what the launch code is for')
    last_response(page).get_by_text('It opens the vault.').first.wait_for(state='visible', timeout=120000)
    asked = [json.dumps([m['content'] for m in body['messages'] if m['role'] == 'user'][-1])
             for body in chat_bodies(llm)[before:]]
    assert any('Explain the code in question' in text and 'the text selected in the VS Code editor' in text and
               'what the launch code is for' in text for text in asked), asked
    assert not any('/explain' in text for text in asked), asked


def stored_messages(server):
    [path] = server.user_data.glob('User/workspaceStorage/*/hermes-agent.hermes-agent/conversations.json')
    [conversation] = [c for c in json.loads(path.read_text())['conversations'] if c['acp']]
    return conversation['messages']


def last_reply(server):
    return stored_messages(server)[-1]


def test_stop_ends_a_turn_in_the_middle(window, llm, hermes_server):
    llm.script(Reply(text_events('This answer streams slowly and will be stopped before its end. ' * 4, piece=3),
                     delay_ms=150))
    page = window.page
    send(page, 'Tell me a long story')
    last_response(page).get_by_text('This answer').first.wait_for(state='visible')
    page.keyboard.press('Escape')
    stop = page.locator('.interactive-input-part a.codicon-stop-circle, .interactive-input-part .codicon-debug-stop')
    stop.first.click()
    wait_until(lambda: stop.count() == 0, 30, what='the turn to end (no Stop button)')
    assert 'before its end. ' * 4 not in last_response(page).inner_text()
    wait_until(lambda: last_reply(hermes_server)['status'] == 'stopped', 30, what='the stopped reply in the store')


def test_after_a_reload_the_hermes_session_is_listed_reopens_and_continues(window, llm, hermes_server, artifacts):
    page = window.page
    reload_window(window, hermes_server)
    row = page.locator(SESSION_ROW, has_text=TITLE).first  # the title Hermes gave it
    show_sessions(window, row)
    window.screenshot(artifacts / 'hermes-session-list.png')
    # The session's latest request shows once it is open: the chat list renders only the turns in view (it is
    # virtualised), and after the earlier tests of this module the first answer is scrolled far out of it.
    [latest] = [m['text'] for m in stored_messages(hermes_server) if m['role'] == 'user'][-1:]
    open_session(page, row, page.locator('.interactive-request', has_text=latest).last)
    before = len(chat_bodies(llm))
    llm.script(Reply(text_events('You asked for the launch code.')))
    send(page, 'What did I ask first?')
    last_response(page).get_by_text('You asked for the launch code.').first.wait_for(state='visible', timeout=120000)
    follow_up = chat_bodies(llm)[before]
    users = [m['content'] for m in follow_up['messages'] if m['role'] == 'user']
    assert any(QUESTION in json.dumps(content) for content in users)  # the same Hermes session, loaded
    offered = [tool['function']['name'] for tool in follow_up.get('tools', [])]
    assert 'mcp__vscode__file_read' in offered  # the next turn still has this window's tools (the new host's server)
    hermes_server.wait_for_log(r'ACP: Hermes Agent started')


OUTSIDE_PROMPT = 'Hello from elsewhere'


def hermes_session_outside_vscode(home, workspace, prompt):
    """A Hermes ACP session made the way another ACP client (Zed, say) makes one: session/new in this workspace and
    one prompt, over `hermes acp`'s stdio, with code-server's HOME (the same ~/.hermes)."""
    hermes = HermesAcp(hermes_program(required=True), home, workspace)
    try:
        hermes.call('initialize', {'protocolVersion': 1, 'clientCapabilities': {}})
        session = hermes.call('session/new', {'cwd': str(workspace), 'mcpServers': []})['sessionId']
        hermes.prompt(session, prompt)
        wait_until(lambda: hermes.call('session/list', {'cwd': str(workspace)})['sessions'][0].get('title'), 60,
                   what='the session to get its title')
        return session
    finally:
        hermes.close()


def test_a_hermes_session_from_another_client_is_listed_and_replays(window, llm, hermes_server, hermes_workspace):
    llm.script(Reply(text_events('Answered outside VS Code.')))
    hermes_session_outside_vscode(hermes_server.user_home, hermes_workspace, OUTSIDE_PROMPT)
    page = window.page
    row = page.locator(SESSION_ROW, has_text=OUTSIDE_PROMPT).first  # Hermes titles it by its first prompt
    show_sessions(window)
    for _ in attempts():  # the sessions view's Refresh asks the controller, which lists Hermes' own sessions
        page.keyboard.press('Escape')
        page.locator('a.action-label.codicon-refresh:visible').first.click()
        if holds_within(row.is_visible, 20):
            break
    row.wait_for(state='visible')
    window.screenshot(artifacts_dir() / 'hermes-session-list-outside.png')
    row.click()
    page.locator(RESPONSE).get_by_text('Answered outside VS Code.').first.wait_for(state='visible')
    assert page.locator('.interactive-request', has_text=OUTSIDE_PROMPT).count() > 0  # the replayed prompt


def test_without_a_provider_hermes_says_how_to_set_it_up(window, hermes_server):
    write_hermes_config(hermes_home_in(hermes_server.user_home), None)
    page = window.page
    reload_window(window, hermes_server)  # a new extension host: a new Hermes process reads the config again
    window.run_command('Chat: New Hermes Agent Session')  # (opens in an editor)
    editor = page.locator('.part.editor')
    editor.get_by_text('Ask Hermes').first.wait_for(state='visible')
    send(page, 'Hello?', scope=editor)
    response = editor.locator(RESPONSE).last
    response.get_by_text('has no model provider configured yet').first.wait_for(state='visible')
    assert '-32603' not in response.inner_text()
    response.get_by_role('button', name='Set up Hermes Agent').first.wait_for(state='visible')
