"""`health`: is the window's MCP server reachable, is the token right, does the handshake work, how
fast is it? One line per check; the checks run in order and stop at the first that leaves nothing to
check after it. `diagnose()` takes its I/O as arguments, so tests can drive it with fakes."""
# __pragma__('tconv')
from hermes.js.clock import monotonic_ms
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.core.values import get_key, is_object
from hermes.net.mcp.client import McpHttpClient, McpClientError, get_health, base_url_of
# __pragma__('skip')
from typing import Awaitable, Callable, List, Optional
from hermes.contracts.cli import Check, ChosenWindow, HealthClient, HealthReport
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')

PINGS = 5
TIMEOUT_MS = 5000
CHECK_NAMES = ['window', '/health', 'auth', 'initialize', 'tools/list', 'ping']


def make_client(url: str, token: 'Optional[str]') -> 'HealthClient':
    return McpHttpClient(url, token, TIMEOUT_MS)


async def diagnose(window: 'ChosenWindow', client_factory: 'Optional[Callable[[str, Optional[str]], HealthClient]]' = None,
                   fetch_health: 'Optional[Callable[[str, int], Awaitable[JsonObject]]]' = None,
                   clock: 'Optional[Callable[[], float]]' = None) -> 'HealthReport':
    """The report for `window` (from select_window): {'ok', 'window', 'checks': [{name, ok, detail}], ...}.
    Checks after a failure that leaves them meaningless are reported as skipped (ok None)."""
    client_factory = make_client if client_factory is None else client_factory
    fetch_health = get_health if fetch_health is None else fetch_health
    clock = monotonic_ms if clock is None else clock
    report = {'ok': False, 'window': public_window(window), 'checks': [], 'health': None, 'server': None,
              'protocolVersion': None, 'tools': None, 'pingMs': None}  # type: HealthReport
    checks = report['checks']
    checks.append(_check('window', True, describe_window(window)))

    try:
        health = await fetch_health(base_url_of(window['url']), TIMEOUT_MS)
    except JsError as error:
        checks.append(_check('/health', False, error_message(error)))
        return _finish(report)
    report['health'] = health
    checks.append(_check('/health', True, describe_health(health)))

    client = client_factory(window['url'], window['token'])
    try:
        await _handshake_and_measure(client, window, health, report, clock)
    finally:
        await client.close()
    return _finish(report)


async def _handshake_and_measure(client: 'HealthClient', window: 'ChosenWindow', health: 'JsonObject',
                                 report: 'HealthReport', clock: 'Callable[[], float]') -> None:
    checks = report['checks']
    try:
        result = await client.initialize()
    except JsError as error:
        if isinstance(error, McpClientError) and (error.status == 401 or error.status == 403):
            checks.append(_check('auth', False, auth_advice(error, window)))
        elif isinstance(error, McpClientError) and error.kind == 'network':
            checks.append(_check('auth', False, error_message(error)))
        else:
            checks.append(_check('auth', True, auth_summary(window, health)))
            checks.append(_check('initialize', False, error_message(error)))
        return
    checks.append(_check('auth', True, auth_summary(window, health)))
    server = get_key(result, 'serverInfo')
    report['server'] = server
    report['protocolVersion'] = get_key(result, 'protocolVersion')
    checks.append(_check('initialize', True, 'protocol ' + str(report['protocolVersion']) + ' · server ' +
                         _server_name(server)))

    try:
        tools = await list_all_tools(client)
    except JsError as error:
        checks.append(_check('tools/list', False, error_message(error)))
        return
    report['tools'] = len(tools)
    checks.append(_check('tools/list', True, plural(len(tools), 'tool', 'tools')))

    times = []  # type: List[float]
    try:
        for attempt in range(PINGS):
            started = clock()
            await client.request('ping')
            times.append(clock() - started)
    except JsError as error:
        checks.append(_check('ping', False, error_message(error)))
        return
    report['pingMs'] = median(times)
    checks.append(_check('ping', True, format_ms(report['pingMs']) + ' round trip (median of ' + str(PINGS) + ')'))


async def list_all_tools(client: 'HealthClient') -> 'List[Json]':
    tools = []  # type: List[Json]
    cursor = None  # type: Json
    for page in range(100):  # a server that keeps sending cursors must not loop forever
        result = await client.request('tools/list', None if cursor is None else {'cursor': cursor})
        page_tools = get_key(result, 'tools')
        if not isinstance(page_tools, list):
            raise McpClientError('tools/list returned no tools array', 'protocol')
        for tool in page_tools:
            tools.append(tool)
        cursor = get_key(result, 'nextCursor')
        if not isinstance(cursor, str) or cursor == '':
            break
    return tools


def _finish(report: 'HealthReport') -> 'HealthReport':
    for name in CHECK_NAMES:
        if not _has_check(report['checks'], name):
            report['checks'].append(_check(name, None, 'skipped'))
    failed = [check for check in report['checks'] if check['ok'] is not True]
    report['ok'] = len(failed) == 0
    return report


def _has_check(checks: 'List[Check]', name: str) -> bool:
    for check in checks:
        if check['name'] == name:
            return True
    return False


def public_window(window: 'ChosenWindow') -> 'JsonObject':
    """The window as reported: everything but the token."""
    shown = {}  # type: JsonObject
    for key in ['url', 'port', 'pid', 'workspaceFolders', 'reason', 'count']:
        shown[key] = get_key(window, key)
    shown['tokenSent'] = get_key(window, 'token') is not None
    return shown


def _check(name: str, ok: 'Optional[bool]', detail: str) -> 'Check':
    return {'name': name, 'ok': ok, 'detail': detail}


# ------------------------------------------------------------------------------------ wording


def describe_window(window: 'ChosenWindow') -> str:
    parts = [str(window['url'])]
    if get_key(window, 'pid') is not None:
        parts.append('pid ' + str(window['pid']))
    folders = get_key(window, 'workspaceFolders') or []
    parts.append(('workspace ' + ', '.join(folders)) if len(folders) > 0 else 'no workspace folder')
    text = ' · '.join(parts)
    reason = get_key(window, 'reason')
    count = get_key(window, 'count') or 0
    if reason is not None:
        others = '; ' + str(count) + ' windows running, pick one with --port' if count > 1 else ''
        text += ' (' + reason + others + ')'
    return text


def describe_health(health: 'JsonObject') -> str:
    parts = [str(get_key(health, 'name', 'server')) + ' ' + str(get_key(health, 'version', '?'))]
    if get_key(health, 'tools') is not None:
        parts.append(plural(health['tools'], 'tool', 'tools'))
    if get_key(health, 'sessions') is not None:
        parts.append(plural(health['sessions'], 'session', 'sessions'))
    if get_key(health, 'auth') is not None:
        parts.append('auth: ' + str(health['auth']))
    return ' · '.join(parts)


def auth_summary(window: 'ChosenWindow', health: 'JsonObject') -> str:
    if get_key(health, 'auth') == 'none':
        return 'not required ("hermes.mcp.auth" is "none")'
    return 'bearer token accepted'


def auth_advice(error: 'McpClientError', window: 'ChosenWindow') -> str:
    """What to do about a 401/403, in one line."""
    text = error_message(error)
    port = get_key(window, 'port')
    where = '~/.hermes/ide/' + (str(port) if port is not None else '<port>') + '.json'
    if error.status == 403:
        return text + '. The server refused this client (Host/Origin check).'
    if get_key(window, 'token') is None:
        return (text + '. No token was sent: the server requires one. It is in ' + where +
                ' (used automatically when you leave out --url/--token), or run "Hermes: Copy MCP Config".')
    return (text + '. The token is wrong or out of date: the current one is in ' + where +
            ' (used automatically when you leave out --token), or run "Hermes: Copy MCP Config" in VS Code.')


def _server_name(server: 'Json') -> str:
    if not is_object(server):
        return '?'
    return str(get_key(server, 'name', '?')) + ' ' + str(get_key(server, 'version', ''))


def plural(count: int, one: str, many: str) -> str:
    return str(count) + ' ' + (one if count == 1 else many)


def median(values: 'List[float]') -> 'Optional[float]':
    ordered = sorted(values)
    if len(ordered) == 0:
        return None
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def format_ms(value: 'Optional[float]') -> str:
    if value is None:
        return '?'
    if value < 10:
        return str(round(value * 10) / 10) + ' ms'
    return str(round(value)) + ' ms'


def pad(text: str, width: int) -> str:
    while len(text) < width:
        text = text + ' '
    return text


def format_report(report: 'HealthReport') -> str:
    lines = ['Hermes MCP server health']
    for check in report['checks']:
        mark = '✓' if check['ok'] is True else ('✗' if check['ok'] is False else '-')
        lines.append(mark + ' ' + pad(check['name'], 11) + ' ' + check['detail'])
    failed = len([check for check in report['checks'] if check['ok'] is False])
    lines.append('All checks passed.' if report['ok'] else
                 (plural(failed, 'check', 'checks') + ' failed.'))
    return '\n'.join(lines) + '\n'


def report_json(report: 'HealthReport') -> str:
    return dump_json(report, 2) + '\n'
