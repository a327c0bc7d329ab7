"""What stops a service of the window from doing what a tool asked, as a fact the tool can phrase.

A host service (host/terminals.py, …) raises `ServiceProblem(kind, message)`: the message states what is so
('Terminal 3 "Hermes" is still running `npm test`.'), the kind names it for code. The tool that called it adds what
the model can do next, naming other tools (tools/<family>_parts.py): wording for a model lives with the tools, not
in the services. A ServiceProblem nobody rephrases is still a ToolError, so the model reads the fact.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Dict
# __pragma__('noskip')
from hermes.core.tools import ToolError


class ServiceProblem(ToolError):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def with_next_step(problem: ServiceProblem, next_steps: 'Dict[str, str]') -> ToolError:
    """The ToolError a model reads: the fact, then the next step `next_steps` gives for its kind (if any)."""
    step = next_steps[problem.kind] if problem.kind in next_steps else ''
    return ToolError(problem.message + (' ' + step if step != '' else ''))
