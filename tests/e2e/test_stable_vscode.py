"""Hermes in VS Code as stable VS Code runs a marketplace extension: no API proposals (code-server's copy with
the switches that grant them to every extension off, vscode_server.stable_api_code_server). Hermes activates
without an error, says once what needs the proposals and how to turn them on, and the rest works: the MCP server,
@hermes with its edits in Hermes' own review only (VS Code's Keep there would go unheard: issue 36's lost work)."""
import re
from pathlib import Path

import pytest

from chat_view import INPUT, RESPONSE, open_panel, wait_idle
from conftest import (BUILTIN_MODEL, READ_WINDOW_LOG, copy_of_fixture_workspace, open_window, running_code_server,
                      type_and_send)
from llm_server.scenarios import Reply, text_events, tool_events
from vscode_server import package_probe_extension, probe_runner, wait_until

ROOT = Path(__file__).resolve().parents[2]
EXTENSION_ID = 'hermes-agent.hermes-agent'
HINT = 'need VS Code\'s chatSessionsProvider API proposal'
SHAPES = 'def perimeter(width, height):\n    return width + height\n'
FIXED = SHAPES.replace('width + height', '2 * (width + height)')


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    folder = copy_of_fixture_workspace(tmp_path_factory, 'stable-ws')
    (folder / 'review').mkdir()
    (folder / 'review' / 'shapes.py').write_text(SHAPES)
    return folder


@pytest.fixture(scope='module')
def probe_vsix(tmp_path_factory):
    from tasks import node_bin  # the pinned Node 24 and vsce from node_modules
    return package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                   ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')


@pytest.fixture(scope='module')
def stable(tmp_path_factory, workspace, browser, probe_vsix, llm):
    settings = {'hermes.llm.endpoint': llm.endpoint, 'hermes.llm.model': BUILTIN_MODEL, 'hermes.mcp.port': 0,
                'hermes.tools.confirm': 'never', 'hermes.agent.backend': 'builtin', 'files.autoSave': 'off'}
    with running_code_server(tmp_path_factory, workspace, 'stable', settings=settings, extensions=(probe_vsix,),
                             proposals=False) as server:
        with open_window(browser, server, 'stable') as bench:
            server.wait_for_log(r'activated in')
            yield {'server': server, 'bench': bench, 'probe': probe_runner(server.user_home)}


def test_the_extension_host_grants_hermes_no_proposal(stable):
    """The probe: what VS Code granted Hermes (its description's enabledApiProposals, which the workbench empties
    for an extension it does not allow proposals) and a proposal's API seen from the extension host."""
    granted = stable['probe'](f'return vscode.extensions.getExtension({EXTENSION_ID!r}).packageJSON'
                              '.enabledApiProposals || [];')
    assert granted == []
    refused = re.compile(r"Extension '" + re.escape(EXTENSION_ID) + r" CANNOT USE these API proposals")

    def window_log():  # VS Code for the web writes its window log to IndexedDB in batches
        return '\n'.join(text for _, text in stable['bench'].page.evaluate(READ_WINDOW_LOG))
    wait_until(lambda: refused.search(window_log()), 30, what='the workbench to refuse Hermes its proposals')


def test_a_proposals_api_is_really_off_in_the_extension_host(stable):
    """The probe extension (which declares no proposal): chatParticipantAdditions' onDidPerformAction is undefined
    and chatSessionsProvider's controller refuses, as in stable VS Code (code-server itself gives both)."""
    code = """const participant = vscode.chat.createChatParticipant('probe.stable', async () => ({}));
const perform = typeof participant.onDidPerformAction;
participant.dispose();
try { vscode.chat.createChatSessionItemController('probe-stable', async () => {}).dispose(); return [perform, 'made']; }
catch (error) { return [perform, error.message]; }"""
    perform, controller = stable['probe'](code)
    assert perform == 'undefined'
    assert controller.startswith("Extension 'hermes-tests.hermes-e2e-probe' CANNOT use API proposal: "
                                 'chatSessionsProvider.')


def test_hermes_activates_without_an_error_and_says_once_how_to_enable_the_proposals(stable):
    log = stable['server'].extension_log_text()
    assert re.search(r'Hermes Agent \d+\.\d+\.\d+ activated in \d+ ms', log)
    hints = [line for line in log.splitlines() if HINT in line]
    assert len(hints) == 1, hints
    assert '"enable-proposed-api": ["' + EXTENSION_ID + '"]' in hints[0]
    assert [line for line in log.splitlines() if '[error]' in line] == []
    # the first start of this install shows it as a notification too: read in the notification center, since its
    # toast hides after a while
    bench = stable['bench']
    bench.run_command('Notifications: Show Notifications')
    shown = bench.page.locator('.notifications-center .monaco-list-row', has_text=HINT)
    shown.first.wait_for(state='visible')
    assert shown.count() == 1
    assert 'enable-proposed-api' in shown.first.inner_text()
    bench.run_command('Notifications: Clear All Notifications')


def test_the_mcp_server_and_its_status_work_without_proposals(stable, artifacts):
    bench = stable['bench']
    bench.run_command('Hermes: Show MCP Server Status')
    text = bench.notification_text('Hermes MCP server:')
    assert re.search(r'http://127\.0\.0\.1:\d+/mcp · \d+ clients? · \d+ tools · auth: token', text)
    bench.screenshot(artifacts / 'stable-vscode.png')



def test_an_at_hermes_edit_is_reviewed_in_hermes_only_and_its_keep_holds(stable, llm, workspace, artifacts):
    """Without onDidPerformAction Hermes would never hear a Keep in VS Code's Keep/Undo bar, and its Undo All
    would revert the kept edit later: the edit is not offered there, Hermes' review has it, and once kept there
    Hermes' Undo All leaves it."""
    page = stable['bench'].page
    stable['probe']("await vscode.commands.executeCommand('notifications.clearAll')")  # a toast covers the chat
    llm.script(Reply(tool_events([('call_fix', 'file_write', {'path': 'review/shapes.py', 'content': FIXED})])),
               Reply(text_events('The perimeter is fixed.')))
    type_and_send(page, page.locator(INPUT).first, '@hermes fix the perimeter in review/shapes.py')
    page.locator(RESPONSE).last.get_by_text('The perimeter is fixed.').first.wait_for(state='visible')
    assert (workspace / 'review' / 'shapes.py').read_text() == FIXED
    page.locator('.statusbar-item', has_text='1 file to review').first.wait_for(state='visible')
    stable['bench'].screenshot(artifacts / 'stable-at-hermes-edit.png')
    assert page.locator('.chat-editing-session a[aria-label^="Keep All Edits"]').count() == 0
    assert page.locator('.chat-editing-session .working-set-title', has_text='changed').count() == 0
    stable['bench'].run_command('Hermes: Keep All Changes')
    wait_until(lambda: page.locator('.statusbar-item', has_text='to review').count() == 0, 30,
               what='nothing left to review')
    stable['bench'].run_command('Hermes: Undo All Changes')  # nothing pending: no question, no undo
    assert (workspace / 'review' / 'shapes.py').read_text() == FIXED


def test_a_panel_turn_writes_and_hermes_undo_all_puts_the_file_back(stable, llm, workspace, artifacts):
    """The side panel and the change review need no proposal: a panel turn's write is pending in Hermes and its
    Undo All (after the question it asks) restores the file."""
    bench = stable['bench']
    page = bench.page
    before = (workspace / 'review' / 'shapes.py').read_text()
    llm.script(Reply(tool_events([('call_panel', 'file_write', {'path': 'review/shapes.py',
                                                                'content': before.replace('2 *', '2.0 *')})])),
               Reply(text_events('Floats now.')))
    view = open_panel(bench)
    prompt = view.locator('#prompt')
    prompt.click()
    prompt.fill('Use floats in review/shapes.py')
    prompt.press('Enter')
    view.locator('.message.assistant').last.get_by_text('Floats now.').first.wait_for(state='visible')
    wait_idle(view)
    assert '2.0 *' in (workspace / 'review' / 'shapes.py').read_text()
    page.locator('.statusbar-item', has_text='1 file to review').first.wait_for(state='visible')
    bench.screenshot(artifacts / 'stable-panel.png')
    bench.run_command('Hermes: Undo All Changes')
    dialog = page.locator('.monaco-dialog-box')
    dialog.wait_for(state='visible')
    dialog.locator('a.monaco-button', has_text='Undo All').first.click()
    wait_until(lambda: (workspace / 'review' / 'shapes.py').read_text() == before, 30, what='shapes.py as before')
    wait_until(lambda: page.locator('.statusbar-item', has_text='to review').count() == 0, 30,
               what='nothing left to review')
