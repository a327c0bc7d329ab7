"""Hermes Agent itself (PyPI `hermes-agent[acp,mcp]==0.19.0`, installed by `inv setup` into its own folder) for the
e2e layer: where its program is, its ~/.hermes/config.yaml against the scripted model, and a small ACP client
over `hermes acp`'s stdio, the way another ACP client (Zed, say) runs it outside VS Code."""
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = 'scripted-model'
# A turn of Hermes Agent on a busy machine (its start, the model's replies, the tools): a generous ceiling.
TURN_CEILING_S = 300


def hermes_program():
    """The `hermes` of the pinned hermes-agent[acp,mcp] (tasks.py client_dir: the same rule)."""
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # tasks.py
    from tasks import client_dir
    folder = Path(os.environ.get('HERMES_CLIENTS', '')) / 'hermes-agent-0.19.0' if os.environ.get('HERMES_CLIENTS') \
        else client_dir('hermes-agent')
    program = folder / 'bin' / 'hermes'
    stamp = folder / '.installed'
    if not program.exists() or 'acp' not in (stamp.read_text() if stamp.exists() else ''):
        pytest.exit(f"hermes-agent[acp] is not installed in {folder}: run `inv setup`", returncode=2)
    return program


def write_hermes_config(home, endpoint):
    """~/.hermes/config.yaml under `home`: the scripted model (none when `endpoint` is None), and no downloads at
    run time."""
    folder = Path(home) / '.hermes'
    folder.mkdir(parents=True, exist_ok=True)
    text = 'security: {tirith_enabled: false, allow_lazy_installs: false}\n'
    if endpoint:
        text = (f'model: {{provider: custom, base_url: {endpoint}, default: {MODEL}, api_key: scripted, '
                f'context_length: 131072}}\n') + text
    (folder / 'config.yaml').write_text(text)


def vscode_mcp_server(info):
    """A window's MCP server (its discovery file `info`) as an ACP `mcpServers` entry, as Hermes' clients pass it."""
    return {'type': 'http', 'name': 'vscode', 'url': info['url'],
            'headers': [{'name': 'Authorization', 'value': 'Bearer ' + info['token']}]}


class HermesAcp:
    """`hermes acp` with HOME=`home` in `cwd`; `call` sends a request and returns its result. Requests Hermes
    sends the client are answered: a permission request with its first "allow" option, anything else with
    "method not found" (this client offers no file system or terminal)."""

    def __init__(self, program, home, cwd):
        self.process = subprocess.Popen([str(program), 'acp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, cwd=str(cwd),
                                        env=dict(os.environ, HOME=str(home)))
        self.messages = queue.Queue()
        self.updates = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            if line.strip():
                self.messages.put(json.loads(line))
        self.messages.put(None)  # the process ended

    def _send(self, message):
        self.process.stdin.write(json.dumps(dict(message, jsonrpc='2.0')) + '\n')
        self.process.stdin.flush()

    def call(self, method, params):
        self.next_id += 1
        number = self.next_id
        self._send({'id': number, 'method': method, 'params': params})
        while True:
            message = self.messages.get(timeout=TURN_CEILING_S)
            if message is None:
                raise AssertionError(f'hermes acp exited while answering {method}')
            if 'method' in message:
                self._answer(message)
            elif message.get('id') == number:
                if 'error' in message:
                    raise AssertionError(f'{method}: {message["error"]}')
                return message['result']

    def _answer(self, message):
        if 'id' not in message:
            self.updates.append(message)  # session/update and other notifications
            return
        if message['method'] == 'session/request_permission':
            allow = [option for option in message['params']['options'] if option['kind'].startswith('allow')]
            self._send({'id': message['id'], 'result': {'outcome': {'outcome': 'selected',
                                                                    'optionId': allow[0]['optionId']}}})
        else:
            self._send({'id': message['id'], 'error': {'code': -32601, 'message': 'Method not found'}})

    def prompt(self, session, text):
        return self.call('session/prompt', {'sessionId': session, 'prompt': [{'type': 'text', 'text': text}]})

    def close(self):
        self.process.kill()
        self.process.wait()
