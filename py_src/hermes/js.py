"""The seam between Python and JavaScript: every `require(...)` and JS global lives here.

Under Transcrypt the skip blocks vanish and the names are the real JS globals; under CPython they
come from `hermes._cpython`, which imitates them closely enough for pytest. Other modules import
from here only, and follow the rules in notes/transcrypt.md.
"""
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


def node(module_name):
    """A Node built-in module (http, crypto, fs, os, path); looked up late so pytest can stub it."""
    return require(module_name)


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


def set_repeating(callback, interval_ms):
    return setInterval(callback, interval_ms)


def clear_repeating(handle):
    clearInterval(handle)


def utf8_text(chunks):
    """Node Buffers received from a stream → one string."""
    return Buffer.concat(chunks).toString('utf8')  # noqa: F821


def make_promise(executor):
    """`new Promise(executor)`; executor(resolve, reject)."""
    return new(Promise, executor)


def current_pid():
    return process.pid


def signal_process(pid, signal):
    """process.kill(pid, signal): signal 0 only checks the process exists (throws ESRCH if not)."""
    process.kill(pid, signal)


def set_timer(callback, delay_ms):
    return setTimeout(callback, delay_ms)


def clear_timer(handle):
    clearTimeout(handle)


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
from hermes._cpython import JsError, is_undefined, new  # noqa: E402,F811
from hermes._cpython import parse_json, dump_json, keys_of, to_js_callback  # noqa: E402,F811
from hermes._cpython import is_js_error, raise_js, decode_uri_component, utf8_text  # noqa: E402,F811
# __pragma__('noskip')
