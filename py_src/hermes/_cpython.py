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


NODE_MODULES = {'path': _NodePath, 'fs': _NodeFs}
"""Stand-ins for Node built-ins by name; tests may register more."""


def require(name):
    if name == 'vscode':
        return importlib.import_module('vscode')  # the test shim, put on sys.path by conftest
    if name in NODE_MODULES:
        return NODE_MODULES[name]
    raise ImportError(f'no CPython stand-in for Node module {name!r}')


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


def parse_json(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(str(error))


def dump_json(value, indent=0):
    if indent:
        return json.dumps(value, indent=indent)
    return json.dumps(value, separators=(',', ':'))


def keys_of(obj):
    return Object.keys(obj)


def to_js_callback(handler):
    return handler


def is_js_error(value):
    return isinstance(value, Exception)


def raise_js(error):
    raise error


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


class _AbortController:
    def __init__(self):
        self.signal = _AbortSignal()

    def abort(self):
        self.signal.aborted = True


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
    """Fake responses carry `chunks`: strings, or exceptions to raise at that point of the body."""
    return {'chunks': list(getattr(response, 'chunks', [])), 'cancelled': False}


async def read_text_chunk(reader):
    if reader['cancelled'] or not reader['chunks']:
        return None
    chunk = reader['chunks'].pop(0)
    if isinstance(chunk, BaseException):
        raise chunk
    return chunk


def cancel_body(reader):
    reader['cancelled'] = True


def network_error_code(error):
    for candidate in [getattr(error, '__cause__', None), error]:
        code = getattr(candidate, 'code', None)
        if isinstance(code, str):
            return code
    return None
