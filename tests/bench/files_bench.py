"""`inv bench` section "files": the file tools in a real VS Code (code-server) over MCP, side by side with
raw ripgrep on the same generated tree (30,000 source files + a .gitignore'd folder) and the same query,
and the small-file tools (a 2-line file, a 5-entry folder) against the trivial call's round trip.

Measured end to end as an MCP client sees it (HTTP, the extension host, ripgrep, formatting): each tool and
its baseline run in turns (7 rounds, 21 for the 10 MB read, after a warm-up), medians, so the shared machine's
load falls on both alike. Baselines: the ripgrep binary VS Code ships, run directly; for file_read, a plain
read of the same 10 MB file in this process.
"""
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

PACKAGES, MODULES, FILES = 100, 30, 10  # 30,000 files
QUERY = 'needle_marker'  # in one file out of 100: 300 matches
RUNS = 7
BIG_READ_RUNS = 21  # 10 MB reads: 5 runs one after the other swung 1.2×-5×


# The extension host is one thread shared with VS Code's own parts. A CPU profile of it during the 10 MB reads
# showed, besides file_read, VS Code's port finder (remote.autoForwardPorts: a /proc scan, ~15 ms of stat calls
# every few seconds) and the git extension probing the new folder for a repository (a `git rev-parse` spawn,
# ~8 ms each): they landed in random calls and made the ratios swing 1.2×-5×. They are switched off so the numbers
# are Hermes's own.
QUIET_NEIGHBOURS = {'hermes.tools.confirm': 'never', 'remote.autoForwardPorts': False, 'git.enabled': False}


def make_tree(root):
    started = time.perf_counter()
    body = ''.join(f'export function helper{n}(value: number): number {{\n  return value * {n} + {n};\n}}\n\n'
                   for n in range(12))
    for package in range(PACKAGES):
        for module in range(MODULES):
            folder = root / f'pkg{package:03}' / f'mod{module:02}'
            folder.mkdir(parents=True)
            for index in range(FILES):
                number = (package * MODULES + module) * FILES + index
                marker = f'// {QUERY} {number}\n' if number % 100 == 0 else ''
                (folder / f'file{index}.ts').write_text(f'// file {number}\n{marker}{body}')
    (root / '.gitignore').write_text('dist/\n')
    (root / 'dist').mkdir()
    for index in range(2000):  # ignored: neither ripgrep nor the tools should read these
        (root / 'dist' / f'bundle{index}.ts').write_text(f'// {QUERY} ignored {index}\n' + body)
    small = root / 'small'  # the small-file tools: a 2-line file in a 5-entry folder, 3 of them .ts
    small.mkdir()
    (small / 'a.ts').write_text('export const a = 1;\nexport const b = 2;\n')
    for name in ('b.ts', 'c.ts', 'notes.md', 'data.json'):
        (small / name).write_text('x\n')
    (root / 'big.log').write_text(''.join(f'{n:08} INFO request handled in {n % 997} ms\n' for n in range(250000)))
    return time.perf_counter() - started


class Mcp:
    """A minimal Streamable HTTP MCP client (JSON-RPC over POST), so the numbers carry no SDK overhead."""

    def __init__(self, url, token):
        self.url = url
        self.http = httpx.Client(timeout=600, headers={'Authorization': f'Bearer {token}',
                                                       'Accept': 'application/json, text/event-stream'})
        self.next_id = 0
        response = self.post('initialize', {'protocolVersion': '2025-06-18', 'capabilities': {},
                                            'clientInfo': {'name': 'hermes-bench', 'version': '0'}})
        self.http.headers['Mcp-Session-Id'] = response.headers['mcp-session-id']
        self.http.post(url, json={'jsonrpc': '2.0', 'method': 'notifications/initialized'})

    def post(self, method, params):
        self.next_id += 1
        return self.http.post(self.url, json={'jsonrpc': '2.0', 'id': self.next_id, 'method': method, 'params': params})

    def call(self, name, arguments):
        response = self.post('tools/call', {'name': name, 'arguments': arguments})
        if response.headers.get('content-type', '').startswith('text/event-stream'):
            for line in response.text.splitlines():
                if line.startswith('data:'):
                    message = json.loads(line[5:])
                    if 'result' in message or 'error' in message:
                        break
        else:
            message = response.json()
        result = message['result']
        if result.get('isError'):
            raise RuntimeError(f'{name} failed: {result["content"][0]["text"]}')
        return result['content'][0]['text']


def interleaved(actions, runs):
    """The median time of each action, run in turns (one of each per round, after a warm-up round), so the
    machine's load and the extension host's garbage collections fall on every action alike."""
    for action in actions:
        action()
    times = [[] for _ in actions]
    for _ in range(runs):
        for index, action in enumerate(actions):
            started = time.perf_counter()
            action()
            times[index].append(time.perf_counter() - started)
    return [statistics.median(series) for series in times]


def bench_files(heading, row, code_server, vsix, target):
    from playwright.sync_api import sync_playwright
    from vscode_server import CHROMIUM_ARGS, CodeServer
    heading('File tools in a real VS Code over MCP (baseline: raw ripgrep / a plain read, same tree and query)')
    package = next(parent for parent in Path(code_server).resolve().parents if (parent / 'lib' / 'vscode').is_dir())
    modules = package / 'lib' / 'vscode' / 'node_modules'
    candidates = [modules / '@vscode/ripgrep/bin/rg', modules / '@vscode/ripgrep-universal/bin/linux-x64/rg']
    rg = next((path for path in candidates if path.exists()), None)
    if rg is None:
        print('  skipped: VS Code\'s ripgrep was not found under', modules)
        return
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / 'workspace'
        tree.mkdir()
        seconds = make_tree(tree)
        row('generated tree', f'{PACKAGES * MODULES * FILES:,} files + 2,000 ignored, in {seconds:.1f} s')
        server = CodeServer(code_server, vsix, Path(scratch) / 'cs', tree, settings=QUIET_NEIGHBOURS)
        server.install()
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(server.url)
                info = server.discovery_for(tree, timeout=120)
                mcp = Mcp(info['url'], info['token'])
                measure_small(mcp, target)
                measure(mcp, rg, tree, row, target)
                browser.close()
        finally:
            server.stop()


def p50_ms(action, count):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


SMALL_CALLS = [('file_read', {'path': 'small/a.ts'}), ('file_list_directory', {'path': 'small'}),
               ('file_search', {'pattern': '**/*.ts', 'path': 'small'}), ('editor_get_content', {'path': 'small/a.ts'})]


def measure_small(mcp, target):
    """p50 of each small-file tool against the trivial call's round trip, interleaved in rounds."""
    mcp.call('editor_open_file', {'path': 'small/a.ts'})
    calls = [('workspace_get_folders', {})] + SMALL_CALLS
    for name, arguments in calls:
        for _ in range(10):
            mcp.call(name, arguments)  # warm-up
    rounds = {name: [] for name, _ in calls}
    for _ in range(5):
        for name, arguments in calls:
            rounds[name].append(p50_ms(lambda: mcp.call(name, arguments), 20))
    floor = statistics.median(rounds['workspace_get_folders'])
    for name, arguments in SMALL_CALLS:
        ours = statistics.median(rounds[name])
        target(f'{name} {json.dumps(arguments)}', f'{ours:.2f} ms (trivial call {floor:.2f} ms)',
               'workspace_get_folders', ours / floor, 1.5)


def measure(mcp, rg, tree, row, target):
    found = mcp.call('file_search_content', {'query': QUERY, 'max_results': 2000})
    matches = found.split(' ', 1)[0]
    ours, raw, raw_json = interleaved([
        lambda: mcp.call('file_search_content', {'query': QUERY, 'max_results': 2000}),
        lambda: subprocess.run([str(rg), '--no-config', '--hidden', '--fixed-strings', QUERY, str(tree)],
                               capture_output=True, check=True),
        lambda: subprocess.run([str(rg), '--json', '--no-config', '--hidden', '--fixed-strings', QUERY, str(tree)],
                               capture_output=True, check=True)], RUNS)
    target(f'file_search_content "{QUERY}" ({matches} matches)', f'{ours * 1000:.0f} ms', 'raw rg --json',
           ours / raw_json, 1.2)
    row('  raw rg (plain output) / raw rg --json', f'{raw * 1000:.0f} ms / {raw_json * 1000:.0f} ms', 'raw rg',
        ours / raw)

    listed = mcp.call('file_search', {'pattern': '**/*.ts', 'max_results': 5000})
    ours, raw, alone, one = interleaved([
        lambda: mcp.call('file_search', {'pattern': '**/*.ts', 'max_results': 5000}),
        lambda: subprocess.run([str(rg), '--files', '--no-config', '--hidden', '--glob', '*.ts', str(tree)],
                               capture_output=True, check=True),
        lambda: mcp.call('file_search', {'pattern': '**/*.ts', 'max_results': 5000, 'use_ignore_files': False}),
        lambda: mcp.call('file_search', {'pattern': 'pkg042/mod07/*.ts'})], RUNS)
    target(f'file_search "**/*.ts" (first {listed.count(chr(10)) - 1} of 30,000 paths)', f'{ours * 1000:.0f} ms',
           'raw rg --files', ours / raw, 1.3)
    row('  the same without .gitignore (findFiles alone)', f'{alone * 1000:.0f} ms', 'raw rg --files', alone / raw)
    row('file_search "pkg042/mod07/*.ts" (10 paths)', f'{one * 1000:.0f} ms', 'raw rg --files', one / raw)

    size = (tree / 'big.log').stat().st_size
    ours, tail, plain = interleaved([lambda: mcp.call('file_read', {'path': 'big.log'}),
                                     lambda: mcp.call('file_read', {'path': 'big.log', 'start_line': 249000}),
                                     lambda: (tree / 'big.log').read_text()], BIG_READ_RUNS)
    target(f'file_read of a {size / 1e6:.0f} MB file (first 2,000 lines)', f'{ours * 1000:.0f} ms', 'a plain read',
           ours / plain, 1.5)
    row('file_read of its last 1,000 lines', f'{tail * 1000:.0f} ms', 'a plain read', tail / plain)
