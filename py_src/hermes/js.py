"""The seam between Python and JavaScript: every `require(...)` and JS global lives here.

Under Transcrypt the skip blocks vanish and the names are the real JS globals; under CPython they
come from `hermes._cpython`, which imitates them closely enough for pytest. Other modules import
from here only, and follow the rules in docs/TRANSCRYPT.md.
"""
# __pragma__('tconv')
# __pragma__('skip')
from hermes._cpython import (  # noqa: F401
    require, JSON, Object, Array, Date, Error, Promise, console, process,
    setTimeout, clearTimeout, setInterval, clearInterval, __pragma__, js_new, typeof,
)
# __pragma__('noskip')

# In JS, `except object` is the only clause that also catches JS errors (a rejected fetch, a
# JSON.parse SyntaxError). CPython rebinds this to Exception at the end of the module.
JsError = object

vscode = require('vscode')


def decode_uri_component(text):
    return decodeURIComponent(text)  # noqa: F821


_node_modules = {}


def base64_utf8(text):
    """Base64 → the UTF-8 text it encodes, or None when `text` is not canonical base64 or not UTF-8."""
    return __pragma__('js', '{}', """(() => {
        if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) { return null; }
        try { return new TextDecoder('utf-8', {fatal: true}).decode(Buffer.from(text, 'base64')); }
        catch (error) { return null; }
    })()""")  # noqa: F821


def utf8_base64(text):
    """The Base64 of `text`'s UTF-8 bytes."""
    return __pragma__('js', '{}', 'Buffer.from(text, "utf8").toString("base64")')  # noqa: F821


def node(module_name):
    """A Node built-in module (http, crypto, fs, os, path), required once: in VS Code's extension host
    every `require` runs its module interceptors (measured in code-server: 9% of a file_search's CPU).
    (CPython looks it up every time, so pytest can stub modules.)"""
    key = 'm:' + module_name  # a prefix keeps names clear of dict members
    if key not in _node_modules:
        _node_modules[key] = require(module_name)
    return _node_modules[key]


def native_regex(source, flags=''):
    """A JS RegExp. Transcrypt's `re` builds a Match object per match (measured: most of the CPU of
    matching a glob against 30,000 paths) and weighs 34 kB of the bundle, so no module uses it.
    `flags`: JS flags; 'g' for regex_replace_all / regex_count. CPython: `re.compile` (flags ignored).
    Write sources both engines read alike: no backreferences in replacements, no Python-only syntax."""
    return new(RegExp, source, flags)  # noqa: F821


def regex_matches(regex, text):
    """Whether a native_regex finds a match in `text` (anchor the source with ^…$ for a full match)."""
    return regex.test(text)


def regex_replace_all(regex, text, replacement):
    """Every match (a regex made with flags 'g') replaced by the plain string `replacement`."""
    return text.js_replace(regex, replacement)


def regex_count(regex, text):
    """How many times a regex made with flags 'g' matches in `text`."""
    found = __pragma__('js', '{}', 'text.match (regex)')  # noqa: F821  (`match` has no js_ alias)
    return 0 if found is None else len(found)


def sorted_strings(strings):
    """Sort a list of strings in place, by code unit, without Transcrypt's per-comparison wrapper
    (the same order as Python's for text without astral characters). Returns the list."""
    return strings.js_sort()  # `js_sort` compiles to the native `sort` (`sort` would be Transcrypt's)


def new(cls, *args):
    """`new cls(...args)`: Transcrypt's `__new__` is compile-time only, so it is wrapped once here."""
    return __pragma__('js', '{}', 'new cls(...args)')  # noqa: F821


def is_none(value):
    """True for None and, in JS, for `undefined` (missing keys, absent arguments, void returns)."""
    return value == None  # noqa: E711  (compiles to JS `== null`, which also matches undefined)


def is_undefined(value):
    return typeof(value) == 'undefined'


def or_none(value):
    """Map JS `undefined` to None, so it survives `JSON.stringify` and `is None` checks."""
    return None if is_none(value) else value


def error_message(error):
    """The human text of a Python exception, a JS `Error`, or anything else that was thrown."""
    if is_none(error):
        return 'unknown error'
    if typeof(error) == 'string':
        return error
    try:
        message = error.message
    except JsError:
        message = None
    if typeof(message) == 'string' and message != '':
        return message
    return str(error)


def js_error(message):
    """A real JS `Error`: what VS Code and Node expect to be thrown or rejected with."""
    return new(Error, message)


def now_ms():
    return Date.now()


def parse_json(text):
    """JSON text → Python values (dicts whose `.get` works in JS too); ValueError on bad JSON."""
    try:
        return JSON.parse(text, _revive)
    except JsError as error:
        raise ValueError(error_message(error))


def parse_json_plain(text):
    """JSON text → plain values without wrapping objects as dicts (7× faster in JS): only for hot
    paths that read the objects through core/values.py helpers (subscripts, `in`), never `.get`."""
    try:
        return JSON.parse(text)
    except JsError as error:
        raise ValueError(error_message(error))


def _revive(key, value):
    if value is not None and typeof(value) == 'object' and not Array.isArray(value):
        return dict(value)
    return value


def dump_json(value, indent=0):
    """Python values → JSON text; `undefined` becomes null instead of silently vanishing."""
    if indent:
        return JSON.stringify(value, _undefined_to_null, indent)
    return JSON.stringify(value, _undefined_to_null)


def _undefined_to_null(key, value):
    return None if is_undefined(value) else value


def keys_of(obj):
    """The own enumerable keys of a JS object or a dict, as a list."""
    return Object.js_keys(obj)  # a bare `.keys` would be renamed to `.py_keys`


# ------------------------------------------------------------------------------------------------
# Bytes and streamed child processes (the file and search tools).


def utf8_bytes(text):
    """str → UTF-8 bytes (a Uint8Array in JS: what vscode.workspace.fs.writeFile takes).
    The way back is `utf8_text([data])`."""
    return new(TextEncoder).encode(text)  # noqa: F821


def platform_id():
    """'linux-x64', 'darwin-arm64', 'win32-x64': how VS Code's packages name per-platform binaries."""
    return process.platform + '-' + process.arch


def stream_process_lines(command, args, cwd, on_line, on_exit):
    """Start `command args` (no shell) in `cwd`. `on_line(text)` gets each line of stdout as it
    arrives (without its newline), then `on_exit(code, stderr)` is called once; `code` is None when
    the program could not start or was killed. Returns `kill()`: no line is delivered after it.
    If `on_line` raises, the process is killed and the error's message ends `stderr`."""
    state = {'rest': '', 'stderr': '', 'done': False, 'killed': False, 'child': None}

    def kill():
        if not state['killed'] and not state['done']:
            state['killed'] = True
            if not is_none(state['child']):
                state['child'].kill()

    def deliver(line):
        if state['killed'] or state['done']:
            return
        try:
            on_line(line)
        except JsError as error:
            state['stderr'] = state['stderr'] + error_message(error)
            kill()

    def on_stdout(chunk):
        lines = (state['rest'] + chunk).split('\n')
        state['rest'] = lines.pop()
        for line in lines:
            deliver(line)

    def on_stderr(chunk):
        if len(state['stderr']) < 65536:
            state['stderr'] = state['stderr'] + chunk

    def finish(code):
        if state['done']:
            return
        if state['rest'] != '':
            deliver(state['rest'])
        state['done'] = True
        try:
            on_exit(None if state['killed'] else or_none(code), state['stderr'])
        except JsError as error:
            console.error('hermes: ' + error_message(error))

    def on_error(error):
        state['stderr'] = state['stderr'] + error_message(error)
        finish(None)

    try:
        child = node('child_process').spawn(command, args, {'cwd': cwd, 'stdio': ['ignore', 'pipe', 'pipe'],
                                                            'windowsHide': True})
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
from hermes._cpython import utf8_bytes, platform_id, stream_process_lines  # noqa: E402,F811
# __pragma__('noskip')


def set_repeating(callback, interval_ms):
    return setInterval(callback, interval_ms)


def clear_repeating(handle):
    clearInterval(handle)


def utf8_text(chunks):
    """Node Buffers (or Uint8Arrays) received from a stream or a read → one string. A single chunk is
    decoded in place (concat would copy it first: 10 MB for a big file_read)."""
    if len(chunks) == 1:
        chunk = chunks[0]
        return Buffer.js_from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8')  # noqa: F821
    return Buffer.concat(chunks).toString('utf8')  # noqa: F821


def make_promise(executor):
    """`new Promise(executor)`; executor(resolve, reject)."""
    return new(Promise, executor)


# __pragma__('skip')
from hermes._cpython import make_promise  # noqa: E402,F811
# __pragma__('noskip')


def current_pid():
    return process.pid


def signal_process(pid, signal):
    """process.kill(pid, signal): signal 0 only checks the process exists (throws ESRCH if not)."""
    process.kill(pid, signal)


def set_timer(callback, delay_ms):
    return setTimeout(callback, delay_ms)


def clear_timer(handle):
    clearTimeout(handle)


# ------------------------------------------------------------------------------------------------
# Waiting and racing (the LLM client's backoff, the agent loop's prompt cancel).


def sleep_ms(delay_ms):
    """An awaitable that resolves after `delay_ms`."""
    return make_promise(lambda resolve, reject: setTimeout(resolve, delay_ms))


def deferred():
    """{'promise', 'resolve', 'reject'}: a promise settled from outside."""
    holder = {}

    def executor(resolve, reject):
        holder['resolve'] = resolve
        holder['reject'] = reject
    holder['promise'] = make_promise(executor)
    return holder


def first_of(awaitables):
    """Whichever awaitable settles first (`Promise.race`); the others keep running."""
    return Promise.race(awaitables)


def parse_http_date(text):
    """An HTTP date (a Retry-After value) as epoch milliseconds, or None."""
    value = Date.parse(text)
    return None if value != value else value  # NaN (a bare `isNaN` compiles to `py_isNaN`)


# __pragma__('skip')
from hermes._cpython import sleep_ms, deferred, first_of, parse_http_date  # noqa: E402,F811
from hermes._cpython import parse_json as parse_json_plain  # noqa: E402,F811
# __pragma__('noskip')


def to_js_callback(handler):
    """Wrap a Python callable handed to VS Code or Node so a raised Python exception (or a rejected
    coroutine) reaches JS as a real `Error`, which VS Code can log and Node can print."""
    def wrapper(*args):
        try:
            result = handler(*args)
        except JsError as error:
            raise_js(error)
        if not is_none(result) and typeof(result.then) == 'function':
            return result.then(None, _rethrow_as_js)
        return result
    return wrapper


def _rethrow_as_js(error):
    raise_js(error)


def is_js_error(value):
    return __pragma__('js', '{}', 'value instanceof Error')  # noqa: F821


def raise_js(error):
    """Throw `error` as a JS Error (unchanged if it already is one)."""
    wrapped = error if is_js_error(error) else js_error(error_message(error))
    __pragma__('js', '{}', 'throw wrapped')  # noqa: F821


# __pragma__('skip')
from hermes._cpython import JsError, is_undefined, new, node  # noqa: E402,F811
from hermes._cpython import native_regex, regex_matches, regex_replace_all, regex_count, sorted_strings  # noqa: E402,F811
from hermes._cpython import parse_json, dump_json, keys_of, to_js_callback  # noqa: E402,F811
from hermes._cpython import is_js_error, raise_js, decode_uri_component, utf8_text, base64_utf8, utf8_base64  # noqa: E402,F811
# __pragma__('noskip')


# ------------------------------------------------------------------------------------------------
# dist/mcp-server.js (the CLI): the process, its standard streams, and fetch.


def script_name():
    """The base name of the script node was started with ('mcp-server.js' for the CLI bundle)."""
    script = process.argv[1]
    return '' if is_none(script) else node('path').basename(script)


def command_line():
    """The arguments after `node <script>`, as a list of strings."""
    return process.argv.slice(2)


def current_directory():
    return process.cwd()


def write_stdout(text):
    process.stdout.write(text)


def write_stderr(text):
    process.stderr.write(text)


def exit_process(code):
    """Exit with `code` once what was written to stdout and stderr has been handed to the OS."""
    process.exitCode = code
    process.stdout.write('', lambda: process.stderr.write('', lambda: process.exit(code)))


def read_stdin_lines(on_line, on_end):
    """Call on_line(text) for each line of stdin (LF or CRLF), then on_end() when stdin closes."""
    lines = node('readline').createInterface({'input': process.stdin, 'crlfDelay': js_Infinity,  # noqa: F821
                                              'terminal': False})
    lines.on('line', on_line)
    lines.on('close', on_end)
    return lines


def on_process_signal(signal, handler):
    process.on(signal, handler)


def spawn(awaitable):
    """Let a coroutine run on its own (it must handle its own errors; leftovers go to stderr)."""
    awaitable.then(None, _report_background_error)
    return awaitable


def _report_background_error(error):
    process.stderr.write('hermes: ' + error_message(error) + '\n')


def wait_all(awaitables):
    return Promise.all(awaitables)


def monotonic_ms():
    """A clock for measuring durations, with sub-millisecond resolution."""
    return performance.now()  # noqa: F821


def fetch_url(url, options):
    """Node's global fetch; `options` is a dict of method, headers, body, signal."""
    init = plain_object(options)
    if not is_none(options['headers']):
        init['headers'] = plain_object(options['headers'])
    return fetch(url, init)  # noqa: F821


def plain_object(value):
    """A dict as a plain JS object: a transpiled dict has a Symbol.iterator (over nothing), which
    makes Web APIs such as fetch's Headers take it for a list of pairs and fail."""
    return Object.fromEntries(Object.entries(value))


def timeout_signal(delay_ms):
    return AbortSignal.timeout(delay_ms)  # noqa: F821


def abort_controller():
    return new(AbortController)  # noqa: F821


def response_header(response, header_name):
    return or_none(response.headers.js_get(header_name))


def body_reader(response):
    """A reader of a fetch response body as text chunks (see read_text_chunk)."""
    if is_none(response.body):
        return {'reader': None, 'decoder': None}
    return {'reader': response.body.getReader(), 'decoder': new(TextDecoder, 'utf-8')}  # noqa: F821


async def read_text_chunk(reader):
    """The next decoded piece of the body, or None at its end (rejects when the fetch is aborted)."""
    if is_none(reader['reader']):
        return None
    result = await reader['reader'].read()
    if result.done:
        tail = reader['decoder'].decode()
        return None if tail == '' else tail
    return reader['decoder'].decode(result.value, {'stream': True})


def cancel_body(reader):
    """Stop reading a body early (the connection is released); never throws."""
    if not is_none(reader['reader']):
        reader['reader'].cancel().then(None, lambda error: None)


def network_error_code(error):
    """Why a fetch failed: 'ECONNREFUSED', 'ENOTFOUND', 'TimeoutError', 'AbortError', ... or None."""
    if is_none(error) or typeof(error) != 'object':
        return None
    for candidate in [error.cause, error]:
        if not is_none(candidate) and typeof(candidate.code) == 'string':
            return candidate.code
    kind = error['name']
    return kind if typeof(kind) == 'string' else None


def network_error_detail(error):
    """The most specific message of a failed fetch ('bad port' rather than 'fetch failed')."""
    if not is_none(error) and typeof(error) == 'object' and not is_none(error.cause):
        return error_message(error.cause)
    return error_message(error)


# __pragma__('skip')
from hermes._cpython import (  # noqa: E402,F811
    script_name, command_line, current_directory, write_stdout, write_stderr, exit_process,
    read_stdin_lines, on_process_signal, spawn, wait_all, monotonic_ms, fetch_url, timeout_signal,
    abort_controller, response_header, body_reader, read_text_chunk, cancel_body, network_error_code,
    plain_object, network_error_detail,
)
# __pragma__('noskip')


# ------------------------------------------------------------------------------------------------
# Child processes and async streams (the git tools, terminal output capture).


def _dropped(key, patterns):
    for pattern in patterns:
        if pattern == key or (pattern.endswith('*') and key.startswith(pattern[:len(pattern) - 1])):
            return True
    return False


def start_process(command, args, options):
    """Start `command` with `args` (no shell). `options`: cwd, timeout_ms (0: none), max_bytes (per
    stream, the rest is dropped), env (extra variables), drop_env (inherited variables to leave out). Returns {'done', 'kill'}: `done` resolves
    (never rejects) to {code, signal, stdout, stderr, timedOut, truncated, error}; a program that
    cannot start gives code None and `error` ('spawn git ENOENT'). `kill()` sends SIGTERM."""
    limit = options['max_bytes'] if not is_none(options['max_bytes']) else 4194304
    dropped = options['drop_env'] if not is_none(options['drop_env']) else []
    env = {}
    for key in Object.js_keys(process.env):
        if not _dropped(key, dropped):
            env[key] = process.env[key]
    Object.assign(env, options['env'] if not is_none(options['env']) else {})
    state = {'out': [], 'err': [], 'sizes': [0, 0], 'truncated': False, 'timed_out': False,
             'finished': False, 'timer': None, 'child': None}
    holder = {}

    def finish(code, signal, error):
        if state['finished']:
            return
        state['finished'] = True
        if not is_none(state['timer']):
            clearTimeout(state['timer'])
        holder['resolve']({'code': or_none(code), 'signal': or_none(signal), 'stdout': utf8_text(state['out']),
                           'stderr': utf8_text(state['err']), 'timedOut': state['timed_out'],
                           'truncated': state['truncated'], 'error': error})

    def collector(index, chunks):
        def on_data(chunk):
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

    def on_timeout():
        state['timed_out'] = True
        kill()

    def kill():
        if not is_none(state['child']) and not state['finished']:
            state['child'].kill('SIGTERM')

    def executor(resolve, reject):
        holder['resolve'] = resolve
        try:
            child = node('child_process').spawn(command, args, {
                'cwd': options['cwd'], 'env': env, 'stdio': ['ignore', 'pipe', 'pipe'], 'windowsHide': True})
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


def for_each_async(iterable, callback, on_end):
    """Consume an AsyncIterable (a terminal execution's `read()`) on its own: `callback(item)` for each
    item, then `on_end(error)` once (None when the stream simply ended). It starts at once."""
    __pragma__('js', '{}', """(async () => {
        try { for await (const item of iterable) { callback(item); } }
        catch (error) { on_end(error); return; }
        on_end(null);
    })();""")  # noqa: F821


# __pragma__('skip')
from hermes._cpython import start_process, for_each_async  # noqa: E402,F811
# __pragma__('noskip')


def local_time_text(ms):
    """A time (epoch milliseconds) as the user's locale writes it."""
    return new(Date, ms).toLocaleString()


# __pragma__('skip')
from hermes._cpython import local_time_text  # noqa: E402,F811
# __pragma__('noskip')
