"""VS Code's own MCP client: the "Hermes (this window)" definition the extension offers through
`vscode.lm.registerMcpServerDefinitionProvider` is started the way a user does (MCP: List Servers → Start Server),
VS Code connects to it, lists our tools as its own and runs one."""
import httpx

from conftest import PROOF_FILE, complaints, file_read_text, record
from vscode_server import wait_until

PREFIX = 'mcp_hermes_for_vs_'  # VS Code's name for the tools of the server our extension ("Hermes for VS Code") offers


def pick(page, text):
    page.locator('.quick-input-list .monaco-list-row', has_text=text).first.click()


def test_vscode_connects_to_hermes_this_window_and_runs_a_tool(workbench, probe, base, proof):
    page = workbench.page
    page.keyboard.press('F1')
    page.locator('.quick-input-widget input').fill('>MCP: List Servers')
    pick(page, 'MCP: List Servers')
    pick(page, 'Hermes (this window)')
    pick(page, 'Start Server')

    def mcp_tools():
        return [name for name in probe('return vscode.lm.tools.map(t => t.name)') if name.startswith(PREFIX)]
    names = wait_until(mcp_tools, 60, interval=0.5, what="Hermes's tools in VS Code's tool list")
    assert len(names) == httpx.get(base + '/health').json()['tools']
    assert PREFIX + 'file_read' in names
    # file_read is read-only (readOnlyHint): VS Code runs it without asking.
    result = probe(f"""
        const result = await vscode.lm.invokeTool('{PREFIX}file_read', {{input: {{path: '{PROOF_FILE}'}},
                                                                         toolInvocationToken: undefined}});
        return result.content.map(part => part.value);""")
    assert file_read_text(result[0]).strip() == proof
    # VS Code shows the server's log in the Output panel as it starts it: what it said about us, for the record. The
    # panel draws its lines a moment later on a loaded machine (one read once failed a fresh-clone run): waited for.
    discovered = 'Discovered ' + str(len(names)) + ' tools'

    def panel_text():
        return page.locator('.part.panel .view-lines').first.inner_text().replace('\u00a0', ' ')
    try:
        wait_until(lambda: discovered in panel_text(), 60, interval=0.5, what=f'"{discovered}" in the Output panel')
    finally:
        output = panel_text()
        record('vscode', 'MCP: Start Server "Hermes (this window)", Output panel', output)
    assert complaints(output) == []
