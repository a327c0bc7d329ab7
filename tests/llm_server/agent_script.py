"""Scripted model servers for the coding-agent CLIs (Claude Code, Codex, Gemini CLI): the scenario idea of server.py
— the model's turns, in order, the last one repeating — written once, wire-neutral, and spoken by one small module
per wire format (anthropic_messages.py, openai_responses.py, gemini_api.py).

    with GeminiServer([ToolUse('mcp_vscode_file_read', {'path': 'notes/proof.txt'}), Say('It says so.')]) as model:
        ... point the CLI at model.base_url ...
        model.turns          # the requests that took a scripted step, in order (parsed bodies)
        model.requests       # every request: {'method', 'path', 'headers', 'body'}

A CLI also asks its model things besides the conversation (Gemini CLI's routing classifier, Claude Code's token
counts): each wire module answers those itself (`side_answer`), so they never take a step of the script.
"""
import json
import threading

from llm_server.http_base import QuietHandler, ThreadedServer


class ToolUse:
    """The model calls one tool (the name the CLI offered it: `mcp__vscode__file_read`, `file_read`, …)."""

    def __init__(self, name, arguments, call_id='call_1', namespace=None):
        self.name = name
        self.arguments = arguments
        self.call_id = call_id
        self.namespace = namespace  # the Responses API's tool namespace (Codex offers MCP tools in one)


def tool_uses(step):
    """A step that calls tools is one ToolUse or a list of them (calls the model makes at once)."""
    return step if isinstance(step, list) else [step]


class Say:
    """The model answers with text and ends its turn."""

    def __init__(self, text):
        self.text = text


class _Handler(QuietHandler):
    server_version = 'ScriptedAgentModel/1.0'

    def _serve(self):
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = {'_invalid_json': raw.decode('utf-8', 'replace')}
        scripted = self.server.scripted
        headers = {key.lower(): value for key, value in self.headers.items()}
        request = {'method': self.command, 'path': self.path, 'headers': headers, 'body': body}
        with scripted.lock:
            scripted.requests.append(request)
        try:
            scripted.answer(self, request)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the CLI went away: fine

    do_GET = do_POST = _serve

    def send_json(self, value, status=200):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events):
        """events: [(event name or None, JSON value)], each one write of a chunked text/event-stream."""
        self.send_response(200)
        self.send_header('Content-Type', 'text/event-stream')
        self.send_header('Cache-Control', 'no-cache')
        self.send_header('Transfer-Encoding', 'chunked')
        self.end_headers()
        for name, value in events:
            text = ('event: ' + name + '\n' if name else '') + 'data: ' + json.dumps(value) + '\n\n'
            data = text.encode()
            self.wfile.write(f'{len(data):x}\r\n'.encode() + data + b'\r\n')
            self.wfile.flush()
        self.wfile.write(b'0\r\n\r\n')
        self.wfile.flush()


class ScriptedAgentServer(ThreadedServer):
    """The HTTP side shared by the wire modules; a subclass implements `answer(handler, request)`."""

    def __init__(self, steps=None):
        self.requests = []
        self.turns = []
        self.lock = threading.Lock()
        self._steps = list(steps or [Say('(no script)')])
        super().__init__(_Handler)
        self.base_url = f'http://127.0.0.1:{self.port}'

    def script(self, *steps):
        """What the next conversation requests get, in order (the last one repeats); forgets earlier turns."""
        with self.lock:
            self._steps = list(steps)
            self.turns = []
            self.requests.clear()

    def next_step(self, request):
        """The step for a conversation request, which is recorded in `turns`."""
        with self.lock:
            step = self._steps[min(len(self.turns), len(self._steps) - 1)]
            self.turns.append(request['body'])
            return step

    def answer(self, handler, request):
        raise NotImplementedError
