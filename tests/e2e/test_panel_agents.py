"""The side panel answered by Hermes Agent itself (PyPI `hermes-agent[acp,mcp]==0.19.0`, installed by `inv setup`)
and by our scripted ACP agent (tests/acp_agent/agent.py, in `hermes.acp.agents`), in code-server, against the
scripted OpenAI-compatible model (tests/llm_server):

the panel's Agent choice (built-in loop, Hermes Agent, Scripted; Hermes by default, as a "+" session would); a
Hermes turn in the panel shown as its cards (the plan as a live list, tool calls that end — one through this
window's `mcp__vscode__file_read`); Hermes' permission prompts as in-panel cards with every option it offers (an
edit allowed: the file is written; a dangerous command denied: nothing ran); the conversation listed with the chat
sessions (one store) and continued in a "+" session in the same Hermes session; Stop in the panel → session/cancel
(the scripted agent says it saw it).

The tests run in order on one window, each building on the one before.
"""
import json

import pytest

from acp_agents import MODEL, hermes_home_in, hermes_program, scripted_agent, write_hermes_config
from chat_view import send_in_panel as send
from chat_view import INPUT, RESPONSE, SESSION_ROW, open_panel, panel, show_sessions, wait_idle
from conftest import copy_of_fixture_workspace, open_window, running_code_server, type_and_send
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer
from test_hermes_sessions import chat_bodies
from vscode_server import wait_until

QUESTION = 'What does notes/panel.txt say?'
ANSWER = 'The note says the panel works.'
TITLE = 'Panel note lookup'


@pytest.fixture(scope='module')
def llm():
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello.'))], 'models': [MODEL], 'title': TITLE,
                                'model_fields': {'max_model_len': 131072}}).start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    folder = copy_of_fixture_workspace(tmp_path_factory, 'panel-agents-ws')
    (folder / 'notes').mkdir(exist_ok=True)
    (folder / 'notes' / 'panel.txt').write_text('the panel works\n')
    (folder / 'important').mkdir()
    (folder / 'important' / 'keep.txt').write_text('do not delete\n')
    return folder


@pytest.fixture(scope='module')
def server(tmp_path_factory, llm, workspace):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': MODEL, 'hermes.mcp.port': 0,
                'hermes.acp.hermesPath': str(hermes_program(required=True)),
                'hermes.acp.agents': [scripted_agent()],
                'workbench.colorTheme': 'Default Dark Modern'}
    with running_code_server(tmp_path_factory, workspace, 'panel-agents', settings=settings) as running:
        write_hermes_config(hermes_home_in(running.user_home), llm.endpoint)
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with open_window(browser, server, 'panel-agents') as bench:
        server.wait_for_log(r'activated in')
        yield bench


def stored_conversations(server):
    """The conversations on disk ([] before the store's first write)."""
    paths = list(server.user_data.glob('User/workspaceStorage/*/hermes-agent.hermes-agent/conversations.json'))
    assert len(paths) <= 1, paths
    return json.loads(paths[0].read_text())['conversations'] if paths else []


def test_the_panel_offers_hermes_by_default_and_shows_its_turn_as_cards(window, llm, server, artifacts):
    llm.script(Reply(tool_events([('call_plan', 'todo', {'todos': [
                   {'id': '1', 'content': 'Read notes/panel.txt through VS Code', 'status': 'in_progress'},
                   {'id': '2', 'content': 'Answer from the note', 'status': 'pending'}]})])),
               Reply(tool_events([('call_read', 'mcp__vscode__file_read', {'path': 'notes/panel.txt'})],
                                 text_before='Let me read it.')),
               Reply(text_events(ANSWER, piece=3), delay_ms=500))  # slow enough to look at the turn mid-way
    view = open_panel(window)
    select = view.locator('#backend-select')
    wait_until(lambda: select.is_visible() and select.input_value() == 'hermes', 60, what='the Agent choice')
    assert view.locator('#backend-select option').all_inner_texts() == ['Built-in loop', 'Hermes Agent', 'Scripted']
    assert not view.locator('#model-select').is_visible()  # Hermes brings its own model
    send(view, QUESTION)
    reply = view.locator('.message.assistant').last
    reply.locator('.markdown', has_text='The note').first.wait_for(timeout=120000)  # the answer streams in slowly
    window.screenshot(artifacts / 'panel-hermes-mid-turn.png')  # the plan and the tool cards above it
    wait_idle(view)
    assert ANSWER in reply.inner_text()
    plan = reply.locator('.plan')
    assert 'Read notes/panel.txt through VS Code' in plan.inner_text()
    assert plan.locator('.plan-entry').count() == 2
    cards = reply.locator('.tool-card.agent-tool')
    assert cards.count() >= 2
    statuses = cards.evaluate_all('(cards) => cards.map((card) => card.dataset.status)')
    assert all(status in ('ok', 'error') for status in statuses), statuses  # every tool call ended
    assert reply.locator('.tool-card', has_text='mcp__vscode__file_read').count() == 1
    tool_results = [m for m in chat_bodies(llm)[-1]['messages'] if m['role'] == 'tool']
    assert any('the panel works' in json.dumps(m['content']) for m in tool_results)  # through our MCP server
    assert view.locator('#backend-select').is_disabled()  # the conversation keeps Hermes
    wait_until(lambda: view.locator('#usage').is_visible(), 30, what='the context use')
    window.screenshot(artifacts / 'panel-hermes-turn.png')
    # (the store is written behind the turn: host/chat/conversation_store.py SAVE_QUIET_MS)
    [conversation] = wait_until(lambda: [c for c in stored_conversations(server) if c['acp']], 10,
                                what='the conversation in the store')
    assert conversation['acp']['agent'] == 'Hermes Agent' and conversation['messages'][0]['text'] == QUESTION


def test_hermes_permission_prompts_are_cards_in_the_panel(window, llm, workspace, artifacts):
    view = panel(window.page)
    llm.script(Reply(tool_events([('call_write', 'write_file', {'path': 'created.txt', 'content': 'made in the panel'})])),
               Reply(text_events('Written.')))
    send(view, 'Create created.txt')
    card = view.locator('.tool-card.asking')
    card.wait_for(timeout=120000)
    assert 'Approve edit: created.txt' in card.inner_text()
    assert 'made in the panel' in card.locator('.tool-question .diff-block').inner_text()  # Hermes' diff, as lines
    assert card.locator('.diff-block:visible').count() == 1  # shown once (the tool's own copy waits for the answer)
    window.screenshot(artifacts / 'panel-hermes-permission.png')
    card.get_by_role('button', name='Allow edit', exact=True).click()
    view.locator('.message.assistant').last.get_by_text('Written.').wait_for(timeout=120000)
    wait_until(lambda: (workspace / 'created.txt').exists(), 30, what='the file Hermes wrote')
    assert (workspace / 'created.txt').read_text() == 'made in the panel'
    wait_idle(view)

    llm.script(Reply(tool_events([('call_rm', 'terminal', {'command': 'rm -rf important'})])),
               Reply(text_events('I did not delete it.')))
    send(view, 'Delete the important folder')
    card = view.locator('.tool-card.asking')
    card.wait_for(timeout=120000)
    assert 'rm -rf important' in card.inner_text()
    buttons = card.locator('.question-actions button').all_inner_texts()
    assert buttons == ['Allow once', 'Allow for session', 'Allow always', 'Deny', 'Deny always'], buttons
    window.screenshot(artifacts / 'panel-hermes-permission-command.png')
    card.get_by_role('button', name='Deny', exact=True).click()
    view.locator('.message.assistant').last.get_by_text('I did not delete it.').wait_for(timeout=120000)
    assert (workspace / 'important' / 'keep.txt').exists()  # nothing ran
    wait_idle(view)


def test_the_panels_hermes_conversation_continues_in_a_chat_session(window, llm, server):
    page = window.page
    row = page.locator(SESSION_ROW, has_text=TITLE).first  # one store: listed with the title Hermes gave it
    show_sessions(window, row)
    answer = page.locator(RESPONSE).get_by_text(ANSWER).first
    for _ in range(3):
        row.click()
        try:
            answer.wait_for(state='visible', timeout=30000)
            break
        except Exception:
            continue
    answer.wait_for(state='visible')
    before = len(chat_bodies(llm))
    llm.script(Reply(text_events('You asked about the note.')))
    type_and_send(page, page.locator(INPUT).last, 'What did I ask first?')
    page.locator(RESPONSE).last.get_by_text('You asked about the note.').first.wait_for(timeout=120000)
    follow_up = chat_bodies(llm)[before]
    users = [m['content'] for m in follow_up['messages'] if m['role'] == 'user']
    assert any(QUESTION in json.dumps(content) for content in users)  # the same Hermes session
    stored = lambda: [c for c in stored_conversations(server) if c['acp'] and c['title'] == TITLE and
                      [m['role'] for m in c['messages']].count('user') == 4]  # (written behind the turn)
    [conversation] = wait_until(stored, 10, what='the follow-up in the store')
    assert [m['role'] for m in conversation['messages']].count('user') == 4


def test_stop_in_the_panel_cancels_the_scripted_agents_turn(window, artifacts):
    view = open_panel(window)
    view.locator('#new-chat').click()
    select = view.locator('#backend-select')
    wait_until(lambda: select.is_enabled(), 30, what='a new conversation to choose for')
    select.select_option('Scripted')
    wait_until(lambda: view.locator('#backend-select').input_value() == 'Scripted', 30, what='the choice')
    send(view, 'hello there')
    reply = view.locator('.message.assistant').last
    reply.get_by_text('you said: hello there').wait_for()  # (after its thought, tool call and plan: 'Hello' came first)
    wait_idle(view)
    assert reply.locator('.markdown').all_inner_texts() == ['Hello', ', you said: hello there']
    assert reply.locator('.plan .plan-entry.completed').inner_text() == 'read'
    assert reply.locator('.thought').count() == 1 and reply.locator('.tool-card[data-status="ok"]').count() == 1
    window.screenshot(artifacts / 'panel-scripted-turn.png')
    send(view, 'wait_cancel')
    reply = view.locator('.message.assistant').last
    reply.get_by_text('working').wait_for()
    view.locator('#stop').click()
    reply.get_by_text('stopping').wait_for()  # the agent saw session/cancel
    reply.get_by_text('Stopped.').wait_for()
    wait_idle(view)
