"""Command-line arguments of dist/mcp-server.js, parsed without Node (pure; tested under CPython)."""
# __pragma__('tconv')
from hermes.core.client_config import CLIENTS
# __pragma__('skip')
from typing import List
from hermes.contracts.cli import CliOptions
# __pragma__('noskip')

COMMANDS = ['health', 'config', 'stdio']
CLIENT_CHOICES = [entry[0] for entry in CLIENTS]
CLIENT_CHOICES.append('all')
VALUE_FLAGS = ['url', 'token', 'port', 'client']
SWITCHES = ['json', 'help']

USAGE = """Usage: node dist/mcp-server.js <command> [options]

Talks to the MCP server of a running VS Code window with Hermes, found through the discovery
files in ~/.hermes/ide/ (the window whose workspace holds the current directory, else the newest).

Commands:
  health    check the window's server: reachable, token accepted, handshake, tools, ping time
  config    print ready-to-paste client configuration (Hermes Agent, Claude Code, Codex, Gemini CLI,
            VS Code, Cursor)
  stdio     bridge MCP over stdin/stdout to the window (for clients that only run stdio servers)

Options:
  --url URL        the server's MCP endpoint, e.g. http://127.0.0.1:19999/mcp (skips discovery)
  --token TOKEN    the bearer token (default: from the discovery file of that port)
  --port PORT      pick the window serving on this port
  --client NAME    config only: hermes, claude, codex, codex-toml, gemini, gemini-json, vscode,
                   vscode-portable, cursor or all (default: all)
  --json           health and config: print JSON instead of text
  -h, --help       show this help
"""


class UsageError(Exception):
    """A command line we can't run: print the text, then the usage, and exit with code 2."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def parse_args(argv: 'List[str]') -> 'CliOptions':
    """['health', '--port', '19999'] → {'command': 'health', 'port': 19999, 'url': None, ...}.

    Flags take `--flag value` or `--flag=value`, before or after the command. `help` (or -h/--help)
    sets 'help'. Raises UsageError for anything else."""
    options = {'command': None, 'url': None, 'token': None, 'port': None, 'client': 'all', 'json': False,
               'help': False}  # type: CliOptions
    index = 0
    count = len(argv)
    while index < count:
        arg = argv[index]
        index += 1
        if arg == '-h' or arg == '--help':
            options['help'] = True
            continue
        if arg.startswith('--'):
            equals = arg.find('=')
            flag = arg[2:] if equals < 0 else arg[2:equals]
            if flag in SWITCHES:
                if equals >= 0:
                    raise UsageError('--' + flag + ' takes no value')
                if flag == 'json':
                    options['json'] = True
                else:
                    options['help'] = True
                continue
            if flag not in VALUE_FLAGS:
                raise UsageError('unknown option ' + arg)
            if equals >= 0:
                value = arg[equals + 1:]
            else:
                if index >= count or argv[index].startswith('--'):
                    raise UsageError('--' + flag + ' needs a value')
                value = argv[index]
                index += 1
            _set_value(options, flag, value)
            continue
        if arg.startswith('-') and arg != '-':
            raise UsageError('unknown option ' + arg)
        if options['command'] is None:
            if arg == 'help':
                options['help'] = True
                options['command'] = 'help'
                continue
            if arg not in COMMANDS:
                raise UsageError('unknown command ' + arg + ' (expected ' + ', '.join(COMMANDS) + ')')
            options['command'] = arg
            continue
        raise UsageError('unexpected argument ' + arg)
    if options['help']:
        return options
    if options['command'] is None:
        raise UsageError('missing command (expected ' + ', '.join(COMMANDS) + ')')
    if options['json'] and options['command'] == 'stdio':
        raise UsageError('--json does not apply to stdio (its stdout carries protocol messages only)')
    if options['client'] != 'all' and options['command'] != 'config':
        raise UsageError('--client applies to config only')
    return options


def _set_value(options: 'CliOptions', flag: str, value: str) -> None:
    """options[flag] = the checked value of a VALUE_FLAGS flag."""
    if value == '':
        raise UsageError('--' + flag + ' needs a value')
    if flag == 'port':
        if not value.isdigit() or len(value) > 5 or int(value) < 1 or int(value) > 65535:
            raise UsageError('--port must be a number from 1 to 65535, not ' + value)
        options['port'] = int(value)
    elif flag == 'client':
        if value not in CLIENT_CHOICES:
            raise UsageError('--client must be one of ' + ', '.join(CLIENT_CHOICES) + ', not ' + value)
        options['client'] = value
    elif flag == 'url':
        if not (value.startswith('http://') or value.startswith('https://')):
            raise UsageError('--url must be an http:// or https:// URL, such as http://127.0.0.1:19999/mcp')
        options['url'] = value
    else:
        options['token'] = value
