"""Hermes in VS Code as stable VS Code runs a marketplace extension: no API proposals (code-server's copy with
the switch that grants them to every extension off, vscode_server.stable_api_code_server). Hermes activates
without an error, says once what needs the proposals and how to turn them on, and the rest works."""
import re
from pathlib import Path

import pytest

from conftest import READ_WINDOW_LOG, open_window, running_code_server
from vscode_server import package_probe_extension, probe_runner, wait_until

ROOT = Path(__file__).resolve().parents[2]
EXTENSION_ID = 'hermes-agent.hermes-agent'
HINT = 'need VS Code\'s chatSessionsProvider API proposal'


@pytest.fixture(scope='module')
def probe_vsix(tmp_path_factory):
    from tasks import node_bin  # the pinned Node 24 and vsce from node_modules
    return package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                   ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')


@pytest.fixture(scope='module')
def stable(tmp_path_factory, workspace, browser, probe_vsix):
    settings = {'hermes.tools.confirm': 'never'}
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


def test_the_mcp_server_and_its_status_work_without_proposals(stable, artifacts):
    bench = stable['bench']
    bench.run_command('Hermes: Show MCP Server Status')
    text = bench.notification_text('Hermes MCP server:')
    assert re.search(r'http://127\.0\.0\.1:\d+/mcp · \d+ clients? · \d+ tools · auth: token', text)
    bench.screenshot(artifacts / 'stable-vscode.png')

