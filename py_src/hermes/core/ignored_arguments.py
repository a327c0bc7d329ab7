"""One debug line per client and argument name for the top-level arguments a client sends that a tool does
not declare (the registry leaves them out: core/tools.py declared_arguments). Gemini CLI sends
`wait_for_previous` with every dependent call: a line per call would bury the log, one per client says it once."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List
# __pragma__('noskip')

# The memory's bound: names and client strings come from outside, so a client inventing new ones for every call
# must not grow it (or the log) without end; past it, nothing more is said.
MAX_NOTES = 200


class IgnoredArguments:
    def __init__(self, log: 'Any') -> None:
        self._log = log  # host/log.py Log, or None
        self._seen = {}  # type: Dict[str, bool]  # 'client\nname' → True
        self._count = 0

    def note(self, client: str, tool_name: str, names: 'List[str]') -> None:
        """`client` (its name and version) sent `names` to `tool_name`, which does not declare them."""
        if self._log is None:
            return
        for name in names:
            key = client + '\n' + name
            if key in self._seen or self._count >= MAX_NOTES:
                continue
            self._seen[key] = True
            self._count += 1
            self._log.debug('mcp: ' + client + " sends '" + name + "', which " + tool_name +
                            ' does not declare: left out of the call (said once per client and argument)')
