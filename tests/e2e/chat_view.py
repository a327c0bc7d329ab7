"""VS Code's Chat view, its Agent Sessions list and a window reload, as the e2e modules that hold chat sessions
drive them (test_chat_sessions.py, test_hermes_sessions.py, test_changes_review.py), and Hermes' own chat panel (a
webview) as the modules that hold agents' turns in it drive it (test_panel_agents.py, test_acp_commands.py): one
place for the selectors and for what a test waits for before it types.

What "ready" means, and why not the model picker: VS Code runs no chat request, a participant's or a session's,
until the extension host has a language model ("Language model unavailable" otherwise). On a fresh window the
Chat view holds a local chat, whose model picker shows the Hermes model once VS Code has it. After a reload the
Chat view shows again the Hermes session it showed before, and VS Code shows no model picker in a session of a
type without models of its own: the picker only flashes while the view resolves the session's provider, so a
test that waited for it passed or hung by luck. The condition is the extension's own log line instead:
"Hermes models: … given to VS Code" (ui/chat/lm_provider.py), written by the new extension host.
"""
from contextlib import contextmanager
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from conftest import open_window, type_and_send
from vscode_server import attempts, holds_within, stays_true, wait_until

RESPONSE = '.interactive-item-container.interactive-response'
# VS Code folds a finished turn's tool calls into one line that opens them: "Completed 5 steps (in 2s)" or, its other
# wording, "Finished with 5 steps".
STEPS = re.compile(r'^(Completed|Finished with) \d+ steps?')
INPUT = '.interactive-input-part .monaco-editor'
SESSION_ROW = '.agent-session-item-row'
MODEL_PICKER = '.model-picker-name'
IN_THE_PLUS_MENU = 'Chat sessions: "Hermes Agent" is in the Chat view'  # ui/chat/sessions.py, at each activation
MODELS_GIVEN = 'Hermes models: '  # ui/chat/lm_provider.py, once VS Code has the models


def wait_for_first_window(server, window):
    """A new window: Hermes activated, the Hermes model in the local chat's model picker (Send is enabled)."""
    server.wait_for_log(IN_THE_PLUS_MENU)
    window.page.locator(MODEL_PICKER).first.wait_for(state='visible')


@contextmanager
def first_window(browser, server, name):
    """A window on `server` once its first start is done (wait_for_first_window), closed when the block ends."""
    with open_window(browser, server, name) as bench:
        wait_for_first_window(server, bench)
        yield bench


def reload_window(window, server):
    """Reload the window and return once its new extension host has activated Hermes and given VS Code the
    Hermes models: the lines are looked for in the log files the new host writes (each host has its own), so a
    line the old host wrote cannot answer for it."""
    before = set(server.extension_logs())

    def new_host_log():
        return '\n'.join(path.read_text(errors='replace') for path in server.extension_logs() if path not in before)
    window.reload()
    wait_until(lambda: IN_THE_PLUS_MENU in new_host_log(), 60, what='Hermes to activate in the reloaded window')
    wait_until(lambda: MODELS_GIVEN in new_host_log(), 60, what='the reloaded window to have the Hermes models')


def send(page, text, scope=None):
    """Type `text` into the last chat input (of `scope`, a part of the page, if given) and press Enter."""
    type_and_send(page, (scope or page).locator(INPUT).last, text)


def last_response(scope):
    return scope.locator(RESPONSE).last


def session_row(page, title):
    return page.locator(SESSION_ROW, has_text=title).first


def open_plus_menu(page):
    """The Chat view's "+" dropdown; returns its Hermes entry. The menu can close again while the workbench
    settles (a toast takes the focus): then it is opened again."""
    entry = page.get_by_role('menuitem', name='New Hermes Agent Session').first  # (the menu is in a shadow DOM)
    for _ in attempts():
        if entry.is_visible():
            return entry
        page.keyboard.press('Escape')
        page.locator('.part.auxiliarybar .title-actions a.codicon-chevron-down').first.click()
        holds_within(entry.is_visible, 5)
    raise AssertionError('the "+" menu never showed "New Hermes Agent Session"')


def new_hermes_session(page):
    """"+" → New Hermes Agent Session. The menu can close under the click while the workbench settles (seen in the
    first window of a fresh-clone CI run: the entry detached and never came back): then it is opened again."""
    for attempt in attempts():
        try:
            open_plus_menu(page).click(timeout=10000)
            return
        except PlaywrightTimeoutError:
            print(f'new_hermes_session: attempt {attempt}: the menu closed under the click; opening it again')
    raise AssertionError('"New Hermes Agent Session" could not be clicked')


SHOW_SESSIONS = ['Chat Agent Sessions: Show Agent Sessions Sidebar', 'Chat Agent Sessions: Focus Agent Sessions']


def show_sessions(window, row=None):
    """The Agent Sessions list beside the chat, until `row` (or any row) is visible. While the list shows, the row
    may still be on its way (the list fills row by row). Otherwise a command shows it; after a reload the workbench
    may not show the sidebar for the first one, so the other one is tried, in turn (a command the palette does not
    offer, "Show" while the sidebar is already shown, is a cue to go on, not a failure)."""
    row = row or window.page.locator(SESSION_ROW).first
    for attempt in attempts():
        if holds_within(row.is_visible, 2):
            return row
        if window.page.locator(SESSION_ROW).first.is_visible():
            continue
        window.page.keyboard.press('Escape')
        window.try_command(SHOW_SESSIONS[(attempt - 1) % len(SHOW_SESSIONS)], 10)
        holds_within(row.is_visible, 15)
    raise AssertionError('the Agent Sessions list never showed the row')


def open_session(page, row, history):
    """Open a listed session and wait for `history` (a locator in its turns). Just after a reload VS Code may
    still restore the chat it showed before and replace the opened session with it: the history must stay showing
    for a few seconds, else the row is clicked again (a send into the replaced view starts a new session)."""
    for attempt in attempts():
        row.click()
        if holds_within(history.is_visible, 15) and stays_true(history.is_visible, 3):
            return
        print(f'open_session: attempt {attempt} did not keep the history showing; clicking the row again')
    raise AssertionError('the session never stayed open with its history')


def panel(page):
    """Hermes' chat panel: its content sits in nested iframes (the webview, then its active frame)."""
    return page.frame_locator('iframe.webview').frame_locator('iframe#active-frame')


def open_panel(window):
    """"Hermes: Open Chat Panel", until its input shows."""
    window.run_command('Hermes: Open Chat Panel')
    view = panel(window.page)
    view.locator('#prompt').wait_for(state='visible')
    return view


def send_in_panel(view, text, until_idle=False):
    """Type `text` into the panel's input and send it: returns once its turn has started (a new assistant message),
    or with `until_idle` once it has ended."""
    replies = view.locator('.message.assistant').count()
    prompt = view.locator('#prompt')
    prompt.click()
    prompt.fill(text)
    prompt.press('Enter')
    wait_until(lambda: view.locator('.message.assistant').count() == replies + 1, 30, what='the turn to start')
    if until_idle:
        wait_idle(view)


def wait_idle(view):
    """Until the panel's turn has ended: the input enabled again, Send back in the place of Stop."""
    view.locator('#prompt:not([disabled])').wait_for()
    view.locator('#send').wait_for(state='visible')


QUESTION_BOX = '.chat-question-carousel-widget-container .chat-question-carousel-container:not(.chat-question-carousel-used)'


def permission_question(page, text):
    """The permission question asked in the chat (VS Code's question carousel) whose text has `text`."""
    box = page.locator(QUESTION_BOX, has_text=text).last
    box.wait_for(state='visible')
    return box


def answer(page, option):
    """Pick `option` in the open question: a single question is sent as soon as an option is clicked."""
    page.locator(QUESTION_BOX).locator('.chat-question-list-item', has_text=option).first.click()
    wait_until(lambda: page.locator(QUESTION_BOX).count() == 0, 60, what='the question to be answered')
