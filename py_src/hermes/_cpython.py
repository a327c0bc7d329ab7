"""CPython stand-ins for the JS globals the seam uses (never transpiled: see hermes.js)."""
import asyncio
import importlib
import json
import time

JsError = Exception
Error = type('Error', (Exception,), {})


def __pragma__(*args):
    raise RuntimeError('__pragma__ only works under Transcrypt')


NODE_MODULES = {}
"""Stand-ins for Node built-ins by name; tests register what they need."""


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
