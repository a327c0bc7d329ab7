"""Hermes Agent (the real one, set up as README says) using the window's MCP resources and prompts: a server
that offers them gets Hermes's utility tools `mcp__vscode__read_resource` and `mcp__vscode__get_prompt`; the
scripted model calls each once, and what comes back must be the real workspace's file (only it holds the
proof text)."""
import pytest

from conftest import PROOF_FILE, record, without_noise
from llm_server.scenarios import Reply, text_events, tool_events
from test_hermes_agent import CHAT, EXPECTED_NOISE, hermes, hermes_home, llm  # (fixtures)

ANSWER = 'Read through the resource.'


def chat_with_one_call(hermes_home, workspace, llm, tool, arguments):
    transport, home = hermes_home
    with llm.lock:
        llm._replies = [Reply(tool_events([('call_1', tool, arguments)])), Reply(text_events(ANSWER))]
        llm._served = 0
        llm.requests.clear()
    result = hermes(home, workspace, *CHAT, 'Look at my editor', '-Q')
    record('hermes-agent', f'hermes chat -q with {tool} ({transport})', result.stderr)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ANSWER in result.stdout
    first, second = [request['body'] for request in llm.chat_requests()]
    offered = [entry['function']['name'] for entry in first['tools']]
    assert tool in offered, offered
    [tool_message] = [message for message in second['messages'] if message['role'] == 'tool']
    assert without_noise(result.stderr, *EXPECTED_NOISE) == []
    return str(tool_message['content'])


def test_hermes_reads_a_workspace_file_through_the_file_template(hermes_home, workspace, llm, proof):
    content = chat_with_one_call(hermes_home, workspace, llm, 'mcp__vscode__read_resource',
                                 {'uri': 'file://' + str(workspace / PROOF_FILE)})
    assert proof in content


def test_hermes_gets_the_explain_prompt_with_the_file_embedded(hermes_home, workspace, llm, proof):
    content = chat_with_one_call(hermes_home, workspace, llm, 'mcp__vscode__get_prompt',
                                 {'name': 'explain', 'arguments': {'path': PROOF_FILE}})
    assert proof in content and 'Explain `' + PROOF_FILE + '`' in content


def test_hermes_is_refused_a_file_outside_the_workspace(hermes_home, workspace, llm, proof):
    content = chat_with_one_call(hermes_home, workspace, llm, 'mcp__vscode__read_resource', {'uri': 'file:///etc/hostname'})
    assert 'is outside the workspace' in content
