"""The ACP JSON schema of the pinned `@agentclientprotocol/sdk` (devDependency: node_modules/…/schema/v1/schema.json)
as the judge of a recorded wire (tests/acp_wire/tee.py): each request's params, each notification's params and each
response's result validated against the schema's definition for that method and side (`x-method`, `x-side`). Methods
that begin with `_` are extensions, which ACP leaves to each side; a method the schema does not know is a problem."""
import json
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / 'node_modules' / '@agentclientprotocol' / 'sdk' / 'schema' / 'v1' / 'schema.json'


def load_schema():
    return json.loads(SCHEMA.read_text())


def definitions_by_method(schema):
    """{(method, side, 'Request' | 'Response' | 'Notification'): definition name}; `side` is who receives the
    request or notification (the schema's x-side), for a response the side that answers."""
    found = {}
    for name, definition in schema['$defs'].items():
        method, side = definition.get('x-method'), definition.get('x-side')
        if method is None:
            continue
        for kind in ('Request', 'Response', 'Notification'):
            if name.endswith(kind):
                found[(method, side, kind)] = name
    return found


def _validator(schema, name):
    return jsonschema.Draft202012Validator({'$ref': '#/$defs/' + name, '$defs': schema['$defs']})


def wire_problems(records, schema=None):
    """What in a recorded wire the schema refuses, as readable lines (empty: all of it fits)."""
    schema = schema or load_schema()
    by_method = definitions_by_method(schema)
    asked = {}  # (asking side, id) → method
    problems = []
    for number, record in enumerate(records, 1):
        try:
            message = json.loads(record['line'])
        except ValueError:
            problems.append(f'{number}: {record["from"]} wrote a line that is not JSON: {record["line"][:80]}')
            continue
        sender = record['from']
        receiver = 'agent' if sender == 'client' else 'client'
        method = message.get('method')
        if method is not None:
            if method.startswith('_'):
                continue
            kind = 'Request' if 'id' in message else 'Notification'
            if kind == 'Request':
                asked[(sender, json.dumps(message['id']))] = method
            name = by_method.get((method, receiver, kind)) or by_method.get((method, 'protocol', kind))
            if name is None:
                problems.append(f'{number}: {sender} sent {method} ({kind.lower()}), which the schema does not '
                                f'define for the {receiver}')
                continue
            value = message.get('params', {})
        else:
            method = asked.pop((receiver, json.dumps(message.get('id'))), None)
            if method is None or method.startswith('_') or 'error' in message:
                continue
            name = by_method.get((method, sender, 'Response'))
            if name is None:
                problems.append(f'{number}: {sender} answered {method}, whose answer the schema does not define')
                continue
            value = message.get('result')
        for error in _validator(schema, name).iter_errors(value):
            where = '/'.join(str(part) for part in error.absolute_path) or '(top)'
            problems.append(f'{number}: {sender} {method} {name} at {where}: {error.message[:300]}')
    return problems


def read_record(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
