"""CPython twins of hermes/js/process.py (never transpiled): the test run's own process."""
import os
import platform
import sys
# __pragma__('skip')
from typing import Any, Callable, List, Optional
# __pragma__('noskip')


class process:
    """The parts of the `process` global that current_pid() and signal_process() read."""
    pid = os.getpid()
    env = {}  # type: dict[str, str]
    platform = 'linux'

    @staticmethod
    def kill(pid: int, signal: int) -> None:
        try:
            os.kill(pid, signal)
        except OSError as error:
            wrapped = OSError(f'kill {"ESRCH" if error.errno == 3 else "EPERM"}')
            setattr(wrapped, 'code', 'ESRCH' if error.errno == 3 else 'EPERM')  # as Node's errors carry it
            raise wrapped from None


def platform_id() -> str:
    machine = platform.machine().lower()
    arch = {'x86_64': 'x64', 'amd64': 'x64', 'aarch64': 'arm64', 'i386': 'ia32', 'i686': 'ia32'}.get(machine, machine)
    return ('win32' if sys.platform.startswith('win') else sys.platform) + '-' + arch


def script_name() -> str:
    return os.path.basename(sys.argv[0]) if sys.argv else ''


def command_line() -> List[str]:
    return list(sys.argv[1:])


def current_directory() -> str:
    return os.getcwd()


def environment_variable(name: str) -> Optional[str]:
    return os.environ.get(name)


def write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def write_stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


def exit_process(code: int) -> None:
    raise SystemExit(code)


def read_stdin_lines(on_line: Callable[[str], Any], on_end: Callable[[], Any]) -> None:
    for line in sys.stdin:
        on_line(line.rstrip('\r\n'))
    on_end()


def on_process_signal(signal: str, handler: Callable[..., Any]) -> None:
    pass
