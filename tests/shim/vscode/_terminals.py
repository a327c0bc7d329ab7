"""vscode.window's terminals and their shell integration (the terminal tools)."""
import asyncio
import os

from vscode._events import add_event, resolved, soon
from vscode._types import Uri, _Undefined


class ShellExecutionCommandLine(_Undefined):
    def __init__(self, value):
        self.value, self.isTrusted, self.confidence = value, True, 2


class ShellExecution(_Undefined):
    """Output written with `_write` reaches every `read()` iterator; `_end()` finishes them."""

    def __init__(self, command, cwd=None):
        self.commandLine = ShellExecutionCommandLine(command)
        self.cwd = cwd
        self._chunks = []
        self._ended = False
        self._event = None
        self.reads = 0

    def _signal(self):
        if self._event is not None:
            self._event.set()
            self._event = None

    def _write(self, chunk):
        self._chunks.append(chunk)
        self._signal()

    def _end(self):
        self._ended = True
        self._signal()

    def read(self):
        self.reads += 1
        return self._iterate()

    async def _iterate(self):
        index = 0
        while True:
            while index < len(self._chunks):
                index += 1
                yield self._chunks[index - 1]
            if self._ended:
                return
            if self._event is None:
                self._event = asyncio.Event()
            await self._event.wait()


class ShellIntegration(_Undefined):
    def __init__(self, terminal):
        self._terminal = terminal
        self.cwd = Uri.file(terminal.creationOptions.get('cwd') or os.getcwd())

    def executeCommand(self, command_line, args=None):
        return self._terminal._run(command_line)


class Terminal(_Undefined):
    """A terminal whose "shell" answers from `window.shell_commands`: command → (chunks, exit code[, effect: a
    function run as the command starts]);
    exit code None means the command runs until Ctrl+C (exit 130). Unknown commands exit 127."""

    def __init__(self, options, window):
        self._window = window
        self.name = options.get('name') or 'bash'
        self.creationOptions = options
        self.shellIntegration = None
        self.exitStatus = None
        self.processId = resolved(4242)
        self.sent = []
        self.shown = False
        self._running = None

    def show(self, preserve_focus=False):
        self.shown = True
        self._window.activeTerminal = self

    def hide(self):
        self.shown = False

    def sendText(self, text, add_new_line=True):
        self.sent.append((text, add_new_line))
        if text == '\x03' and self._running is not None:
            self._finish(self._running, 130)
        elif add_new_line and self.shellIntegration is not None and self._running is None:
            self._run(text)

    def dispose(self):
        if self.exitStatus is not None:
            return
        self.exitStatus = _Undefined()
        self.exitStatus.code = None
        self.exitStatus.reason = 3
        if self in self._window.terminals:
            self._window.terminals.remove(self)
        if self._window.activeTerminal is self:
            self._window.activeTerminal = self._window.terminals[-1] if self._window.terminals else None
        soon(self._window._terminal_closed.fire, self)

    def _activate_shell_integration(self):
        if self.exitStatus is None and self.shellIntegration is None:
            self.shellIntegration = ShellIntegration(self)
            self._window._shell_integration_changed.fire(_Event(terminal=self, shellIntegration=self.shellIntegration))

    def _run(self, command):
        execution = ShellExecution(command, self.shellIntegration.cwd)
        self._running = execution
        answer = self._window.shell_commands.get(command, ([f'bash: {command.split()[0]}: command not found\r\n'], 127))
        chunks, exit_code = answer[0], answer[1]
        if len(answer) > 2:  # what the command does to the disk, done as it starts
            soon(answer[2])
        soon(self._start, execution, list(chunks), exit_code)
        return execution

    def _start(self, execution, chunks, exit_code):
        self._window._execution_started.fire(_Event(terminal=self, execution=execution, shellIntegration=self.shellIntegration))
        for chunk in chunks:
            execution._write(chunk)
        if exit_code is not None:
            soon(self._finish, execution, exit_code)

    def _finish(self, execution, exit_code):
        if execution._ended:
            return
        execution._end()
        if self._running is execution:
            self._running = None
        self._window._execution_ended.fire(_Event(terminal=self, execution=execution, exitCode=exit_code,
                                            shellIntegration=self.shellIntegration))


class _Event(_Undefined):
    def __init__(self, **fields):
        self.__dict__.update(fields)


def install_terminals(window):
    """window.createTerminal and the terminal events; a terminal's "shell" answers from `window.shell_commands`."""
    window.terminals = []
    window.created_terminals = []
    window.activeTerminal = None
    window.shell_commands = {}
    window.terminal_shell_integration = True  # tests set False: shells without shell integration

    def create_terminal(options=None, *rest):
        options = dict(options) if isinstance(options, dict) else {'name': options}
        terminal = Terminal(options, window)
        window.terminals.append(terminal)
        window.created_terminals.append(terminal)
        if window.activeTerminal is None:
            window.activeTerminal = terminal
        soon(window._terminal_opened.fire, terminal)
        if window.terminal_shell_integration:
            soon(terminal._activate_shell_integration)
        return terminal
    window.createTerminal = create_terminal
    for attribute, event in [('_terminal_opened', 'onDidOpenTerminal'), ('_terminal_closed', 'onDidCloseTerminal'),
                             ('_shell_integration_changed', 'onDidChangeTerminalShellIntegration'),
                             ('_execution_started', 'onDidStartTerminalShellExecution'),
                             ('_execution_ended', 'onDidEndTerminalShellExecution')]:
        add_event(window, attribute, event)
