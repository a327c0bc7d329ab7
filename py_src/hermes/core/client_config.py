"""Ready-to-paste configuration for the MCP clients people use, from one url and token.
Shared by the "Hermes: Copy MCP Config" command and `node dist/mcp-server.js config`."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Dict, List, Optional, TypeGuard
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.js.json import dump_json

SERVER_NAME = 'vscode'

# Codex reads a bearer token from the environment variable its config names (`codex mcp add` has no header
# option); its config.toml can also hold the header itself (`http_headers`), like the other clients' files.
CODEX_TOKEN_VARIABLE = 'HERMES_VSCODE_TOKEN'

CLIENTS = [
    ['hermes', 'Hermes Agent (~/.hermes/config.yaml)'],
    ['claude', 'Claude Code (claude mcp add)'],
    ['codex', 'Codex (codex mcp add)'],
    ['codex-toml', 'Codex (~/.codex/config.toml)'],
    ['gemini', 'Gemini CLI (gemini mcp add)'],
    ['gemini-json', 'Gemini CLI (~/.gemini/settings.json)'],
    ['vscode-portable', 'VS Code 1.140+ and Copilot (.mcp.json)'],
    ['vscode', 'VS Code before 1.140 (.vscode/mcp.json)'],
    ['cursor', 'Cursor (~/.cursor/mcp.json)'],
]

# VS Code 1.140 reads the portable Copilot format (`mcpServers`) from `.mcp.json` at the workspace root, and its
# Copilot harness sessions read only that one directly (servers of `.vscode/mcp.json` reach them by forwarding);
# older VS Code reads `.vscode/mcp.json` (`servers`) only.
PORTABLE_SINCE = [1, 140]
PORTABLE_FILE = '.mcp.json'
OLDER_FILE = '.vscode/mcp.json'


def version_numbers(version: str) -> 'List[int]':
    """[major, minor] of a VS Code version ('1.140.0', '1.141.0-insider'); [0, 0] when it is none."""
    parts = version.split('.')
    numbers = []
    for part in parts[:2]:
        if not part.isdigit() or len(part) > 6:
            return [0, 0]
        numbers.append(int(part))
    return numbers if len(numbers) == 2 else [0, 0]


def vscode_client(version: str) -> str:
    """The client name (CLIENTS) of the VS Code that runs Hermes, by its version: which file it reads."""
    numbers = version_numbers(version)
    newer = numbers[0] > PORTABLE_SINCE[0] or (numbers[0] == PORTABLE_SINCE[0] and numbers[1] >= PORTABLE_SINCE[1])
    return 'vscode-portable' if newer else 'vscode'


def vscode_config_file(version: str) -> str:
    """The workspace file (relative to the workspace folder) Copy MCP Config offers to write for this VS Code."""
    return PORTABLE_FILE if vscode_client(version) == 'vscode-portable' else OLDER_FILE


def clients_for(version: str) -> 'List[List[str]]':
    """CLIENTS for the picker of a VS Code at `version`: of the two VS Code entries only the one it reads."""
    other = 'vscode' if vscode_client(version) == 'vscode-portable' else 'vscode-portable'
    return [entry for entry in CLIENTS if entry[0] != other]


def has_token(token: 'Optional[str]') -> 'TypeGuard[str]':
    return token is not None and token != ''


def auth_headers(token: 'Optional[str]') -> 'Dict[str, str]':
    return {'Authorization': 'Bearer ' + token} if has_token(token) else {}


def with_header(command: str, flag: str, token: 'Optional[str]') -> str:
    """A shell command that adds the server, with the header flag when there is a token."""
    return command + (' ' + flag + ' "Authorization: Bearer ' + token + '"' if has_token(token) else '')


def json_servers(top_key: str, server: 'JsonObject', token: 'Optional[str]') -> str:
    """A JSON config file's servers map holding our one server, its headers last when there is a token."""
    headers = auth_headers(token)
    if len(headers.keys()) > 0:
        server['headers'] = headers
    servers = {}
    servers[SERVER_NAME] = server
    document = {}
    document[top_key] = servers
    return dump_json(document, 2) + '\n'


def hermes_snippet(url: str, token: 'Optional[str]') -> str:
    lines = ['mcp_servers:', '  ' + SERVER_NAME + ':', '    url: "' + url + '"']
    if has_token(token):
        lines.extend(['    headers:', '      Authorization: "Bearer ' + token + '"'])
    return '\n'.join(lines) + '\n'


def claude_snippet(url: str, token: 'Optional[str]') -> str:
    return with_header('claude mcp add --transport http ' + SERVER_NAME + ' ' + url, '--header', token) + '\n'


def codex_snippet(url: str, token: 'Optional[str]') -> str:
    """The token goes into the variable Codex reads at every start: export it where codex runs (a shell profile)."""
    command = 'codex mcp add ' + SERVER_NAME + ' --url ' + url
    if has_token(token):
        return ('export ' + CODEX_TOKEN_VARIABLE + '="' + token + '"\n' + command + ' --bearer-token-env-var ' +
                CODEX_TOKEN_VARIABLE + '\n')
    return command + '\n'


def codex_toml_snippet(url: str, token: 'Optional[str]') -> str:
    # A JSON string is a TOML basic string (the same escapes), so dump_json quotes both values.
    lines = ['[mcp_servers.' + SERVER_NAME + ']', 'url = ' + dump_json(url)]
    if has_token(token):
        lines.append('http_headers = { Authorization = ' + dump_json('Bearer ' + token) + ' }')
    return '\n'.join(lines) + '\n'


def gemini_snippet(url: str, token: 'Optional[str]') -> str:
    return with_header('gemini mcp add --transport http ' + SERVER_NAME + ' ' + url, '-H', token) + ' -s user\n'


def gemini_json_snippet(url: str, token: 'Optional[str]') -> str:
    """The entry `gemini mcp add` writes into ~/.gemini/settings.json."""
    return json_servers('mcpServers', {'url': url, 'type': 'http'}, token)


def vscode_snippet(url: str, token: 'Optional[str]') -> str:
    return json_servers('servers', {'type': 'http', 'url': url}, token)


def vscode_portable_snippet(url: str, token: 'Optional[str]') -> str:
    """`.mcp.json`: the portable Copilot format; `tools` names what the harness may call (all of ours)."""
    return json_servers('mcpServers', {'type': 'http', 'url': url, 'tools': ['*']}, token)


def cursor_snippet(url: str, token: 'Optional[str]') -> str:
    return json_servers('mcpServers', {'url': url}, token)


def snippet_for(client: str, url: str, token: 'Optional[str]') -> str:
    if client == 'hermes':
        return hermes_snippet(url, token)
    if client == 'claude':
        return claude_snippet(url, token)
    if client == 'codex':
        return codex_snippet(url, token)
    if client == 'codex-toml':
        return codex_toml_snippet(url, token)
    if client == 'gemini':
        return gemini_snippet(url, token)
    if client == 'gemini-json':
        return gemini_json_snippet(url, token)
    if client == 'vscode':
        return vscode_snippet(url, token)
    if client == 'vscode-portable':
        return vscode_portable_snippet(url, token)
    if client == 'cursor':
        return cursor_snippet(url, token)
    raise ValueError('unknown client ' + client + '; expected one of ' + ', '.join([entry[0] for entry in CLIENTS]))


def all_snippets(url: str, token: 'Optional[str]') -> str:
    parts = []
    for client in CLIENTS:
        parts.append('# ' + client[1] + '\n' + snippet_for(client[0], url, token))
    return '\n'.join(parts)
