"""CPython twins of hermes/js/json.py (never transpiled)."""
import json
# __pragma__('skip')
from typing import Any
# __pragma__('noskip')


def parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(str(error))


parse_json_plain = parse_json


def dump_json(value: Any, indent: int = 0) -> str:
    # Non-ASCII as it is, like JSON.stringify (json.dumps would write \uXXXX escapes, other text than the bundle writes).
    if indent:
        return json.dumps(value, indent=indent, ensure_ascii=False)
    return json.dumps(value, separators=(',', ':'), ensure_ascii=False)
