"""`inv bench` section "doors": what a terminal CLI connected through a door costs the user's own work in a real VS Code
(code-server, the packaged extension). While a CLI is connected, the door watches the disk (host/doors/watch.py) so the
CLI's own writes become its pending changes; an ordinary save by the user must not pay for that. Measured in the
extension host (through the probe extension): one edit + save of a 10 kB file, back to back, with a Gemini CLI
connected to the door (a client speaking its protocol: initialize over the door's MCP endpoint with the discovery
file's token) against none; rounds alternate so the machine's load falls on both sides; medians.

And the time from a CLI's `openDiff` to the proposal shown under Hermes' review (the file's editor active with the
proposed text in it), against VS Code's own `vscode.diff` of the same file and proposal (what the vendors' companions
open): both started and observed inside the extension host, alternating, medians."""
import json
import statistics
import tempfile
import time
from pathlib import Path

ROUNDS = 5
SAVES = 20  # per round
SAVE_LOOP = """
const document = await vscode.workspace.openTextDocument(%(path)s);
await vscode.window.showTextDocument(document);
const times = [];
for (let i = 0; i < %(saves)d; i++) {
  const started = performance.now();
  const edit = new vscode.WorkspaceEdit();
  if (i %% 2 === 0) edit.insert(document.uri, new vscode.Position(0, 0), '#');
  else edit.delete(document.uri, new vscode.Range(0, 0, 0, 1));
  await vscode.workspace.applyEdit(edit);
  await document.save();
  await new Promise((resolve) => setTimeout(resolve, 0));
  times.push(performance.now() - started);
}
return times;
"""


DIFFS = 12  # per side
OPEN_DIFF = """
const [url, token, session, file, proposed] = %(args)s;
const started = performance.now();
const answer = await fetch(url, {method: 'POST', body: JSON.stringify({jsonrpc: '2.0', id: %(id)d, method: 'tools/call',
  params: {name: 'openDiff', arguments: {filePath: file, newContent: proposed}}}),
  headers: {'Authorization': 'Bearer ' + token, 'Mcp-Session-Id': session, 'Content-Type': 'application/json',
            'Accept': 'application/json, text/event-stream'}});
await answer.text();
while (!(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath === file &&
         vscode.window.activeTextEditor.document.getText() === proposed)) {
  await new Promise((resolve) => setTimeout(resolve, 1));
}
const shown = performance.now() - started;
await fetch(url, {method: 'POST', body: JSON.stringify({jsonrpc: '2.0', id: %(id)d + 1, method: 'tools/call',
  params: {name: 'closeDiff', arguments: {filePath: file}}}),
  headers: {'Authorization': 'Bearer ' + token, 'Mcp-Session-Id': session, 'Content-Type': 'application/json',
            'Accept': 'application/json, text/event-stream'}}).then((r) => r.text());
const document = vscode.window.activeTextEditor.document;
while (document.getText() === proposed || document.isDirty) {
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await vscode.commands.executeCommand('workbench.action.closeAllEditors');
return shown;
"""
VSCODE_DIFF = """
const [file, proposal] = %(args)s;
const started = performance.now();
await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file), vscode.Uri.file(proposal), 'proposed');
while (!(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath === proposal)) {
  await new Promise((resolve) => setTimeout(resolve, 1));
}
const shown = performance.now() - started;
await vscode.commands.executeCommand('workbench.action.closeAllEditors');
return shown;
"""


def connect_like_gemini(httpx, discovery):
    """A session on the Gemini CLI door as the CLI opens one; returns (client, session id)."""
    url = f"http://127.0.0.1:{discovery['port']}/mcp"
    headers = {'Authorization': 'Bearer ' + discovery['authToken'], 'Accept': 'application/json, text/event-stream'}
    client = httpx.Client(headers=headers, timeout=30)
    opened = client.post(url, json={'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'bench-gemini', 'version': '1'}}})
    session = opened.headers['mcp-session-id']
    client.post(url, json={'jsonrpc': '2.0', 'method': 'notifications/initialized'},
                headers={'Mcp-Session-Id': session})
    return client, url, session


def measure_diffs(httpx, probe, discovery, workspace):
    """{'hermes': [ms], 'vscode.diff': [ms]}: openDiff through the Gemini door against vscode.diff, alternating."""
    proposed_file = workspace / 'proposed.py'
    text = ''.join(f'def function_{i}():\n    return {i}\n\n' for i in range(70))
    proposed_file.write_text(text)
    proposal = text.replace('return 3\n', 'return 30\n').replace('return 40\n', 'return 400\n')
    proposal_file = workspace.parent / 'proposal.py'
    proposal_file.write_text(proposal)
    client, url, session = connect_like_gemini(httpx, discovery)
    diffs = {'hermes': [], 'vscode.diff': []}
    try:
        for number in range(DIFFS + 1):
            open_diff = OPEN_DIFF % {'args': json.dumps([url, discovery['authToken'], session, str(proposed_file),
                                                         proposal]), 'id': 100 + 2 * number}
            hermes = probe(open_diff, timeout=60)
            own = probe(VSCODE_DIFF % {'args': json.dumps([str(proposed_file), str(proposal_file)])}, timeout=60)
            if number > 0:  # the first of each: warm-up
                diffs['hermes'].append(hermes)
                diffs['vscode.diff'].append(own)
    finally:
        client.delete(url, headers={'Mcp-Session-Id': session})
        client.close()
    return diffs


def bench_doors(heading, row, target, code_server, vsix, root):
    import httpx
    from playwright.sync_api import sync_playwright
    from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench, package_probe_extension, probe_runner, wait_until
    from tasks import node_bin
    heading(f'Doors: an ordinary save (edit + save of 10 kB) with a CLI connected to a door against none, '
            f'alternating rounds; medians of {ROUNDS * SAVES} each')
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / 'workspace'
        workspace.mkdir()
        target_file = workspace / 'saved.py'
        target_file.write_text(''.join(f'value_{i} = {i}  # a line of about forty-eight chars\n' for i in range(210)))
        probe_vsix = package_probe_extension(Path(scratch) / 'probe.vsix', node_bin(),
                                             root / 'node_modules' / '@vscode' / 'vsce' / 'vsce')
        server = CodeServer(code_server, vsix, Path(scratch) / 'cs', workspace,
                            settings={'files.autoSave': 'off', 'git.enabled': False, 'remote.autoForwardPorts': False})
        server.install(probe_vsix)
        server.start()
        times = {True: [], False: []}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={'width': 1400, 'height': 900})
                Workbench(page).open(server.url)
                probe = probe_runner(server.user_home)
                server.wait_for_log(r'IDE door for Gemini CLI listening', timeout=120)
                folder = Path('/tmp/gemini/ide')
                discovery = wait_until(lambda: next((json.loads(path.read_text()) for path in folder.glob('*.json')
                                                     if json.loads(path.read_text())['workspacePath'] == str(workspace)),
                                                    None), 60, what='the door')
                loop = SAVE_LOOP % {'path': json.dumps(str(target_file)), 'saves': SAVES}
                probe(loop, timeout=120)  # warm-up
                for _ in range(ROUNDS):
                    for connected in (False, True):
                        session = connect_like_gemini(httpx, discovery) if connected else None
                        if connected:
                            server.wait_for_log(r'Gemini CLI \S+ connected through the IDE door', timeout=30)
                        times[connected].extend(probe(loop, timeout=120))
                        if session:
                            client, url, session_id = session
                            client.delete(url, headers={'Mcp-Session-Id': session_id})
                            client.close()
                            time.sleep(0.5)
                diffs = measure_diffs(httpx, probe, discovery, workspace)
                browser.close()
        finally:
            server.stop()
    on, off = statistics.median(times[True]), statistics.median(times[False])
    target('edit + save, a CLI connected (disk watch on)', f'{on:.1f} ms (none connected {off:.1f} ms)',
           'no CLI connected', on / off, 1.05)
    hermes, vscode_diff = statistics.median(diffs['hermes']), statistics.median(diffs['vscode.diff'])
    target("a CLI's openDiff → shown under Hermes' review", f'{hermes:.1f} ms (vscode.diff {vscode_diff:.1f} ms)',
           "VS Code's own vscode.diff", hermes / vscode_diff, 1.5)
