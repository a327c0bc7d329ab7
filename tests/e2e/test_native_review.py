"""VS Code's own chat editing for Hermes session turns, in a real VS Code (code-server): a Hermes chat session turn
(the built-in loop against the scripted LLM server) writes a file; VS Code's editing session lists it above the
chat input with Keep/Undo, and Hermes' change log (Changes view, status bar, the session's changed files) holds the
same change. Undo in VS Code puts the file back and nothing stays pending in Hermes; Keep in VS Code leaves the file
and clears it from Hermes; Undo in Hermes' Changes view clears VS Code's list. An older turn of the session is
restored to its checkpoint from the session's history.

The tests run in order on one window, each building on the one before. Screenshots go to tests/artifacts/
(native-session.png, review-native.png, native-restore.png).
"""

import pytest

from chat_view import INPUT, RESPONSE
from conftest import (BUILTIN_MODEL, copy_of_fixture_workspace, open_window, running_code_server,
                      type_and_send)
from llm_server.scenarios import Reply, text_events, tool_events
from vscode_server import wait_until

SHAPES = 'def area(width, height):\n    return width * height\n\n\ndef perimeter(width, height):\n    return width + height\n'
FIXED = SHAPES.replace('width + height', '2 * (width + height)')
GREET = 'GREETING = "hello"\n\n\ndef greet(name):\n    print(GREETING, name)\n'
NOTES = 'one\n'
TODO = '- write\n'
PLAN = '1. build\n'
CHANGES_VIEW = '.pane:has(.pane-header[aria-label^="Changes"])'


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    folder = copy_of_fixture_workspace(tmp_path_factory, 'native-ws')
    (folder / 'review').mkdir()
    (folder / 'review' / 'shapes.py').write_text(SHAPES)
    (folder / 'review' / 'greet.py').write_text(GREET)
    (folder / 'review' / 'notes.txt').write_text(NOTES)
    (folder / 'review' / 'todo.txt').write_text(TODO)
    (folder / 'review' / 'plan.txt').write_text(PLAN)
    return folder


@pytest.fixture(scope='module')
def server(tmp_path_factory, workspace, llm):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': BUILTIN_MODEL,
                'hermes.tools.confirm': 'never', 'hermes.agent.backend': 'builtin', 'files.autoSave': 'off',
                'workbench.colorTheme': 'Default Dark Modern'}
    with running_code_server(tmp_path_factory, workspace, 'native', settings=settings) as running:
        yield running


@pytest.fixture(scope='module')
def window(browser, server):
    with open_window(browser, server, 'native') as bench:
        server.wait_for_log(r'Chat sessions: "Hermes Agent" is in the Chat view')
        yield bench


def status_item(page, text):
    return page.locator('.statusbar-item', has_text=text).first


def ask(window, llm, prompt, path, content, answer):
    """One session turn: the model writes `content` to `path` with file_write, then answers `answer`."""
    llm.script(Reply(tool_events([('call_' + str(len(prompt)), 'file_write', {'path': path, 'content': content})])),
               Reply(text_events(answer)))
    page = window.page
    session = page.locator('.part.editor')
    type_and_send(page, session.locator(INPUT).first, prompt)
    session.locator(RESPONSE).last.get_by_text(answer).first.wait_for(state='visible')
    return session


def editing_ui(session):
    """VS Code's editing session above the chat input: 'N files changed' with Keep / Undo."""
    return session.locator('.chat-editing-session .chat-editing-session-overview')


def shown_changed(session):
    title = editing_ui(session).locator('.working-set-title')
    return title.inner_text() if title.count() > 0 and title.first.is_visible() else ''


def pending_in_hermes(page):
    return page.locator('.statusbar-item', has_text='to review').count() > 0


def press_native(window, session, label, confirm=None):
    """Keep All Edits / Undo All Edits in VS Code's editing session; `confirm`: the button of the confirmation
    VS Code asks for first (its Undo does)."""
    editing_ui(session).locator('a[aria-label^="' + label + '"]').first.click()
    if confirm:
        dialog = window.page.locator('.monaco-dialog-box')
        dialog.wait_for(state='visible')
        dialog.locator('a.monaco-button', has_text=confirm).first.click()


def show_changes_view(window):
    view = window.page.locator(CHANGES_VIEW).first
    if not view.is_visible():
        window.run_command('Focus on Changes View')
        view.wait_for(state='visible')
    return view


def test_a_session_turn_edit_shows_in_vs_codes_own_editing_ui(window, llm, workspace, artifacts):
    page = window.page
    page.locator('.model-picker-name').first.wait_for(state='visible')
    window.run_command('Chat: New Hermes Agent Session')
    session = ask(window, llm, 'Fix the perimeter in shapes.py', 'review/shapes.py', FIXED, 'The perimeter is fixed.')
    assert (workspace / 'review' / 'shapes.py').read_text() == FIXED
    wait_until(lambda: '1 file changed\n+1\n-1' in shown_changed(session), 30,
               what="VS Code's '1 file changed +1 -1'")
    assert editing_ui(session).locator('a[aria-label^="Keep All Edits"]').count() == 1
    status_item(page, '1 file to review').wait_for(state='visible')  # the same change, in Hermes' review
    window.screenshot(artifacts / 'native-session.png')
    view = show_changes_view(window)
    view.locator('.monaco-list-row', has_text='shapes.py').first.wait_for(state='visible')
    # the two reviews side by side, the picture README shows (docs/review-native.png)
    page.screenshot(path=str(artifacts / 'review-native.png'), clip={'x': 0, 'y': 36, 'width': 1100, 'height': 830})


def test_keep_in_vs_code_keeps_it_in_hermes(window, workspace):
    page = window.page
    session = page.locator('.part.editor')
    press_native(window, session, 'Keep All Edits')
    wait_until(lambda: not pending_in_hermes(page), 30, what='kept in Hermes too')
    assert (workspace / 'review' / 'shapes.py').read_text() == FIXED
    view = show_changes_view(window)
    wait_until(lambda: view.locator('.monaco-list-row', has_text='shapes.py').count() == 0, 30,
               what='shapes.py gone from the Changes view')


def test_undo_in_vs_code_leaves_nothing_pending_in_hermes(window, llm, workspace):
    page = window.page
    session = ask(window, llm, 'Say hello louder', 'review/greet.py', GREET.replace('hello', 'HELLO'), 'Louder now.')
    wait_until(lambda: editing_ui(session).locator('a[aria-label^="Undo All Edits"]').count() == 1, 30,
               what="VS Code's Undo for greet.py")
    status_item(page, '1 file to review').wait_for(state='visible')
    press_native(window, session, 'Undo All Edits', confirm='Yes')
    wait_until(lambda: (workspace / 'review' / 'greet.py').read_text() == GREET, 30, what='greet.py as before')
    wait_until(lambda: not pending_in_hermes(page), 30, what='nothing pending in Hermes')
    view = show_changes_view(window)
    wait_until(lambda: view.locator('.monaco-list-row', has_text='greet.py').count() == 0, 30,
               what='greet.py gone from the Changes view')


def test_undo_in_hermes_clears_vs_codes_list(window, llm, workspace):
    page = window.page
    session = ask(window, llm, 'Add a line to the notes', 'review/notes.txt', NOTES + 'two\n', 'Line added.')
    wait_until(lambda: editing_ui(session).locator('a[aria-label^="Undo All Edits"]').count() == 1, 30,
               what="VS Code's Undo for notes.txt")
    status_item(page, '1 file to review').wait_for(state='visible')
    view = show_changes_view(window)
    row = view.locator('.monaco-list-row', has_text='notes.txt').first
    row.hover()
    row.locator('a.action-label[aria-label="Undo Changes in File"]').click()
    wait_until(lambda: (workspace / 'review' / 'notes.txt').read_text() == NOTES, 30, what='notes.txt as before')
    wait_until(lambda: editing_ui(session).locator('a[aria-label^="Undo All Edits"]').count() == 0, 30,
               what="nothing left to keep or undo in VS Code's list")
    # the status item hears of the undo with the other views once the changes pause (host/changes/log.py)
    wait_until(lambda: not pending_in_hermes(page), 30, what='nothing pending in Hermes')


def test_an_older_turn_is_restored_from_the_session(window, llm, workspace, artifacts):
    page = window.page
    todo = workspace / 'review' / 'todo.txt'
    plan = workspace / 'review' / 'plan.txt'
    session = ask(window, llm, 'Add a task', 'review/todo.txt', TODO + '- test\n', 'Task added.')
    ask(window, llm, 'Add a step', 'review/plan.txt', PLAN + '2. ship\n', 'Step added.')
    status_item(page, '2 files to review').wait_for(state='visible')
    wait_until(lambda: '2 files changed' in shown_changed(session), 30, what="VS Code's '2 files changed'")
    older = session.locator(RESPONSE, has_text='Task added.').first
    older.get_by_role('button', name='Restore to Before This Turn').click()  # not the last turn: the one before
    page.locator('.quick-input-list .monaco-list-row', has_text='Files only').first.click()
    wait_until(lambda: todo.read_text() == TODO, 30, what='todo.txt as before the older turn')
    wait_until(lambda: plan.read_text() == PLAN, 30, what='plan.txt as before the later turn too')
    wait_until(lambda: not pending_in_hermes(page), 30, what='nothing pending')
    wait_until(lambda: editing_ui(session).locator('a[aria-label^="Undo All Edits"]').count() == 0, 30,
               what="nothing left to keep or undo in VS Code's list")
    toast = page.locator('.notification-toast', has_text='restored to before this turn').first
    toast.wait_for(state='visible')
    window.screenshot(artifacts / 'native-restore.png')
    toast.get_by_role('button', name='Undo Restore').click()
    wait_until(lambda: todo.read_text() == TODO + '- test\n' and plan.read_text() == PLAN + '2. ship\n', 30,
               what='the restore undone')
    status_item(page, '2 files to review').wait_for(state='visible')

