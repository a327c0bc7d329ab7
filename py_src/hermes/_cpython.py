"""CPython stand-ins for the JS globals the seam uses (never transpiled: see hermes.js)."""
import asyncio
import importlib
import json
import time

JsError = Exception
Error = type('Error', (Exception,), {})


def __pragma__(*args):
    raise RuntimeError('__pragma__ only works under Transcrypt')


class _NodePath:
    """The parts of Node's `path` the host code uses, on top of os.path (POSIX)."""
    import os.path as _os_path
    sep = '/'

    @staticmethod
    def join(*parts):
        import os.path
        return os.path.normpath(os.path.join(*parts))

    @staticmethod
    def resolve(*parts):
        import os.path
        return os.path.normpath(os.path.join(os.getcwd(), *parts))

    @staticmethod
    def normalize(path):
        import os.path
        return os.path.normpath(path)

    @staticmethod
    def isAbsolute(path):
        return path.startswith('/')

    @staticmethod
    def dirname(path):
        import os.path
        return os.path.dirname(path) or '.'

    @staticmethod
    def basename(path):
        import os.path
        return os.path.basename(path)

    @staticmethod
    def relative(start, path):
        import os.path
        relative = os.path.relpath(path, start)
        return '' if relative == '.' else relative


class _NodeStats:
    """fs.Stats / fs.Dirent: the kind tests, `size`, `mtimeMs`, and `name` by subscript."""

    def __init__(self, mode, size=0, mtime_ms=0, name=None):
        import stat
        self._mode, self.size, self.mtimeMs, self._name = mode, size, mtime_ms, name
        self.isFile = lambda: stat.S_ISREG(mode)
        self.isDirectory = lambda: stat.S_ISDIR(mode)
        self.isSymbolicLink = lambda: stat.S_ISLNK(mode)

    def __getitem__(self, key):
        return {'name': self._name}[key]


def _node_error(call, path, error):
    codes = {2: 'ENOENT', 13: 'EACCES', 20: 'ENOTDIR', 21: 'EISDIR'}
    code = codes.get(error.errno, 'EIO')
    wrapped = type(error)(f"{code}: {error.strerror.lower()}, {call} '{path}'")
    wrapped.code = code
    return wrapped


class _NodeFsPromises:
    """The `fs.promises` calls the host code uses (host/disk.py), with Node's error texts and codes."""

    @staticmethod
    def _stats(call, path, follow):
        import os
        try:
            info = os.stat(path) if follow else os.lstat(path)
        except OSError as error:
            raise _node_error(call, path, error) from None
        return _NodeStats(info.st_mode, info.st_size, info.st_mtime * 1000)

    @staticmethod
    async def stat(path):
        return _NodeFsPromises._stats('stat', path, True)

    @staticmethod
    async def lstat(path):
        return _NodeFsPromises._stats('lstat', path, False)

    @staticmethod
    async def readdir(path, options=None):
        import os
        try:
            with os.scandir(path) as entries:
                return [_NodeStats(entry.stat(follow_symlinks=False).st_mode, name=entry.name) for entry in entries]
        except OSError as error:
            raise _node_error('scandir', path, error) from None

    @staticmethod
    async def readFile(path):
        try:
            with open(path, 'rb') as handle:
                return handle.read()
        except OSError as error:
            raise _node_error('open', path, error) from None


class _NodeFs:
    """The synchronous parts of Node's `fs` the host code uses; errors carry Node's `code`."""

    @staticmethod
    def realpathSync(path):
        import os
        if not os.path.lexists(path):
            error = FileNotFoundError(f"ENOENT: no such file or directory, realpath '{path}'")
            error.code = 'ENOENT'
            raise error
        return os.path.realpath(path)

    @staticmethod
    def existsSync(path):
        import os
        return os.path.exists(path)

    @staticmethod
    def readFileSync(path, encoding=None):
        """Text with an encoding, bytes without (a Buffer in Node)."""
        try:
            with open(path, 'rb' if encoding is None else 'r', **({} if encoding is None else {'encoding': encoding})) as file:
                return file.read()
        except OSError as error:
            raise _node_error('open', path, error) from None

    @staticmethod
    def writeFileSync(path, text, encoding):
        with open(path, 'w', encoding=encoding) as file:
            file.write(text)

    @staticmethod
    def renameSync(source, target):
        import os
        os.replace(source, target)

    @staticmethod
    def mkdirSync(path, options=None):
        import os
        os.makedirs(path, exist_ok=bool(options and options.get('recursive')))

    @staticmethod
    def statSync(path):
        import os
        try:
            info = os.stat(path)
        except OSError as error:
            raise _node_error('stat', path, error) from None
        return _NodeStats(info.st_mode, info.st_size, info.st_mtime * 1000)

    @staticmethod
    def lstatSync(path):
        return _NodeFsPromises._stats('lstat', path, False)

    promises = _NodeFsPromises


class _NodeCrypto:
    @staticmethod
    def randomUUID():
        import uuid
        return str(uuid.uuid4())


NODE_MODULES = {'path': _NodePath, 'fs': _NodeFs, 'crypto': _NodeCrypto}
"""Stand-ins for Node built-ins by name; tests may register more."""


def require(name):
    if name == 'vscode':
        return importlib.import_module('vscode')  # the test shim, put on sys.path by conftest
    if name in NODE_MODULES:
        return NODE_MODULES[name]
    raise ImportError(f'no CPython stand-in for Node module {name!r}')


def node(name):
    return require(name)


def native_regex(source, flags=''):
    import re
    return re.compile(source)


def regex_matches(regex, text):
    return regex.search(text) is not None


def regex_replace_all(regex, text, replacement):
    return regex.sub(lambda match: replacement, text)


def regex_count(regex, text):
    return len(regex.findall(text))


def sorted_strings(strings):
    strings.sort()
    return strings


def js_new(cls, *args):
    return cls(*args)


new = js_new


def typeof(value):
    if value is None:
        return 'object'
    if isinstance(value, bool):
        return 'boolean'
    if isinstance(value, (int, float)):
        return 'number'
    if isinstance(value, str):
        return 'string'
    if callable(value):
        return 'function'
    return 'object'


def is_undefined(value):
    return False


# ---------------------------------------------------------------------------- bytes, streamed processes

def utf8_bytes(text):
    return text.encode('utf-8')


def platform_id():
    import platform
    machine = platform.machine().lower()
    arch = {'x86_64': 'x64', 'amd64': 'x64', 'aarch64': 'arm64', 'i386': 'ia32', 'i686': 'ia32'}.get(machine, machine)
    import sys
    return ('win32' if sys.platform.startswith('win') else sys.platform) + '-' + arch


def make_promise(executor):
    """`new Promise(executor)` as an asyncio future; resolve/reject may be called from any thread."""
    loop = asyncio.get_event_loop()
    future = loop.create_future()

    def settle(ok, value):
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value if isinstance(value, BaseException) else Exception(str(value)))

    def resolve(value=None):
        loop.call_soon_threadsafe(settle, True, value) if loop.is_running() else settle(True, value)

    def reject(error=None):
        loop.call_soon_threadsafe(settle, False, error) if loop.is_running() else settle(False, error)

    executor(resolve, reject)
    return future


def stream_process_lines(command, args, cwd, on_line, on_exit):
    """CPython twin of the seam's stream_process_lines: a reader thread hands lines to the event loop."""
    import subprocess
    import threading
    loop = asyncio.get_event_loop()
    state = {'done': False, 'killed': False, 'proc': None, 'error': ''}

    def kill():
        if not state['killed'] and not state['done']:
            state['killed'] = True
            if state['proc'] is not None and state['proc'].poll() is None:
                state['proc'].kill()

    def deliver(line):
        if state['killed'] or state['done']:
            return
        try:
            on_line(line)
        except Exception as error:  # noqa: BLE001 - the seam's contract: kill, report in stderr
            state['error'] += str(error)
            kill()

    def finish(code, stderr):
        if not state['done']:
            state['done'] = True
            on_exit(None if state['killed'] else code, stderr + state['error'])

    def post(callback, *args):
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

    def pump():
        errors = []
        reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
        reader.start()
        for raw in proc.stdout:
            post(deliver, raw.decode('utf-8', errors='replace').rstrip('\n'))
        code = proc.wait()
        reader.join()
        post(finish, None if code < 0 else code, b''.join(errors).decode('utf-8', errors='replace'))

    threading.Thread(target=pump, daemon=True).start()
    return kill


class JSON:
    @staticmethod
    def stringify(value, replacer=None, indent=None):
        return json.dumps(value, indent=indent)

    @staticmethod
    def parse(text, reviver=None):
        return json.loads(text)


class Object:
    @staticmethod
    def keys(obj):
        return list(obj.keys()) if isinstance(obj, dict) else list(vars(obj).keys())


class Array:
    @staticmethod
    def isArray(value):
        return isinstance(value, list)


class Date:
    @staticmethod
    def now():
        return time.time() * 1000.0


class Promise:
    @staticmethod
    def resolve(value=None):
        future = asyncio.get_event_loop().create_future()
        future.set_result(value)
        return future


class console:
    @staticmethod
    def log(*args):
        print(*args)

    error = warn = info = log


class process:
    pid = 0
    env = {}
    platform = 'linux'


def setTimeout(callback, delay_ms, *args):
    loop = asyncio.get_event_loop()
    return loop.call_later(delay_ms / 1000.0, callback, *args)


def clearTimeout(handle):
    if handle is not None:
        handle.cancel()


setInterval = setTimeout
clearInterval = clearTimeout


def sleep_ms(delay_ms):
    return asyncio.sleep(delay_ms / 1000.0)


class _Deferred(dict):
    """The seam's deferred(): the future is made on first use, inside the running event loop."""

    def __init__(self):
        super().__init__()
        self._future = None
        self._settled = None

    def _get_future(self):
        if self._future is None:
            self._future = asyncio.get_event_loop().create_future()
            if self._settled is not None:
                self._settle(*self._settled)
        return self._future

    def _settle(self, ok, value):
        if self._future is None:
            self._settled = (ok, value)
        elif not self._future.done():
            if ok:
                self._future.set_result(value)
            else:
                self._future.set_exception(value if isinstance(value, BaseException) else Exception(value))

    def __getitem__(self, key):
        if key == 'promise':
            return self._get_future()
        if key == 'resolve':
            return lambda value=None: self._settle(True, value)
        if key == 'reject':
            return lambda error=None: self._settle(False, error)
        raise KeyError(key)


def deferred():
    return _Deferred()


async def first_of(awaitables):
    futures = [asyncio.ensure_future(item) for item in awaitables]
    done, _pending = await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
    for future in futures:  # the earliest in the list wins a tie, as near as CPython can tell
        if future in done:
            return future.result()


def parse_http_date(text):
    import email.utils
    try:
        return email.utils.parsedate_to_datetime(text).timestamp() * 1000.0
    except (TypeError, ValueError, IndexError):
        return None


def parse_json(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(str(error))


def dump_json(value, indent=0):
    # Non-ASCII as it is, like JSON.stringify (json.dumps would write \uXXXX escapes, other text than the bundle writes).
    if indent:
        return json.dumps(value, indent=indent, ensure_ascii=False)
    return json.dumps(value, separators=(',', ':'), ensure_ascii=False)


def keys_of(obj):
    return Object.keys(obj)


def to_js_callback(handler):
    return handler


def is_js_error(value):
    return isinstance(value, Exception)


def raise_js(error):
    raise error


def utf8_base64(text):
    import base64
    return base64.b64encode(text.encode('utf-8')).decode('ascii')


def base64_utf8(text):
    import base64
    import binascii
    try:
        return base64.b64decode(text.encode('ascii'), validate=True).decode('utf-8')
    except (ValueError, binascii.Error, UnicodeError):
        return None


def decode_uri_component(text):
    import urllib.parse
    return urllib.parse.unquote(text, errors='strict')


def utf8_text(chunks):
    return b''.join(chunks).decode('utf-8', errors='replace')


# ---------------------------------------------------------------------------- the CLI's process and fetch

import os as _os  # noqa: E402
import sys as _sys  # noqa: E402

FETCH = None
"""Stand-in for the global `fetch`: tests set it to `async def fake(url, options) -> FakeResponse`."""


def script_name():
    return _os.path.basename(_sys.argv[0]) if _sys.argv else ''


def command_line():
    return list(_sys.argv[1:])


def current_directory():
    return _os.getcwd()


def write_stdout(text):
    _sys.stdout.write(text)
    _sys.stdout.flush()


def write_stderr(text):
    _sys.stderr.write(text)
    _sys.stderr.flush()


def exit_process(code):
    raise SystemExit(code)


def read_stdin_lines(on_line, on_end):
    for line in _sys.stdin:
        on_line(line.rstrip('\r\n'))
    on_end()


def on_process_signal(signal, handler):
    pass


def spawn(awaitable):
    return asyncio.ensure_future(awaitable)


async def wait_all(awaitables):
    return list(await asyncio.gather(*awaitables))


def monotonic_ms():
    return time.perf_counter() * 1000.0


def fetch_url(url, options):
    if FETCH is None:
        raise RuntimeError('no fetch stand-in: set hermes._cpython.FETCH in the test')
    return FETCH(url, options)


def plain_object(value):
    return dict(value)


class _AbortSignal:
    def __init__(self):
        self.aborted = False
        self._listeners = []

    def addEventListener(self, kind, listener):
        """Streaming test fetches (tests/llm_server/cpython_fetch.py) listen for 'abort'."""
        if kind == 'abort':
            self._listeners.append(listener)


class _AbortController:
    def __init__(self):
        self.signal = _AbortSignal()

    def abort(self):
        if self.signal.aborted:
            return
        self.signal.aborted = True
        for listener in list(self.signal._listeners):
            listener()


def timeout_signal(delay_ms):
    return _AbortSignal()


def abort_controller():
    return _AbortController()


def response_header(response, header_name):
    for key, value in response.headers.items():
        if key.lower() == header_name.lower():
            return value
    return None


def body_reader(response):
    """Fake responses carry `chunks`: strings, or exceptions to raise at that point of the body.
    A streaming response instead offers `async read_chunk()` (None at the end) and `cancel()`."""
    return {'chunks': list(getattr(response, 'chunks', [])), 'cancelled': False,
            'read_chunk': getattr(response, 'read_chunk', None), 'cancel': getattr(response, 'cancel', None)}


async def read_text_chunk(reader):
    if reader.get('read_chunk') is not None and not reader['cancelled']:
        return await reader['read_chunk']()
    if reader['cancelled'] or not reader['chunks']:
        return None
    chunk = reader['chunks'].pop(0)
    if isinstance(chunk, BaseException):
        raise chunk
    return chunk


def cancel_body(reader):
    reader['cancelled'] = True
    if reader.get('cancel') is not None:
        reader['cancel']()


def network_error_code(error):
    for candidate in [getattr(error, '__cause__', None), error]:
        code = getattr(candidate, 'code', None)
        if isinstance(code, str):
            return code
    return None


def network_error_detail(error):
    cause = getattr(error, '__cause__', None)
    return str(cause) if cause is not None else str(error)


# ---------------------------------------------------------------------------- child processes, async streams

def start_process(command, args, options):
    """CPython twin of the seam's start_process (asyncio subprocess); same result dict."""
    state = {'proc': None, 'finished': False}
    limit = options.get('max_bytes') or 4194304

    async def run():
        dropped = options.get('drop_env') or []
        env = {key: value for key, value in _os.environ.items()
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
        code = proc.returncode
        truncated = len(out) > limit or len(err) > limit
        return {'code': code if code >= 0 else None, 'signal': 'SIGTERM' if code is not None and code < 0 else None,
                'stdout': out[:limit].decode('utf-8', errors='replace'),
                'stderr': err[:limit].decode('utf-8', errors='replace'),
                'timedOut': timed_out, 'truncated': truncated, 'error': None}

    def kill():
        if state['proc'] is not None and not state['finished'] and state['proc'].returncode is None:
            state['proc'].terminate()

    return {'done': asyncio.ensure_future(run()), 'kill': kill}


def for_each_async(iterable, callback, on_end):
    async def consume():
        try:
            async for item in iterable:
                callback(item)
        except Exception as error:  # noqa: BLE001 (mirrors JS: any failure ends the stream)
            on_end(error)
            return
        on_end(None)
    asyncio.ensure_future(consume())


def local_time_text(ms):
    import datetime
    return datetime.datetime.fromtimestamp(ms / 1000.0).strftime('%m/%d/%Y, %I:%M:%S %p')
