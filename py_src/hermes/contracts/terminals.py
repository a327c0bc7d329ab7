"""What the terminal service reports (host/terminals.py) to the terminal tools (tools/terminal_*.py)."""
# __pragma__('skip')
from typing import Any, Literal, Optional, TypedDict

RunOutcome = Literal['ended', 'timeout', 'cancelled', 'no-integration']
"""How `TerminalService.run` ended: the command finished, is still running after the timeout, was stopped
(Ctrl+C sent), or could not be followed (no shell integration: the text was sent blind)."""


class RunResult(TypedDict):
    outcome: RunOutcome
    entry: Optional[Any]  # the Execution followed (host/terminals.py), None unless 'ended', 'timeout' or 'cancelled'


class ExecutionView(TypedDict):
    """One command run in a terminal (`Execution.describe`)."""
    command: str
    exitCode: Optional[int]
    running: bool
    durationMs: int
    output: str


class TerminalView(TypedDict):
    """One terminal (`TerminalRecord.describe`): what terminal_list shows."""
    id: int
    name: str
    active: bool
    shellIntegration: bool
    createdByHermes: bool
    running: Optional[str]
    exitCode: Optional[int]
    executions: int
# __pragma__('noskip')
