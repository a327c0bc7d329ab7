"""Gemini CLI (npm `@google/gemini-cli`), set up the way README's "Connect Gemini CLI" says: our server added with
the command `node dist/mcp-server.js config --client gemini` prints (it writes the very entry `--client gemini-json`
prints), `gemini mcp list` connected, then a whole `gemini -p` turn against a scripted Gemini API server
(tests/llm_server/gemini_api.py).

Gemini CLI adds a boolean `wait_for_previous` to every tool it shows its model, tells the model to set it on a call
that depends on an earlier one, and forwards it inside the arguments: the scripted model makes two calls at once,
the second one dependent (`wait_for_previous: true`), and both must succeed. It speaks MCP 2025-06-18."""
import json
import shlex
from pathlib import Path

import pytest

from conftest import PROOF_FILE, ROOT, version_of
from coding_agents import complaints_about_us, offline_env, run_cli, spoken_revision
from llm_server.agent_script import Say, ToolUse
from llm_server.gemini_api import GeminiServer

CLIENT = 'gemini-cli'
QUESTION = f'What does {PROOF_FILE} say?'
# Offline: API-key auth (no Google login), no folder-trust prompt (in an untrusted folder --yolo falls back to
# asking), no update checks, usage statistics or telemetry.
SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
            'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
            'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}


@pytest.fixture(scope='module')
def model():
    server = GeminiServer().start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def gemini_env(tmp_path_factory, model):
    home = tmp_path_factory.mktemp('gemini-home')
    (home / '.gemini').mkdir()
    (home / '.gemini' / 'settings.json').write_text(json.dumps(SETTINGS))
    return offline_env(home, GEMINI_API_KEY='scripted', GOOGLE_GEMINI_BASE_URL=model.base_url)


@pytest.fixture(scope='module')
def added(gemini_env, our_cli, workspace, window):
    words = shlex.split(our_cli('config', '--client', 'gemini'))
    assert words[0] == 'gemini'
    result = run_cli(CLIENT, 'gemini', words[1:], gemini_env, workspace, 'gemini mcp add (our config)')
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'MCP server "vscode" added to user settings.' in result.stdout + result.stderr
    assert complaints_about_us(result.stdout + result.stderr, window) == []
    return gemini_env


def test_gemini_writes_the_entry_our_settings_snippet_prints(added, our_cli):
    written = json.loads((Path(added['HOME']) / '.gemini' / 'settings.json').read_text())
    assert written['mcpServers'] == json.loads(our_cli('config', '--client', 'gemini-json'))['mcpServers']
    assert written['security'] == SETTINGS['security']  # its own settings kept


def test_gemini_mcp_list_connects(added, workspace, window):
    result = run_cli(CLIENT, 'gemini', ['mcp', 'list'], added, workspace, 'gemini mcp list')
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"✓ vscode: {window['url']} (http) - Connected" in result.stdout + result.stderr  # (it prints to stderr)
    assert complaints_about_us(result.stdout + result.stderr, window) == []


def test_a_gemini_turn_with_a_dependent_call_reads_the_proof(added, workspace, window, model, proof, code_server):
    model.script([ToolUse('mcp_vscode_workspace_get_folders', {}),
                  ToolUse('mcp_vscode_file_read', {'path': PROOF_FILE, 'wait_for_previous': True})],
                 Say('It says: ' + proof))
    # --debug: everything it says about our server on stderr, kept with the artifacts (its debug notes included)
    result = run_cli(CLIENT, 'gemini', ['-p', QUESTION, '--yolo', '-o', 'json', '--debug'], added, workspace,
                     'gemini -p --debug')
    assert result.returncode == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    assert answer['response'] == 'It says: ' + proof
    offered = {declaration['name']: declaration for tools in model.turns[0]['tools']
               for declaration in tools.get('functionDeclarations', [])}
    # Gemini CLI's own argument on every tool it shows its model, ours included:
    schema = offered['mcp_vscode_file_read']['parametersJsonSchema']
    assert schema['properties']['wait_for_previous']['type'] == 'boolean'
    assert schema['additionalProperties'] is False  # (and our schema still says so)
    folders, read = model.tool_results()
    assert folders['name'] == 'mcp_vscode_workspace_get_folders' and 'error' not in folders['response']
    assert str(workspace) in folders['response']['output']
    assert read['name'] == 'mcp_vscode_file_read' and 'error' not in read['response']
    assert proof in read['response']['output']  # the dependent call succeeded: only the real window has this text
    tools = answer['stats']['tools']
    assert (tools['totalCalls'], tools['totalSuccess'], tools['totalFail']) == (2, 2, 0)
    assert "Server 'vscode' supports tool updates." in result.stderr
    assert complaints_about_us(result.stderr, window) == []  # (stdout is the JSON checked above)
    spoken_revision(code_server, r'gemini-cli-mcp-client', '2025-06-18')


def test_readme_gives_these_steps():
    readme = (ROOT / 'README.md').read_text()
    section = readme.split('## Connect Claude Code, Codex and Gemini CLI\n', 1)[1].split('\n## ', 1)[0]
    block = section.split('### Gemini CLI\n', 1)[1].split('\n### ', 1)[0]
    assert f'Gemini CLI {version_of(CLIENT)}' in block
    assert 'eval "$(node dist/mcp-server.js config --client gemini)"' in block
    assert 'gemini mcp list' in block
    assert 'gemini -p "' in block
