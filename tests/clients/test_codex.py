"""Codex CLI (npm `@openai/codex`), set up the way README's "Connect Codex" says, against a scripted OpenAI Responses
server (tests/llm_server/openai_responses.py; Codex 0.169 has no "chat" wire API), in both MCP revisions it speaks:

- 2025-06-18 (its default, an `initialize` session): our server added with the two lines
  `node dist/mcp-server.js config --client codex` prints (`export HERMES_VSCODE_TOKEN=…`, then
  `codex mcp add vscode --url … --bearer-token-env-var HERMES_VSCODE_TOKEN`);
- 2026-07-28 (`--enable mcp_2026_07_28`): our `--client codex-toml` lines appended to config.toml.

Codex holds MCP tools back behind its `tool_search` (run by the client): the model searches by keywords, Codex
answers with our `mcp__vscode` namespace, the model calls `file_read` in it, and answers with the proof."""
import json
import shlex

import pytest

from conftest import PROOF_FILE, ROOT, version_of
from codex_config import API_KEY_VARIABLE, write_codex_config
from coding_agents import complaints_about_us, offline_env, run_cli, spoken_revision
from llm_server.agent_script import Say, ToolUse
from llm_server.openai_responses import ResponsesServer, ToolSearch

CLIENT = 'codex'
SEARCH = 'read a text file of the workspace'
QUESTION = f'What does {PROOF_FILE} say?'
REVISIONS = {'2025-06-18': [], '2026-07-28': ['--enable', 'mcp_2026_07_28']}


@pytest.fixture(scope='module')
def model():
    server = ResponsesServer().start()
    yield server
    server.stop()


@pytest.fixture(scope='module', params=list(REVISIONS))
def codex(request, tmp_path_factory, model, our_cli, workspace, window):
    """(revision, env): a CODEX_HOME of its own with the scripted provider and our server, added per revision."""
    home = tmp_path_factory.mktemp('codex-home')
    (home / 'tmp').mkdir()
    write_codex_config(home / '.codex', model.base_url)
    # TMPDIR away from CODEX_HOME: Codex refuses (with a warning) to put its helper links under the temp folder.
    env = offline_env(home, CODEX_HOME=str(home / '.codex'), TMPDIR=str(home / 'tmp'))
    env[API_KEY_VARIABLE] = 'scripted'
    if request.param == '2025-06-18':
        export, command = [shlex.split(line) for line in our_cli('config', '--client', 'codex').splitlines()]
        assert export[0] == 'export' and command[0] == 'codex'
        name, _, value = export[1].partition('=')
        env[name] = value  # what the user's shell has after the export line
        result = run_cli(CLIENT, 'codex', command[1:], env, workspace, 'codex mcp add (our config)')
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Added global MCP server 'vscode'." in result.stdout + result.stderr
        assert complaints_about_us(result.stdout + result.stderr, window) == []
    else:
        with open(home / '.codex' / 'config.toml', 'a') as config:
            config.write('\n' + our_cli('config', '--client', 'codex-toml'))
    return request.param, env


def test_codex_mcp_list_shows_our_server(codex, workspace, window):
    """Codex's list reads its config (it has no connection check: the turn below is the proof)."""
    revision, env = codex
    result = run_cli(CLIENT, 'codex', ['mcp', 'list', '--json'], env, workspace, f'codex mcp list ({revision})')
    assert result.returncode == 0, result.stdout + result.stderr
    [server] = json.loads(result.stdout)
    assert (server['name'], server['enabled'], server['transport']['url']) == ('vscode', True, window['url'])
    assert server['auth_status'] == 'bearer_token'
    assert complaints_about_us(result.stdout + result.stderr, window) == []


def test_a_codex_turn_reads_the_proof_through_our_tool(codex, workspace, window, model, proof, code_server):
    revision, env = codex
    model.script(ToolSearch(SEARCH), ToolUse('file_read', {'path': PROOF_FILE}, 'call_read', namespace='mcp__vscode'),
                 Say('It says: ' + proof))
    # Its MCP client's own log on stderr (rmcp): the revision it negotiated, and anything it has to say about us.
    result = run_cli(CLIENT, 'codex', ['exec'] + REVISIONS[revision] + ['--skip-git-repo-check', '--json', QUESTION],
                     dict(env, RUST_LOG='rmcp=debug,codex_rmcp_client=debug'), workspace, f'codex exec ({revision})')
    assert result.returncode == 0, result.stdout + result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith('{')]
    items = [event['item'] for event in events if event['type'] == 'item.completed']
    [call] = [item for item in items if item['type'] == 'mcp_tool_call']
    assert (call['server'], call['tool'], call['status'], call['error']) == ('vscode', 'file_read', 'completed', None)
    assert proof in call['result']['content'][0]['text']  # only the real window's workspace holds this text
    assert [item['text'] for item in items if item['type'] == 'agent_message'] == ['It says: ' + proof]
    assert [item for item in items if item['type'] == 'error'] == []
    # The search found our tool by keywords, first.
    [found] = [item for item in model.turns[1]['input'] if item.get('type') == 'tool_search_output']
    assert found['tools'][0]['name'] == 'mcp__vscode' and found['tools'][0]['tools'][0]['name'] == 'file_read'
    [output] = model.tool_results()
    assert proof in json.dumps(output['output'])
    assert f'protocol_version: ProtocolVersion("{revision}")' in result.stderr
    if revision == '2026-07-28':  # every 2026-07-28 result names the server that answered it
        assert call['result']['_meta']['io.modelcontextprotocol/serverInfo']['name'] == 'hermes-vscode'
    else:
        assert '_meta' not in call['result']
    assert complaints_about_us(result.stderr, window) == []  # (stdout is the JSON checked above)
    spoken_revision(code_server, r'codex-mcp-client', revision)


def test_readme_gives_these_steps():
    readme = (ROOT / 'README.md').read_text()
    section = readme.split('## Connect Claude Code, Codex and Gemini CLI\n', 1)[1].split('\n## ', 1)[0]
    block = section.split('### Codex\n', 1)[1].split('\n### ', 1)[0]
    assert f'Codex {version_of(CLIENT)}' in block
    assert 'eval "$(node dist/mcp-server.js config --client codex)"' in block
    assert 'node dist/mcp-server.js config --client codex-toml >> ~/.codex/config.toml' in block
    assert '--enable mcp_2026_07_28' in block
    assert 'codex exec "' in block
