"""Signing in to an ACP agent, free of VS Code and Node: which of the `authMethods` an agent offers in `initialize`
we can use, what a terminal method runs, and what the user reads.

ACP (protocol/v1/authentication) has two kinds of method. An **agent** method (no `type`, or `"agent"`) is run by
the agent itself when the client calls `authenticate {methodId}`. A **terminal** method (`"type": "terminal"`,
since 2026-08-20, offered only to a client that advertises `clientCapabilities.auth.terminal`) is run by the
client: the agent's own configured program with the method's `args` appended and its `env` over the base
environment, in an interactive terminal; exit status 0 means signed in, then the client starts the agent anew. A
descriptor can never name a program: the program is the one from the user's settings. An agent says it needs a
sign-in with the error code -32000 (`auth_required`) on `session/new`, `session/load` or a prompt; `logout` exists
when the agent advertises `agentCapabilities.auth.logout`.

Hermes Agent 0.19.0 without a model provider offers only the terminal method `hermes-setup` (args `--setup`): its
"sign-in" is choosing a provider, and the button keeps Hermes' own wording (SETUP_TITLE).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key, copyable_keys
from hermes.core.dialog_text import agent_title
from hermes.core.acp.backends import HERMES_NAME, SETUP_TITLE

AGENT = 'agent'
TERMINAL = 'terminal'
MAX_METHODS = 20
"""An agent offering more is cut: a pick list of hundreds is no choice."""


def sign_in_methods(offered: 'Json') -> 'List[JsonObject]':
    """The usable methods of an `authMethods` value, in the agent's order: {'id', 'name', 'description', 'type',
    'args', 'env'}. Malformed entries (no string id, an unknown type) are left out; invalid args items and env values
    are skipped, as the schema says; names and descriptions are bounded single lines (they are shown to the user)."""
    methods = []  # type: List[JsonObject]
    if json_type(offered) != 'array':
        return methods
    for method in offered:
        method_id = get_key(method, 'id')
        kind = get_key(method, 'type')
        if json_type(method_id) != 'string' or method_id == '':
            continue
        if kind is None:
            kind = AGENT
        if kind != AGENT and kind != TERMINAL:
            continue
        methods.append({
            'id': method_id, 'type': kind,
            'name': _shown(get_key(method, 'name'), _shown(method_id, 'sign-in')),
            'description': _shown(get_key(method, 'description'), ''),
            'args': _strings(get_key(method, 'args')) if kind == TERMINAL else [],
            'env': _string_values(get_key(method, 'env')) if kind == TERMINAL else {}})
        if len(methods) >= MAX_METHODS:
            break
    return methods


def _shown(value: 'Json', otherwise: str) -> str:
    shown = agent_title(value)
    return otherwise if shown is None else shown


def _strings(value: 'Json') -> 'List[str]':
    return [item for item in value if json_type(item) == 'string'] if json_type(value) == 'array' else []


def _string_values(value: 'Json') -> 'Dict[str, str]':
    chosen = {}  # type: Dict[str, str]
    if json_type(value) != 'object':
        return chosen
    for key in copyable_keys(value):
        if json_type(value[key]) == 'string' and key != '':
            chosen[key] = value[key]
    return chosen


def terminal_invocation(launched: 'JsonObject', method: 'JsonObject') -> 'JsonObject':
    """What a terminal method runs: the agent's own resolved program (`launched`: host/acp/agent_launch.py launch_spec,
    {'command', 'args', 'env', 'cwd'}) with the method's args after its own and the method's env over its env."""
    args = []  # type: List[str]
    for arg in launched['args']:
        args.append(arg)
    for arg in method['args']:
        args.append(arg)
    env = {}  # type: Dict[str, str]
    base = launched['env'] if json_type(launched['env']) == 'object' else {}
    for key in copyable_keys(base):
        env[key] = base[key]
    for key in copyable_keys(method['env']):
        env[key] = method['env'][key]
    return {'command': launched['command'], 'args': args, 'env': env, 'cwd': launched['cwd']}


def sign_in_title(agent_name: str) -> str:
    """The button's title under a failure that a sign-in fixes (Hermes keeps its own wording)."""
    return SETUP_TITLE if agent_name == HERMES_NAME else 'Sign in to ' + agent_name


def can_log_out(capabilities: 'Json') -> bool:
    """Whether an agent's `agentCapabilities` offers `logout` (`auth.logout` present and not null)."""
    auth = get_key(capabilities, 'auth')
    return json_type(get_key(auth, 'logout')) == 'object'


def pick_items(methods: 'List[JsonObject]') -> 'List[JsonObject]':
    """The quick pick's items for several methods: label, description (what it does), and the method."""
    items = []  # type: List[JsonObject]
    for method in methods:
        items.append({'label': method['name'],
                      'description': 'in a terminal' if method['type'] == TERMINAL else '',
                      'detail': method['description'], 'method': method['id']})
    return items


def method_by_id(methods: 'List[JsonObject]', method_id: 'Json') -> 'Optional[JsonObject]':
    for method in methods:
        if method['id'] == method_id:
            return method
    return None
