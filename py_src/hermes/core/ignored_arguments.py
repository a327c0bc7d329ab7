"""One debug line per client and argument name for the top-level arguments a client sends that a tool does
not declare (the registry leaves them out: core/tools.py declared_arguments). Gemini CLI sends
`wait_for_previous` with every dependent call: a line per call would bury the log, one per client says it once."""
# __pragma__('tconv')
from hermes.js.objects import is_none


class IgnoredArguments:
    def __init__(self, log):
        self._log = log  # host/log.py Log, or None
        self._seen = {}  # 'client\nname' → True

    def note(self, client, tool_name, names):
        """`client` (its name and version) sent `names` to `tool_name`, which does not declare them."""
        if is_none(self._log):
            return
        for name in names:
            key = client + '\n' + name
            if key in self._seen:
                continue
            self._seen[key] = True
            self._log.debug('mcp: ' + client + " sends '" + name + "', which " + tool_name +
                            ' does not declare: left out of the call (said once per client and argument)')
