"""Modules loaded on first use: what only some windows reach (an ACP agent's process, …) is not in dist/extension.js
but in a file of its own beside it (dist/part-<module>.js, esbuild.js), required the first time `load_part` asks for
it. The bundle's entry hands this module the loader (`provide_parts`); under CPython `load_part` imports the module.
hermes/lazy_parts.py lists the modules (so Transcrypt transpiles them); nothing else imports them."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict
# __pragma__('noskip')

_loaded = {}  # type: Dict[str, Any]


def provide_parts(load: 'Callable[[str], Any]') -> None:
    """Called once by the bundle's entry (esbuild.js writes it): `load(module)` requires the module's part with the
    main bundle's modules it imports, and returns its exports."""
    _loaded['load'] = load


def load_part(module: str) -> 'Any':
    """The exports of `module` (e.g. 'hermes.net.acp.agent', one of hermes/lazy_parts.py's), its part required the
    first time (a synchronous `require`, once per extension host)."""
    key = 'p:' + module  # a prefix keeps module names clear of the loader's own key
    if key not in _loaded:
        _loaded[key] = _loaded['load'](module)
    return _loaded[key]


# __pragma__('skip')
from hermes.js.parts_cpython import load_part
# __pragma__('noskip')
