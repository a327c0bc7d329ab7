"""Ready-to-paste configuration for the MCP clients people use, from one url and token.
Shared by the "Hermes: Copy MCP Config" command and `node dist/mcp-server.js config`."""
# __pragma__('tconv')
from hermes.js.json import dump_json
from hermes.js.objects import is_none

SERVER_NAME = 'vscode'

CLIENTS = [
    ['hermes', 'Hermes Agent (~/.hermes/config.yaml)'],
    ['claude', 'Claude Code (claude mcp add)'],
    ['vscode', 'VS Code (.vscode/mcp.json)'],
    ['cursor', 'Cursor (~/.cursor/mcp.json)'],
]


def auth_headers(token):
    return {} if is_none(token) or token == '' else {'Authorization': 'Bearer ' + token}


def hermes_snippet(url, token):
    lines = ['mcp_servers:', '  ' + SERVER_NAME + ':', '    url: "' + url + '"']
    if not is_none(token) and token != '':
        lines.extend(['    headers:', '      Authorization: "Bearer ' + token + '"'])
    return '\n'.join(lines) + '\n'


def claude_snippet(url, token):
    command = 'claude mcp add --transport http ' + SERVER_NAME + ' ' + url
    if not is_none(token) and token != '':
        command = command + ' --header "Authorization: Bearer ' + token + '"'
    return command + '\n'


def vscode_snippet(url, token):
    server = {'type': 'http', 'url': url}
    headers = auth_headers(token)
    if len(headers.keys()) > 0:
        server['headers'] = headers
    servers = {}
    servers[SERVER_NAME] = server
    return dump_json({'servers': servers}, 2) + '\n'


def cursor_snippet(url, token):
    server = {'url': url}
    headers = auth_headers(token)
    if len(headers.keys()) > 0:
        server['headers'] = headers
    servers = {}
    servers[SERVER_NAME] = server
    return dump_json({'mcpServers': servers}, 2) + '\n'


def snippet_for(client, url, token):
    if client == 'hermes':
        return hermes_snippet(url, token)
    if client == 'claude':
        return claude_snippet(url, token)
    if client == 'vscode':
        return vscode_snippet(url, token)
    if client == 'cursor':
        return cursor_snippet(url, token)
    raise ValueError('unknown client ' + client + '; expected one of hermes, claude, vscode, cursor')


def all_snippets(url, token):
    parts = []
    for client in CLIENTS:
        parts.append('# ' + client[1] + '\n' + snippet_for(client[0], url, token))
    return '\n'.join(parts)
