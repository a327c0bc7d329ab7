"""CPython twins of hermes/js/objects.py (never transpiled)."""
# __pragma__('skip')
from typing import Any, Callable, List, TypeVar, TypeVarTuple, Unpack

T = TypeVar('T')
Ts = TypeVarTuple('Ts')
# __pragma__('noskip')


def typeof(value: object) -> str:
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


def is_undefined(value: object) -> bool:
    return False


def new(cls: Callable[[Unpack[Ts]], T], *args: Unpack[Ts]) -> T:
    return cls(*args)


def is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))  # tuples too: Transcrypt's tuples are JS arrays


def keys_of(obj: Any) -> List[str]:
    return list(obj.keys()) if isinstance(obj, dict) else list(vars(obj).keys())


def plain_object(value: Any) -> Any:
    return dict(value)


def call_method(obj: Any, method_name: str, *args: Any) -> Any:
    return getattr(obj, method_name)(*args)
