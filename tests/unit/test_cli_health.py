"""`health` (hermes.cli.health): the checks, their order, and the report, with fake I/O."""
import asyncio

import pytest

from hermes.cli.health import diagnose, format_ms, format_report, median
from hermes.net.mcp.client import McpClientError

WINDOW = {'url': 'http://127.0.0.1:20001/mcp', 'token': 'tok', 'port': 20001, 'pid': 42,
          'workspaceFolders': ['/home/u/proj'], 'reason': 'its workspace holds the current directory', 'count': 1}
HEALTH = {'status': 'ok', 'name': 'hermes-vscode', 'version': '0.1.0', 'tools': 2, 'sessions': 0, 'auth': 'token'}


class FakeClient:
    def __init__(self, failures):
        self.failures = failures
        self.closed = False
        self.calls = []

    async def initialize(self):
        self._maybe_fail('initialize')
        return {'protocolVersion': '2025-11-25', 'serverInfo': {'name': 'hermes-vscode', 'version': '0.1.0'}}

    async def request(self, method, params=None):
        self._maybe_fail(method)
        if method == 'tools/list':
            if params is None:
                return {'tools': [{'name': 'a'}], 'nextCursor': 'page2'}
            return {'tools': [{'name': 'b'}, {'name': 'c'}]}
        return {}

    async def close(self):
        self.closed = True

    def _maybe_fail(self, method):
        self.calls.append(method)
        if method in self.failures:
            raise self.failures[method]


def run_diagnose(failures=None, health=HEALTH, window=WINDOW):
    clients = []

    def factory(url, token):
        client = FakeClient(failures or {})
        clients.append(client)
        return client

    async def fetch_health(base, timeout):
        assert base == 'http://127.0.0.1:20001'
        if isinstance(health, Exception):
            raise health
        return health

    ticks = iter(range(0, 1000, 1))
    report = asyncio.run(diagnose(window, factory, fetch_health, lambda: next(ticks) * 1.5))
    return report, clients


def marks(report):
    return [(check['name'], check['ok']) for check in report['checks']]


def test_all_checks_pass():
    report, clients = run_diagnose()
    assert report['ok'] is True
    assert marks(report) == [('window', True), ('/health', True), ('auth', True), ('initialize', True),
                             ('tools/list', True), ('ping', True)]
    assert report['tools'] == 3  # both pages
    assert report['pingMs'] == 1.5
    assert report['window']['tokenSent'] is True and 'token' not in report['window']
    assert clients[0].closed
    text = format_report(report)
    assert '✓ tools/list  3 tools' in text
    assert '✓ /health     hermes-vscode 0.1.0 · 2 tools · 0 sessions · auth: token' in text
    assert '✓ window      http://127.0.0.1:20001/mcp · pid 42 · workspace /home/u/proj' in text
    assert '✓ initialize  protocol 2025-11-25 · server hermes-vscode 0.1.0' in text
    assert '✓ ping        1.5 ms round trip (median of 5)' in text
    assert text.endswith('All checks passed.\n')


def test_unreachable_health_skips_the_rest():
    report, clients = run_diagnose(health=McpClientError("Can't reach the Hermes MCP server at x", 'network'))
    assert report['ok'] is False
    assert marks(report) == [('window', True), ('/health', False), ('auth', None), ('initialize', None),
                             ('tools/list', None), ('ping', None)]
    assert clients == []
    text = format_report(report)
    assert "✗ /health     Can't reach" in text and '- auth        skipped' in text
    assert text.endswith('1 check failed.\n')


def test_wrong_token_says_so_and_where_to_find_the_right_one():
    error = McpClientError('401 Unauthorized: the bearer token is wrong', 'http', 401)
    report, clients = run_diagnose({'initialize': error})
    assert marks(report)[2] == ('auth', False)
    detail = report['checks'][2]['detail']
    assert detail.startswith('401 Unauthorized: the bearer token is wrong.')
    assert '~/.hermes/ide/20001.json' in detail
    assert clients[0].closed


def test_missing_token_is_explained():
    error = McpClientError('401 Unauthorized: send "Authorization: Bearer <token>"', 'http', 401)
    report, _ = run_diagnose({'initialize': error}, window=dict(WINDOW, token=None))
    assert 'No token was sent' in report['checks'][2]['detail']


def test_auth_off_is_reported():
    report, _ = run_diagnose(health=dict(HEALTH, auth='none'))
    assert report['checks'][2]['detail'] == 'not required ("hermes.mcp.auth" is "none")'


def test_failing_initialize_and_tools_list_and_ping():
    report, _ = run_diagnose({'initialize': McpClientError('initialize failed: boom (-32603)', 'rpc')})
    assert marks(report)[2:] == [('auth', True), ('initialize', False), ('tools/list', None), ('ping', None)]
    report, _ = run_diagnose({'tools/list': McpClientError('tools/list failed', 'rpc')})
    assert marks(report)[4:] == [('tools/list', False), ('ping', None)]
    report, _ = run_diagnose({'ping': McpClientError('ping failed', 'rpc')})
    assert marks(report)[5] == ('ping', False)
    assert format_report(report).endswith('1 check failed.\n')


def test_median_and_format_ms():
    assert median([5, 1, 3]) == 3
    assert median([4, 1, 3, 2]) == 2.5
    assert median([]) is None
    assert format_ms(0.4321) == '0.4 ms'
    assert format_ms(12.6) == '13 ms'
    assert format_ms(None) == '?'


@pytest.mark.parametrize('count, words', [(1, '1 tool'), (0, '0 tools')])
def test_tool_count_wording(count, words):
    from hermes.cli.health import plural
    assert plural(count, 'tool', 'tools') == words
