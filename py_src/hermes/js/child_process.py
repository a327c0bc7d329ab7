"""Child processes (no shell): run a program to completion (git), or stream its output line by line
(file search with ripgrep)."""
# __pragma__('tconv')
from hermes.js.errors import JsError, error_message
from hermes.js.modules import node
from hermes.js.objects import or_none
from hermes.js.promises import make_promise
from hermes.js.text import utf8_text


def _dropped(key: str, patterns: 'List[str]') -> bool:
    for pattern in patterns:
        if pattern == key or (pattern.endswith('*') and key.startswith(pattern[:len(pattern) - 1])):
            return True
    return False


def start_process(command: str, args: 'List[str]', options: 'ProcessOptions') -> 'RunningProcess':
    """Start `command` with `args` (no shell). `options`: cwd, timeout_ms (0: none), max_bytes (per
    stream, the rest is dropped), env (extra variables), drop_env (inherited variables to leave out). Returns {'done', 'kill'}: `done` resolves
    (never rejects) to {code, signal, stdout, stderr, timedOut, truncated, error}; a program that
    cannot start gives code None and `error` ('spawn git ENOENT'). `kill()` sends SIGTERM."""
    limit = options['max_bytes'] if options['max_bytes'] is not None else 4194304
    dropped = options['drop_env'] if options['drop_env'] is not None else []
    env = {}  # type: Dict[str, str]
    for key in Object.js_keys(process.env):
        if not _dropped(key, dropped):
            env[key] = process.env[key]  # transcrypt-ok[proto-copy]: this process's own environment
    Object.assign(env, options['env'] if options['env'] is not None else {})
    state = {'out': [], 'err': [], 'sizes': [0, 0], 'truncated': False, 'timed_out': False,
             'finished': False, 'timer': None, 'child': None}  # type: Dict[str, Any]
    holder = {}  # type: Dict[str, Callable[[ProcessResult], None]]

    def finish(code: 'Optional[int]', signal: 'Optional[str]', error: 'Optional[str]') -> None:
        if state['finished']:
            return
        state['finished'] = True
        if state['timer'] is not None:
            clearTimeout(state['timer'])
        holder['resolve']({'code': or_none(code), 'signal': or_none(signal), 'stdout': utf8_text(state['out']),
                           'stderr': utf8_text(state['err']), 'timedOut': state['timed_out'],
                           'truncated': state['truncated'], 'error': error})

    def collector(index: int, chunks: 'List[Any]') -> 'Callable[[Any], None]':
        def on_data(chunk: 'Any') -> None:  # a Buffer
            room = limit - state['sizes'][index]
            if room <= 0:
                state['truncated'] = True
                return
            if chunk.length > room:
                chunk = chunk.subarray(0, room)
                state['truncated'] = True
            state['sizes'][index] = state['sizes'][index] + chunk.length
            chunks.append(chunk)
        return on_data

    def on_timeout() -> None:
        state['timed_out'] = True
        kill()

    def kill() -> None:
        if state['child'] is not None and not state['finished']:
            state['child'].kill('SIGTERM')

    def executor(resolve: 'Callable[[ProcessResult], None]', reject: 'Callable[..., None]') -> None:
        holder['resolve'] = resolve
        try:
            child = node('child_process').spawn(command, args, {
                'cwd': options['cwd'], 'env': env, 'stdio': ['ignore', 'pipe', 'pipe'], 'windowsHide': True})  # type: ChildProcess
        except JsError as error:
            finish(None, None, error_message(error))
            return
        state['child'] = child
        child.stdout.on('data', collector(0, state['out']))
        child.stderr.on('data', collector(1, state['err']))
        child.on('error', lambda error: finish(None, None, error_message(error)))
        child.on('close', lambda code, signal: finish(code, signal, None))
        if options['timeout_ms']:
            state['timer'] = setTimeout(on_timeout, options['timeout_ms'])

    return {'done': make_promise(executor), 'kill': kill}


def stream_process_lines(command: str, args: 'List[str]', cwd: 'Optional[str]', on_line: 'Callable[[str], None]',
                         on_exit: 'Callable[[Optional[int], str], None]') -> 'Callable[[], None]':
    """Start `command args` (no shell) in `cwd`. `on_line(text)` gets each line of stdout as it
    arrives (without its newline), then `on_exit(code, stderr)` is called once; `code` is None when
    the program could not start or was killed. Returns `kill()`: no line is delivered after it.
    If `on_line` raises, the process is killed and the error's message ends `stderr`."""
    state = {'rest': '', 'stderr': '', 'done': False, 'killed': False, 'child': None}  # type: Dict[str, Any]

    def kill() -> None:
        if not state['killed'] and not state['done']:
            state['killed'] = True
            if state['child'] is not None:
                state['child'].kill()

    def deliver(line: str) -> None:
        if state['killed'] or state['done']:
            return
        try:
            on_line(line)
        except JsError as error:
            state['stderr'] = state['stderr'] + error_message(error)
            kill()

    def on_stdout(chunk: str) -> None:
        lines = (state['rest'] + chunk).split('\n')
        state['rest'] = lines.pop()
        for line in lines:
            deliver(line)

    def on_stderr(chunk: str) -> None:
        if len(state['stderr']) < 65536:
            state['stderr'] = state['stderr'] + chunk

    def finish(code: 'Optional[int]') -> None:
        if state['done']:
            return
        if state['rest'] != '':
            deliver(state['rest'])
        state['done'] = True
        try:
            on_exit(None if state['killed'] else or_none(code), state['stderr'])
        except JsError as error:
            console.error('hermes: ' + error_message(error))

    def on_error(error: 'Any') -> None:
        state['stderr'] = state['stderr'] + error_message(error)
        finish(None)

    try:
        child = node('child_process').spawn(command, args, {'cwd': cwd, 'stdio': ['ignore', 'pipe', 'pipe'],
                                                            'windowsHide': True})  # type: ChildProcess
    except JsError as error:
        state['stderr'] = error_message(error)
        setTimeout(lambda: finish(None), 0)
        return kill
    state['child'] = child
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', on_stdout)
    child.stderr.on('data', on_stderr)
    child.on('error', on_error)
    child.on('close', lambda code, signal: finish(code))
    return kill


# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.node import ChildProcess, ProcessOptions, RunningProcess
from hermes.contracts.services import ProcessResult
from hermes.js.child_process_cpython import start_process, stream_process_lines
# __pragma__('noskip')
