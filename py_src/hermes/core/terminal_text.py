"""A command run in a terminal as text, for the model (terminal_read) and the terminal resource
(hermes://terminal/{id}): `$ command`, its most recent output, how it ended. Pure: `entry` is anything with the
host's Execution fields (`command`, `done`, `exit_code`, `output()`, `duration_ms()`)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any
# __pragma__('noskip')
from hermes.core.output_text import cap_tail
from hermes.core.strip_chars import rstrip_chars


def render_execution(entry: 'Any', limit: int) -> str:
    """`$ command` then its output (the most recent `limit` characters) and how it ended."""
    if entry.done:
        status = 'exit code ' + ('unknown' if entry.exit_code is None else str(entry.exit_code))
    else:
        status = 'still running'
    seconds = entry.duration_ms() / 1000
    header = '$ ' + entry.command
    output = rstrip_chars(cap_tail(entry.output(), limit), '\n')
    footer = '(' + status + ', ' + str(round(seconds * 10) / 10) + ' s)'
    return header + '\n' + (output + '\n' if output != '' else '') + footer
