"""`inv soak`: a window under many MCP clients for minutes while the user types (issue 24), in a real VS Code
(code-server with the packaged .vsix):

CLIENTS concurrent MCP clients (tests/bench/soak_clients.js: each its own session, a tools/call about once a
second), SUBSCRIBED of them subscribed to the editor's resources (and reading each one announced), for MINUTES while
Playwright types in the editor without a pause (a key every ~30 ms, alternately a letter and Backspace, so the
document keeps its size). Measured each minute: the errors the clients saw, the extension host's RSS
(/proc/<pid>/status, the pid from the window's discovery file) and keystroke → paint (typing_bench.PROBE);
before the clients start, one minute of typing alone is the baseline.

The verdicts are printed, not asserted (a busy machine is slow, not broken): no error, RSS at minute MINUTES within
5% of minute 1, keystroke → paint at minute MINUTES against minute 1 and against typing alone.
"""
import json
import re
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from typing_bench import PROBE

KEY_INTERVAL_MS = 30


def rss_bytes(pid):
    status = Path(f'/proc/{pid}/status').read_text()
    return int(re.search(r'^VmRSS:\s+(\d+) kB', status, re.MULTILINE).group(1)) * 1024


def type_until(page, deadline):
    """Type in the editor until `deadline` (time.monotonic()); the keystroke → paint latencies measured meanwhile."""
    page.evaluate('() => { window.__hermesLatencies = []; }')
    letter = True
    while time.monotonic() < deadline:
        page.keyboard.press('x' if letter else 'Backspace')
        letter = not letter
        page.wait_for_timeout(KEY_INTERVAL_MS)
    page.wait_for_timeout(300)  # the last key's paint
    return page.evaluate('() => window.__hermesLatencies.slice()')


class ClientLines:
    """soak_clients.js's JSON lines, read on a thread of their own as they come."""

    def __init__(self, process):
        self.lines = []
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process):
        for line in process.stdout:
            message = json.loads(line)
            self.lines.append(message)
            if 'ready' in message or 'failed' in message:
                self.ready.set()
        self.ready.set()

    def of(self, kind):
        return [line[kind] for line in self.lines if kind in line]


def bench_soak(heading, row, target, code_server_path, vsix, root, node, minutes=5, clients=100, subscribed=50):
    heading(f'Soak: {clients} MCP clients ({subscribed} subscribed to the editor\'s resources) on one window for '
            f'{minutes} min while the user types (tests/bench/soak_bench.py)')
    from playwright.sync_api import sync_playwright
    from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / 'workspace'
        workspace.mkdir()
        (workspace / 'typing.txt').write_text('start\n')
        server = CodeServer(code_server_path, vsix, Path(scratch) / 'cs', workspace,
                            settings={'files.autoSave': 'off', 'hermes.mcp.port': 0})
        server.install()
        server.start()
        process = None
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={'width': 1400, 'height': 900})
                page.set_default_timeout(90000)
                bench = Workbench(page).open(server.url)
                info = server.discovery_for(workspace, timeout=120)
                page.keyboard.press('Control+P')  # the file opened as a user opens it (no MCP session of our own)
                page.locator('.quick-input-widget input').fill('typing.txt')
                page.locator('.quick-input-list .monaco-list-row', has_text='typing.txt').first.click()
                lines = page.locator('.editor-instance .monaco-editor .view-lines').first
                lines.wait_for()
                lines.click()
                page.keyboard.press('Control+End')
                page.evaluate(PROBE)
                type_until(page, time.monotonic() + 10)  # warm-up
                alone = type_until(page, time.monotonic() + 60)
                errors_before = server.extension_log_text().count('[error]')

                process = subprocess.Popen([node, str(root / 'tests' / 'bench' / 'soak_clients.js'), info['url'],
                                            info['token'], str(clients), str(subscribed), str(minutes * 60)],
                                           stdout=subprocess.PIPE, text=True)
                reader = ClientLines(process)
                reader.ready.wait(600)
                started = time.monotonic()
                by_minute, rss = [], []
                for number in range(1, minutes + 1):
                    by_minute.append(type_until(page, started + number * 60))
                    rss.append(rss_bytes(info['pid']))
                process.wait(120)
                reader.thread.join(10)
                errors_logged = server.extension_log_text().count('[error]') - errors_before
                bench.screenshot(root / 'tests' / 'artifacts' / 'soak-end.png')
                browser.close()
        finally:
            if process is not None and process.poll() is None:
                process.kill()
            server.stop()
    failed = reader.of('failed')
    if failed:
        row('the clients failed to start', failed[0][:300])
        return
    [done] = reader.of('done') or [None]
    for number, (latencies, memory) in enumerate(zip(by_minute, rss), 1):
        counts = next((m for m in reader.of('minute') if m['number'] == number), None) or {}
        row(f'minute {number}: calls / errors / updates / reads', f"{counts.get('calls', '?')} / "
            f"{counts.get('errors', '?')} / {counts.get('notifications', '?')} / {counts.get('reads', '?')}")
        row(f'minute {number}: ext host RSS; key → paint median, p95',
            f'{memory / 2**20:.1f} MB; {statistics.median(latencies):.1f}, {p95(latencies):.1f} ms '
            f'({len(latencies)} keys)')
    if done is not None:
        kinds = ', '.join(f'{kind} ×{count}' for kind, count in done['errorKinds'].items()) or 'none'
        row('errors the clients saw (whole soak)', f"{done['errors']} of {done['calls']:,} calls, "
            f"{done['reads']:,} reads ({kinds})")
    row('[error] lines in the Hermes log during the soak', str(errors_logged))
    target(f'ext host RSS at minute {minutes}', f'{rss[-1] / 2**20:.1f} MB', 'minute 1', rss[-1] / rss[0], 1.05)
    first, last, base = (statistics.median(by_minute[0]), statistics.median(by_minute[-1]),
                         statistics.median(alone))
    row(f'key → paint median, typing alone (before the clients)', f'{base:.1f} ms ({len(alone)} keys)')
    target(f'key → paint median at minute {minutes}', f'{last:.1f} ms', 'minute 1', last / first, 1.10)
    row(f'key → paint median at minute {minutes}', f'{last:.1f} ms', 'typing alone', last / base)


def p95(values):
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]
