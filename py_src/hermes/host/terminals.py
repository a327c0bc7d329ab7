"""Terminals for the tools: every VS Code terminal gets a small id, and what runs in it is captured
through the shell integration API (`window.onDidStartTerminalShellExecution` + `execution.read()`,
which only yields data written after the first read, so reading starts inside the start event).
Each terminal keeps a ring buffer of its most recent executions (command, output, exit code).

Without shell integration (a shell VS Code can't instrument, or one that hasn't finished starting)
VS Code offers no way to read a terminal's output: the tools say so and fall back to sending text.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import or_none
from hermes.js.promises import for_each_async
from hermes.core.service_problems import ServiceProblem
from hermes.core.values import json_type, get_key, is_object, object_keys
from hermes.core.git_args import quote_args
from hermes.js.process import platform_id, environment_variable
from hermes.core.output_text import strip_ansi, cap_tail
from hermes.core.strip_chars import rstrip_chars
from hermes.host.changes.log import change_log_of, SEAM_TIMERS
from hermes.host.changes.disk_changes import DiskChangeSpan
from hermes.host.terminal_waits import IntegrationWaits, wait_for_end, wait_for_stream
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple
from hermes.contracts.json import Json
from hermes.host.changes.window_index import WindowIndex
from hermes.contracts.services import CallContext
from hermes.contracts.terminals import ExecutionView, RunResult, TerminalView
if TYPE_CHECKING:
    from vscode import ExtensionContext, Terminal, TerminalOptionsDict, WorkspaceConfiguration
# __pragma__('noskip')

MAX_EXECUTIONS = 20
"""Executions kept per terminal (the oldest are dropped first)."""
MAX_RAW_CHARS = 262144
"""Raw output kept per execution (the most recent part)."""
NEW_TERMINAL_INTEGRATION_MS = 30000
"""How long a new terminal's shell may take to report shell integration: under a second on an idle machine,
over 10 s on a busy one (seen in e2e with every core busy); giving up sends the command blind and loses its
output, so the wait is generous (its progress says what it waits for)."""
EXISTING_TERMINAL_INTEGRATION_MS = 3000


class Execution:
    """One command line run in a terminal, as far as shell integration reported it."""

    def __init__(self, record: 'TerminalRecord', execution: Any, command: str) -> None:
        self.record = record
        self.execution = execution
        self.command = command
        self.started = now_ms()
        self.ended = None  # type: Optional[float]
        self.exit_code = None  # type: Optional[int]
        self.done = False
        self.raw = ''
        self.dropped = 0
        self.stream_done = False
        self._on_end = []  # type: List[Callable[[], Any]]
        self._on_stream_end = []  # type: List[Callable[[], Any]]

    def append(self, chunk: str) -> None:
        self.raw = self.raw + chunk
        if len(self.raw) > MAX_RAW_CHARS * 2:
            cut = len(self.raw) - MAX_RAW_CHARS
            self.dropped = self.dropped + cut
            self.raw = self.raw[cut:]

    def output(self) -> str:
        text = strip_ansi(self.raw)
        if self.dropped > 0:
            text = '… (' + str(self.dropped) + ' earlier characters of output were not kept)\n' + text
        return text

    def last_line(self) -> str:
        lines = [line for line in strip_ansi(self.raw[-2000:]).split('\n') if line.strip() != '']
        return lines[len(lines) - 1][:120] if len(lines) > 0 else ''

    def finish(self, exit_code: 'Optional[int]') -> None:
        if self.done:
            return
        self.done = True
        self.ended = now_ms()
        self.exit_code = or_none(exit_code)
        _run_all(self._on_end)
        self._on_end = []

    def stream_finished(self, error: Any = None) -> None:
        self.stream_done = True
        _run_all(self._on_stream_end)
        self._on_stream_end = []

    def when_ended(self, callback: 'Callable[[], Any]') -> None:
        if self.done:
            callback()
        else:
            self._on_end.append(callback)

    def when_stream_ended(self, callback: 'Callable[[], Any]') -> None:
        if self.stream_done:
            callback()
        else:
            self._on_stream_end.append(callback)

    def duration_ms(self) -> float:
        return (now_ms() if self.ended is None else self.ended) - self.started

    def describe(self) -> 'ExecutionView':
        return {'command': self.command, 'exitCode': self.exit_code, 'running': not self.done,
                'durationMs': round(self.duration_ms()), 'output': self.output()}


def _run_all(callbacks: 'List[Callable[[], Any]]') -> None:
    for callback in callbacks:
        try:
            callback()
        except JsError:
            pass


class TerminalRecord:
    def __init__(self, terminal_id: int, terminal: 'Terminal', owned: bool) -> None:
        self.id = terminal_id
        self.terminal = terminal
        self.owned = owned  # created by Hermes (terminal_run reuses these)
        self.executions = []  # type: List[Execution]

    def label(self) -> str:
        return self.terminal['name']

    def running(self) -> 'Optional[Execution]':
        for entry in self.executions:
            if not entry.done:
                return entry
        return None

    def alive(self) -> bool:
        return self.terminal.exitStatus is None

    def describe(self) -> 'TerminalView':
        current = self.running()
        active = vscode.window.activeTerminal
        status = self.terminal.exitStatus  # (None while it runs: `alive`)
        return {'id': self.id, 'name': self.label(), 'active': active is not None and active is self.terminal,
                'shellIntegration': self.terminal.shellIntegration is not None, 'createdByHermes': self.owned,
                'running': None if current is None else current.command,
                'exitCode': None if status is None else or_none(status.code),
                'executions': len(self.executions)}


def exited(record: 'TerminalRecord') -> ServiceProblem:
    """The problem of a command for a terminal that has exited."""
    return ServiceProblem('exited', 'Terminal ' + str(record.id) + ' "' + record.label() + '" has exited.')


class TerminalService:
    def __init__(self, new_terminal_wait_ms: int = NEW_TERMINAL_INTEGRATION_MS,
                 existing_terminal_wait_ms: int = EXISTING_TERMINAL_INTEGRATION_MS) -> None:
        # How long a shell may take to report shell integration (tests pass short waits).
        self.new_terminal_wait_ms = new_terminal_wait_ms
        self.existing_terminal_wait_ms = existing_terminal_wait_ms
        self.records = []  # type: List[TerminalRecord]
        self.next_id = 1
        self._integration = IntegrationWaits()
        # called with (record, 'opened' | 'closed' | 'output')
        self._listeners = []  # type: List[Callable[[Any, str], Any]]
        # the window's index of the workspace (host/changes/window_index.py), which a command's span of disk changes
        # starts from (register_terminals hands it); None: each span walks the workspace
        self.window_index = None  # type: Optional[WindowIndex]

    def on_change(self, listener: 'Callable[[Any, str], Any]') -> 'Callable[[], None]':
        """Hear of terminals opening and closing and of new output; returns the unsubscribe function."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            self._listeners = [item for item in self._listeners if item is not listener]
        return unsubscribe

    def _changed(self, record: 'TerminalRecord', what: str) -> None:
        for listener in self._listeners:
            listener(record, what)

    def listen(self) -> 'List[Any]':
        """Subscribe to VS Code's terminal events; returns the disposables."""
        window = vscode.window
        disposables = [
            window.onDidOpenTerminal(to_js_callback(self._opened)),
            window.onDidCloseTerminal(to_js_callback(self._closed)),
            window.onDidChangeTerminalShellIntegration(to_js_callback(self._integration_changed)),
            window.onDidStartTerminalShellExecution(to_js_callback(self._execution_started)),
            window.onDidEndTerminalShellExecution(to_js_callback(self._execution_ended)),
        ]
        for terminal in window.terminals:
            self.record_for(terminal)
        return disposables

    # ---------------------------------------------------------------- events

    def _opened(self, terminal: 'Terminal') -> None:
        self.record_for(terminal)

    def _closed(self, terminal: 'Terminal') -> None:
        record = self.find_record(terminal)
        if record is None:
            return
        for entry in record.executions:
            entry.finish(None)
        self.records = [item for item in self.records if item is not record]
        self._integration.resolve(terminal)
        self._changed(record, 'closed')

    def _integration_changed(self, event: Any) -> None:
        self._integration.resolve(event.terminal)

    def _execution_started(self, event: Any) -> None:
        self.track(self.record_for(event.terminal), event.execution)

    def _execution_ended(self, event: Any) -> None:
        record = self.record_for(event.terminal)
        entry = self.find_execution(record, event.execution)
        if entry is None:  # started before we listened: no output, but the exit code is known
            entry = self._add(record, Execution(record, event.execution, _command_text(event.execution)))
            entry.stream_finished()
        entry.finish(event.exitCode)
        self._changed(record, 'output')

    # ---------------------------------------------------------------- records

    def find_record(self, terminal: 'Terminal') -> 'Optional[TerminalRecord]':
        for record in self.records:
            if record.terminal is terminal:
                return record
        return None

    def record_for(self, terminal: 'Terminal', owned: bool = False) -> 'TerminalRecord':
        record = self.find_record(terminal)
        if record is None:
            record = TerminalRecord(self.next_id, terminal, owned)
            self.next_id = self.next_id + 1
            self.records.append(record)
            self._changed(record, 'opened')
        return record

    def lookup(self, ref: 'Json') -> 'TerminalRecord':
        """The terminal a tool argument names: its id (a number), its name, or None for the active one. A
        ServiceProblem ('no-active', 'ambiguous', 'not-found') when there is none."""
        if ref is None:
            active = vscode.window.activeTerminal
            if active is None:
                raise ServiceProblem('no-active', 'No terminal is active.')
            return self.record_for(active)
        if json_type(ref) == 'string':
            matches = [record for record in self.records if record.label() == ref]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                raise ServiceProblem('ambiguous', 'Several terminals are named "' + ref + '" (ids ' +
                                      ', '.join([str(record.id) for record in matches]) + ').')
        else:
            for record in self.records:
                if record.id == ref:
                    return record
        raise ServiceProblem('not-found', 'No terminal ' + (('"' + ref + '"') if json_type(ref) == 'string' else
                                                             str(ref)) + '. Open terminals: ' + self.summary() + '.')

    def summary(self) -> str:
        if len(self.records) == 0:
            return '(none)'
        return ', '.join([str(record.id) + ' "' + record.label() + '"' for record in self.records])

    def find_execution(self, record: 'TerminalRecord', execution: Any) -> 'Optional[Execution]':
        for entry in record.executions:
            if entry.execution is execution:
                return entry
        return None

    def _add(self, record: 'TerminalRecord', entry: 'Execution') -> 'Execution':
        record.executions.append(entry)
        while len(record.executions) > MAX_EXECUTIONS:
            record.executions.pop(0)
        return entry

    def track(self, record: 'TerminalRecord', execution: Any, command: 'Optional[str]' = None) -> 'Execution':
        """Start capturing `execution` (once): its output, then its exit code."""
        entry = self.find_execution(record, execution)
        if entry is not None:
            return entry
        entry = self._add(record, Execution(record, execution, command or _command_text(execution)))
        try:
            stream = execution.read()
        except JsError:
            entry.stream_finished()
            return entry
        def on_chunk(chunk: str) -> None:
            entry.append(chunk)
            self._changed(record, 'output')
        for_each_async(stream, on_chunk, entry.stream_finished)
        return entry

    # ---------------------------------------------------------------- actions

    def shell_to_start(self, shell: 'Optional[str]' = None) -> str:
        """What `create(…, shell)` starts, for the dialog: the shell named, or the default terminal profile
        (settings, which a workspace can set, name its program, arguments and environment)."""
        if shell is not None:
            return 'shell: ' + shell + ' (found on PATH)'
        return default_profile_text()

    def create(self, name: str, cwd: 'Optional[str]' = None, shell: 'Optional[str]' = None,
               show: bool = True) -> 'TerminalRecord':
        options = {'name': name}  # type: TerminalOptionsDict
        if cwd is not None:
            options['cwd'] = cwd
        if shell is not None:
            options['shellPath'] = shell
        terminal = vscode.window.createTerminal(options)
        if show:
            terminal.show(True)
        return self.record_for(terminal, True)

    async def wait_for_integration(self, terminal: 'Terminal', timeout_ms: int,
                                   call: 'Optional[CallContext]' = None) -> Any:
        """The terminal's shell integration, waiting up to `timeout_ms` for it to activate; or None."""
        return await self._integration.wait(terminal, timeout_ms, call)

    def terminal_for_run(self, ref: 'Json') -> 'Tuple[TerminalRecord, bool]':
        """The named terminal, or an idle terminal Hermes created (a new one when all are busy)."""
        if ref is not None:
            record = self.lookup(ref)
            current = record.running()
            if current is not None:
                raise ServiceProblem('busy', 'Terminal ' + str(record.id) + ' "' + record.label() +
                                      '" is still running `' + current.command + '`.')
            return record, False
        for record in self.records:
            if record.owned and record.alive() and record.running() is None:
                return record, False
        return self.create('Hermes', None, None, True), True

    async def run(self, record: 'TerminalRecord', command: str, timeout_ms: int, call: 'CallContext',
                  new_terminal: bool = False) -> 'RunResult':
        """Run `command` with shell integration and wait for it. The result dict says what happened:
        ended (exit code and output), timed out (still running), cancelled (Ctrl+C sent), or that
        shell integration is unavailable (the text was sent blind)."""
        terminal = record.terminal
        wait_ms = self.new_terminal_wait_ms if new_terminal else self.existing_terminal_wait_ms
        change_log = change_log_of(call)
        recording = change_log is not None
        index = self.window_index if recording else None
        if index is not None:
            index.warm()  # the window's first command: the index walks in the background while the shell gets ready
        call.progress(0, None, 'Waiting for shell integration in terminal ' + str(record.id))
        integration = await self.wait_for_integration(terminal, wait_ms, call)
        if call.cancelled:
            return {'outcome': 'cancelled', 'entry': None}
        if integration is None:
            if not record.alive():
                raise exited(record)
            terminal.sendText(command, True)
            return {'outcome': 'no-integration', 'entry': None}
        # the files the command changes go to the change log as the call's (a command still running when the
        # tool stops waiting is recorded up to then), from the window's index when there is one: its start costs
        # what changed since the last span, not a walk of the workspace
        span = None
        if index is not None:
            waiting = index.ready()
            if waiting is not None:
                await waiting  # the walk in the background has not ended: the command waits, not the host
                if call.cancelled:  # Stop during the walk: the command never starts
                    return {'outcome': 'cancelled', 'entry': None}
                if not record.alive():
                    raise exited(record)
            span = DiskChangeSpan(None, None, SEAM_TIMERS, None, index.index())
        elif recording:
            span = DiskChangeSpan(None, None, SEAM_TIMERS)
        entry = self.track(record, integration.executeCommand(command), command)
        try:
            outcome = await wait_for_end(entry, timeout_ms, call)
            if outcome == 'ended':
                await wait_for_stream(entry)
            elif outcome == 'cancelled' and record.alive():
                terminal.sendText('\x03', False)
        finally:
            if span is not None:
                span.record(change_log, span.end(), call.author)
        return {'outcome': outcome, 'entry': entry}

    def send(self, record: 'TerminalRecord', text: str, enter: bool) -> bool:
        """Type `text` (and Enter). A one-line command for an idle shell with shell integration goes
        through `executeCommand`, so its output is read from the first byte: VS Code starts an
        `execution.read()` stream a microtask late, and a fast command typed any other way can finish,
        output included, before the stream listens (its output is then lost; its exit code is not).
        Returns whether the text was run as a tracked command."""
        integration = record.terminal.shellIntegration
        one_line = '\n' not in text and '\r' not in text and text.strip() != ''
        if enter and one_line and integration is not None and record.running() is None:
            self.track(record, integration.executeCommand(text), text)
            return True
        record.terminal.sendText(text, enter)
        return False

    def kill(self, record: 'TerminalRecord') -> None:
        record.terminal.dispose()
        self._closed(record.terminal)


def _command_text(execution: Any) -> str:
    command_line = execution.commandLine
    if command_line is None:
        return ''
    value = command_line.value
    return '' if value is None else value


def register_terminals(context: 'ExtensionContext', window_index: 'Optional[WindowIndex]' = None) -> 'TerminalService':
    """The window's terminal service, capturing executions from now on (host/services.py builds it once);
    `window_index`: the window's index of the workspace, for `terminal_run`'s spans of disk changes."""
    service = TerminalService()
    service.window_index = window_index
    for disposable in service.listen():
        context.subscriptions.push(disposable)
    return service


PROFILE_OS = {'linux': 'linux', 'darwin': 'osx', 'win32': 'windows'}


def default_profile_text() -> str:
    """The default terminal profile as VS Code resolves it from the settings: its name, program, arguments and
    environment; else the login shell VS Code falls back to ($SHELL)."""
    system = get_key(PROFILE_OS, platform_id()) or 'linux'
    terminal = vscode.workspace.getConfiguration('terminal.integrated')
    name = terminal.js_get('defaultProfile.' + system)
    profiles = terminal.js_get('profiles.' + system)
    profile = get_key(profiles, name) if json_type(name) == 'string' and is_object(profiles) else None
    if is_object(profile):
        parts = []  # type: List[str]
        program = get_key(profile, 'path')
        if json_type(program) == 'array':
            parts.extend([str(item) for item in program])
        elif program is not None:
            parts.append(str(program))
        elif get_key(profile, 'source') is not None:
            parts.append('(' + str(get_key(profile, 'source')) + ')')
        arguments = get_key(profile, 'args')
        if json_type(arguments) == 'array':
            parts.extend([str(item) for item in arguments])
        elif arguments is not None:
            parts.append(str(arguments))
        lines = ['terminal profile "' + name + '": ' + quote_args(parts)]
        env = get_key(profile, 'env')
        if is_object(env):
            for key in object_keys(env):
                lines.append('env: ' + key + '=' + str(env[key]))
        return '\n'.join(lines) + _env_text(terminal, system)
    shell = environment_variable('SHELL')
    return ('the default shell: ' + (shell if shell is not None and shell != '' else '/bin/sh') +
            ('' if name is None else ' (the default profile "' + str(name) + '" is not defined)')) + _env_text(terminal, system)


def _env_text(terminal: 'WorkspaceConfiguration', system: str) -> str:
    """terminal.integrated.env.<os>: variables every new terminal gets."""
    env = terminal.js_get('env.' + system)
    if not is_object(env):
        return ''
    return ''.join(['\nenv: ' + key + '=' + str(env[key]) for key in object_keys(env)])
