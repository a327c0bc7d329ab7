"""Every `hermes.*` setting, declared once: key, JSON schema (type, default, enum, bounds),
description and scope. package.json's `contributes.configuration` is generated from this list
(scripts/gen_contributions.py), `host/settings.py` reads through it, and every default in the code is
`default_of(key)` — nowhere else.

Scope is a security decision, not a label (VS Code's `scope`, see SECURITY.md):
- `application`: only the user's own settings count. Settings that weaken protection or decide where
  secrets and the window's tools go — the confirmation gate, access outside the workspace, MCP on/off,
  auth and port, the LLM endpoint and its headers — are `application`, so that a repository's
  `.vscode/settings.json` cannot change them; the reader ignores workspace values for them even if VS Code
  hands them over. (Not `machine`: in a remote window — code-server, SSH, WSL — VS Code ignores
  machine-scoped values in the user's settings, so a user who set the endpoint would silently not get it.)
- `window`: harmless choices a workspace may make (the model, its context size, how many replies).

Adding a setting: one entry here (scope included), then `inv build` regenerates package.json.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.settings import SettingKey, SettingReader
# __pragma__('noskip')

PROTECTED_SCOPES = ['application', 'machine']

SETTINGS = [  # type: List[JsonObject]
    {
        'key': 'mcp.enabled', 'type': 'boolean', 'default': True, 'scope': 'application', 'order': 1,
        'markdownDescription': "Serve this window's tools over MCP on `127.0.0.1` so external agents (Hermes Agent, "
                               "Claude Code, Cursor, the MCP Inspector) can drive it.",
    },
    {
        'key': 'mcp.port', 'type': 'integer', 'default': 19999, 'minimum': 0, 'maximum': 65535, 'scope': 'application',
        'order': 2,
        'markdownDescription': 'Preferred port for the MCP server. When it is taken (another window), the next free '
                               'port is used; every window writes its port to `~/.hermes/ide/<port>.json`. `0` picks '
                               'any free port.',
    },
    {
        'key': 'mcp.auth', 'type': 'string', 'default': 'token', 'enum': ['token', 'none'], 'scope': 'application',
        'order': 3,
        'enumDescriptions': [
            "Clients must send `Authorization: Bearer <token>` (the token is kept in VS Code's secret storage and "
            "written to the discovery file).",
            'No authentication: any program on this machine can drive this window. Not recommended.',
        ],
        'markdownDescription': 'How MCP clients authenticate.',
    },
    {
        'key': 'mcp.forwardedAddress', 'type': 'boolean', 'default': False, 'scope': 'application', 'order': 4,
        'markdownDescription': "Also serve MCP clients that reach this window through the address VS Code forwards "
                               "to its server (`vscode.env.asExternalUri`): for an agent on your own machine when the "
                               "window is remote (Remote-SSH, WSL, dev containers, Codespaces, code-server). The token "
                               "is still required; **Copy MCP Config** offers the forwarded URL. Off: only "
                               "`127.0.0.1` on the window's side.",
    },
    {
        'key': 'tools.confirm', 'type': 'string', 'default': 'destructive', 'enum': ['destructive', 'always', 'never'],
        'scope': 'application', 'order': 10,
        'enumDescriptions': [
            'Ask before tools that change files, run commands or terminals, or change settings.',
            'Ask before every tool call.',
            'Never ask. Agents can change anything in this window without confirmation.',
        ],
        'markdownDescription': 'When Hermes asks you before running a tool (from MCP clients and from the chat).',
    },
    {
        'key': 'tools.allowOutsideWorkspace', 'type': 'boolean', 'default': False, 'scope': 'application', 'order': 11,
        'markdownDescription': 'Let tools read and write files outside the workspace folders. Off by default: paths '
                               'that leave the workspace (`..`, symlinks, absolute paths elsewhere) are refused.',
    },
    {
        'key': 'llm.endpoint', 'type': 'string', 'default': 'http://127.0.0.1:11434/v1', 'minLength': 1,
        'scope': 'application', 'order': 20,
        'markdownDescription': 'Base URL of the OpenAI-compatible API the chat uses (Hermes calls '
                               '`<endpoint>/chat/completions` and `<endpoint>/models`). Ollama: '
                               '`http://127.0.0.1:11434/v1`; LM Studio: `http://127.0.0.1:1234/v1`; llama.cpp server: '
                               '`http://127.0.0.1:8080/v1`; vLLM: `http://127.0.0.1:8000/v1`; or a hosted API. An API '
                               'key, if the server needs one, is set with the command **Hermes: Set API Key** and kept '
                               "in VS Code's secret storage.",
    },
    {
        'key': 'llm.model', 'type': 'string', 'default': 'qwen2.5:7b', 'minLength': 1, 'scope': 'window', 'order': 21,
        'markdownDescription': 'The model to ask, as the server names it (see `<endpoint>/models`; for Ollama, '
                               '`ollama list`).',
    },
    {
        'key': 'llm.toolCalling', 'type': 'string', 'default': 'auto', 'enum': ['auto', 'native', 'text'],
        'scope': 'window', 'order': 22,
        'enumDescriptions': [
            'Native tool calls (the `tools` parameter); switch to the text protocol when the server or model cannot '
            'do them.',
            'Always native tool calls.',
            'Always the text protocol: tools are described in the system prompt and called with ```tool blocks. For '
            'models without tool support.',
        ],
        'markdownDescription': 'How the model calls tools.',
    },
    {
        'key': 'llm.extraHeaders', 'type': 'object', 'default': {}, 'additionalProperties': {'type': 'string'},
        'scope': 'application', 'order': 23,
        'markdownDescription': 'Extra HTTP headers sent with every LLM request (for proxies and gateways), e.g. '
                               '`{"OpenAI-Organization": "org-…"}`. Put API keys in **Hermes: Set API Key**, not '
                               'here.',
    },
    {
        'key': 'llm.contextLength', 'type': 'integer', 'default': 0, 'minimum': 0, 'scope': 'window', 'order': 24,
        'markdownDescription': "The model's context size in tokens. `0` uses what the server reports (Ollama's "
                               "`/api/show`, vLLM's `/models`), or 8192 when it reports nothing. Set it when you "
                               'started the server with a larger context than it reports (e.g. '
                               '`OLLAMA_CONTEXT_LENGTH=32768 ollama serve`).',
    },
    {
        'key': 'agent.maxIterations', 'type': 'integer', 'default': 10, 'minimum': 1, 'maximum': 100,
        'scope': 'window', 'order': 30,
        'markdownDescription': 'How many model replies one chat request may take (each reply can call tools). The '
                               'last one is asked to answer without tools.',
    },
    # The change log's settings are the user's own (application): a repository must not switch off the review
    # of what agents change in it, nor have it kept behind the user's back.
    {
        'key': 'doors.claudeCode', 'type': 'boolean', 'default': True, 'scope': 'application', 'order': 60,
        'markdownDescription': "Let Claude Code find this window by itself: a lock file in `~/.claude/ide` and a "
                               "WebSocket on `127.0.0.1` with a token of this window. `claude` started in a VS Code "
                               "terminal connects at once (elsewhere: `/ide`); its proposed edits are reviewed here, "
                               "hunk by hunk, and what it writes by itself becomes its pending change.",
    },
    {
        'key': 'doors.gemini', 'type': 'boolean', 'default': True, 'scope': 'application', 'order': 61,
        'markdownDescription': "Let Gemini CLI find this window by itself (its IDE mode: a discovery file in the "
                               "temporary folder and MCP on `127.0.0.1` with a token of this window). Its proposed "
                               "edits are reviewed here, hunk by hunk.",
    },
    {
        'key': 'doors.qwen', 'type': 'boolean', 'default': True, 'scope': 'application', 'order': 62,
        'markdownDescription': "Let Qwen Code find this window by itself (its IDE mode: a lock file in "
                               "`~/.qwen/ide` and MCP on `127.0.0.1` with a token of this window). Its proposed "
                               "edits are reviewed here, hunk by hunk.",
    },
    {
        'key': 'changes.trackExternal', 'type': 'boolean', 'default': True, 'scope': 'application', 'order': 40,
        'markdownDescription': 'Record the edits MCP clients outside VS Code (Claude Code, Hermes Agent, Cursor…) make '
                               'through Hermes, so you can keep or undo them hunk by hunk like the chat\'s edits.',
    },
    {
        'key': 'changes.autoKeep', 'type': 'string', 'default': 'never', 'enum': ['never', 'nextTurn', 'afterDelay'],
        'scope': 'application', 'order': 41,
        'enumDescriptions': [
            'Changes stay pending until you keep or undo them.',
            "A session's or client's pending changes are kept when its next turn starts.",
            'Pending changes are kept after `#hermes.changes.autoKeepSeconds#` seconds.',
        ],
        'markdownDescription': 'When pending agent changes are kept without asking.',
    },
    {
        'key': 'changes.autoKeepSeconds', 'type': 'integer', 'default': 300, 'minimum': 1, 'maximum': 86400,
        'scope': 'application', 'order': 42,
        'markdownDescription': 'With `#hermes.changes.autoKeep#` set to `afterDelay`: how long a change stays pending.',
    },
    {
        'key': 'agent.backend', 'type': 'string', 'default': 'auto', 'minLength': 1, 'scope': 'application',
        'order': 50,
        'markdownDescription': 'Which agent answers new Hermes chat sessions and side panel conversations. `auto`: '
                               'Hermes Agent itself when it is installed (see `#hermes.acp.hermesPath#`), else the '
                               'built-in tool loop over `#hermes.llm.endpoint#`; `builtin`: always the built-in loop; '
                               '`hermes`: Hermes Agent (a clear message when it is missing); or the `name` of an '
                               'agent in `#hermes.acp.agents#`. A conversation keeps the agent it started with.',
    },
    {
        'key': 'acp.hermesPath', 'type': 'string', 'default': '', 'scope': 'application', 'order': 51,
        'markdownDescription': 'The Hermes Agent program to run over ACP (the Agent Client Protocol). Empty: '
                               '`hermes` (run as `hermes acp`) or `hermes-acp` found on `PATH`. A path ending in '
                               '`hermes-acp` runs as is, any other as `<path> acp`. Install Hermes Agent with '
                               "`pip install 'hermes-agent[acp]'`, then choose a model with `hermes model`.",
    },
    {
        'key': 'acp.agents', 'type': 'array', 'default': [], 'scope': 'application', 'order': 52,
        'items': {
            'type': 'object', 'required': ['name', 'command'], 'additionalProperties': False,
            'properties': {
                'name': {'type': 'string', 'minLength': 1, 'description': 'How the agent is offered.'},
                'command': {'type': 'string', 'minLength': 1, 'description': 'The program (no shell).'},
                'args': {'type': 'array', 'items': {'type': 'string'}, 'description': 'Its arguments.'},
                'env': {'type': 'object', 'additionalProperties': {'type': 'string'},
                        'description': 'Extra environment variables.'},
            },
        },
        'defaultSnippets': [
            {'label': 'Claude Code', 'body': [{'name': 'Claude Code', 'command': 'npx',
                                               'args': ['-y', '@agentclientprotocol/claude-agent-acp']}]},
            {'label': 'Codex', 'body': [{'name': 'Codex', 'command': 'npx',
                                         'args': ['-y', '@agentclientprotocol/codex-acp']}]},
            {'label': 'Gemini CLI', 'body': [{'name': 'Gemini CLI', 'command': 'gemini',
                                              'args': ['--acp']}]},
            {'label': 'opencode', 'body': [{'name': 'opencode', 'command': 'opencode', 'args': ['acp']}]},
        ],
        'markdownDescription': 'Other ACP agents (Agent Client Protocol) Hermes can run in chat sessions: each a '
                               '`name`, a `command` (started without a shell), `args` and extra `env`. Presets: '
                               'Claude Code (`npx -y @agentclientprotocol/claude-agent-acp`), Codex '
                               '(`npx -y @agentclientprotocol/codex-acp`), Gemini CLI (`gemini --acp`), '
                               'opencode (`opencode acp`). Pick one with `#hermes.agent.backend#`. Only your user '
                               'settings count: a workspace can never choose what program starts.',
    },
]


CONFIGURATION_TARGETS = ['user', 'workspace', 'workspace_folder']
"""Where workspace_set_config may write a setting (VS Code's ConfigurationTarget, by name)."""


def declaration(key: 'SettingKey') -> 'JsonObject':
    """The entry for `key` ('llm.model', without `hermes.`); an unknown key is a bug, so it raises."""
    for entry in SETTINGS:
        if entry['key'] == key:
            return entry
    raise KeyError('hermes.' + key + ' is not a declared setting (core/settings_spec.py)')


def _default(key: 'SettingKey') -> 'Json':
    return declaration(key)['default']


default_of = _default  # type: SettingReader
"""The declared default of a setting, typed per key (contracts/settings.py, generated from SETTINGS)."""


def is_protected(key: 'SettingKey') -> bool:
    """Only the user's own settings count for this key; a workspace's value is ignored."""
    return declaration(key)['scope'] in PROTECTED_SCOPES


def configuration_contribution() -> 'JsonObject':
    """package.json's `contributes.configuration` (CPython only: scripts/gen_contributions.py)."""
    properties = {}  # type: JsonObject
    for entry in SETTINGS:
        properties['hermes.' + entry['key']] = {name: entry[name] for name in entry.keys() if name != 'key'}
    return {'title': 'Hermes', 'properties': properties}
