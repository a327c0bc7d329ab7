"""Hermes Agent itself (PyPI `hermes-agent[mcp]`), set up the way README's "Connect Hermes Agent" says (and
test_readme_gives_these_steps checks that it says so): its
~/.hermes/config.yaml made from our own `node dist/mcp-server.js config --client hermes` output, plus a `model:`
section pointing at the scripted OpenAI-compatible server (tests/llm_server), restricted to the `vscode` toolset.

Then `hermes mcp test vscode`, and one whole `hermes chat -q` turn in which the model calls
`mcp__vscode__file_read` and answers: over /mcp and over the legacy /sse."""
import os
import subprocess

import httpx
import pytest
import yaml

from conftest import PROOF_FILE, ROOT, client_dir, complaints, record, version_of, without_noise
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

MODEL = 'scripted-model'
CONFIG = ['config', '--client', 'hermes']
MCP_TEST = ['mcp', 'test', 'vscode']
CHAT = ['chat', '-t', 'vscode', '-q']
ANSWER = 'The file says what the tool returned.'
# What Hermes Agent prints on stderr that is not about us: the session id of a `chat -q` turn, and a notice
# that its optional command scanner is not installed here.
EXPECTED_NOISE = [r'^session_id: \w+$', r'tirith security scanner enabled but not available']


@pytest.fixture(scope='module')
def llm():
    server = ScriptedLlmServer({'replies': [Reply(text_events('unused'))], 'models': [MODEL],
                                'model_fields': {'max_model_len': 131072}}).start()
    yield server
    server.stop()


@pytest.fixture(params=['/mcp', '/sse'])
def hermes_home(request, tmp_path, our_cli, base, llm):
    """HOME for Hermes Agent with ~/.hermes/config.yaml: our snippet, read as YAML the way Hermes reads it."""
    config = yaml.safe_load(our_cli(*CONFIG))
    server = config['mcp_servers']['vscode']
    assert server['url'] == base + '/mcp'
    if request.param == '/sse':  # the legacy transport, as Hermes Agent's docs spell it
        server['url'] = base + '/sse'
        server['transport'] = 'sse'
    config['model'] = {'provider': 'custom', 'base_url': llm.endpoint, 'default': MODEL, 'api_key': 'unused'}
    config['toolsets'] = ['vscode']
    (tmp_path / '.hermes').mkdir()
    (tmp_path / '.hermes' / 'config.yaml').write_text(yaml.safe_dump(config))
    return request.param, tmp_path


def hermes(home, workspace, *args):
    return subprocess.run([str(client_dir('hermes-agent') / 'bin' / 'hermes')] + list(args), capture_output=True,
                          text=True, timeout=300, cwd=str(workspace),
                          env=dict(os.environ, HOME=str(home), NO_COLOR='1'))


def test_hermes_mcp_test_connects_and_lists_every_tool(hermes_home, workspace, base):
    transport, home = hermes_home
    result = hermes(home, workspace, *MCP_TEST)
    record('hermes-agent', f'hermes mcp test vscode ({transport})', result.stdout + result.stderr)
    assert result.returncode == 0, result.stdout + result.stderr
    tools = httpx.get(base + '/health').json()['tools']
    assert '✓ Connected' in result.stdout
    assert f'✓ Tools discovered: {tools}' in result.stdout
    assert 'file_read' in result.stdout
    assert complaints(result.stdout.split('Tools discovered')[0]) == []  # (our tool descriptions say "errors")
    assert without_noise(result.stderr, *EXPECTED_NOISE) == []


def test_a_hermes_chat_turn_reads_a_file_of_the_window_through_mcp(hermes_home, workspace, llm, proof):
    transport, home = hermes_home
    with llm.lock:
        llm._replies = [Reply(tool_events([('call_1', 'mcp__vscode__file_read', {'path': PROOF_FILE})])),
                        Reply(text_events(ANSWER))]
        llm._served = 0
        llm.requests.clear()
    result = hermes(home, workspace, *CHAT, f'What does {PROOF_FILE} say?', '-Q')
    record('hermes-agent', f'hermes chat -q ({transport})', result.stdout + result.stderr)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ANSWER in result.stdout
    first, second = [request['body'] for request in llm.chat_requests()]
    offered = [tool['function']['name'] for tool in first['tools']]
    assert 'mcp__vscode__file_read' in offered
    assert all(name.startswith('mcp__vscode__') for name in offered), offered  # the vscode toolset only
    [tool_message] = [message for message in second['messages'] if message['role'] == 'tool']
    assert tool_message['tool_call_id'] == 'call_1'
    assert proof in str(tool_message['content'])  # only the real window's workspace holds this text
    assert without_noise(result.stderr, *EXPECTED_NOISE) == []


def test_readme_gives_these_steps():
    readme = (ROOT / 'README.md').read_text()
    section = readme.split('## Connect Hermes Agent\n', 1)[1].split('\n## ', 1)[0]
    assert "pip install 'hermes-agent[mcp]'" in section
    assert f"Hermes Agent {version_of('hermes-agent')}" in section
    assert 'node dist/mcp-server.js ' + ' '.join(CONFIG) + ' >> ~/.hermes/config.yaml' in section
    assert 'hermes ' + ' '.join(MCP_TEST) in section
    assert 'hermes ' + ' '.join(CHAT) + ' "' in section
