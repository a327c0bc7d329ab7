"""JSON-RPC 2.0 over an agent's stdin/stdout, one message per line (ACP's transport), with the agent's
process under it: requests both ways with ids, notifications, timeouts, and an end that every waiting call
hears. Nothing here knows ACP's methods (net/acp/agent.py does); core/acp/protocol.py holds the texts and limits.

Whatever goes wrong — the program cannot start, it exits, it writes a line that is no JSON-RPC message or one
over the size limit — the connection fails once: every pending request is rejected with one AcpError, the
process group is ended, and `on_close(error, expected)` is called. Nothing waits for ever but a request sent
without a timeout, and even that ends when the process does."""
# __pragma__('tconv')
from hermes.core.acp import protocol as acp
from hermes.core import jsonrpc
from hermes.core.acp.protocol import AcpError
from hermes.core.values import get_key, json_type
from hermes.js.errors import JsError, error_message
from hermes.js.json import dump_json, parse_json
from hermes.js.line_process import open_line_process
from hermes.js.promises import deferred, spawn
from hermes.js.timers import clear_timer, set_timer
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional, TypedDict
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.node import Deferred, LineProcess


class _Pending(TypedDict):
    """A request of ours waiting for its answer."""
    method: str
    deferred: Deferred  # js/promises.py deferred()
    timer: Any
# __pragma__('noskip')

# After close(): stdin is closed at once (an agent that reads EOF exits on its own), SIGTERM to its process
# group follows after this long, SIGKILL after KILL_AFTER_MS more.
TERM_AFTER_MS = 1000
KILL_AFTER_MS = 3000


class AcpConnection:
    """One agent process and the JSON-RPC traffic with it.
    `handlers`: on_request(method, params, request_id) → awaitable result (raise RequestError for an error
    answer), on_notification(method, params), on_close(error, expected) once.

    Over ~250 lines on purpose: ids both ways, per-request timeouts, answers sent once, the stderr tail and redaction,
    and failing once are one state machine over one process; split, each part would need the others' state."""

    def __init__(self, name: str, log: 'Any', handlers: 'Dict[str, Callable[..., Any]]') -> None:
        self.name = name
        self.log = log
        self.handlers = handlers
        self.secrets = []  # type: List[str]
        self.stderr_tail = ''
        self.stderr_logged = 0
        self.stderr_partial = ''
        self.process = None  # type: Optional[LineProcess]
        self.next_id = 1
        self.pending = {}  # type: Dict[str, _Pending]  # 'r:<id>' → the request waiting
        self.incoming = {}  # type: Dict[str, bool]  # 'q:<json id>' → True while the agent's request waits for our answer
        self.error = None  # type: Optional[AcpError]  # the AcpError the connection failed with
        self.closing = False  # close() was called: the end is expected
        self.exited = False
        self.exit_waiters = deferred()
        self.timers = []  # type: List[Any]
        self.command = ''
        self.cwd = ''

    # -- the process ---------------------------------------------------------------------------------------

    def open(self, command: str, args: 'List[str]', cwd: str, env: 'Dict[str, str]', max_bytes: int) -> None:
        self.command = command
        self.cwd = cwd
        process = open_line_process(command, args, {'cwd': cwd, 'env': env, 'max_line_bytes': max_bytes}, {
            'on_line': self._on_line, 'on_overflow': self._on_overflow, 'on_stderr': self._on_stderr,
            'on_exit': self._on_exit})
        self.process = process
        if process['pid'] is not None:
            self._log('info', self.name + ': started (pid ' + str(process['pid']) + ')')

    @property
    def alive(self) -> bool:
        return self.error is None and not self.closing and self.process is not None and self.process['running']()

    def add_secrets(self, values: 'List[str]') -> None:
        for value in values:
            if value not in self.secrets:
                self.secrets.append(value)

    def close(self) -> None:
        """Stop the agent: close its stdin, then SIGTERM its process group, then SIGKILL. Pending requests
        are rejected with AcpError('exited')."""
        if self.closing:
            return
        self.closing = True
        self.fail(AcpError('exited', self.name + ' was stopped.'))

    def wait_exit(self) -> 'Awaitable[Any]':
        """An awaitable that resolves once the process has exited (at once if it never started)."""
        return self.exit_waiters['promise']

    def _end_process(self) -> None:
        process = self.process
        if process is None or self.exited:
            return
        process['end']()
        self.timers.append(set_timer(lambda: self._signal('SIGTERM'), TERM_AFTER_MS))
        self.timers.append(set_timer(lambda: self._signal('SIGKILL'), TERM_AFTER_MS + KILL_AFTER_MS))

    def _signal(self, signal: str) -> None:
        if not self.exited and self.process is not None:
            self.process['kill'](signal)

    def _on_exit(self, code: 'Optional[int]', signal: 'Optional[str]', reason: 'Optional[str]') -> None:
        self.exited = True
        for timer in self.timers:
            clear_timer(timer)
        self.timers = []
        if self.process is not None and self.process['pid'] is not None:
            # Whatever the agent started and left behind in its group (a shell command mid-run) goes with it.
            self.process['kill']('SIGTERM')
        self._flush_stderr()
        if reason is not None:
            self.fail(AcpError('spawn', acp.spawn_error_text(self.name, self.command, self.cwd, reason)))
        elif self.error is None:
            during = ''
            if self._waiting_for('initialize'):
                during = 'while starting'
            elif self._waiting_for('session/prompt'):
                during = 'during a turn'
            self.fail(AcpError('exited', acp.with_output(acp.exit_text(self.name, code, signal, during),
                                                         self.stderr_tail)))
        else:
            self._log('info', self.name + ': exited' + ('' if code is None else ' with code ' + str(code)))
        self.exit_waiters['resolve'](None)

    def _waiting_for(self, method: str) -> bool:
        for key in self.pending.keys():
            if self.pending[key]['method'] == method:
                return True
        return False

    # -- failing once ----------------------------------------------------------------------------------------

    def fail(self, error: AcpError) -> None:
        """End the connection with `error` (an AcpError): reject everything pending, end the process, tell
        on_close. Later calls do nothing."""
        if self.error is not None:
            return
        error.message = self._redact(error.message)
        self.error = error
        if not self.closing:
            self._log('warn', error.message)
        pending = self.pending
        self.pending = {}
        for key in pending.keys():
            entry = pending[key]
            if entry['timer'] is not None:
                clear_timer(entry['timer'])
            entry['deferred']['reject'](AcpError(error.kind, error.message, error.code, error.data))
        self._end_process()
        if self.process is None or self.exited:
            self.exit_waiters['resolve'](None)
        try:
            self.handlers['on_close'](error, self.closing)
        except JsError as problem:
            self._log('error', self.name + ': on_close failed: ' + error_message(problem))

    # -- sending ---------------------------------------------------------------------------------------------

    def start_request(self, method: str, params: 'Json', timeout_ms: 'Optional[int]') -> 'Dict[str, Any]':
        """Send a request; returns {'id', 'promise'}. The promise resolves with the result or rejects with an
        AcpError ('agent' for an error answer, 'timeout' after `timeout_ms` if given, else how the connection
        ended)."""
        request_id = self.next_id
        self.next_id = self.next_id + 1
        waiter = deferred()
        if self.error is not None:
            waiter['reject'](AcpError(self.error.kind, self.error.message, self.error.code, self.error.data))
            return {'id': request_id, 'promise': waiter['promise']}
        key = 'r:' + str(request_id)
        entry = {'method': method, 'deferred': waiter, 'timer': None}  # type: _Pending
        self.pending[key] = entry
        if timeout_ms is not None and timeout_ms > 0:
            entry['timer'] = set_timer(lambda: self._time_out(request_id, method, timeout_ms), timeout_ms)
        self._log('debug', self.name + ': → ' + method + ' #' + str(request_id))
        self._write({'jsonrpc': '2.0', 'id': request_id, 'method': method, 'params': params})
        return {'id': request_id, 'promise': waiter['promise']}

    def request(self, method: str, params: 'Json', timeout_ms: 'Optional[int]') -> 'Awaitable[Any]':
        return self.start_request(method, params, timeout_ms)['promise']

    def abandon(self, request_id: int, error: AcpError) -> None:
        """Stop waiting for request `request_id`: its promise rejects with `error`; a late answer is dropped."""
        key = 'r:' + str(request_id)
        if key not in self.pending:
            return
        entry = self.pending[key]
        del self.pending[key]
        if entry['timer'] is not None:
            clear_timer(entry['timer'])
        error.message = self._redact(error.message)
        entry['deferred']['reject'](error)

    def notify(self, method: str, params: 'Json') -> None:
        if self.error is None:
            self._log('debug', self.name + ': → ' + method)
            self._write(jsonrpc.notification(method, params))

    def respond(self, request_id: 'Json', result: 'Json') -> None:
        """Answer the agent's request (once: a second answer to the same id is dropped)."""
        if self._take_incoming(request_id):
            self._write(jsonrpc.result_response(request_id, result))

    def respond_error(self, request_id: 'Json', error: BaseException) -> None:
        if self._take_incoming(request_id):
            reply = acp.error_reply(error)
            reply['message'] = self._redact(reply['message'])
            self._write({'jsonrpc': '2.0', 'id': request_id, 'error': reply})

    def _take_incoming(self, request_id: 'Json') -> bool:
        key = 'q:' + dump_json(request_id)
        if key not in self.incoming or self.error is not None:
            return False
        del self.incoming[key]
        return True

    def _time_out(self, request_id: int, method: str, timeout_ms: int) -> None:
        self.abandon(request_id, AcpError('timeout', self.name + ' did not answer "' + method + '" within ' +
                                          acp.seconds_text(timeout_ms) + '.'))

    def _write(self, message: 'Json') -> None:
        if self.process is None or not self.process['write'](dump_json(message) + '\n'):
            self._log('debug', self.name + ': not sent, the process is not running')

    # -- receiving -------------------------------------------------------------------------------------------

    def _on_line(self, line: str) -> None:
        if self.error is not None or line.strip() == '':
            return
        try:
            message = parse_json(line)
        except JsError as problem:
            self.fail(AcpError('protocol', acp.malformed_text(self.name, line, 'not JSON', self.secrets)))
            return
        reason = jsonrpc.invalid_reason(message)
        if reason is not None:
            self.fail(AcpError('protocol', acp.malformed_text(self.name, line, reason, self.secrets)))
            return
        if 'method' in message:
            params = get_key(message, 'params', {})
            if 'id' in message:
                self._on_request(message['id'], message['method'], params)
            else:
                self._on_notification(message['method'], params)
        else:
            self._on_response(message)

    def _on_response(self, message: 'JsonObject') -> None:
        request_id = message['id']
        key = 'r:' + str(request_id)
        if json_type(request_id) != 'integer' or key not in self.pending:
            self._log('debug', self.name + ': an answer to no pending request (' + dump_json(request_id) + ')')
            return
        entry = self.pending[key]
        del self.pending[key]
        if entry['timer'] is not None:
            clear_timer(entry['timer'])
        if 'error' in message:
            error = message['error']
            code = get_key(error, 'code')
            data = get_key(error, 'data')
            text = self._redact(acp.agent_error_text(self.name, error, self.secrets))
            self._log('debug', self.name + ': ← error for ' + entry['method'] + ' #' + str(request_id))
            entry['deferred']['reject'](AcpError('agent', text, code if json_type(code) == 'integer' else None,
                                                 self._redact_value(data)))
        else:
            self._log('debug', self.name + ': ← ' + entry['method'] + ' #' + str(request_id))
            entry['deferred']['resolve'](message['result'])

    def _on_notification(self, method: str, params: 'Json') -> None:
        try:
            self.handlers['on_notification'](method, params)
        except JsError as problem:
            self._log('error', self.name + ': handling ' + method + ' failed: ' + error_message(problem))

    def _on_request(self, request_id: 'Json', method: str, params: 'Json') -> None:
        self.incoming['q:' + dump_json(request_id)] = True
        self._log('debug', self.name + ': ← ' + method + ' (request)')
        spawn(self._answer(request_id, method, params))

    async def _answer(self, request_id: 'Json', method: str, params: 'Json') -> None:
        try:
            result = await self.handlers['on_request'](method, params, request_id)
        except JsError as problem:
            self.respond_error(request_id, problem)
            return
        self.respond(request_id, {} if result is None else result)

    def _on_overflow(self, limit: int) -> None:
        self.fail(AcpError('protocol', acp.oversized_text(self.name, limit)))

    def _on_stderr(self, text: str) -> None:
        self.stderr_tail = acp.append_tail(self.stderr_tail, text, acp.STDERR_TAIL_CHARS)
        if self.stderr_logged >= acp.STDERR_LOG_CHARS:
            return
        joined = self.stderr_partial + text
        lines = joined.split('\n')
        self.stderr_partial = lines.pop()
        if len(self.stderr_partial) > 4096:  # one endless line: log it in pieces
            lines.append(self.stderr_partial)
            self.stderr_partial = ''
        for line in lines:
            self._log_stderr(line)

    def _flush_stderr(self) -> None:
        if self.stderr_partial != '':
            self._log_stderr(self.stderr_partial)
            self.stderr_partial = ''

    def _log_stderr(self, line: str) -> None:
        if self.stderr_logged >= acp.STDERR_LOG_CHARS:
            return
        self.stderr_logged = self.stderr_logged + len(line)
        self._log('debug', self.name + ' stderr: ' + line)
        if self.stderr_logged >= acp.STDERR_LOG_CHARS:
            self._log('info', self.name + ': its stderr is no longer logged (over 1 MB); the last ' +
                      str(acp.STDERR_TAIL_CHARS) + ' characters are kept for error messages')

    # -- texts -----------------------------------------------------------------------------------------------

    def _redact(self, text: 'Json') -> 'Json':
        return acp.redact(text, self.secrets)

    def _redact_value(self, value: 'Json') -> 'Json':
        if value is None or len(self.secrets) == 0:
            return value
        if json_type(value) == 'string':
            return self._redact(value)
        text = dump_json(value)
        cleaned = self._redact(text)
        return value if cleaned == text else cleaned

    def _log(self, level: str, message: str) -> None:
        if self.log is None:
            return
        text = self._redact(message)
        if level == 'debug':
            self.log.debug(text)
        elif level == 'info':
            self.log.info(text)
        elif level == 'warn':
            self.log.warn(text)
        else:
            self.log.error(text)
