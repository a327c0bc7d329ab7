"""CPython twin of hermes/js/parts.py (never transpiled): a part is the Python module itself, imported on first use."""
import importlib
# __pragma__('skip')
from typing import Any
# __pragma__('noskip')


def load_part(module: str) -> Any:
    return importlib.import_module(module)
