"""CPython twin of hermes/js/parts.py (never transpiled): a part is the Python module itself, imported on first use."""
import importlib


def load_part(module):
    return importlib.import_module(module)
