"""JSON values as both worlds see them: the same answers under CPython and in the transpiled JS.

Messages arrive as whatever `hermes.js.json.parse_json` produced: dicts (wrapped JS objects in the
bundle), lists, strings, numbers, booleans and None. These helpers never call methods on the
values (a raw JS object has no `.get`), never rely on `==` between different types (it is JS's
loose `==` in the bundle: `2 == '2.0'` is true there), and treat `undefined` like None.
"""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.js.objects import is_array, keys_of

# __pragma__('skip')
# In JS `typeof` is the operator itself: an `import {typeof}` is a syntax error, and the bare name
# already works there. CPython needs the seam's stand-in.
from hermes.js.objects import typeof
from typing import Any, Dict, List
# __pragma__('noskip')


def json_type(value: 'Any') -> str:
    """The JSON Schema type name of `value`: null, boolean, integer, number, string, array, object.

    'integer' means a number with no fractional part (1.0 included, as JSON Schema says);
    True is a boolean in both worlds, although CPython's bool is a subclass of int.
    Anything else that is not a JSON value (a function, a class instance) reports its `typeof`.
    """
    if value is None:
        return 'null'
    kind = typeof(value)
    if kind == 'boolean' or kind == 'string':
        return kind
    if kind == 'number':
        # Numeric `%` is fine in both worlds (Transcrypt compiles it to Python-semantics __mod__).
        return 'integer' if value % 1 == 0 else 'number'
    if is_array(value):
        return 'array'
    if kind == 'object' or isinstance(value, dict):  # in JS every dict is an 'object': no isinstance walk
        return 'object'
    return kind


def is_object(value: 'Any') -> bool:
    return json_type(value) == 'object'


def has_key(value: 'Any', key: str) -> bool:
    """`key in value` for a JSON object (dict or raw JS object); False for anything else.

    `in` on a string or a list would test for a substring or an element, so check the type first.
    """
    return is_object(value) and key in value


def get_key(value: 'Any', key: str, fallback: 'Any' = None) -> 'Any':
    """`value[key]` when `value` is an object that has `key`, else `fallback` (never undefined)."""
    if has_key(value, key):
        return value[key]
    return fallback


def object_keys(value: 'Any') -> 'List[str]':
    """The keys of a JSON object, in insertion order (works for raw JS objects too)."""
    return keys_of(value)


def copyable_keys(value: 'Any') -> 'List[str]':
    """The keys of a JSON object to copy into another object: all its own keys but `__proto__`.

    JSON.parse makes `"__proto__"` an own key like any other, but in the bundle `copy['__proto__'] = v` sets
    the copy's prototype to `v`: the copy would then show `v`'s values through subscripts, values that no
    validation saw (`{"__proto__": {"path": "/etc/passwd"}}` gave `copy['path']`). Every key-by-key copy of
    an object that comes from outside goes through here, so both worlds drop the key alike."""
    return [key for key in keys_of(value) if key != '__proto__']


def copy_object(value: 'Any') -> 'Dict[str, Any]':
    """A shallow copy of a JSON object's `copyable_keys`."""
    copy = {}  # type: Dict[str, Any]
    for key in copyable_keys(value):
        copy[key] = value[key]
    return copy


def json_equal(left: 'Any', right: 'Any') -> bool:
    """Deep equality of two JSON values, by JSON type first (so 1 never equals '1' or True)."""
    left_type, right_type = _numeric_as_one(json_type(left)), _numeric_as_one(json_type(right))
    if left_type != right_type:
        return False
    if left_type == 'array':
        return _arrays_equal(left, right)
    if left_type == 'object':
        return _objects_equal(left, right)
    return left == right


def _numeric_as_one(kind: str) -> str:
    return 'number' if kind == 'integer' else kind


def _arrays_equal(left: 'Any', right: 'Any') -> bool:
    if len(left) != len(right):
        return False
    for index in range(len(left)):
        if not json_equal(left[index], right[index]):
            return False
    return True


def _objects_equal(left: 'Any', right: 'Any') -> bool:
    keys = object_keys(left)
    if len(keys) != len(object_keys(right)):
        return False
    for key in keys:
        if not has_key(right, key) or not json_equal(left[key], right[key]):
            return False
    return True


def describe(value: 'Any') -> str:
    """A short JSON rendering of `value` for messages; integral numbers print without '.0' in
    both worlds (CPython would say 1.0 where JS says 1)."""
    if json_type(value) == 'integer':
        return str(round(value))
    text = dump_json(value)
    if text is None:
        return typeof(value)
    if len(text) > 80:
        return text[:77] + '...'
    return text
