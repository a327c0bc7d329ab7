"""A long-running child process that speaks a line protocol over its stdin and stdout (an ACP agent):
started in a process group of its own, stdout cut into lines with a bound on a line's size, stderr as text,
its end reported once, and the whole group ended by its pid — also when this process exits, and when it dies
without running its exit hook (a signal): a watchdog per group ends it then."""
# __pragma__('tconv')
from hermes.js.errors import JsError, error_message
from hermes.js.modules import node
from hermes.js.objects import or_none

# How long to wait for the end of stdout and stderr after the process exited: a grandchild that inherited them can
# keep the pipes open for ever, and what the agent wrote before it exited is normally read within a tick.
DRAIN_AFTER_EXIT_MS = 500

# The watchdog of a process group (POSIX): a small shell in a session of its own that reads one line from a pipe only
# this process holds. When this process dies by a signal, Node's `exit` hook below never runs (nor deactivate) and
# the agent — in its own group, so no signal sent to ours reaches it — would live on with what it started; the pipe
# closes then, `read` sees the end, and the watchdog ends the group (SIGTERM, then SIGKILL for an agent that ignores
# it). When the group ends normally we write "done" first, so a reused process group id is never signalled.
WATCHDOG_SCRIPT = ('read line; [ "$line" = done ] && exit 0; kill -s TERM -- -"$1" 2>/dev/null; sleep 2; '
                   'kill -s KILL -- -"$1" 2>/dev/null')

# The process groups still running, ended with SIGKILL if this process exits before they did (a crash of the
# extension host, a reload that skips deactivate). One hook for all of them.
_live = {'pids': [], 'hooked': False}  # type: Dict[str, Any]


def _kill_all_on_exit() -> None:
    for pid in _live['pids']:
        _signal_group(pid, 'SIGKILL')


def _remember(pid: int) -> None:
    _live['pids'].append(pid)
    if not _live['hooked']:
        _live['hooked'] = True
        process.on('exit', _kill_all_on_exit)


def _forget(pid: int) -> None:
    if pid in _live['pids']:
        _live['pids'].remove(pid)


def _watch(pid: int) -> 'Callable[[], None]':
    """Start the watchdog of the process group `pid`; returns a function that dismisses it (the group ended)."""
    if process.platform == 'win32':
        return lambda: None
    try:
        watchdog = node('child_process').spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'hermes-watchdog', str(pid)], {
            'stdio': ['pipe', 'ignore', 'ignore'], 'detached': True, 'windowsHide': True})  # type: ChildProcess
    except JsError:
        return lambda: None
    watchdog.on('error', lambda error: None)  # no /bin/sh: the exit hook alone, as before
    watchdog.stdin.on('error', lambda error: None)
    watchdog.unref()  # it never keeps this process alive
    if watchdog.stdin.unref is not None:
        watchdog.stdin.unref()

    def dismiss() -> None:
        if not watchdog.stdin.destroyed:
            watchdog.stdin.end('done\n')
    return dismiss


def _signal_group(pid: int, signal: str) -> None:
    """Send `signal` to the process group `pid` leads (the agent and every process it started); a
    process that left the group (setsid) is not reached. On Windows, taskkill ends the tree."""
    if process.platform == 'win32':
        try:
            node('child_process').spawn('taskkill', ['/pid', str(pid), '/T', '/F'], {'windowsHide': True})
        except JsError:
            pass
        return
    try:
        process.kill(-pid, signal)
    except JsError:
        try:
            process.kill(pid, signal)
        except JsError:
            pass  # already gone


def open_line_process(command: str, args: 'List[str]', options: 'LineProcessOptions',
                      handlers: 'LineProcessHandlers') -> 'LineProcess':
    """Start `command args` (no shell) with stdin, stdout and stderr piped.
    `options`: cwd, env (variables added to this process's environment), max_line_bytes (a longer line on
    stdout is not delivered: on_overflow(limit) is called once and no line follows).
    `handlers`: on_line(text) for each line of stdout (UTF-8, without its newline or a trailing CR),
    on_overflow(limit), on_stderr(text) for each piece of stderr, on_exit(code, signal, error) exactly once:
    `error` is the reason the program could not start ('ENOENT', 'EACCES', or a message), else None.
    Returns {'pid', 'write': fn(text) → whether it was handed to the pipe, 'end': fn() closes stdin,
    'kill': fn(signal) signals the process group (also right after the end: what it left in its group),
    'running': fn()}."""
    limit = options['max_line_bytes']
    env = Object.assign({}, process.env, options['env'] if options['env'] is not None else {})
    state = {'pending': [], 'size': 0, 'overflowed': False, 'exited': False, 'stdout_ended': False,
             'stderr_ended': False, 'finished': False, 'code': None, 'signal': None, 'error': None, 'pid': None,
             'drain_timer': None, 'dismiss_watchdog': None}  # type: Dict[str, Any]

    def call(handler: 'Callable[..., Any]', *values: 'Any') -> None:
        try:
            handler(*values)
        except JsError as error:
            process.stderr.write('hermes: ' + error_message(error) + '\n')

    def finish() -> None:
        if state['finished']:
            return
        state['finished'] = True
        if state['drain_timer'] is not None:
            clearTimeout(state['drain_timer'])
        if state['pid'] is not None:
            _forget(state['pid'])
        if state['dismiss_watchdog'] is not None:
            state['dismiss_watchdog']()
        call(handlers['on_exit'], state['code'], state['signal'], state['error'])

    def overflow() -> None:
        state['overflowed'] = True
        state['pending'] = []
        state['size'] = 0
        call(handlers['on_overflow'], limit)

    def deliver(parts: 'List[Any]', size: int) -> None:  # Buffers
        text = Buffer.concat(parts, size).toString('utf8')
        if text.endswith('\r'):
            text = text[:len(text) - 1]
        call(handlers['on_line'], text)

    def on_stdout(chunk: 'Any') -> None:  # a Buffer
        while not state['overflowed'] and not state['finished']:
            at = chunk.indexOf(10)
            if at < 0:
                if state['size'] + chunk.length > limit:
                    overflow()
                elif chunk.length > 0:
                    state['pending'].append(chunk)
                    state['size'] = state['size'] + chunk.length
                return
            if state['size'] + at > limit:
                overflow()
                return
            parts = state['pending']
            parts.append(chunk.subarray(0, at))
            size = state['size'] + at
            state['pending'] = []
            state['size'] = 0
            chunk = chunk.subarray(at + 1)
            deliver(parts, size)

    def on_stream_end(which: str) -> 'Callable[[], None]':
        def ended() -> None:
            state[which] = True
            if state['exited'] and state['stdout_ended'] and state['stderr_ended']:
                finish()
        return ended

    def on_exit(code: 'Optional[int]', signal: 'Optional[str]') -> None:
        state['exited'] = True
        state['code'] = or_none(code)
        state['signal'] = or_none(signal)
        if state['stdout_ended'] and state['stderr_ended']:
            finish()
        else:
            state['drain_timer'] = setTimeout(finish, DRAIN_AFTER_EXIT_MS)

    def on_error(error: 'Any') -> None:
        # (`child` is set: on_error is registered on it)
        if state['pid'] is None or child.pid is None:  # type: ignore[union-attr]  # it never started
            code = error.code
            state['error'] = code if typeof(code) == 'string' else error_message(error)
            state['exited'] = True
            finish()

    def write(text: str) -> bool:
        if state['finished'] or state['exited'] or child is None or child.stdin.destroyed or \
                not child.stdin.writable:
            return False
        child.stdin.write(text)
        return True

    def end() -> None:
        if child is not None and not child.stdin.destroyed:
            child.stdin.end()

    def kill(signal: str) -> None:
        if state['pid'] is not None:
            _signal_group(state['pid'], signal)

    def running() -> bool:
        return state['pid'] is not None and not state['exited']

    child = None  # type: Optional[ChildProcess]
    try:
        child = node('child_process').spawn(command, args, {
            'cwd': options['cwd'], 'env': env, 'stdio': ['pipe', 'pipe', 'pipe'], 'windowsHide': True,
            'detached': process.platform != 'win32'})
    except JsError as error:
        state['error'] = error_message(error)
        state['exited'] = True
        setTimeout(finish, 0)
        return {'pid': None, 'write': write, 'end': end, 'kill': kill, 'running': running}
    state['pid'] = or_none(child.pid)
    if state['pid'] is not None:
        _remember(state['pid'])
        state['dismiss_watchdog'] = _watch(state['pid'])
    child.stdin.on('error', lambda error: None)  # EPIPE after the agent died: its exit says what happened
    child.stdout.on('data', on_stdout)
    child.stdout.on('end', on_stream_end('stdout_ended'))
    child.stderr.on('end', on_stream_end('stderr_ended'))
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', lambda text: call(handlers['on_stderr'], text))
    child.on('exit', on_exit)
    child.on('error', on_error)
    return {'pid': state['pid'], 'write': write, 'end': end, 'kill': kill, 'running': running}


# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.node import ChildProcess, LineProcess, LineProcessHandlers, LineProcessOptions
from hermes.js.objects import typeof
from hermes.js.line_process_cpython import open_line_process
# __pragma__('noskip')
