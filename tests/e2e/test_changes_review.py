"""Reviewing agents' changes in a real VS Code (code-server): an external MCP client (the official Python SDK,
named "Review Agent") edits two files; the editor marks its hunks with Keep / Undo CodeLenses; keeping one
hunk and undoing the other leaves exactly the expected text on disk; the Changes view lists the second file under
the client's name and its Undo puts the file back; pending changes survive a window reload; a Hermes chat session
turn (the built-in loop against the scripted LLM server) edits a file and the session lists it with +/−; and a
side panel turn is restored to its checkpoint (files and conversation) and the restore undone.

The tests run in order on one window, each building on the one before. Screenshots go to tests/artifacts/
(changes-editor.png, changes-view.png, changes-session.png, changes-panel.png).
"""

import pytest
from mcp.types import Implementation

from chat_view import first_window, RESPONSE, reload_window, send, session_row, show_sessions
from conftest import BUILTIN_MODEL, copy_of_fixture_workspace, running_code_server
from llm_server.scenarios import Reply, text_events, tool_events
from mcp_session import McpSession
from vscode_server import attempts, holds_within, wait_until

ONE = 'def area(width, height):\n    return width * height\n\n\ndef perimeter(width, height):\n    return width + height\n'
ONE_BY_AGENT = ('def area(width: float, height: float) -> float:\n    return width * height\n\n\n'
                'def perimeter(width, height):\n    return 2 * (width + height)\n')
TWO = 'GREETING = "hello"\n\n\ndef greet(name):\n    print(GREETING, name)\n'
TWO_BY_AGENT = 'GREETING = "Hello"\n\n\ndef greet(name):\n    print(f"{GREETING}, {name}!")\n'
LENS = '.monaco-editor .codelens-decoration a'
CHANGES_VIEW = '.pane:has(.pane-header[aria-label^="Changes"])'


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    folder = copy_of_fixture_workspace(tmp_path_factory, 'changes-ws')
    (folder / 'review').mkdir()
    (folder / 'review' / 'shapes.py').write_text(ONE)
    (folder / 'review' / 'greet.py').write_text(TWO)
    return folder


@pytest.fixture(scope='module')
def server(tmp_path_factory, workspace, llm):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': BUILTIN_MODEL,
                'hermes.tools.confirm': 'never', 'hermes.agent.backend': 'builtin', 'files.autoSave': 'off',
                'workbench.colorTheme': 'Default Dark Modern'}
    with running_code_server(tmp_path_factory, workspace, 'changes', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with first_window(browser, server, 'changes') as bench:
        yield bench


@pytest.fixture(scope='module')
def agent(server, window, workspace):
    info = server.discovery_for(workspace)
    client = McpSession(info['url'], info['token'], client_info=Implementation(name='Review Agent', version='1.0'))
    yield client
    client.close()


def lenses(page, text):
    return page.locator(LENS, has_text=text)


def status_item(page, text):
    return page.locator('.statusbar-item', has_text=text).first


def show_changes_view(window):
    """The Changes view in the Hermes Agent container (run again if the view did not come: a command the
    workbench took while it settled)."""
    view = window.page.locator(CHANGES_VIEW).first
    for _ in attempts():
        if view.is_visible():
            return view
        window.page.keyboard.press('Escape')
        window.run_command('Focus on Changes View')
        holds_within(view.is_visible, 10)
    view.wait_for(state='visible')
    return view


def test_an_external_clients_edits_are_marked_kept_and_undone_hunk_by_hunk(window, agent, workspace, artifacts):
    page = window.page
    agent.ok('file_write', {'path': 'review/shapes.py', 'content': ONE_BY_AGENT})
    agent.ok('file_write', {'path': 'review/greet.py', 'content': TWO_BY_AGENT})
    agent.ok('editor_open_file', {'path': 'review/shapes.py'})
    wait_until(lambda: lenses(page, 'Keep').count() == 2, 30, what='two Keep lenses in shapes.py')
    assert lenses(page, 'Undo').count() == 2
    named = page.locator('.monaco-editor .codelens-decoration', has_text='Review Agent \u00b7 +1 \u22121')
    assert named.count() == 2, 'each hunk names the client that made it'
    status_item(page, '2 files to review').wait_for(state='visible')
    window.screenshot(artifacts / 'changes-editor.png')
    view = show_changes_view(window)  # beside the marked editor: the picture README shows (docs/review.png)
    view.locator('.monaco-list-row', has_text='greet.py').first.wait_for(state='visible')
    chat_pane = page.locator('.part.sidebar .pane-header', has_text='Chat').first
    chat_pane.click()  # folded, so the Changes view sits beside the editor's marks
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / 'changes-review.png'), clip={'x': 0, 'y': 36, 'width': 1090, 'height': 300})
    chat_pane.click()

    lenses(page, 'Keep').first.click()  # the signature: kept
    wait_until(lambda: lenses(page, 'Keep').count() == 1, 20, what='one hunk left')
    lenses(page, 'Undo').first.click()  # the perimeter fix: undone
    wait_until(lambda: lenses(page, 'Keep').count() == 0, 20, what='no hunk left in shapes.py')
    expected = ('def area(width: float, height: float) -> float:\n    return width * height\n\n\n'
                'def perimeter(width, height):\n    return width + height\n')
    wait_until(lambda: (workspace / 'review' / 'shapes.py').read_text() == expected, 20,
               what='shapes.py with the kept hunk and without the undone one')
    status_item(page, '1 file to review').wait_for(state='visible')

    view = show_changes_view(window)
    row = view.locator('.monaco-list-row', has_text='greet.py').first
    row.wait_for(state='visible')
    assert view.locator('.monaco-list-row', has_text='Review Agent').count() == 1
    assert '+2' in row.inner_text() and '\u22122' in row.inner_text()
    row.hover()
    window.screenshot(artifacts / 'changes-view.png')
    row.locator('a.action-label[aria-label="Undo Changes in File"]').click()
    wait_until(lambda: (workspace / 'review' / 'greet.py').read_text() == TWO, 20, what='greet.py as it was')
    wait_until(lambda: view.locator('.monaco-list-row', has_text='greet.py').count() == 0, 15,
               what='greet.py gone from the Changes view')
    wait_until(lambda: status_item(page, 'to review').count() == 0, 15, what='nothing left to review')


def test_pending_changes_survive_a_window_reload(window, agent, server, workspace):
    page = window.page
    agent.ok('file_write', {'path': 'review/greet.py', 'content': TWO.replace('hello', 'bonjour')})
    status_item(page, '1 file to review').wait_for(state='visible')
    reload_window(window, server)
    status_item(page, '1 file to review').wait_for(state='visible')
    view = show_changes_view(window)
    view.locator('.monaco-list-row', has_text='greet.py').first.wait_for(state='visible')
    window.run_command('Hermes: Keep All Changes')
    wait_until(lambda: status_item(page, 'to review').count() == 0, 15, what='nothing left to review')
    assert 'bonjour' in (workspace / 'review' / 'greet.py').read_text(), 'kept: the text stays'


def test_a_session_turn_edits_a_file_and_the_session_lists_it_with_its_counts(window, llm, workspace, artifacts):
    page = window.page
    llm.script(Reply(tool_events([('call_write', 'file_write', {'path': 'review/shapes.py',
                                                                'content': ONE.replace('width + height',
                                                                                       '2 * (width + height)')})])),
               Reply(text_events('The perimeter is fixed.')))
    window.run_command('Chat: New Hermes Agent Session')  # opens in an editor tab
    session = page.locator('.part.editor')
    send(page, 'Fix the perimeter in shapes.py', scope=session)
    session.locator(RESPONSE).last.get_by_text('The perimeter is fixed.').first.wait_for(state='visible')
    assert '2 * (width + height)' in (workspace / 'review' / 'shapes.py').read_text()
    for title in ['Open Changes', 'Restore to Before This Turn']:  # the turn ends with its review buttons
        assert session.locator(RESPONSE).last.get_by_role('button', name=title).count() == 1, title
    row = show_sessions(window, session_row(page, 'Fix the perimeter'))
    # the turn reverted the float annotations the first test kept and fixed the perimeter: two lines changed
    wait_until(lambda: '+2' in row.inner_text() and '-2' in row.inner_text().replace('\u2212', '-'), 20,
               what='the session row with +2 -2')
    window.screenshot(artifacts / 'changes-session.png')
    view = show_changes_view(window)
    view.locator('.monaco-list-row', has_text='Hermes: Fix the perimeter').first.wait_for(state='visible')
    assert view.locator('.monaco-list-row', has_text='Fix the perimeter in shapes.py').count() == 2, \
        'the conversation, and its turn by its prompt'
    window.run_command('Hermes: Keep All Changes')
    wait_until(lambda: status_item(page, 'to review').count() == 0, 15, what='nothing left to review')


def test_a_panel_turn_is_restored_to_its_checkpoint_and_the_restore_undone(window, llm, workspace, artifacts):
    page = window.page
    before = (workspace / 'review' / 'greet.py').read_text()
    llm.script(Reply(tool_events([('call_greet', 'file_write', {'path': 'review/greet.py',
                                                                'content': before.replace('print', 'return')})])),
               Reply(text_events('greet returns now.')))
    window.run_command('Hermes: Open Chat Panel')
    panel = page.frame_locator('iframe.webview').frame_locator('iframe#active-frame')
    prompt = panel.locator('#prompt')
    prompt.wait_for(state='visible')
    prompt.fill('Make greet return its text')
    prompt.press('Enter')
    panel.locator('.message.assistant').last.get_by_text('greet returns now.').first.wait_for()
    changed = panel.locator('.turn-changes').last
    changed.wait_for(state='visible')
    assert 'greet.py' in changed.inner_text() and '1 file changed' in changed.inner_text()
    assert 'return' in (workspace / 'review' / 'greet.py').read_text()
    panel.locator('.message.user').last.hover()
    window.screenshot(artifacts / 'changes-panel.png')

    panel.locator('.message.user').last.locator('button.restore-turn').click()
    page.locator('.quick-input-list .monaco-list-row', has_text='Files and conversation').first.click()
    wait_until(lambda: (workspace / 'review' / 'greet.py').read_text() == before, 20, what='greet.py as before the turn')
    wait_until(lambda: panel.get_by_text('Make greet return its text').count() == 0, 15,
               what='the turn gone from the panel')
    toast = page.locator('.notification-toast', has_text='restored to before this turn').first
    toast.wait_for(state='visible')
    toast.get_by_role('button', name='Undo Restore').click()
    wait_until(lambda: 'return' in (workspace / 'review' / 'greet.py').read_text(), 20, what='the turn\'s edit back')
    panel.get_by_text('Make greet return its text').first.wait_for(state='visible')
    status_item(page, '1 file to review').wait_for(state='visible')  # pending review again
