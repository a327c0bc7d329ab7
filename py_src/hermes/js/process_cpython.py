"""CPython twins of hermes/js/process.py (never transpiled): the test run's own process."""
import os
import platform
import sys


class process:
    """The parts of the `process` global that current_pid() and signal_process() read."""
    pid = os.getpid()
    env = {}  # type: dict[str, str]
    platform = 'linux'

    @staticmethod
    def kill(pid, signal):
        try:
            os.kill(pid, signal)
        except OSError as error:
            wrapped = OSError(f'kill {"ESRCH" if error.errno == 3 else "EPERM"}')
            wrapped.code = 'ESRCH' if error.errno == 3 else 'EPERM'
            raise wrapped from None


def platform_id():
    machine = platform.machine().lower()
    arch = {'x86_64': 'x64', 'amd64': 'x64', 'aarch64': 'arm64', 'i386': 'ia32', 'i686': 'ia32'}.get(machine, machine)
    return ('win32' if sys.platform.startswith('win') else sys.platform) + '-' + arch


def script_name():
    return os.path.basename(sys.argv[0]) if sys.argv else ''


def command_line():
    return list(sys.argv[1:])


def current_directory():
    return os.getcwd()


def environment_variable(name):
    return os.environ.get(name)


def write_stdout(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def write_stderr(text):
    sys.stderr.write(text)
    sys.stderr.flush()


def exit_process(code):
    raise SystemExit(code)


def read_stdin_lines(on_line, on_end):
    for line in sys.stdin:
        on_line(line.rstrip('\r\n'))
    on_end()


def on_process_signal(signal, handler):
    pass
