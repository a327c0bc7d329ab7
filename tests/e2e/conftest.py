"""Fixtures and the one way this layer starts a VS Code: `running_code_server` (code-server with our .vsix and
any test-only extension, on a workspace) and `open_window` (a Chromium page on it, traced). Every window
opened through them leaves evidence when a test that used it fails (`evidence_on_failure`): a screenshot, the
tail of the Hermes log, code-server's window.log and a Playwright trace (`playwright show-trace FILE`), in
tests/artifacts/<window>-failure-<test>.*"""
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
# For every module of the layer (this file is loaded before them): tests/, whose helpers the layers share
# (acp_agents.py, llm_server/, terminal_env.py), and the root (tasks.py).
sys.path[:0] = [folder for folder in (str(ROOT / 'tests'), str(ROOT)) if folder not in sys.path]

from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench

from llm_server.scenarios import Reply, text_events
from llm_server.server import ScriptedLlmServer

# The model the built-in loop talks to in the `llm` fixture, with a 32K context (vLLM's max_model_len): Hermes'
# own tools alone take about 9K tokens of prompt.
BUILTIN_MODEL = 'qwen2.5:7b'
ARTIFACTS = ROOT / 'tests' / 'artifacts'
FIXTURE_WORKSPACE = ROOT / 'tests' / 'fixtures' / 'workspace'
VIEWPORT = {'width': 1400, 'height': 900}
# How long a Playwright wait may take before it fails (its default is 30 s): a generous ceiling, since a busy
# machine is slow, not broken. Waits that are a cue to retry pass their own short timeout.
CEILING_MS = 90000

# VS Code for the web keeps the window's own log (window.log: dialogs, commands, errors of the workbench) in the
# browser's IndexedDB, not on disk: read it from the page.
READ_WINDOW_LOG = """async () => {
  const db = await new Promise((ok, fail) => {
    const open = indexedDB.open('vscode-web-db');
    open.onsuccess = () => ok(open.result);
    open.onerror = () => fail(open.error);
  });
  const store = db.transaction('vscode-logs-store').objectStore('vscode-logs-store');
  const all = (request) => new Promise((ok, fail) => { request.onsuccess = () => ok(request.result);
                                                       request.onerror = () => fail(request.error); });
  const [keys, values] = [await all(store.getAllKeys()), await all(store.getAll())];
  const text = (value) => typeof value === 'string' ? value : new TextDecoder().decode(value);
  return keys.map((key, i) => [String(key), text(values[i])]).filter(([key]) => key.endsWith('window.log'));
}"""


def required_env(name):
    value = os.environ.get(name)
    if not value or not Path(value).exists():
        pytest.exit(f'{name} is not set or missing: run the e2e layer with `inv e2e`', returncode=2)
    return value


def copy_of_fixture_workspace(tmp_path_factory, name):
    """A copy of tests/fixtures/workspace of its own, so a module's tests may change files freely."""
    target = tmp_path_factory.mktemp(name) / 'workspace'
    shutil.copytree(FIXTURE_WORKSPACE, target)
    return target


@contextmanager
def running_code_server(tmp_path_factory, workspace, name, settings=None, extensions=(), workspace_trust=False,
                        proposals=True):
    """code-server on `workspace` with our .vsix (and `extensions`, test-only .vsix files) and `settings` at
    user level (`workspace_trust`, `proposals`: vscode_server.CodeServer's); stopped when the block ends."""
    server = CodeServer(required_env('HERMES_CODE_SERVER'), required_env('HERMES_VSIX'),
                        tmp_path_factory.mktemp(f'code-server-{name}'), workspace, settings=settings,
                        workspace_trust=workspace_trust, proposals=proposals)
    server.install(*extensions)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Evidence:
    """An open window and what to keep of it when a test fails."""

    def __init__(self, name, bench, server, context):
        self.name, self.bench, self.server, self.context = name, bench, server, context

    def used_by(self, values):
        return any(value is self.bench or value is self.server
                   or (isinstance(value, dict) and any(inner is self.bench for inner in value.values()))
                   for value in values)

    def keep(self, test):
        stem = ARTIFACTS / f'{self.name}-failure-{test}'
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for what, action in [('screenshot', lambda: self.bench.screenshot(f'{stem}.png')),
                             ('window.log', lambda: self._keep_window_log(f'{stem}.window.log')),
                             ('trace', lambda: self.context.tracing.stop_chunk(path=f'{stem}.trace.zip'))]:
            try:
                action()
            except Exception as error:  # evidence is best effort: the test's own failure is what matters
                print(f'(no {what} for {self.name}: {error})')
        print(f'--- {self.name}: Hermes log (tail) ---\n' + self.server.extension_log_text()[-3000:])
        print(f'--- {self.name}: evidence in {stem}.png, .window.log, .trace.zip ---')

    def _keep_window_log(self, path):
        logs = self.bench.page.evaluate(READ_WINDOW_LOG)
        Path(path).write_text(''.join(f'===== {key}\n{text}\n' for key, text in logs))


OPEN_WINDOWS = []


def scripted_agent_settings(*agents):
    """User settings for a window whose side panel and "+" sessions run the scripted ACP agent: `agents` as
    `hermes.acp.agents` (the one named Scripted picked), the MCP server on a free port, the screenshots' dark theme."""
    return {'hermes.mcp.port': 0, 'hermes.acp.agents': list(agents), 'hermes.agent.backend': 'Scripted',
            'workbench.colorTheme': 'Default Dark Modern'}


@contextmanager
def open_window(browser, server, name, url=None, on_page=None, **context_options):
    """A page on `server` (or `url`), traced so that a failed test can keep what happened in it; `on_page(page)`
    runs before the workbench loads (to listen to the console, say)."""
    context = browser.new_context(viewport=VIEWPORT, **context_options)
    context.set_default_timeout(CEILING_MS)
    context.tracing.start(screenshots=True, snapshots=True)  # one chunk a test, kept only when it fails
    page = context.new_page()
    if on_page:
        on_page(page)
    evidence = None
    try:
        bench = Workbench(page).open(url or server.url)
        evidence = Evidence(name, bench, server, context)
        OPEN_WINDOWS.append(evidence)
        yield bench
    finally:
        if evidence:
            OPEN_WINDOWS.remove(evidence)
        context.tracing.stop()
        context.close()


def shown_text(box):
    """What a Monaco editor `box` shows, its spaces and wrapped lines as single spaces (Monaco draws spaces as
    no-break spaces and wraps a long line into several)."""
    return ' '.join(box.inner_text().replace('\u00a0', ' ').split())


def typed_into(page, box, text):
    """Whether `text` shows in the input `box` (Monaco renders on the next frames): a cue to type again, the
    verdict comes after."""
    wanted = ' '.join(text.split())
    for _ in range(20):
        if wanted in shown_text(box):
            return True
        page.wait_for_timeout(250)
    return False


def type_and_send(page, box, text):
    """Replace what an input `box` (a Monaco editor, like the Chat view's) holds with `text`, as a user types
    it, and press Enter once the input shows it. Keys go where the focus is: a webview or a toast that takes it
    between the click and the typing gets the text instead, so what was typed elsewhere is taken out again and
    typed anew — never sent there."""
    for _ in range(3):
        box.click()
        page.keyboard.press('Control+a')
        page.keyboard.press('Backspace')
        page.keyboard.type(text)
        if typed_into(page, box, text):
            break
        page.keyboard.press('Control+a')
        page.keyboard.press('Backspace')
    assert ' '.join(text.split()) in shown_text(box), f'the input shows what was typed: {text!r}'
    page.keyboard.press('Enter')


@pytest.fixture(autouse=True)
def evidence_on_failure(request):
    """A failed test keeps the evidence of each window it used (through any of its fixtures)."""
    yield
    failed = getattr(request.node, 'call_failed', False)
    used = request.node.funcargs.values()
    for window in list(OPEN_WINDOWS):
        if failed and window.used_by(used):
            window.keep(request.node.name)
        else:
            window.context.tracing.stop_chunk()
        window.context.tracing.start_chunk()


@pytest.fixture(scope='module')
def llm():
    """The scripted OpenAI-compatible model (tests/llm_server) for the built-in loop, one per module; its replies are
    scripted by each test. A module that needs other models or a title defines its own `llm`."""
    with ScriptedLlmServer({'replies': [Reply(text_events('Hello.'))], 'models': [BUILTIN_MODEL],
                            'model_fields': {'max_model_len': 32768}}) as server:
        yield server


@pytest.fixture(scope='session')
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope='session')
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope='session')
def workspace(tmp_path_factory):
    """A copy of the fixture workspace, so tests may change files freely; a git repository with one commit
    on `main` (and a local identity, since code-server's HOME has no git config)."""
    target = copy_of_fixture_workspace(tmp_path_factory, 'ws')
    for command in (['init', '-q', '-b', 'main'], ['config', 'user.name', 'Hermes E2E'],
                    ['config', 'user.email', 'e2e@hermes.invalid'], ['add', '-A'], ['commit', '-q', '-m', 'Fixture']):
        subprocess.run(['git', *command], cwd=target, check=True, capture_output=True)
    return target


@pytest.fixture(scope='session')
def code_server(tmp_path_factory, workspace):
    # TypeScript: one server, the one that loads the project. By default VS Code runs a second, partial one that
    # answers while the project loads: a definition asked then gives the import line of the file asked about, not
    # the imported file (seen under load: ts/main.ts:1 instead of ts/greeter.ts:7). With the full server only, a
    # request waits for the project instead of racing it.
    settings = {'hermes.tools.confirm': 'never', 'typescript.tsserver.useSyntaxServer': 'never'}
    with running_code_server(tmp_path_factory, workspace, 'main', settings=settings) as server:
        yield server


@pytest.fixture(scope='session')
def workbench(browser, code_server):
    with open_window(browser, code_server, 'main') as bench:
        yield bench


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """`item.call_failed`: lets `evidence_on_failure` keep evidence for a failed test."""
    outcome = yield
    report = outcome.get_result()
    if report.when == 'call':
        item.call_failed = report.failed
