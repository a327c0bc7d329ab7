"""This process: its id, platform, signals, and (for dist/mcp-server.js, the CLI) its arguments,
working directory, standard streams and exit."""
# __pragma__('tconv')
from hermes.js.modules import node


def current_pid() -> int:
    return process.pid


def signal_process(pid: int, signal: int) -> None:
    """process.kill(pid, signal), a signal by number: 0 only checks the process exists (throws ESRCH if not)."""
    process.kill(pid, signal)


def platform_id() -> str:
    """'linux-x64', 'darwin-arm64', 'win32-x64': how VS Code's packages name per-platform binaries."""
    return process.platform + '-' + process.arch


def script_name() -> str:
    """The base name of the script node was started with ('mcp-server.js' for the CLI bundle)."""
    script = process.argv[1]
    return '' if script is None else node('path').basename(script)


def command_line() -> 'List[str]':
    """The arguments after `node <script>`, as a list of strings."""
    return process.argv.slice(2)


def current_directory() -> str:
    return process.cwd()


def environment_variable(name: str) -> 'Optional[str]':
    """The value of an environment variable of this process, or None."""
    value = process.env[name]
    return None if value is None else value


def write_stdout(text: str) -> None:
    process.stdout.write(text)


def write_stderr(text: str) -> None:
    process.stderr.write(text)


def exit_process(code: int) -> None:
    """Exit with `code` once what was written to stdout and stderr has been handed to the OS."""
    process.exitCode = code
    process.stdout.write('', lambda: process.stderr.write('', lambda: process.exit(code)))


def read_stdin_lines(on_line: 'Callable[[str], Any]', on_end: 'Callable[[], Any]') -> 'Any':
    """Call on_line(text) for each line of stdin (LF or CRLF), then on_end() when stdin closes."""
    lines = node('readline').createInterface({'input': process.stdin, 'crlfDelay': js_Infinity,
                                              'terminal': False})
    lines.on('line', on_line)
    lines.on('close', on_end)
    return lines


def on_process_signal(signal: str, handler: 'Callable[..., Any]') -> None:
    process.on(signal, handler)


# __pragma__('skip')
from typing import Any, Callable, List, Optional
from hermes.js.process_cpython import (
    process, platform_id, script_name, command_line, current_directory, write_stdout, write_stderr, exit_process,
    read_stdin_lines, on_process_signal, environment_variable,
)
# __pragma__('noskip')
