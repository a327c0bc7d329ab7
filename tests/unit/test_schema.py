import pytest

from hermes.core.schema import validate, json_type
from hermes.core.values import json_equal, describe

FILE_SCHEMA = {
    'type': 'object',
    'properties': {
        'path': {'type': 'string', 'minLength': 1, 'description': 'workspace-relative path'},
        'mode': {'enum': ['a', 'b']},
        'line': {'type': 'integer', 'minimum': 1},
        'ratio': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 1},
        'paths': {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 2},
        'options': {'type': 'object', 'properties': {'depth': {'type': 'integer'}}, 'additionalProperties': False},
        'flag': {'type': 'boolean', 'default': False},
    },
    'required': ['path'],
    'additionalProperties': False,
}


@pytest.mark.parametrize('value, name', [
    (None, 'null'), (True, 'boolean'), (False, 'boolean'), (0, 'integer'), (1, 'integer'),
    (1.0, 'integer'), (-3.0, 'integer'), (1.5, 'number'), (2 ** 60, 'integer'), ('', 'string'),
    ([], 'array'), ((1, 2), 'array'), ({}, 'object'),
])
def test_json_type(value, name):
    assert json_type(value) == name


def test_valid_arguments_have_no_errors():
    assert validate({'path': 'a.py', 'mode': 'b', 'line': 3, 'ratio': 0.5, 'paths': ['x'],
                     'options': {'depth': 2}, 'flag': True}, FILE_SCHEMA) == []


def test_wrong_type_names_argument_and_both_types():
    assert validate({'path': 5}, FILE_SCHEMA) == ['arguments.path: expected string, got number']
    assert validate({'path': None}, FILE_SCHEMA) == ['arguments.path: expected string, got null']
    assert validate({'path': ['a']}, FILE_SCHEMA) == ['arguments.path: expected string, got array']
    assert validate('a.py', FILE_SCHEMA) == ['arguments: expected object, got string']


def test_missing_required_property():
    assert validate({}, FILE_SCHEMA) == ["arguments: missing required property 'path'"]


def test_enum_lists_the_choices():
    assert validate({'path': 'x', 'mode': 'c'}, FILE_SCHEMA) == [
        'arguments.mode: expected one of "a", "b", got "c"']


def test_enum_compares_by_json_type():
    schema = {'enum': [1, 'two', None, [1], {'k': 1}]}
    assert validate(1, schema) == [] and validate(1.0, schema) == []
    assert validate([1], schema) == [] and validate({'k': 1}, schema) == [] and validate(None, schema) == []
    assert validate(True, schema) == ['arguments: expected one of 1, "two", null, [1], {"k":1}, got true']
    assert validate('1', schema) != []
    assert validate({'k': True}, schema) != []


def test_const():
    assert validate('x', {'const': 'x'}) == []
    assert validate('y', {'const': 'x'}) == ['arguments: expected "x", got "y"']


def test_true_is_not_an_integer_and_not_a_number():
    assert validate(True, {'type': 'integer'}) == ['arguments: expected integer, got boolean']
    assert validate(False, {'type': 'number'}) == ['arguments: expected number, got boolean']


def test_integers_have_no_fractional_part_but_may_be_written_with_one():
    assert validate(1.5, {'type': 'integer'}) == ['arguments: expected integer, got number']
    assert validate(1.0, {'type': 'integer'}) == []
    assert validate(1, {'type': 'number'}) == []


def test_type_lists():
    schema = {'type': ['string', 'null']}
    assert validate(None, schema) == [] and validate('x', schema) == []
    assert validate(3, schema) == ['arguments: expected string or null, got number']


def test_additional_properties_false_names_the_intruder_and_the_allowed_ones():
    assert validate({'path': 'x', 'options': {'depth': 1, 'deep': True}}, FILE_SCHEMA) == [
        "arguments.options: unexpected property 'deep' (allowed: depth)"]
    assert validate({'x': 1}, {'type': 'object', 'additionalProperties': False}) == [
        "arguments: unexpected property 'x' (allowed: none)"]


def test_additional_properties_schema_checks_extra_values():
    schema = {'type': 'object', 'properties': {'a': {}}, 'additionalProperties': {'type': 'integer'}}
    assert validate({'a': 'anything', 'b': 2}, schema) == []
    assert validate({'b': 'x'}, schema) == ['arguments.b: expected integer, got string']


def test_nested_paths_name_the_exact_spot():
    assert validate({'path': 'x', 'options': {'depth': 'deep'}}, FILE_SCHEMA) == [
        'arguments.options.depth: expected integer, got string']
    assert validate({'path': 'x', 'paths': ['a', 3]}, FILE_SCHEMA) == [
        'arguments.paths[1]: expected string, got number']


def test_counts_and_lengths():
    assert validate({'path': ''}, FILE_SCHEMA) == ['arguments.path: expected at least 1 character(s), got 0']
    assert validate({'path': 'x', 'paths': []}, FILE_SCHEMA) == ['arguments.paths: expected at least 1 item(s), got 0']
    assert validate({'path': 'x', 'paths': ['a', 'b', 'c']}, FILE_SCHEMA) == [
        'arguments.paths: expected at most 2 item(s), got 3']
    assert validate('abcd', {'maxLength': 3}) == ['arguments: expected at most 3 character(s), got 4']


def test_numeric_bounds():
    assert validate({'path': 'x', 'line': 0}, FILE_SCHEMA) == ['arguments.line: expected a number >= 1, got 0']
    assert validate({'path': 'x', 'ratio': 0}, FILE_SCHEMA) == ['arguments.ratio: expected a number > 0, got 0']
    assert validate({'path': 'x', 'ratio': 1.5}, FILE_SCHEMA) == ['arguments.ratio: expected a number <= 1, got 1.5']
    assert validate(5, {'exclusiveMaximum': 5.0}) == ['arguments: expected a number < 5, got 5']


def test_unique_items():
    assert validate([1, 2], {'uniqueItems': True}) == []
    assert validate([{'a': 1}, {'a': 1}], {'uniqueItems': True}) == ['arguments: expected unique items, got duplicates']


def test_any_of_reports_each_alternative():
    schema = {'anyOf': [{'type': 'string'}, {'type': 'array', 'items': {'type': 'string'}}]}
    assert validate('x', schema) == [] and validate(['x'], schema) == []
    assert validate(3, schema) == [
        'arguments: matches none of the allowed forms: (1) expected string, got number; (2) expected array, got number']
    assert validate([3], schema) == [
        'arguments: matches none of the allowed forms: (1) expected string, got array; '
        '(2) arguments[0]: expected string, got number']


def test_one_of_wants_exactly_one():
    schema = {'oneOf': [{'type': 'integer'}, {'type': 'number'}]}
    assert validate(1.5, schema) == []
    assert validate(1, schema) == ['arguments: matches 2 of the allowed forms, expected exactly one']
    assert validate('x', schema) == [
        'arguments: matches none of the allowed forms: (1) expected integer, got string; (2) expected number, got string']


def test_all_of_collects_every_problem():
    assert validate('', {'allOf': [{'type': 'string'}, {'minLength': 1}]}) == [
        'arguments: expected at least 1 character(s), got 0']


def test_trivial_and_ignored_schemas():
    assert validate({'anything': 1}, {}) == []
    assert validate(1, True) == [] and validate(1, None) == []
    assert validate(1, False) == ['arguments: no value is allowed here']
    assert validate('abc', {'type': 'string', 'pattern': '^x', 'format': 'uri', 'default': 'x'}) == []


def test_custom_root_path():
    assert validate(1, {'type': 'string'}, 'params') == ['params: expected string, got number']


def test_json_equal_and_describe():
    assert json_equal({'a': [1, 2.0]}, {'a': [1.0, 2]})
    assert not json_equal(1, True) and not json_equal(0, False) and not json_equal('1', 1)
    assert not json_equal({'a': 1}, {'a': 1, 'b': 2}) and not json_equal([1], [1, 1])
    assert describe(1.0) == '1' and describe(2.5) == '2.5' and describe('x') == '"x"'
    assert describe('y' * 100).endswith('...') and len(describe('y' * 100)) == 80
