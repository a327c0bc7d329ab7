"""The hostile-model and hostile-repository suite (tests/integration/hostile.py holds the cases), run against
the bundle's real MCP server: every case's effect does NOT happen under the default settings with nobody
answering the confirmation, and DOES happen once the user explicitly allows it (see hostile.py's kinds)."""
import json
import os
import subprocess

import httpx
import pytest

from conftest import NODE, SERVE, ROOT, Window
from hostile import Ctx, CASES, git

ACCEPT = 'application/json, text/event-stream'


@pytest.fixture(scope='module')
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp('hostile')
    subprocess.run(['git', 'init', '-q', '-b', 'main', str(root)], check=True)  # the repository around everything
    (root / '.gitignore').write_text('outside/\nhome/\n')
    git(root, 'add', '.gitignore')
    git(root, 'commit', '-q', '-m', 'around')
    workspace, outside, home = root / 'project', root / 'outside', root / 'home'
    for folder in (workspace, outside, home):
        folder.mkdir()
    env = dict(os.environ, HOME=str(home))
    process = subprocess.Popen([NODE, '--enable-source-maps', str(SERVE), json.dumps({'hermes.mcp.port': 0}),
                                str(workspace)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    window = Window(process, json.loads(process.stdout.readline()), home)
    client = McpClient(window)
    yield {'window': window, 'client': client, 'workspace': workspace, 'outside': outside, 'home': home}
    window.stop()


class McpClient:
    def __init__(self, window):
        self.window = window
        self.headers = dict(window.auth, **{'Content-Type': 'application/json', 'Accept': ACCEPT})
        reply = self._post({'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {
            'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'hostile', 'version': '1'}}})
        self.headers['Mcp-Session-Id'] = reply.headers['mcp-session-id']
        self._post({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        self.next_id = 1

    def _post(self, message):
        return httpx.post(self.window.url, content=json.dumps(message), headers=self.headers, timeout=120)

    def call(self, tool, arguments):
        self.next_id += 1
        response = self._post({'jsonrpc': '2.0', 'id': self.next_id, 'method': 'tools/call',
                               'params': {'name': tool, 'arguments': arguments}})
        data = [line[6:] for line in response.text.splitlines() if line.startswith('data: ')]
        reply = json.loads(data[-1]) if data else response.json()
        assert 'result' in reply, reply
        return reply['result']


def run_case(world, case, answer, settings=None):
    window, client = world['window'], world['client']
    ctx = Ctx(case['id'] + ('-allowed' if answer or settings else ''), world['workspace'], world['outside'])
    ctx.window = window
    ctx.home = world['home']
    case['setup'](ctx)
    workspace_settings = case.get('workspace_settings') or {}
    window.command({'setWorkspace': workspace_settings})
    window.answer_dialogs(answer)
    if settings:
        window.set_settings(settings)
    window.take_dialogs()
    try:
        result = client.call(case['tool'], ctx.fmt(case['args']))
    finally:
        window.answer_dialogs(None)
        window.command({'setWorkspace': {key: None for key in workspace_settings}})
        if settings:
            window.set_settings({key: None for key in settings})
    return ctx, result, window.take_dialogs()


@pytest.mark.parametrize('case', CASES, ids=[case['id'] for case in CASES])
def test_hostile_case(world, case):
    if case.get('real_only'):
        pytest.skip('played in the real VS Code only (tests/e2e/test_hostile_in_vscode.py): ' + case['real_only'])
    ctx, result, dialogs = run_case(world, case, None)
    assert not case['effect'](ctx, result), ('happened under the defaults', result)
    if case['kind'] == 'neutralised':
        assert dialogs == [], 'a neutralised case runs without asking'
        return
    if case['kind'] == 'withheld':  # answers at once, without what lies outside; the user's setting shows it
        assert dialogs == [] and result['isError'] is False, (dialogs, result)
        ctx, result, dialogs = run_case(world, case, None, case.get('settings'))
    elif case['kind'] == 'gated':
        assert len(dialogs) == 1, ('the user was not asked', result)
        assert result['isError'] is True and 'declined' in result['content'][0]['text'], result
        ctx, result, dialogs = run_case(world, case, 'Allow')
        assert len(dialogs) == 1
    else:  # 'setting': only the user's own setting (and, for what the gate guards, an Allow) lets it through
        assert result['isError'] is True, result
        ctx, result, dialogs = run_case(world, case, 'Allow', case.get('settings'))
    assert case['effect'](ctx, result), ('did not happen after the explicit allow', result)



def test_the_suite_is_large_enough():
    assert len(CASES) >= 100
