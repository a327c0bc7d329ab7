"""The modules the code requires: `vscode` and Node's built-ins. The only `require(...)` calls."""
# __pragma__('tconv')
# __pragma__('skip')
# CPython: `require` gives the test shim for 'vscode' (tests/shim, put on sys.path by conftest) and
# stand-ins for Node built-ins.
from hermes.js.modules_cpython import require
from typing import Any, Dict
# The type checker's `vscode`: typings/vscode.pyi (generated from @types/vscode by scripts/vscode_stub.py). Under
# CPython the import gives the test shim (tests/shim/vscode), the same module `require('vscode')` gives below.
import vscode as vscode  # (`as`: re-exported on purpose, for every module that uses VS Code)
# __pragma__('noskip')

vscode = require('vscode')

_node_modules = {}  # type: Dict[str, Any]


def node(module_name: str) -> 'Any':
    """A Node built-in module (http, crypto, fs, os, path), required once: in VS Code's extension host
    every `require` runs its module interceptors (measured in code-server: 9% of a file_search's CPU)."""
    key = 'm:' + module_name  # a prefix keeps names clear of dict members
    if key not in _node_modules:
        _node_modules[key] = require(module_name)
    return _node_modules[key]


# __pragma__('skip')
# CPython: `node` looks the stand-in up on every call, so tests can swap one.
from hermes.js.modules_cpython import node
# __pragma__('noskip')
