"""JS errors and Python exceptions: catching both, reading their text, handing callbacks to JS."""
# __pragma__('tconv')
from hermes.js.objects import new

# In JS, `except object` is the only clause that also catches JS errors (a rejected fetch, a
# JSON.parse SyntaxError): an executable comment (`#?`, ecom) that only Transcrypt reads. CPython and the type
# checker see Exception (the skip block below, and the twin at the end of the module).
# __pragma__('ecom')
#?JsError = object
# __pragma__('skip')
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    class JsError(Exception):
        """What the checker knows of a caught error: a Python exception or a JS one, whose members it cannot see
        (Node's system errors carry `code`: 'ENOENT', 'EADDRINUSE', …)."""
        code = None  # type: Any
else:
    JsError = Exception
# __pragma__('noskip')


def error_message(error: 'Any') -> str:
    """The human text of a Python exception, a JS `Error`, or anything else that was thrown."""
    if error is None:
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


def js_error(message: str) -> 'Any':
    """A real JS `Error`: what VS Code and Node expect to be thrown or rejected with."""
    return new(Error, message)


def to_js_callback(handler: 'Callable[..., Any]') -> 'Callable[..., Any]':
    """Wrap a Python callable handed to VS Code or Node so a raised Python exception (or a rejected
    coroutine) reaches JS as a real `Error`, which VS Code can log and Node can print."""
    def wrapper(*args: 'Any') -> 'Any':
        try:
            result = handler(*args)
        except JsError as error:
            raise_js(error)
        if result is not None and typeof(result.then) == 'function':
            return result.then(None, _rethrow_as_js)
        return result
    return wrapper


def _rethrow_as_js(error: 'Any') -> 'NoReturn':
    raise_js(error)


def is_js_error(value: 'Any') -> bool:
    return __pragma__('js', '{}', 'value instanceof Error')


def raise_js(error: 'Any') -> 'NoReturn':
    """Throw `error` as a JS Error (unchanged if it already is one)."""
    wrapped = error if is_js_error(error) else js_error(error_message(error))
    __pragma__('js', '{}', 'throw wrapped')


# __pragma__('skip')
from typing import Any, Callable, NoReturn
from hermes.js.objects import typeof
from hermes.js.errors_cpython import Error, to_js_callback, is_js_error, raise_js
# __pragma__('noskip')
