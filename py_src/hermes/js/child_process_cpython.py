"""CPython twins of hermes/js/child_process.py (never transpiled): subprocess with a reader thread, and
asyncio's subprocesses."""
import asyncio
import os
import subprocess
import threading
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional, Tuple  # (typing only inside skip blocks, as everywhere: tests/unit/test_rules.py)
from hermes.contracts.node import ProcessOptions, RunningProcess
from hermes.contracts.services import ProcessResult
# __pragma__('noskip')


def stream_process_lines(command: str, args: 'List[str]', cwd: 'Optional[str]', on_line: 'Callable[[str], None]',
                         on_exit: 'Callable[[Optional[int], str], None]') -> 'Callable[[], None]':
    """CPython twin of the seam's stream_process_lines: a reader thread hands lines to the event loop."""
    loop = asyncio.get_event_loop()
    state = {'done': False, 'killed': False, 'proc': None, 'error': ''}  # type: Dict[str, Any]

    def kill() -> None:
        if not state['killed'] and not state['done']:
            state['killed'] = True
            if state['proc'] is not None and state['proc'].poll() is None:
                state['proc'].kill()

    def deliver(line: str) -> None:
        if state['killed'] or state['done']:
            return
        try:
            on_line(line)
        except Exception as error:  # the seam's contract: kill, report in stderr
            state['error'] += str(error)
            kill()

    def finish(code: Optional[int], stderr: str) -> None:
        if not state['done']:
            state['done'] = True
            on_exit(None if state['killed'] else code, stderr + state['error'])

    def post(callback: Callable[..., None], *args: Any) -> None:
        try:
            loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:
            pass  # the loop is gone (the test ended)

    try:
        proc = subprocess.Popen([command] + list(args), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as error:
        loop.call_soon(finish, None, str(error))
        return kill
    state['proc'] = proc

    def pump() -> None:
        errors = []  # type: List[bytes]
        stdout, stderr = proc.stdout, proc.stderr
        assert stdout is not None and stderr is not None  # both piped
        reader = threading.Thread(target=lambda: errors.append(stderr.read()), daemon=True)
        reader.start()
        for raw in stdout:
            post(deliver, raw.decode('utf-8', errors='replace').rstrip('\n'))
        code = proc.wait()
        reader.join()
        post(finish, None if code < 0 else code, b''.join(errors).decode('utf-8', errors='replace'))

    threading.Thread(target=pump, daemon=True).start()
    return kill


def start_process(command: str, args: 'List[str]', options: 'ProcessOptions') -> 'RunningProcess':
    """CPython twin of the seam's start_process (asyncio subprocess); same result dict."""
    state = {'proc': None, 'finished': False}  # type: Dict[str, Any]
    limit = options.get('max_bytes') or 4194304

    async def run() -> ProcessResult:
        dropped = options.get('drop_env') or []
        env = {key: value for key, value in os.environ.items()
               if not any(key == p or (p.endswith('*') and key.startswith(p[:-1])) for p in dropped)}
        env.update(options.get('env') or {})
        try:
            proc = await asyncio.create_subprocess_exec(
                command, *args, cwd=options.get('cwd'), env=env, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        except OSError as error:
            state['finished'] = True
            return {'code': None, 'signal': None, 'stdout': '', 'stderr': '', 'timedOut': False,
                    'truncated': False, 'error': str(error)}
        state['proc'] = proc
        timed_out = False
        timeout = options.get('timeout_ms') or 0
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout / 1000.0 if timeout else None)
        except asyncio.TimeoutError:
            timed_out = True
            proc.terminate()
            out, err = await proc.communicate()
        state['finished'] = True
        code = await proc.wait()  # (it has ended: its code at once)
        truncated = len(out) > limit or len(err) > limit
        return {'code': code if code >= 0 else None, 'signal': 'SIGTERM' if code is not None and code < 0 else None,
                'stdout': out[:limit].decode('utf-8', errors='replace'),
                'stderr': err[:limit].decode('utf-8', errors='replace'),
                'timedOut': timed_out, 'truncated': truncated, 'error': None}

    def kill() -> None:
        if state['proc'] is not None and not state['finished'] and state['proc'].returncode is None:
            state['proc'].terminate()

    return {'done': asyncio.ensure_future(run()), 'kill': kill}
