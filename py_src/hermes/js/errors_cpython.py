"""CPython twins of hermes/js/errors.py (never transpiled)."""

JsError = Exception
Error = type('Error', (Exception,), {})


def to_js_callback(handler):
    return handler


def is_js_error(value):
    return isinstance(value, Exception)


def raise_js(error):
    raise error
