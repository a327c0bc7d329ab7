"""dist/mcp-server.js: parse the command line, pick the window, run the command.
Exit codes: 0 success, 1 failure (no window, a failed check), 2 a command line we can't run."""
# __pragma__('tconv')
from hermes.js.process import (
    current_directory, exit_process, on_process_signal, read_stdin_lines, write_stderr, write_stdout,
)
from hermes.js.promises import make_promise, spawn
from hermes.net.discovery import list_discovery
from hermes.net.mcp.client import McpHttpClient
from hermes.cli.args import parse_args, UsageError, USAGE
from hermes.cli.select_window import select_window, NoWindowError
from hermes.cli.health import diagnose, format_report, report_json
from hermes.cli.config import config_text
from hermes.cli.stdio_bridge import StdioBridge
# __pragma__('skip')
from typing import List
from hermes.contracts.cli import Check, ChosenWindow, CliOptions, HealthReport
# __pragma__('noskip')

PROGRAM = 'mcp-server.js'


def find_window(options: 'CliOptions') -> 'ChosenWindow':
    return select_window(list_discovery(), current_directory(), options)


def log(text: str) -> None:
    write_stderr('hermes ' + PROGRAM + ': ' + text + '\n')


async def run(argv: 'List[str]') -> int:
    """The whole command; returns the exit code."""
    try:
        options = parse_args(argv)
    except UsageError as error:
        write_stderr(PROGRAM + ': ' + error.text + '\n\n' + USAGE)
        return 2
    if options['help']:
        write_stdout(USAGE)
        return 0
    command = options['command']
    if command == 'stdio':
        return await run_stdio(options)
    try:
        window = find_window(options)
    except NoWindowError as error:
        if command == 'health':
            return print_health(no_window_report(error.text), options['json'])
        write_stderr(error.text + '\n')
        return 1
    if command == 'health':
        return print_health(await diagnose(window), options['json'])
    write_stdout(config_text(window, options['client'], options['json']))
    return 0


def print_health(report: 'HealthReport', as_json: bool) -> int:
    write_stdout(report_json(report) if as_json else format_report(report))
    return 0 if report['ok'] else 1


def no_window_report(text: str) -> 'HealthReport':
    checks = [{'name': 'window', 'ok': False, 'detail': text}]  # type: List[Check]
    for name in ['/health', 'auth', 'initialize', 'tools/list', 'ping']:
        checks.append({'name': name, 'ok': None, 'detail': 'skipped'})
    return {'ok': False, 'window': None, 'checks': checks, 'health': None, 'server': None,
            'protocolVersion': None, 'tools': None, 'pingMs': None}


async def run_stdio(options: 'CliOptions') -> int:
    def connect() -> McpHttpClient:
        window = find_window(options)
        log('bridging stdio to ' + window['url'] + ' (' + window['reason'] + ')')
        return McpHttpClient(window['url'], window['token'])

    bridge = StdioBridge(connect, write_stdout, log)

    async def stop() -> None:
        await bridge.close()
        exit_process(0)

    on_process_signal('SIGTERM', lambda: spawn(stop()))
    on_process_signal('SIGINT', lambda: spawn(stop()))
    await make_promise(lambda resolve, reject: read_stdin_lines(bridge.receive, lambda: resolve(None)))
    await bridge.finish()
    return 0
