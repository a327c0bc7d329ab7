"""JSON values as they cross a boundary: parsed from the wire, handed to JS, stored on disk."""
# __pragma__('skip')
from typing import Any, Dict, List, Union

# A JSON value. `Any`, not a recursive union: JSON that came from outside is checked at runtime (core/values.py
# json_type, core/schema.py) and the checker cannot follow those checks; what is known is declared below.
Json = Any
JsonObject = Dict[str, Any]
JsonArray = List[Any]
JsonScalar = Union[str, int, float, bool, None]
# __pragma__('noskip')
