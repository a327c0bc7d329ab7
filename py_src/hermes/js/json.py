"""JSON text ⇄ Python values, the same in both worlds (objects come back as dicts)."""
# __pragma__('tconv')
from hermes.js.errors import JsError, error_message
from hermes.js.objects import is_undefined


def parse_json(text: str) -> 'Any':
    """JSON text → Python values (dicts whose `.get` works in JS too); ValueError on bad JSON."""
    try:
        return JSON.parse(text, _revive)
    except JsError as error:
        raise ValueError(error_message(error))


def parse_json_plain(text: str) -> 'Any':
    """JSON text → plain values without wrapping objects as dicts (7× faster in JS): only for hot
    paths that read the objects through core/values.py helpers (subscripts, `in`), never `.get`."""
    try:
        return JSON.parse(text)
    except JsError as error:
        raise ValueError(error_message(error))


def _revive(key: str, value: 'Any') -> 'Any':
    if value is not None and typeof(value) == 'object' and not Array.isArray(value):
        return dict(value)
    return value


def dump_json(value: 'Any', indent: int = 0) -> str:
    """Python values → JSON text; `undefined` becomes null instead of silently vanishing."""
    if indent:
        return JSON.stringify(value, _undefined_to_null, indent)
    return JSON.stringify(value, _undefined_to_null)


def _undefined_to_null(key: str, value: 'Any') -> 'Any':
    return None if is_undefined(value) else value


# __pragma__('skip')
from typing import Any
from hermes.js.json_cpython import parse_json, parse_json_plain, dump_json
# __pragma__('noskip')
