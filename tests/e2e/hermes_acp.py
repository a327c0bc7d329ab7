"""Hermes Agent itself run outside VS Code for the e2e layer: a small ACP client over `hermes acp`'s stdio, the way
another ACP client (Zed, say) runs it, and this window's MCP server as the entry such a client hands it. Where the
program is and its config.yaml: tests/acp_agents.py."""
import json
import os
import queue
import subprocess
import threading

# A turn of Hermes Agent on a busy machine (its start, the model's replies, the tools): a generous ceiling.
TURN_CEILING_S = 300


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
