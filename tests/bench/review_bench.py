"""`inv bench` section "review" (issue 34, target 3): what pending changes cost the user's own work in a real VS Code
(code-server, the packaged extension, one window, the official Python SDK as the agent's MCP client).

1. Keystroke → paint in a file of the user's while 1,000 hunks wait for review in 100 other files (10 hunks each,
   written by the agent's file_write with hermes.changes.trackExternal on), against none (all kept); rounds alternate
   none / pending, the hunks written anew (untimed) before each pending round. The page's probe is
   tests/bench/typing_bench.py's (a keydown stamp, the next frame after the editor's lines changed).
2. The Changes view with 500 pending files (one hunk each): opened (its `.focus` command, from the extension host
   through the probe extension) and scrolled to the end and back with the mouse wheel, while a PerformanceObserver
   in the workbench's page collects long tasks (with where they ran: the workbench's own document, where the trees
   are drawn, or a frame: the Changes view opens the Hermes Agent container, whose Chat view is a webview that starts
   then). Target: none over 50 ms. Baseline: VS Code's own Explorer opened and scrolled over the same 500 files.
With HERMES_BENCH_PROFILE=<folder>, the workbench page's CPU profile while each view opens and scrolls is written there
(<view>.cpuprofile, through Playwright's CDP session), to see what a long task was.
"""
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from typing_bench import PROBE, type_round

ROUNDS = 3  # pairs (none, pending)
FILES, HUNKS, LINES = 100, 10, 200  # 1,000 hunks in 100 files of 200 lines
VIEW_FILES = 500
CLIENT = 'bench-agent'
SETTINGS = {'hermes.tools.confirm': 'never', 'remote.autoForwardPorts': False, 'git.enabled': False,
            'files.autoSave': 'off', 'hermes.changes.trackExternal': True}
LONG_TASKS = """() => {
  window.__hermesLongTasks = [];
  // entry.name: 'self' (the workbench's own document, where the views' trees are drawn) or a frame's (webviews)
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__hermesLongTasks.push([entry.duration, entry.name]); })
    .observe({ type: 'longtask' });
}"""


def text(tag, edited=()):
    return ''.join(f'    value_{i} = compute({i}, "{tag if i in edited else "base"}")  # line {i}\n' for i in range(LINES))


EDITED = [10 + 19 * n for n in range(HUNKS)]  # lines far enough apart to stay separate hunks


def write_pending(client, round_number):
    for index in range(FILES):
        client.ok('file_write', {'path': f'pending/file{index:03}.py', 'content': text(f'r{round_number}', EDITED)})


def pending(client):
    """(files, hunks) pending from this client (the summary: the list itself stops at 100 files)."""
    _, view = client.ok('changes_list', {'client': CLIENT, 'include_lines': False})
    return view['summary']['files'], view['summary']['hunks']


def scroll_view(page, pane, rows):
    """Wheel through `pane` to the end and back; the long tasks collected meanwhile (ms)."""
    page.evaluate('() => { window.__hermesLongTasks = []; }')
    box = pane.bounding_box()
    page.mouse.move(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2)
    for _ in range(rows // 10):
        page.mouse.wheel(0, 220)
        page.wait_for_timeout(16)
    for _ in range(rows // 10):
        page.mouse.wheel(0, -220)
        page.wait_for_timeout(16)
    page.wait_for_timeout(500)
    return page.evaluate('() => window.__hermesLongTasks.slice()')


def bench_review(heading, row, target, code_server, vsix, root):
    import mcp.types as types
    from playwright.sync_api import sync_playwright
    from mcp_session import McpSession
    from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench, package_probe_extension, probe_runner, wait_until
    from tasks import node_bin
    heading(f'Review in a real VS Code: keystroke → paint with {FILES * HUNKS:,} pending hunks in {FILES} files against '
            f'none (alternating rounds), and the Changes view with {VIEW_FILES} pending files (long tasks)')
    with tempfile.TemporaryDirectory() as scratch:
        workspace = Path(scratch) / 'workspace'
        (workspace / 'pending').mkdir(parents=True)
        (workspace / 'many').mkdir()
        for index in range(FILES):
            (workspace / 'pending' / f'file{index:03}.py').write_text(text('base'))
        for index in range(VIEW_FILES):
            (workspace / 'many' / f'module{index:03}.py').write_text(f'VALUE = {index}\n')
        (workspace / 'typing.txt').write_text('start\n')
        probe_vsix = package_probe_extension(Path(scratch) / 'probe.vsix', node_bin(),
                                             root / 'node_modules' / '@vscode' / 'vsce' / 'vsce')
        server = CodeServer(code_server, vsix, Path(scratch) / 'cs', workspace, settings=SETTINGS)
        server.install(probe_vsix)
        server.start()
        client = None
        typing = {False: [], True: []}
        counted = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={'width': 1400, 'height': 900})
                Workbench(page).open(server.url)
                probe = probe_runner(server.user_home)
                info = server.discovery_for(workspace, timeout=120)
                client = McpSession(info['url'], info['token'],
                                    client_info=types.Implementation(name=CLIENT, version='1'))
                client.ok('editor_open_file', {'path': 'typing.txt', 'line': 1, 'preview': False})
                lines = page.locator('.editor-instance .monaco-editor .view-lines').first
                lines.wait_for(timeout=30000)
                lines.click()
                page.keyboard.press('Control+End')
                page.evaluate(PROBE)
                type_round(page)  # warm-up
                for number in range(ROUNDS):
                    for with_pending in (False, True):
                        if with_pending:
                            write_pending(client, number)
                            counted.append(wait_until(lambda: (lambda found: found if found[1] >= FILES * HUNKS
                                                               else None)(pending(client)), 60,
                                                      what=f'{FILES * HUNKS} pending hunks'))
                            time.sleep(1.5)  # the change log's announcements after the burst are not typing
                        lines.click()
                        page.keyboard.press('Control+End')
                        typing[with_pending].extend(type_round(page))
                        if with_pending:
                            client.ok('command_execute', {'command': 'hermes.changes.keepAll'})
                            wait_until(lambda: pending(client)[0] == 0, 60, what='every change kept')
                # the Changes view, 500 files
                for index in range(VIEW_FILES):
                    client.ok('file_write', {'path': f'many/module{index:03}.py', 'content': f'VALUE = {index + 1}\n'})
                wait_until(lambda: pending(client)[0] >= VIEW_FILES, 60, what=f'{VIEW_FILES} pending files')
                time.sleep(1.5)
                page.evaluate(LONG_TASKS)
                views = {}
                reveal = ("await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(%r));"
                          % str(workspace / 'many' / 'module000.py'))  # the folder of 500 files unfolded
                for name, code, pane in (
                        ('Explorer', reveal, '.explorer-folders-view'),
                        ('Changes', "await vscode.commands.executeCommand('hermes.changes.focus');",
                         '.pane:has(.pane-header[aria-label^="Changes"])')):
                    profiling = os.environ.get('HERMES_BENCH_PROFILE')
                    if profiling:
                        cdp = page.context.new_cdp_session(page)
                        cdp.send('Profiler.enable')
                        cdp.send('Profiler.setSamplingInterval', {'interval': 200})
                        cdp.send('Profiler.start')
                    page.evaluate('() => { window.__hermesLongTasks = []; }')
                    started = time.perf_counter()
                    probe(code)
                    view = page.locator(pane).first
                    view.locator('.monaco-list-row').first.wait_for(state='visible', timeout=60000)
                    shown_ms = (time.perf_counter() - started) * 1000
                    page.wait_for_timeout(500)
                    opening = page.evaluate('() => window.__hermesLongTasks.slice()')
                    scrolling = scroll_view(page, view, VIEW_FILES)
                    views[name] = (shown_ms, opening, scrolling)
                    if profiling:
                        Path(profiling).mkdir(parents=True, exist_ok=True)
                        (Path(profiling) / f'{name}.cpuprofile').write_text(
                            json.dumps(cdp.send('Profiler.stop')['profile']))
                client.ok('command_execute', {'command': 'hermes.changes.keepAll'})
                browser.close()
        finally:
            if client is not None:
                client.close()
            server.stop()
    base, loaded = statistics.median(typing[False]), statistics.median(typing[True])
    files, hunks = counted[0]
    target(f'keystroke → paint, {hunks:,} pending hunks in {files} files', f'{loaded:.1f} ms (none {base:.1f} ms; '
           f'{len(typing[True])} keys each)', 'no pending hunk', loaded / base, 1.10)
    p95 = lambda values: sorted(values)[int(len(values) * 0.95) - 1]
    row('  p95 none / pending', f'{p95(typing[False]):.1f} / {p95(typing[True]):.1f} ms')
    for name, (shown_ms, opening, scrolling) in views.items():
        durations = lambda tasks: [task[0] for task in tasks]
        longest = max(durations(opening + scrolling) + [0])
        own = max([task[0] for task in opening + scrolling if task[1] == 'self'] + [0])
        summary = (f'shown in {shown_ms:.0f} ms; longest task {longest:.0f} ms, in the workbench\'s own document '
                   f'{own:.0f} ms (opening: {len(opening)} over 50 ms, longest {max(durations(opening) + [0]):.0f}; '
                   f'scrolling: {len(scrolling)}, longest {max(durations(scrolling) + [0]):.0f}; where: '
                   f'{sorted(set(task[1] for task in opening + scrolling))})')
        if name == 'Changes':
            explorer = max(durations(views['Explorer'][1] + views['Explorer'][2]) + [0])
            target(f'Changes view, {VIEW_FILES} pending files', summary + f'; the Explorer: longest {explorer:.0f} ms',
                   None, None, 'no long task over 50 ms', met=longest <= 50)
        else:
            row(f'baseline: the Explorer, the same {VIEW_FILES} files', summary)
