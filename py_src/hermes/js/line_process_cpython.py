"""CPython twin of hermes/js/line_process.py (never transpiled): subprocess.Popen in a new session, reader
threads that hand lines and stderr to the event loop, a writer thread so a write never blocks the loop."""
import asyncio
import codecs
import errno
import os
import queue
import signal as signals
import subprocess
import threading

# __pragma__('skip')
from typing import Any, Dict, List, Literal, Optional
from hermes.contracts.node import LineProcess, LineProcessHandlers, LineProcessOptions
HandlerName = Literal['on_line', 'on_overflow', 'on_stderr', 'on_exit']
# __pragma__('noskip')

DRAIN_AFTER_EXIT_S = 0.5


def _signal_group(pid: int, signal_name: str) -> None:
    sig = getattr(signals, signal_name)
    try:
        os.killpg(pid, sig)
    except OSError:
        try:
            os.kill(pid, sig)
        except OSError:
            pass  # already gone


def open_line_process(command: str, args: List[str], options: LineProcessOptions,
                      handlers: LineProcessHandlers) -> LineProcess:
    loop = asyncio.get_event_loop()
    limit = options['max_line_bytes']
    env = dict(os.environ)
    env.update(options.get('env') or {})
    state = {'finished': False, 'exited': False, 'pid': None}  # type: Dict[str, Any]
    writes = queue.Queue()  # type: queue.Queue[Optional[bytes]]  # None: close stdin

    def call(name: 'HandlerName', *values: Any) -> None:
        try:
            handlers[name](*values)
        except Exception as error:  # the seam's contract: a handler's failure is reported, not fatal
            print('hermes: ' + str(error))

    def post(name: 'HandlerName', *values: Any) -> None:
        try:
            loop.call_soon_threadsafe(call, name, *values)
        except RuntimeError:
            pass  # the loop is gone (the test ended)

    def finish(code: Optional[int], signal_name: Optional[str], error: Optional[str]) -> None:
        if state['finished']:
            return
        state['finished'] = True
        state['exited'] = True
        call('on_exit', code, signal_name, error)

    def post_finish(code: Optional[int], signal_name: Optional[str], error: Optional[str]) -> None:
        try:
            loop.call_soon_threadsafe(finish, code, signal_name, error)
        except RuntimeError:
            pass

    def write(text: str) -> bool:
        if state['finished'] or state['exited'] or state['pid'] is None:
            return False
        writes.put(text.encode('utf-8'))
        return True

    def end() -> None:
        writes.put(None)

    def kill(signal_name: str) -> None:
        if state['pid'] is not None:
            _signal_group(state['pid'], signal_name)

    def running() -> bool:
        return state['pid'] is not None and not state['exited']

    try:
        proc = subprocess.Popen([command] + list(args), cwd=options.get('cwd'), env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as error:
        reason = errno.errorcode.get(error.errno, str(error)) if error.errno else str(error)
        loop.call_soon(finish, None, None, reason)
        return {'pid': None, 'write': write, 'end': end, 'kill': kill, 'running': running}
    state['pid'] = proc.pid
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin is not None and stdout is not None and stderr is not None  # all three piped

    def read_stdout() -> None:
        pending = bytearray()
        overflowed = False
        fd = stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            if overflowed:
                continue  # keep the pipe drained
            while True:
                at = chunk.find(b'\n')
                if at < 0:
                    if len(pending) + len(chunk) > limit:
                        overflowed = True
                        pending = bytearray()
                        post('on_overflow', limit)
                    else:
                        pending.extend(chunk)
                    break
                if len(pending) + at > limit:
                    overflowed = True
                    pending = bytearray()
                    post('on_overflow', limit)
                    break
                line = bytes(pending) + chunk[:at]
                pending = bytearray()
                chunk = chunk[at + 1:]
                text = line.decode('utf-8', errors='replace')
                if text.endswith('\r'):
                    text = text[:-1]
                post('on_line', text)

    def read_stderr() -> None:
        decoder = codecs.getincrementaldecoder('utf-8')(errors='replace')
        fd = stderr.fileno()
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            text = decoder.decode(chunk)
            if text:
                post('on_stderr', text)

    def write_stdin() -> None:
        while True:
            data = writes.get()
            if data is None:
                break
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                break  # EPIPE after the agent died: its exit says what happened
        try:
            stdin.close()
        except (OSError, ValueError):
            pass

    def wait_exit() -> None:
        code = proc.wait()
        state['exited'] = True
        stdout_reader.join(DRAIN_AFTER_EXIT_S)
        stderr_reader.join(DRAIN_AFTER_EXIT_S)
        writes.put(None)
        if code < 0:
            post_finish(None, signals.Signals(-code).name, None)
        else:
            post_finish(code, None, None)

    stdout_reader = threading.Thread(target=read_stdout, daemon=True)
    stderr_reader = threading.Thread(target=read_stderr, daemon=True)
    stdout_reader.start()
    stderr_reader.start()
    threading.Thread(target=write_stdin, daemon=True).start()
    threading.Thread(target=wait_exit, daemon=True).start()
    return {'pid': proc.pid, 'write': write, 'end': end, 'kill': kill, 'running': running}
