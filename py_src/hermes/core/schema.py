"""Tool-argument validation against the JSON Schema subset tool declarations use.

Supported: type (one name or a list), enum, const, properties, required, additionalProperties
(false or a schema), items, minItems, maxItems, uniqueItems, minLength, maxLength, minimum,
maximum, exclusiveMinimum, exclusiveMaximum (numbers), allOf, anyOf, oneOf. Ignored: default,
description, title, format, pattern and anything else. `$ref` is not resolved.

Every message names the argument and what was expected, because the reader is usually a model
that has to fix its call: `arguments.path: expected string, got number`.
Lengths count UTF-16 code units in the bundle and code points under CPython; they differ only
for characters outside the Basic Multilingual Plane (emoji).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core import values
from hermes.core.values import is_object, has_key, get_key, object_keys, json_equal, describe

# Part of this module's API; assigned, not just imported, because Transcrypt exports only names a
# module assigns itself (`from hermes.core.schema import json_type` must work in the bundle too).
json_type = values.json_type


def validate(value: 'Json', schema: 'JsonObject', path: str = 'arguments') -> 'List[str]':
    """The list of problems with `value` against `schema`; empty when it is valid."""
    errors = []  # type: List[str]
    _check(value, schema, path, errors)
    return errors


def _check(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    if schema is False:
        errors.append(path + ': no value is allowed here')
        return
    if not is_object(schema):
        return  # `true`, a missing schema, or a malformed one: nothing to enforce
    if not _check_type(value, schema, path, errors):
        return  # the other keywords would only repeat the type mismatch
    _check_enum_and_const(value, schema, path, errors)
    kind = json_type(value)
    if kind == 'object':
        _check_object(value, schema, path, errors)
    elif kind == 'array':
        _check_array(value, schema, path, errors)
    elif kind == 'string':
        _check_string(value, schema, path, errors)
    elif kind == 'integer' or kind == 'number':
        _check_number(value, schema, path, errors)
    _check_combinators(value, schema, path, errors)


def _check_type(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> bool:
    expected = get_key(schema, 'type')
    if expected is None:
        return True
    names = expected if json_type(expected) == 'array' else [expected]
    kind = json_type(value)
    for name in names:
        if name == kind or (name == 'number' and kind == 'integer'):
            return True
    got = 'number' if kind == 'integer' else kind
    errors.append(path + ': expected ' + ' or '.join(names) + ', got ' + got)
    return False


def _check_enum_and_const(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    options = get_key(schema, 'enum')
    if json_type(options) == 'array' and not _matches_any(value, options):
        listed = ', '.join([describe(option) for option in options])
        errors.append(path + ': expected one of ' + listed + ', got ' + describe(value))
    if has_key(schema, 'const') and not json_equal(value, schema['const']):
        errors.append(path + ': expected ' + describe(schema['const']) + ', got ' + describe(value))


def _matches_any(value: 'Json', options: 'List[Json]') -> bool:
    for option in options:
        if json_equal(value, option):
            return True
    return False


def _check_object(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    for name in _list_of(schema, 'required'):
        if not has_key(value, name):
            errors.append(path + ": missing required property '" + name + "'")
    properties = get_key(schema, 'properties', {})
    for name in object_keys(properties):
        if has_key(value, name):
            _check(value[name], properties[name], path + '.' + name, errors)
    _check_additional(value, schema, properties, path, errors)


def _check_additional(value: 'Json', schema: 'Json', properties: 'Json', path: str, errors: 'List[str]') -> None:
    additional = get_key(schema, 'additionalProperties')
    if additional is None or additional is True:
        return
    for name in object_keys(value):
        if has_key(properties, name):
            continue
        if additional is False:
            allowed = ', '.join(object_keys(properties)) or 'none'
            errors.append(path + ": unexpected property '" + name + "' (allowed: " + allowed + ')')
        else:
            _check(value[name], additional, path + '.' + name, errors)


def _check_array(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    items = get_key(schema, 'items')
    if is_object(items):
        for index in range(len(value)):
            _check(value[index], items, path + '[' + str(index) + ']', errors)
    _check_count(len(value), schema, 'minItems', 'maxItems', 'item(s)', path, errors)
    if get_key(schema, 'uniqueItems') is True and _has_duplicates(value):
        errors.append(path + ': expected unique items, got duplicates')


def _has_duplicates(items: 'List[Json]') -> bool:
    for index in range(len(items)):
        for other in range(index + 1, len(items)):
            if json_equal(items[index], items[other]):
                return True
    return False


def _check_string(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    _check_count(len(value), schema, 'minLength', 'maxLength', 'character(s)', path, errors)


def _check_count(count: int, schema: 'Json', min_key: str, max_key: str, unit: str, path: str, errors: 'List[str]') -> None:
    """minItems/maxItems and minLength/maxLength share one shape of check and message."""
    low, high = get_key(schema, min_key), get_key(schema, max_key)
    if _is_number(low) and count < low:
        errors.append(path + ': expected at least ' + describe(low) + ' ' + unit + ', got ' + str(count))
    if _is_number(high) and count > high:
        errors.append(path + ': expected at most ' + describe(high) + ' ' + unit + ', got ' + str(count))


def _check_number(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    bounds = [('minimum', '>='), ('exclusiveMinimum', '>'), ('maximum', '<='), ('exclusiveMaximum', '<')]
    for key, operator in bounds:
        bound = get_key(schema, key)
        if _is_number(bound) and not _satisfies(value, operator, bound):
            expected = 'a number ' + operator + ' ' + describe(bound)
            errors.append(path + ': expected ' + expected + ', got ' + describe(value))


def _satisfies(value: float, operator: str, bound: float) -> bool:
    if operator == '>=':
        return value >= bound
    if operator == '>':
        return value > bound
    if operator == '<=':
        return value <= bound
    return value < bound


def _list_of(schema: 'Json', key: str) -> 'List[Json]':
    value = get_key(schema, key)
    return value if json_type(value) == 'array' else []


def _is_number(value: 'Json') -> bool:
    kind = json_type(value)
    return kind == 'integer' or kind == 'number'


def _check_combinators(value: 'Json', schema: 'Json', path: str, errors: 'List[str]') -> None:
    for alternative in _list_of(schema, 'allOf'):
        _check(value, alternative, path, errors)
    any_of = get_key(schema, 'anyOf')
    if json_type(any_of) == 'array':
        failures = _alternative_failures(value, any_of, path)
        if len(failures) == len(any_of):
            errors.append(path + ': matches none of the allowed forms: ' + _summarise(failures))
    one_of = get_key(schema, 'oneOf')
    if json_type(one_of) == 'array':
        failures = _alternative_failures(value, one_of, path)
        matched = len(one_of) - len(failures)
        if matched == 0:
            errors.append(path + ': matches none of the allowed forms: ' + _summarise(failures))
        elif matched > 1:
            errors.append(path + ': matches ' + str(matched) + ' of the allowed forms, expected exactly one')


def _alternative_failures(value: 'Json', alternatives: 'List[Json]', path: str) -> 'List[List[str]]':
    """The error lists of the alternatives `value` does not satisfy, with the shared path prefix
    dropped so the summary reads 'expected string, got number' rather than repeating the path."""
    failures = []
    prefix = path + ': '
    for alternative in alternatives:
        problems = validate(value, alternative, path)
        if len(problems) > 0:
            failures.append([problem[len(prefix):] if problem.startswith(prefix) else problem
                             for problem in problems])
    return failures


def _summarise(failures: 'List[List[str]]') -> str:
    parts = []
    for index in range(len(failures)):
        parts.append('(' + str(index + 1) + ') ' + ', '.join(failures[index]))
    return '; '.join(parts)
