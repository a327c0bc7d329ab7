"""Which agent answers a Hermes conversation, free of VS Code and Node: Hermes Agent found from the
settings or PATH, the other ACP agents of `hermes.acp.agents`, the built-in loop otherwise; the MCP
server entry that hands an agent this window's tools; and what the user reads when an agent cannot run.

An agent spec is {'name', 'command', 'args', 'env', 'cwd'}: what net/acp/agent.py AcpAgent starts (no
shell). It comes only from the user's own settings (application scope, core/settings_spec.py): a
repository can never choose what program we start.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
Spec = Dict[str, Any]
# __pragma__('noskip')
from hermes.core.strip_chars import rstrip_chars
from hermes.core.values import json_type, get_key, is_object, copyable_keys

HERMES_NAME = 'Hermes Agent'
BUILTIN = 'builtin'
AUTO = 'auto'
HERMES = 'hermes'
MCP_SERVER_NAME = 'vscode'
"""Hermes names our tools mcp__vscode__<tool> (the key users give us in its config.yaml, too)."""

INSTALL_COMMAND = "pip install 'hermes-agent[acp]'"
SIGN_IN_COMMAND = 'hermes.acp.signIn'
"""The command behind the sign-in button in every front end (argument: the agent's name; none: Hermes Agent) and
"Hermes: Sign In to an Agent" (host/acp/sign_in.py)."""
SIGN_OUT_COMMAND = 'hermes.acp.signOut'
SETUP_COMMAND = 'hermes.acp.setup'
"""The setup button of earlier versions (in stored chat answers): signing in to Hermes Agent."""
SETUP_TITLE = 'Set up Hermes Agent'
INSTALL_HINT = ('This session runs Hermes\' built-in tool loop over `hermes.llm.endpoint`. To run **Hermes Agent** '
                'itself here (its memory, skills, providers and sessions, with this window\'s tools), install it: '
                '`' + INSTALL_COMMAND + '`, then choose a model with `hermes model` (or `hermes acp --setup`), '
                'and start a new Hermes Agent session.')
NO_MODEL_TEXT = ('Nothing answered: no model is reachable at `hermes.llm.endpoint` either. Next step: install Hermes '
                 'Agent as above (`' + INSTALL_COMMAND + '`), choose its model with `hermes model`, and start a new '
                 'Hermes Agent session.')
"""Said instead of the built-in loop's "can't reach the LLM" error after INSTALL_HINT: one next step, not two."""
RESTRICTED_HINT = ('This workspace is in Restricted Mode, so Hermes starts no agent program here. Trust the '
                   'workspace to use Hermes Agent; until then the built-in tool loop answers.')
NO_PROVIDER_CODE = -32603
NO_PROVIDER_TEXT = 'No LLM provider configured'
SETUP_AUTH_METHOD = 'hermes-setup'
AUTH_REQUIRED_CODE = -32000
"""ACP's `auth_required`: the agent needs a sign-in (core/acp/sign_in.py) before this request."""
"""The auth method Hermes offers for `hermes acp --setup`; without a provider it is the only one it offers."""


def _basename(path: str) -> str:
    cut = max(path.rfind('/'), path.rfind('\\'))
    return path[cut + 1:] if cut >= 0 else path


SKIP_CONFIGURED_MCP = 'HERMES_ACP_SKIP_CONFIGURED_MCP'
"""Hermes Agent's switch to leave out the MCP servers of its own config.yaml in an ACP session: set when this window
hands its own server in session/new, so a `vscode` entry a user pasted there earlier (another port, an old token)
is not started beside it, and the session starts sooner."""


def hermes_spec(configured_path: 'Json', find_on_path: 'Callable[[str], Optional[str]]',
                hands_mcp: bool = False) -> 'Optional[Spec]':
    """The spec that runs Hermes Agent over ACP, or None when it is not installed. `configured_path`:
    hermes.acp.hermesPath ('' to search); `find_on_path(name)`: the program's absolute path or None; `hands_mcp`:
    this window gives its MCP server to the sessions (SKIP_CONFIGURED_MCP)."""
    env = {SKIP_CONFIGURED_MCP: '1'} if hands_mcp else None
    if json_type(configured_path) == 'string' and configured_path.strip() != '':
        path = configured_path.strip()
        name = _basename(path)
        if name == 'hermes-acp' or name == 'hermes-acp.exe':
            return _spec(HERMES_NAME, path, [], env)
        return _spec(HERMES_NAME, path, ['acp'], env)
    found = find_on_path('hermes')
    if found is not None:
        return _spec(HERMES_NAME, found, ['acp'], env)
    found = find_on_path('hermes-acp')
    if found is not None:
        return _spec(HERMES_NAME, found, [], env)
    return None


def _spec(name: str, command: str, args: 'List[str]', env: 'Optional[Dict[str, str]]' = None) -> 'Spec':
    return {'name': name, 'command': command, 'args': args, 'env': {} if env is None else env, 'cwd': None}


def configured_agents(value: 'Json') -> 'List[Spec]':
    """The specs of hermes.acp.agents (entries the settings reader already validated); a later entry
    with a name already taken is left out."""
    specs = []  # type: List[Spec]
    names = [HERMES_NAME.lower(), HERMES, BUILTIN, AUTO]
    if json_type(value) != 'array':
        return specs
    for entry in value:
        name = get_key(entry, 'name')
        command = get_key(entry, 'command')
        if json_type(name) != 'string' or json_type(command) != 'string' or name.strip() == '' or \
                name.strip().lower() in names:
            continue
        args = get_key(entry, 'args', [])
        env = get_key(entry, 'env', {})
        clean_env = {}  # type: Dict[str, str]
        if is_object(env):
            for key in copyable_keys(env):
                if json_type(env[key]) == 'string':
                    clean_env[key] = env[key]
        names.append(name.strip().lower())
        specs.append(_spec(name.strip(), command,
                           [arg for arg in args if json_type(arg) == 'string'] if json_type(args) == 'array' else [],
                           clean_env))
    return specs


def choose_backend(wanted: 'Json', hermes: 'Optional[Spec]', agents: 'List[Spec]',
                   trusted: bool = True) -> 'JsonObject':
    """Who answers a new conversation: {'kind': 'builtin', 'notice': text | None} or {'kind': 'acp',
    'spec'}. `wanted`: hermes.agent.backend; `hermes`: hermes_spec(...) or None; `agents`:
    configured_agents(...); `trusted`: the workspace is trusted (Restricted Mode starts no agent)."""
    choice = wanted.strip() if json_type(wanted) == 'string' else AUTO
    lowered = choice.lower()
    if lowered == BUILTIN:
        return {'kind': 'builtin', 'notice': None}
    if not trusted:
        return {'kind': 'builtin', 'notice': RESTRICTED_HINT}
    if lowered == AUTO or lowered == HERMES or lowered == HERMES_NAME.lower():
        if hermes is not None:
            return {'kind': 'acp', 'spec': hermes}
        return {'kind': 'builtin', 'notice': INSTALL_HINT}
    for spec in agents:
        if spec['name'].lower() == lowered:
            return {'kind': 'acp', 'spec': spec}
    return {'kind': 'builtin', 'notice': 'No agent named "' + choice + '" is in `hermes.acp.agents`, so the built-in '
                                         'tool loop answers. Add it there, or set `hermes.agent.backend` to `auto`.'}


BUILTIN_LABEL = 'Built-in loop'


def backend_choices(hermes: 'Optional[Spec]', agents: 'List[Spec]', trusted: bool = True) -> 'List[JsonObject]':
    """What a front end offers to answer a new conversation: [{'id', 'label', 'detail', 'available'}] — the
    built-in loop, Hermes Agent (`available` False when it is not installed or Restricted Mode starts no agent;
    choosing it anyway gets the same notice as a session, from `choose_backend`), each agent of hermes.acp.agents.
    An id is what `choose_backend` takes as `wanted`."""
    choices = [{'id': BUILTIN, 'label': BUILTIN_LABEL, 'available': True,
                'detail': 'Hermes\' own tool loop over your model (hermes.llm.endpoint)'}]
    if not trusted:
        hermes_detail = 'Restricted Mode: no agent program starts in this workspace'
    elif hermes is None:
        hermes_detail = 'Not installed: ' + INSTALL_COMMAND
    else:
        hermes_detail = 'Hermes Agent itself over ACP (' + hermes['command'] + ')'
    choices.append({'id': HERMES, 'label': HERMES_NAME, 'available': trusted and hermes is not None,
                    'detail': hermes_detail})
    for spec in agents:
        choices.append({'id': spec['name'], 'label': spec['name'], 'available': trusted,
                        'detail': 'ACP agent (' + spec['command'] + ')' if trusted else hermes_detail})
    return choices


def default_choice(wanted: 'Json', hermes: 'Optional[Spec]', agents: 'List[Spec]', trusted: bool = True) -> str:
    """The choice a new conversation starts with, read from hermes.agent.backend as a session reads it: `auto` is
    Hermes Agent when it can run, else the built-in loop; a name the settings no longer list is the built-in loop."""
    choice = wanted.strip().lower() if json_type(wanted) == 'string' else AUTO
    if choice == AUTO:
        return HERMES if trusted and hermes is not None else BUILTIN
    if choice == HERMES or choice == HERMES_NAME.lower():
        return HERMES
    for spec in agents:
        if spec['name'].lower() == choice:
            return spec['name']
    return BUILTIN


def choice_of_agent(agent_name: str) -> str:
    """The choice id of the agent a stored conversation names (`conversation.acp['agent']`)."""
    return HERMES if agent_name == HERMES_NAME else agent_name


def agent_of_choice(choice: str) -> 'Optional[str]':
    """The agent name a front end's choice id stands for; None for the built-in loop."""
    if choice == BUILTIN:
        return None
    return HERMES_NAME if choice == HERMES else choice


def find_spec(name: str, hermes: 'Optional[Spec]', agents: 'List[Spec]') -> 'Optional[Spec]':
    """The spec of the agent a stored conversation used, or None when it is no longer configured."""
    if name == HERMES_NAME:
        return hermes
    for spec in agents:
        if spec['name'] == name:
            return spec
    return None


class AcpAgentError(Exception):
    """A turn that could not run: `.message` is what the user reads, `.setup` offers `hermes acp --setup`."""

    def __init__(self, message: str, setup: bool = False) -> None:
        Exception.__init__(self, message)
        self.message = message
        self.setup = setup


def mcp_server_entry(url: str, token: 'Json') -> 'JsonObject':
    """This window's MCP server as an ACP `mcpServers` entry (Streamable HTTP; `headers` is required)."""
    headers = []
    if json_type(token) == 'string' and token != '':
        headers.append({'name': 'Authorization', 'value': 'Bearer ' + token})
    return {'type': 'http', 'name': MCP_SERVER_NAME, 'url': url, 'headers': headers}


def no_provider_failure(agent_name: str) -> 'JsonObject':
    """What the user reads when Hermes has no model provider: how to choose one, and the setup button."""
    return {'message': agent_name + ' has no model provider configured yet. Choose one with `hermes model` or '
                       '`hermes acp --setup` (the button below runs it in a terminal), then ask again.',
            'setup': agent_name == HERMES_NAME}


def lacks_provider(agent_name: str, auth_methods: 'Json') -> bool:
    """Hermes without a model provider, told by its `initialize`: its only auth method is the terminal setup.
    (With one it also offers the provider's method. A new session then fails with -32603, but a session/load of an
    earlier session succeeds and its prompt ends with stopReason `refusal` and no word: the reopened session's case.)"""
    if agent_name != HERMES_NAME or json_type(auth_methods) != 'array' or len(auth_methods) == 0:
        return False
    for method in auth_methods:
        if get_key(method, 'id') != SETUP_AUTH_METHOD:
            return False
    return True


def describe_failure(kind: 'Optional[str]', code: 'Json', message: 'Json', agent_name: str, data: 'Json' = None) -> 'JsonObject':
    """An AcpError as what the user reads: {'message', 'setup': True when signing in is the fix (Hermes: `hermes acp
    --setup`; any agent answering `auth_required`)}.
    Never the raw JSON-RPC dump; the MCP token never reaches here (it only travels in session/new). Hermes
    0.19.0 says "Internal error" with the reason in `data.details`."""
    text = message if json_type(message) == 'string' else ''
    details = get_key(data, 'details')
    if json_type(details) == 'string' and details != '' and not (details in text):
        text = (text + ': ' if text != '' else '') + details
    if code == NO_PROVIDER_CODE and NO_PROVIDER_TEXT.lower() in text.lower():
        return no_provider_failure(agent_name)
    if code == AUTH_REQUIRED_CODE:
        # (the agent's own words add nothing here: it is ACP's auth_required, whatever it says)
        return {'message': agent_name + ' needs you to sign in. Use the button below (or "Hermes: Sign In to an '
                           'Agent"), then ask again.', 'setup': True}
    if kind == 'spawn':
        return {'message': agent_name + ' could not be started: ' + text + '. Check the command in your settings '
                           '(`hermes.acp.hermesPath` / `hermes.acp.agents`).', 'setup': False}
    if kind == 'timeout':
        return {'message': agent_name + ' did not answer in time (' + text + '). It was stopped; ask again to '
                           'start it anew.', 'setup': False}
    if kind == 'exited':
        return {'message': agent_name + ' stopped unexpectedly (' + text + '). Ask again to start it anew.',
                'setup': False}
    if kind == 'protocol':
        return {'message': agent_name + ' sent something that is not the Agent Client Protocol (' + text + ').',
                'setup': False}
    return {'message': agent_name + ' reported an error: ' + (text if text != '' else 'unknown error') +
                       ('' if code is None else ' (code ' + str(code) + ')'), 'setup': False}


def path_outside(path_value: 'Json', separator: str, folders: 'List[str]', sep: str = '/') -> 'Optional[str]':
    """PATH for an agent process: only absolute entries outside the workspace `folders` (an empty or relative
    entry means the process's working folder — the workspace — and a folder inside it is the repository's to fill:
    either would let a repository choose the program that runs as the agent, or the programs the agent runs).
    None when `path_value` is no text."""
    if json_type(path_value) != 'string':
        return None
    kept = []  # type: List[str]
    for entry in path_value.split(separator):
        absolute = entry.startswith('/') or (len(entry) > 2 and entry[1] == ':' and (entry[2] == '\\' or
                                                                                    entry[2] == '/'))
        if not absolute or entry in kept:
            continue
        inside = False
        for folder in folders:
            if entry == folder or entry.startswith(rstrip_chars(folder, sep) + sep):
                inside = True
        if not inside:
            kept.append(entry)
    return separator.join(kept)
