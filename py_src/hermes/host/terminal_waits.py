"""The waits of a terminal run (host/terminals.py TerminalService): for a shell to report its shell integration, for a
command to end (reporting progress while it runs, giving up at the timeout or on cancel), and for its last output."""
# __pragma__('tconv')
from hermes.js.objects import or_none
from hermes.js.promises import deferred
from hermes.js.timers import clear_repeating, clear_timer, set_repeating, set_timer
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import CallContext
from hermes.contracts.terminals import RunOutcome
if TYPE_CHECKING:
    from vscode import Terminal
    from hermes.host.terminals import Execution  # (it imports this module)
# __pragma__('noskip')

STREAM_GRACE_MS = 1000
"""After the end event, how long to wait for the last output to arrive."""
PROGRESS_INTERVAL_MS = 1000


class IntegrationWaits:
    """Who waits for which terminal's shell integration; the terminal events end their waits (`resolve`)."""

    def __init__(self) -> None:
        self._waiters = []  # type: List[JsonObject]

    async def wait(self, terminal: 'Terminal', timeout_ms: int, call: 'Optional[CallContext]') -> Any:
        """The terminal's shell integration, waiting up to `timeout_ms` for it to activate; or None."""
        if terminal.shellIntegration is not None:
            return terminal.shellIntegration
        if terminal.exitStatus is not None:
            return None
        waiter = deferred()
        entry = {'terminal': terminal, 'resolve': waiter['resolve']}  # type: JsonObject
        self._waiters.append(entry)
        timer = set_timer(lambda: waiter['resolve'](None), timeout_ms)
        unsubscribe = call.on_cancel(lambda: waiter['resolve'](None)) if call is not None else None
        await waiter['promise']
        clear_timer(timer)
        if unsubscribe is not None:  # (ours: None or a function)
            unsubscribe()
        self._waiters = [item for item in self._waiters if item is not entry]
        return or_none(terminal.shellIntegration)

    def resolve(self, terminal: 'Terminal') -> None:
        """The terminal's integration changed, or it closed: its waiters look again."""
        for entry in self._waiters[:]:
            if entry['terminal'] is terminal:
                entry['resolve'](None)


async def wait_for_end(entry: 'Execution', timeout_ms: int, call: 'CallContext') -> 'RunOutcome':
    """'ended', 'timeout' or 'cancelled', whichever comes first; the call's progress says what runs meanwhile."""
    waiter = deferred()
    entry.when_ended(lambda: waiter['resolve']('ended'))
    timer = set_timer(lambda: waiter['resolve']('timeout'), timeout_ms)
    unsubscribe = call.on_cancel(lambda: waiter['resolve']('cancelled'))

    def report() -> None:
        seconds = round(entry.duration_ms() / 1000)
        line = entry.last_line()
        call.progress(seconds, None, 'Running `' + entry.command + '` (' + str(seconds) + ' s)' +
                      (': ' + line if line != '' else ''))
    ticker = set_repeating(report, PROGRESS_INTERVAL_MS)
    outcome = await waiter['promise']
    clear_repeating(ticker)
    clear_timer(timer)
    unsubscribe()
    return outcome


async def wait_for_stream(entry: 'Execution') -> None:
    """The execution's output to its end, at most STREAM_GRACE_MS after it ended."""
    if entry.stream_done:
        return
    waiter = deferred()
    entry.when_stream_ended(lambda: waiter['resolve'](None))
    timer = set_timer(lambda: waiter['resolve'](None), STREAM_GRACE_MS)
    await waiter['promise']
    clear_timer(timer)
