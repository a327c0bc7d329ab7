"""A real VS Code for tests: code-server with our .vsix installed, driven by headless Chromium.

The extension host only starts when a page is connected, so a test opens the
workbench with Playwright and then talks to VS Code through the UI (command palette, notifications)
and through the files it writes (the extension's log in the user-data dir).
"""
import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from terminal_env import without_ci_marks

CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
                 '--disable-sync', '--no-first-run', '--disable-quic']
BASE_SETTINGS = {
    'security.workspace.trust.enabled': False,
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'workbench.tips.enabled': False,
    'extensions.ignoreRecommendations': True,
    'update.mode': 'none',
}


PROBE_DIR = Path(__file__).resolve().parent / 'probe_extension'

# code-server grants every API proposal to every extension, twice: its workbench hard-codes ExtensionsProposedApi's
# `_envEnablesProposedApiForAll` to true (so an extension keeps its declared enabledApiProposals), and its extension
# host's isProposedApiEnabled returns true whatever the extension declared. Stable VS Code allows an extension's
# proposals only with --enable-proposed-api or argv.json's enable-proposed-api. `stable_api_code_server` makes a
# copy of code-server (hard links) with both switched back: the extension gets no proposal, as a marketplace
# install in stable VS Code does.
WORKBENCH_JS = Path('lib/vscode/out/vs/code/browser/workbench/workbench.js')
EXTENSION_HOST_JS = Path('lib/vscode/out/vs/workbench/api/node/extensionHostProcess.js')
PROPOSALS_FOR_ALL = re.compile(re.escape('this._envEnablesProposedApiForAll=!0'))
ALWAYS_ENABLED = re.compile(r'function ([A-Za-z0-9_$]+)\((\w),(\w)\)\{return!0\}(?=function [A-Za-z0-9_$]+\(\w,\w\)'
                            r'\{if\(!\1\(\w,\w\)\)throw new Error\(`Extension \'\$\{\w\.identifier\.value\}\' CANNOT use API)')
STABLE_API_COPY = 'code-server-stable-api'


def _patched(path, pattern, replacement):
    """Write `path` anew (it is a hard link to the original) with `pattern`, found once, replaced."""
    text = path.read_text()
    if len(pattern.findall(text)) != 1:
        raise RuntimeError(f'code-server\'s {path.name} no longer holds {pattern.pattern!r} once')
    path.unlink()
    path.write_text(pattern.sub(replacement, text))


def stable_api_code_server(code_server):
    """The entry script of code-server's copy without proposals for all (made once, next to the package in the
    cache; the original is left as it is). `code_server`: the original's entry script (HERMES_CODE_SERVER)."""
    entry = Path(code_server).resolve()  # .../code-server/out/node/entry.js
    package = entry.parents[2]
    copy = package.parent / STABLE_API_COPY
    if not copy.exists():
        building = package.parent / f'{STABLE_API_COPY}.{os.getpid()}'
        subprocess.run(['cp', '-al', str(package), str(building)], check=True)
        _patched(building / WORKBENCH_JS, PROPOSALS_FOR_ALL, 'this._envEnablesProposedApiForAll=!1')
        _patched(building / EXTENSION_HOST_JS, ALWAYS_ENABLED,  # VS Code's own isProposedApiEnabled
                 lambda match: f'function {match.group(1)}({match.group(2)},{match.group(3)}){{return!!'
                               f'{match.group(2)}.enabledApiProposals&&{match.group(2)}.enabledApiProposals'
                               f'.includes({match.group(3)})}}')
        try:
            building.rename(copy)
        except OSError:  # another run made it first
            subprocess.run(['rm', '-rf', str(building)], check=True)
    return str(copy / entry.relative_to(package))


def package_probe_extension(target, node, vsce):
    """The test-only probe extension (probe_extension/) as a .vsix at `target`."""
    subprocess.run([str(node), str(vsce), 'package', '--no-dependencies', '--allow-missing-repository',
                    '--skip-license', '-o', str(target)],
                   cwd=PROBE_DIR, check=True, capture_output=True, text=True, timeout=120)
    return target


def probe_runner(user_home):
    """A function that runs JavaScript (with `vscode` in scope) in the extension host, through the probe
    extension installed next to Hermes, and returns its JSON value."""
    wait_until(lambda: (Path(user_home) / '.hermes-e2e-probe.json').exists(), 60, what='the probe extension')
    port = json.loads((Path(user_home) / '.hermes-e2e-probe.json').read_text())['port']

    def run(code, timeout=60):
        request = urllib.request.Request(f'http://127.0.0.1:{port}/', data=json.dumps({'code': code}).encode(),
                                         method='POST')
        answer = json.loads(urllib.request.urlopen(request, timeout=timeout).read())
        if not answer['ok']:
            raise AssertionError('in the extension host: ' + answer['error'])
        return answer['value']
    return run


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


# No wait in this layer gives up sooner: a machine busy with other work is slow, not broken, and a test must
# not fail for it. A wait names the time it usually needs; the ceiling is what it is allowed.
MIN_CEILING_S = 90


def wait_until(predicate, timeout, interval=0.2, what='condition'):
    """Poll `predicate` until it returns something true (which is returned). Gives up after `timeout`
    seconds, but never before MIN_CEILING_S."""
    timeout = max(timeout, MIN_CEILING_S)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f'timed out after {timeout}s waiting for {what}')


def attempts(ceiling_s=MIN_CEILING_S):
    """Attempt numbers for a retry loop (a click the workbench may swallow while it settles), until `ceiling_s`
    has passed: bounded by time, not by a count, so a busy machine gets as many tries as it needs."""
    deadline = time.monotonic() + ceiling_s
    number = 0
    while number == 0 or time.monotonic() < deadline:
        number += 1
        yield number


def holds_within(predicate, seconds, interval=0.2):
    """`predicate`'s true value if it turns true within `seconds`, else None: a cue to try again inside
    `attempts()`, never a verdict (verdicts wait with wait_until)."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value or None
        time.sleep(interval)


def stays_true(predicate, seconds, interval=0.2):
    """Whether `predicate` holds at every look for `seconds` (a view that the workbench may still replace while it
    settles, as after a reload): a cue to try again inside `attempts()`, never a verdict."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not predicate():
            return False
        time.sleep(interval)
    return bool(predicate())


class CodeServer:
    """One code-server process with its own user-data and extensions folders under `home`."""

    def __init__(self, code_server, vsix, home, workspace, settings=None, workspace_trust=False, proposals=True):
        """`workspace_trust`: VS Code's workspace trust on (with settings that turn it on too): a folder not trusted
        opens in Restricted Mode. `proposals` False: no API proposals for the extension, as in stable VS Code."""
        self.workspace_trust = workspace_trust
        self.code_server, self.vsix = str(code_server), str(vsix)
        if not proposals:
            self.code_server = stable_api_code_server(code_server)
        self.home, self.workspace = Path(home), Path(workspace)
        self.user_data = self.home / 'user-data'
        self.extensions = self.home / 'extensions'
        self.settings = dict(BASE_SETTINGS, **(settings or {}))
        self.port = None
        self.process = None
        self.log_file = self.home / 'code-server.log'
        self.user_home = self.home / 'home'  # HOME for VS Code: discovery files land in user_home/.hermes/ide

    def install(self, *more_vsix):
        """Our .vsix, and any test-only extensions (`more_vsix`) next to it."""
        (self.user_data / 'User').mkdir(parents=True, exist_ok=True)
        (self.user_data / 'User' / 'settings.json').write_text(json.dumps(self.settings, indent=2))
        for vsix in (self.vsix,) + more_vsix:
            subprocess.run([self.code_server, '--install-extension', str(vsix), '--force',
                            '--extensions-dir', str(self.extensions), '--user-data-dir', str(self.user_data)],
                           check=True, capture_output=True, text=True, timeout=120)

    def start(self):
        self.port = free_port()
        self.user_home.mkdir(parents=True, exist_ok=True)
        log = open(self.log_file, 'a')
        self.process = subprocess.Popen(
            [self.code_server, '--auth', 'none', '--bind-addr', f'127.0.0.1:{self.port}', '--disable-telemetry',
             '--disable-update-check'] + ([] if self.workspace_trust else ['--disable-workspace-trust']) +
            ['--extensions-dir', str(self.extensions), '--user-data-dir', str(self.user_data), str(self.workspace)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(without_ci_marks(os.environ), HOME=str(self.user_home)))
        wait_until(self._listening, 30, what='code-server to listen')
        return self

    def _listening(self):
        if self.process.poll() is not None:
            raise RuntimeError(f'code-server exited early; see {self.log_file}:\n' + self.log_file.read_text()[-2000:])
        with socket.socket() as probe:
            return probe.connect_ex(('127.0.0.1', self.port)) == 0

    @property
    def url(self):
        return f'http://127.0.0.1:{self.port}/?folder={self.workspace}'

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)

    def discovery_files(self):
        """What Hermes announced: one dict per live window (newest last)."""
        folder = self.user_home / '.hermes' / 'ide'
        files = sorted(folder.glob('*.json'), key=os.path.getmtime) if folder.exists() else []
        return [json.loads(path.read_text()) for path in files]

    def discovery_for(self, workspace, timeout=60):
        def find():
            for info in self.discovery_files():
                if str(workspace) in info.get('workspaceFolders', []):
                    return info
            return None
        return wait_until(find, timeout, what=f'a discovery file for {workspace}')

    def extension_logs(self, name='Hermes'):
        """The files VS Code writes for our LogOutputChannel, newest session last."""
        return sorted(self.user_data.glob(f'logs/**/hermes-agent.hermes-agent/{name}.log'), key=os.path.getmtime)

    def extension_log_text(self):
        return '\n'.join(path.read_text(errors='replace') for path in self.extension_logs())

    def wait_for_log(self, pattern, timeout=60):
        regex = re.compile(pattern)
        return wait_until(lambda: regex.search(self.extension_log_text()), timeout, what=f'log line /{pattern}/')


# VS Code marks `code/didStartWorkbench` once the workbench has restored its parts (lifecycle phase Restored).
WORKBENCH_STARTED = """() => ((globalThis.MonacoPerformanceMarks && globalThis.MonacoPerformanceMarks.getMarks()) || [])
    .some((mark) => mark.name === 'code/didStartWorkbench')"""


class Workbench:
    """The VS Code UI in a Playwright page."""

    def __init__(self, page):
        self.page = page

    def open(self, url):
        self.page.goto(url)
        self.wait_until_started()
        return self

    def reload(self):
        """Reload the window (a new extension host too) and wait until the workbench has started again."""
        self.page.reload()
        self.wait_until_started()

    def wait_until_started(self):
        """The workbench has restored its views and editors (VS Code's own performance mark): keys and commands
        reach it from here. `.monaco-workbench` is in the page well before, while parts are still being laid out."""
        self.page.wait_for_selector('.monaco-workbench')
        self.page.wait_for_function(WORKBENCH_STARTED)

    def run_command(self, title):
        """Run a command from the palette by its title, as a user would."""
        self.page.keyboard.press('F1')
        box = self.page.locator('.quick-input-widget input')
        box.wait_for(state='visible')
        box.fill('>' + title)
        row = self.page.locator('.quick-input-list .monaco-list-row', has_text=title).first
        row.wait_for(state='visible')
        row.click()

    def try_command(self, title, seconds):
        """Run a command from the palette if the palette offers it within `seconds` (True), else close the palette
        (False): a cue inside a retry loop, never a verdict."""
        self.page.keyboard.press('F1')
        box = self.page.locator('.quick-input-widget input')
        if not holds_within(box.is_visible, seconds):
            return False
        box.fill('>' + title)
        row = self.page.locator('.quick-input-list .monaco-list-row', has_text=title).first
        if not holds_within(lambda: row.is_visible() and title in row.inner_text(), seconds):
            self.page.keyboard.press('Escape')
            return False
        row.click()
        return True

    def notification_text(self, contains, timeout=None):
        toast = self.page.locator('.notification-toast', has_text=contains).first
        toast.wait_for(state='visible', timeout=timeout)
        return toast.inner_text()

    def screenshot(self, path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.page.wait_for_timeout(600)  # let the workbench's fade-in animations finish
        self.page.screenshot(path=str(path))
        return path
