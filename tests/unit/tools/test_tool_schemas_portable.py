"""Every tool schema in a form each client and model provider accepts (the MCP Inspector's --strict rules):
one `type` per schema (alternatives as anyOf), and no schema that constrains nothing."""
import pytest

from hermes.tools.catalog import build_registry

VALIDATION_KEYWORDS = {'type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', '$ref', 'properties', 'items'}


def subschemas(schema, path):
    yield path, schema
    for key in ['properties', '$defs']:
        for name, child in (schema.get(key) or {}).items():
            yield from subschemas(child, f'{path}.{key}.{name}')
    for key in ['anyOf', 'oneOf', 'allOf']:
        for index, child in enumerate(schema.get(key) or []):
            yield from subschemas(child, f'{path}.{key}[{index}]')
    for key in ['items', 'additionalProperties', 'not']:
        if isinstance(schema.get(key), dict):
            yield from subschemas(schema[key], f'{path}.{key}')


def all_schemas():
    for tool in build_registry().list():
        yield from subschemas(tool.input_schema, tool.name)


@pytest.mark.parametrize('path,schema', list(all_schemas()), ids=[path for path, _ in all_schemas()])
def test_schema_is_portable(path, schema):
    assert not isinstance(schema.get('type'), list), f'{path}: type list {schema["type"]}; use anyOf'
    assert VALIDATION_KEYWORDS & set(schema), f'{path}: the schema constrains nothing'
