"""Parts the terminal tools share."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any
from hermes.contracts.json import Json
from hermes.contracts.services import Terminals
# __pragma__('noskip')
from hermes.core.service_problems import ServiceProblem, with_next_step

# anyOf rather than a type list: clients that map schemas onto one `type` per value (Gemini) reject type lists.
TERMINAL_REF = {'anyOf': [{'type': 'integer'}, {'type': 'string'}],
                'description': 'Terminal id (from terminal_list/terminal_create) or exact name; default: the active terminal.'}

# What to do next after each ServiceProblem of the terminal service (host/terminals.py): the service states the
# fact; the tools, which know each other, say which tool helps.
NEXT_STEP = {
    'no-active': 'Name one (see terminal_list) or create one with terminal_create.',
    'ambiguous': 'Pass the id instead.',
    'not-found': 'Create one with terminal_create.',
    'busy': 'Wait for it (terminal_read), stop it (terminal_send with text "\\u0003" and enter false), or use '
            'another terminal.',
    'exited': 'Create another with terminal_create.',
}


def find_terminal(service: 'Terminals', ref: 'Json') -> 'Any':
    """The terminal a tool argument names (its id, its name, or None for the active one)."""
    try:
        return service.lookup(ref)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)
