"""`inv soak`: a window under many MCP clients for minutes while the user types (issue 24), in a real VS Code
(code-server with the packaged .vsix):

CLIENTS concurrent MCP clients (tests/bench/soak_clients.js: each its own session, a tools/call about once a
second), SUBSCRIBED of them subscribed to the editor's resources (and reading each one announced), for MINUTES while
Playwright types in the editor without a pause (a key every ~30 ms, alternately a letter and Backspace, so the
document keeps its size). Measured each minute: the errors the clients saw, the extension host's RSS
(/proc/<pid>/status, the pid from the window's discovery file), what V8 holds in it (through the e2e probe
extension, installed next to Hermes: the young generation's size, then the heap in use after a full GC and the
memory outside the heap) and keystroke → paint (typing_bench.PROBE); before the clients start, one minute of typing
alone is the baseline.

Why both RSS and the memory kept after a full GC: the extension host's RSS at one instant is mostly V8's choices.
V8 sizes its young generation with the allocation rate (32 or 64 → 128 MB under these clients, at a moment of its
choosing: minute 1 in one run, minute 3 in another; it can shrink it again mid-soak, which once took RSS from 280 to
159 MB) and collects the old generation now and then (up to ~20 MB of garbage waits for it): each swing is larger
than 5% of RSS. What is kept — the heap in use after a full GC, and the memory outside the heap — is what a leak or
a cache without a bound would make grow (docs/DEVELOPING.md, "Memory soaks"). The full GC comes after the minute's
RSS reading, and a forced collection leaves the young generation's size as it is (seen in the profile runs), so
the next minute's RSS is not changed by it.

The verdicts are printed, not asserted (a busy machine is slow, not broken): no error, RSS and the memory kept at
minute MINUTES within 5% of minute 1, keystroke → paint at minute MINUTES against minute 1 and against typing alone.
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

# Run in the extension host (through the probe extension): the young generation's size, then what is kept after a
# full GC. `--expose-gc` set at run time, and `gc` taken from a fresh context, gives the collector's entry point to
# code that was not started with the flag.
HEAP = r'''
const v8 = require('v8');
const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
v8.setFlagsFromString('--expose-gc');
require('vm').runInNewContext('gc')();
const kept = process.memoryUsage();
const lag = globalThis.soakEventLoopDelay;
const delay = lag ? { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 } : null;
if (lag) lag.reset();
return { young: young ? young.space_size : null, heap: kept.heapUsed, outside: kept.external, delay };
'''
# The extension host's event loop delay, from the clients' start on (read and reset each minute with HEAP).
WATCH_DELAY = r'''
globalThis.soakEventLoopDelay = require('perf_hooks').monitorEventLoopDelay({ resolution: 20 });
globalThis.soakEventLoopDelay.enable();
'''


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
    from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench, package_probe_extension, probe_runner
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / 'workspace'
        workspace.mkdir()
        (workspace / 'typing.txt').write_text('start\n')
        probe_vsix = package_probe_extension(Path(scratch) / 'probe.vsix', node,
                                             root / 'node_modules' / '@vscode' / 'vsce' / 'vsce')
        server = CodeServer(code_server_path, vsix, Path(scratch) / 'cs', workspace,
                            settings={'files.autoSave': 'off', 'hermes.mcp.port': 0})
        server.install(probe_vsix)
        server.start()
        process = None
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={'width': 1400, 'height': 900})
                page.set_default_timeout(90000)
                bench = Workbench(page).open(server.url)
                info = server.discovery_for(workspace, timeout=120)
                in_extension_host = probe_runner(server.user_home)
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
                in_extension_host(WATCH_DELAY)

                process = subprocess.Popen([node, str(root / 'tests' / 'bench' / 'soak_clients.js'), info['url'],
                                            info['token'], str(clients), str(subscribed), str(minutes * 60)],
                                           stdout=subprocess.PIPE, text=True)
                reader = ClientLines(process)
                reader.ready.wait(600)
                started = time.monotonic()
                by_minute, rss, heap = [], [], []
                for number in range(1, minutes + 1):
                    by_minute.append(type_until(page, started + number * 60))
                    rss.append(rss_bytes(info['pid']))  # first: the GC below must not touch this reading
                    heap.append(in_extension_host(HEAP, timeout=120))
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
    for number, (latencies, memory, kept) in enumerate(zip(by_minute, rss, heap), 1):
        counts = next((m for m in reader.of('minute') if m['number'] == number), None) or {}
        row(f'minute {number}: calls / errors / updates / reads', f"{counts.get('calls', '?')} / "
            f"{counts.get('errors', '?')} / {counts.get('notifications', '?')} / {counts.get('reads', '?')}")
        row(f'minute {number}: ext host RSS; key → paint median, p95',
            f'{memory / 2**20:.1f} MB; {statistics.median(latencies):.1f}, {p95(latencies):.1f} ms '
            f'({len(latencies)} keys)')
        row(f'minute {number}: young gen.; after a full GC', f"{megabytes(kept['young'])} MB; heap "
            f"{megabytes(kept['heap'])} MB in use, {megabytes(kept['outside'])} MB outside it")
    if done is not None:
        kinds = ', '.join(f'{kind} ×{count}' for kind, count in done['errorKinds'].items()) or 'none'
        row('errors the clients saw (whole soak)', f"{done['errors']} of {done['calls']:,} calls, "
            f"{done['reads']:,} reads ({kinds})")
        failures = next(line for line in reader.lines if 'done' in line).get('failures', [])
        if failures:
            start = failures[0]['at']
            row('the first errors: s after the first; socket reused, idle ms', ', '.join(
                f"{(f['at'] - start) / 1000:.1f} s {'reused' if f.get('reused') else 'new'} {f.get('idleMs')}"
                for f in failures[:30]))
    row('clients\' event loop delay per minute: p99 / max ms', ', '.join(
        f"{m['loop']['p99']:.0f} / {m['loop']['max']:.0f}" for m in reader.of('minute') if 'loop' in m))
    row('ext host event loop delay per minute: p99 / max ms', ', '.join(
        f"{kept['delay']['p99']:.0f} / {kept['delay']['max']:.0f}" for kept in heap if kept.get('delay')))
    row('[error] lines in the Hermes log during the soak', str(errors_logged))
    target(f'ext host RSS at minute {minutes}', f'{rss[-1] / 2**20:.1f} MB', 'minute 1', rss[-1] / rss[0], 1.05)
    row(f'  of it V8\'s young generation', f"{megabytes(heap[-1]['young'])} MB (minute 1: "
        f"{megabytes(heap[0]['young'])} MB)")
    first_kept, last_kept = (kept['heap'] + kept['outside'] for kept in (heap[0], heap[-1]))
    target(f'memory kept at minute {minutes} (heap after a full GC + outside it)', f'{last_kept / 2**20:.1f} MB',
           'minute 1', last_kept / first_kept, 1.05)
    first, last, base = (statistics.median(by_minute[0]), statistics.median(by_minute[-1]),
                         statistics.median(alone))
    row(f'key → paint median, typing alone (before the clients)', f'{base:.1f} ms ({len(alone)} keys)')
    target(f'key → paint median at minute {minutes}', f'{last:.1f} ms', 'minute 1', last / first, 1.10)
    row(f'key → paint median at minute {minutes}', f'{last:.1f} ms', 'typing alone', last / base)


def megabytes(size):
    return '?' if size is None else f'{size / 2**20:.1f}'


def p95(values):
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]
