import os
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from vscode_server import CHROMIUM_ARGS, CodeServer, Workbench

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / 'tests' / 'artifacts'
FIXTURE_WORKSPACE = ROOT / 'tests' / 'fixtures' / 'workspace'


def _required_env(name):
    value = os.environ.get(name)
    if not value or not Path(value).exists():
        pytest.exit(f'{name} is not set or missing: run the e2e layer with `inv e2e`', returncode=2)
    return value


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
    target = tmp_path_factory.mktemp('ws') / 'workspace'
    shutil.copytree(FIXTURE_WORKSPACE, target)
    for command in (['init', '-q', '-b', 'main'], ['config', 'user.name', 'Hermes E2E'],
                    ['config', 'user.email', 'e2e@hermes.invalid'], ['add', '-A'], ['commit', '-q', '-m', 'Fixture']):
        subprocess.run(['git', *command], cwd=target, check=True, capture_output=True)
    return target


@pytest.fixture(scope='session')
def code_server(tmp_path_factory, workspace):
    server = CodeServer(_required_env('HERMES_CODE_SERVER'), _required_env('HERMES_VSIX'),
                        tmp_path_factory.mktemp('code-server'), workspace, settings={'hermes.tools.confirm': 'never'})
    server.install()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope='session')
def workbench(browser, code_server):
    page = browser.new_page(viewport={'width': 1400, 'height': 900})
    bench = Workbench(page).open(code_server.url)
    yield bench
    page.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """`item.call_failed`: lets a fixture leave evidence (a screenshot, logs) behind for a failed test."""
    outcome = yield
    report = outcome.get_result()
    if report.when == 'call':
        item.call_failed = report.failed
