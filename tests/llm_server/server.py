"""A scripted OpenAI-compatible LLM server for tests: real HTTP (stdlib http.server in a thread),
real SSE with chunked transfer encoding, real OpenAI JSON.

    with ScriptedLlmServer(scenarios.SCENARIOS['tool_calls_split']) as server:
        ... point a client at server.endpoint ('http://127.0.0.1:<port>/v1') ...
        server.requests  # every request: {'method', 'path', 'headers', 'body' (parsed JSON or None), 'at',
                         #  'connection' (the number of the TCP connection it came over, from 1)}

A scenario is a dict:
    'replies': what each POST /v1/chat/completions gets, in order (the last one repeats), each a
        Reply (see scenarios.py): status, headers, and either `events` (SSE data strings, sent one
        write each, optionally `split` into smaller writes, `delay_ms` apart), or `body` (plain text);
        `cut_after=n` drops the connection after n events; `stall_after=n` stops sending after n
        events (connection left open); `hang=True` never answers at all.
    'models': the ids GET /v1/models lists (default ['qwen2.5:7b']); 'model_fields': more fields for each
        entry (vLLM's {'max_model_len': 32768}).
    'show': the JSON POST /api/show answers (Ollama's model details), or None for 404.
    'cycle': True starts the replies over after the last one (soaks: turn after turn of the same script).
    'api_key': when set, every request must carry `Authorization: Bearer <api_key>` (else 401).
    'title': when set, a chat completion that does not stream (Hermes Agent's session-title request after a turn)
        is answered with this text as plain JSON and takes no scripted reply.
"""
import json
import socket
import threading
import time

from llm_server.http_base import QuietHandler, ThreadedServer


# GET <server root>/_scripted/progress → ScriptedLlmServer.progress() as JSON
PROGRESS_PATH = '/_scripted/progress'


class _Handler(QuietHandler):
    server_version = 'ScriptedLLM/1.0'

    def setup(self):  # one handler per TCP connection: number it (progress() counts the ones that carried requests)
        super().setup()
        scripted = self.server.scripted
        with scripted.lock:
            scripted.connections_accepted += 1
            self.connection_number = scripted.connections_accepted

    # ------------------------------------------------------------------------------ routing

    def _read_body(self):
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return {'_invalid_json': raw.decode('utf-8', 'replace')}

    def _record(self, body):
        scripted = self.server.scripted
        entry = {'method': self.command, 'path': self.path, 'headers': {k.lower(): v for k, v in self.headers.items()},
                 'body': body, 'at': time.monotonic(), 'connection': self.connection_number}
        with scripted.lock:
            scripted.requests.append(entry)
        return entry

    def _authorized(self):
        key = self.server.scripted.scenario.get('api_key')
        if key is None:
            return True
        if self.headers.get('Authorization') == f'Bearer {key}':
            return True
        self._json(401, {'error': {'message': 'Incorrect API key provided.', 'type': 'invalid_request_error',
                                   'param': None, 'code': 'invalid_api_key'}})
        return False

    def do_GET(self):
        if self.path == PROGRESS_PATH:  # for runners that act on what the server has seen; not recorded
            self._json(200, self.server.scripted.progress())
            return
        self._record(None)
        if not self._authorized():
            return
        if self.path.rstrip('/') == '/v1/models':
            models = self.server.scripted.scenario.get('models', ['qwen2.5:7b'])
            extra = self.server.scripted.scenario.get('model_fields', {})
            self._json(200, {'object': 'list', 'data': [dict({'id': m, 'object': 'model', 'created': 1700000000,
                                                               'owned_by': 'scripted'}, **extra) for m in models]})
        else:
            self._json(404, {'error': {'message': f'no route {self.path}', 'type': 'not_found'}})

    def do_POST(self):
        body = self._read_body()
        self._record(body)
        if self.path.rstrip('/') == '/api/show':
            show = self.server.scripted.scenario.get('show')
            if show is None:
                self._json(404, {'error': 'not found'})
            else:
                self._json(200, show)
            return
        if not self._authorized():
            return
        if self.path.rstrip('/') != '/v1/chat/completions':
            self._json(404, {'error': {'message': f'no route {self.path}', 'type': 'not_found'}})
            return
        title = self.server.scripted.scenario.get('title')
        if title is not None and isinstance(body, dict) and body.get('stream') is not True:
            # An agent's side request (Hermes Agent asks for a session title after a turn, without streaming):
            # answered apart, so it never takes a scripted reply.
            self._json(200, {'id': 'chatcmpl-title', 'object': 'chat.completion', 'created': 1700000000,
                             'model': body.get('model', 'scripted'), 'usage': {'prompt_tokens': 1, 'completion_tokens': 1,
                                                                              'total_tokens': 2},
                             'choices': [{'index': 0, 'finish_reason': 'stop',
                                          'message': {'role': 'assistant', 'content': title}}]})
            return
        self._reply(self.server.scripted.next_reply())
        with self.server.scripted.lock:
            self.server.scripted.replies_sent += 1

    # ------------------------------------------------------------------------------ answers

    def _json(self, status, value, headers=None):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        for key, text in (headers or {}).items():
            self.send_header(key, text)
        self.end_headers()
        self.wfile.write(data)

    def _reply(self, reply):
        scripted = self.server.scripted
        if reply.hang:
            scripted.released.wait(reply.hang_s)
            self.close_connection = True
            return
        if reply.body is not None:
            data = reply.body.encode()
            self.send_response(reply.status)
            self.send_header('Content-Type', reply.content_type or 'application/json')
            self.send_header('Content-Length', str(len(data)))
            for key, text in reply.headers.items():
                self.send_header(key, text)
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(reply.status)
        self.send_header('Content-Type', reply.content_type or 'text/event-stream')
        self.send_header('Cache-Control', 'no-cache')
        self.send_header('Transfer-Encoding', 'chunked')
        for key, text in reply.headers.items():
            self.send_header(key, text)
        self.end_headers()
        self.wfile.flush()
        try:
            for number, piece in enumerate(reply.wire_pieces()):
                if reply.cut_after is not None and number >= reply.cut_after:
                    self._drop()
                    return
                if reply.stall_after is not None and number >= reply.stall_after:
                    scripted.released.wait(reply.hang_s)
                    self._drop()
                    return
                self._chunk(piece.encode())
                if reply.delay_ms:
                    time.sleep(reply.delay_ms / 1000)
            self.wfile.write(b'0\r\n\r\n')
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away (a cancel): fine
            with scripted.lock:
                scripted.replies_aborted += 1

    def _chunk(self, data):
        self.wfile.write(f'{len(data):x}\r\n'.encode() + data + b'\r\n')
        self.wfile.flush()

    def _drop(self):
        """Close the TCP connection in the middle of a chunked body (no terminating chunk)."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class ScriptedLlmServer(ThreadedServer):
    def __init__(self, scenario, port=0):
        self.scenario = scenario
        self.requests = []
        self.lock = threading.Lock()
        self.released = threading.Event()
        self._replies = list(scenario.get('replies', []))
        self._served = 0
        self.replies_sent = 0
        self.replies_aborted = 0  # streams the client hung up on before their end (a Stop reached the server)
        self.connections_accepted = 0
        super().__init__(_Handler, port)
        self.endpoint = f'http://127.0.0.1:{self.port}/v1'

    def script(self, *replies):
        """What the next chat completions get, in order (the last one repeats unless the scenario cycles)."""
        with self.lock:
            self._replies = list(replies)
            self._served = 0

    def next_reply(self):
        with self.lock:
            count = len(self._replies)
            index = self._served % count if self.scenario.get('cycle') else min(self._served, count - 1)
            self._served += 1
            return self._replies[index]

    def chat_requests(self):
        return [r for r in self.requests if r['path'].rstrip('/') == '/v1/chat/completions']

    def progress(self):
        """How far the scripted conversation has got: chat requests received, replies fully sent, and the TCP
        connections the recorded requests came over (a client that reuses its connection opens one; polls of
        this progress are not recorded, so they do not count)."""
        with self.lock:
            return {'requests_received': len(self.chat_requests()), 'replies_sent': self.replies_sent,
                    'replies_aborted': self.replies_aborted,
                    'connections': len({request['connection'] for request in self.requests})}

    def stop(self):
        self.released.set()
        super().stop()


if __name__ == '__main__':  # cd tests && python -m llm_server.server <scenario>: serve one scenario by hand
    import sys
    sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[1]))
    from llm_server.scenarios import SCENARIOS
    with ScriptedLlmServer(SCENARIOS[sys.argv[1] if len(sys.argv) > 1 else 'plain_text']) as server:
        print(server.endpoint, flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
