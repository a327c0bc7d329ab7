"""CPython twins of hermes/js/errors.py (never transpiled)."""
# __pragma__('skip')
from typing import Any, Callable, NoReturn
# __pragma__('noskip')

JsError = Exception
Error = type('Error', (Exception,), {})


def to_js_callback(handler: Callable[..., Any]) -> Callable[..., Any]:
    return handler


def is_js_error(value: object) -> bool:
    return isinstance(value, Exception)


def raise_js(error: BaseException) -> NoReturn:
    raise error
