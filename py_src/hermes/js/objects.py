"""JS values seen from Python: None vs `undefined`, `new`, the keys of an object, plain objects."""
# __pragma__('tconv')


def is_undefined(value: 'Any') -> bool:
    return typeof(value) == 'undefined'


def or_none(value: 'Any') -> 'Any':
    """Map JS `undefined` to None, so it survives `JSON.stringify` and `is None` checks."""
    return None if value is None else value


def new(cls: 'Callable[[Unpack[Ts]], T]', *args: 'Unpack[Ts]') -> 'T':
    """`new cls(...args)`: Transcrypt's `__new__` is compile-time only, so it is wrapped once here. Typed as the
    constructor it calls: `new(vscode.Range, a, b)` is checked against the stub's `Range.__init__` overloads."""
    return __pragma__('js', '{}', 'new cls(...args)')


def is_array(value: 'Any') -> bool:
    """A JSON array: in JS any array (Transcrypt's lists and tuples are JS arrays), one native check
    instead of Transcrypt's `isinstance`, which walks class bases (a hot path: core/values.py json_type)."""
    return Array.isArray(value)


def keys_of(obj: 'Any') -> 'List[str]':
    """The own enumerable keys of a JS object or a dict, as a list."""
    return Object.js_keys(obj)  # a bare `.keys` would be renamed to `.py_keys`


def plain_object(value: 'Any') -> 'Any':
    """A dict as a plain JS object: a transpiled dict has a Symbol.iterator (over nothing), which
    makes Web APIs such as fetch's Headers take it for a list of pairs and fail."""
    return Object.fromEntries(Object.entries(value))



def call_method(obj: 'Any', method_name: str, *args: 'Any') -> 'Any':
    """`obj[method_name](...args)`: a method called by its name on an object from either world, with `this` kept
    (a JS object's method taken out by getattr loses it). (A parameter called `name` would be `py_name` in JS.)"""
    return __pragma__('js', '{}', 'obj [method_name] (...args)')


# __pragma__('skip')
# CPython: `typeof` (a JS operator: modules that test types import it from here inside a skip block)
# and twins of the functions above.
from typing import TYPE_CHECKING, Any, Callable, List, TypeVar, TypeVarTuple, Unpack
T = TypeVar('T')
Ts = TypeVarTuple('Ts')
from hermes.js.objects_cpython import typeof as typeof  # (`as`: re-exported, for the modules that test JS types)
from hermes.js.objects_cpython import is_undefined, new, is_array, keys_of, plain_object, call_method
# __pragma__('noskip')
