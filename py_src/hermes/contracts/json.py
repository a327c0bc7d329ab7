"""JSON values as they cross a boundary: parsed from the wire, handed to JS, stored on disk."""
# __pragma__('skip')
from typing import Any, Dict

# A JSON value. `Any`, not a recursive union: JSON that came from outside is checked at runtime (core/values.py
# json_type, core/schema.py) and the checker cannot follow those checks; what is known is declared below.
Json = Any
JsonObject = Dict[str, Any]
# __pragma__('noskip')
