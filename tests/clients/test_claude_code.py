"""Claude Code (npm `@anthropic-ai/claude-code`), set up the way README's "Connect Claude Code" says: our server
added with the very command `node dist/mcp-server.js config --client claude` prints, `claude mcp list` connected,
then whole `claude -p` turns against a scripted Anthropic Messages server (tests/llm_server/anthropic_messages.py)
in which the model reads the per-run proof file through `mcp__vscode__file_read` and answers with it.

By default Claude Code holds MCP tools back behind its ToolSearch tool (the model searches by keywords, then
calls): our descriptions must be found by the words a model would use. With ENABLE_TOOL_SEARCH=false every schema
is sent up front. Claude Code speaks MCP 2026-07-28 (server/discover, no session)."""
import json
import shlex
from pathlib import Path

import pytest

from conftest import PROOF_FILE, ROOT, record, version_of
from coding_agents import about_us, complaints_about_us, offline_env, run_cli, spoken_revision
from llm_server.agent_script import Say, ToolUse
from llm_server.anthropic_messages import AnthropicServer

CLIENT = 'claude-code'
TOOL = 'mcp__vscode__file_read'
SEARCH = 'read a text file of the workspace'  # the words a model uses, not our tool's name
QUESTION = f'What does {PROOF_FILE} say?'


@pytest.fixture(scope='module')
def model():
    server = AnthropicServer().start()
    yield server
    server.stop()


@pytest.fixture(scope='module')
def claude_env(tmp_path_factory, model):
    home = tmp_path_factory.mktemp('claude-home')
    # Offline and quick: no update checks, telemetry or error reports (with them the first `mcp list` waits ~18 s).
    return offline_env(home, ANTHROPIC_BASE_URL=model.base_url, ANTHROPIC_API_KEY='scripted',
                       CLAUDE_CONFIG_DIR=str(home / '.claude'), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC='1',
                       DISABLE_AUTOUPDATER='1', DISABLE_TELEMETRY='1', DISABLE_ERROR_REPORTING='1')


@pytest.fixture(scope='module')
def added(claude_env, our_cli, workspace, window):
    """`claude mcp add …` exactly as our config prints it, run in the workspace (Claude keeps it per project)."""
    words = shlex.split(our_cli('config', '--client', 'claude'))
    assert words[0] == 'claude'
    result = run_cli(CLIENT, 'claude', words[1:], claude_env, workspace, 'claude mcp add (our config)')
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Added HTTP MCP server vscode with URL: {window['url']}" in result.stdout
    assert complaints_about_us(result.stdout + result.stderr, window) == []
    return claude_env


def test_claude_mcp_list_connects(added, workspace, window):
    result = run_cli(CLIENT, 'claude', ['mcp', 'list'], added, workspace, 'claude mcp list')
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"vscode: {window['url']} (HTTP) - ✔ Connected" in result.stdout
    assert complaints_about_us(result.stdout + result.stderr, window) == []


@pytest.mark.parametrize('tool_search', ['on', 'off'])
def test_a_claude_turn_reads_the_proof_through_our_tool(tool_search, added, workspace, window, model, proof,
                                                        code_server):
    env = dict(added, ENABLE_TOOL_SEARCH='false') if tool_search == 'off' else added
    reading = [ToolUse(TOOL, {'path': PROOF_FILE}, 'toolu_read'), Say('It says: ' + proof)]
    model.script(*([ToolUse('ToolSearch', {'query': SEARCH, 'max_results': 3}, 'toolu_search')] if tool_search == 'on'
                   else []), *reading)
    result = run_cli(CLIENT, 'claude', ['-p', QUESTION, '--allowedTools', TOOL, '--output-format', 'json', '--debug'],
                     env, workspace, f'claude -p (ToolSearch {tool_search})')
    debug = (Path(env['CLAUDE_CONFIG_DIR']) / 'debug' / 'latest').read_text(errors='replace')
    record(CLIENT, f'its debug log about our server (ToolSearch {tool_search})', '\n'.join(about_us(debug, window)))
    assert 'MCP server "vscode": Successfully connected (transport: http)' in debug
    assert "MCP server \"vscode\": Tool 'file_read' completed successfully" in debug
    assert complaints_about_us(debug, window) == []
    assert result.returncode == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    assert (answer['subtype'], answer['is_error'], answer['result']) == ('success', False, 'It says: ' + proof)
    first = model.turns[0]
    offered = [tool['name'] for tool in first['tools']]
    if tool_search == 'on':  # held back: listed by name only, found by keywords
        assert TOOL not in offered and 'ToolSearch' in offered
        assert TOOL in json.dumps(first['messages'])  # by name, in the list of deferred tools
        found = [block for block in model.turns[1]['messages'][-1]['content'] if block.get('type') == 'tool_result']
        assert found[0]['content'][0] == {'type': 'tool_reference', 'tool_name': TOOL}  # our tool ranks first
    else:
        assert TOOL in offered
    [read] = [block for block in model.tool_results() if block['tool_use_id'] == 'toolu_read']
    assert read.get('is_error') is not True
    assert proof in json.dumps(read['content'])  # only the real window's workspace holds this text
    assert complaints_about_us(result.stderr, window) == []  # (stdout is the JSON checked above)
    spoken_revision(code_server, r'claude-code', '2026-07-28')


# Keywords as a model sends them to ToolSearch (its "keyword search" form) → the tool each must find among the
# first three. Claude Code scores a query word in a tool's name parts highest, then in its description.
KEYWORDS = {'read file': 'file_read', 'run terminal command': 'terminal_run', 'glob files': 'file_search',
            'search text files': 'file_search_content', 'breakpoint': 'debug_set_breakpoints',
            'git status': 'git_get_status', 'symbol definition': 'lsp_definition',
            'problems errors warnings': 'editor_get_diagnostics', 'rename symbol': 'lsp_rename',
            'open file editor': 'editor_open_file', 'selection': 'editor_get_selection', 'diff': 'editor_open_diff',
            'run task': 'workspace_run_task'}


def test_claude_tool_search_finds_each_family_of_our_tools_by_keywords(added, workspace, window, model):
    """Deferred behind ToolSearch, a tool a model cannot find by the words of its task is a tool it never uses:
    one turn in which the model searches for all of them at once."""
    queries = list(KEYWORDS)
    model.script([ToolUse('ToolSearch', {'query': query, 'max_results': 5}, f'toolu_{index}')
                  for index, query in enumerate(queries)], Say('Found them.'))
    result = run_cli(CLIENT, 'claude', ['-p', 'Find the tools you need.', '--output-format', 'json'], added, workspace,
                     'claude -p (ToolSearch by keywords)')
    assert result.returncode == 0, result.stdout + result.stderr
    found = {}
    for block in model.tool_results():
        names = [item['tool_name'] for item in block['content'] if item.get('type') == 'tool_reference']
        found[queries[int(block['tool_use_id'].split('_')[1])]] = names
    record(CLIENT, 'what ToolSearch found', '\n'.join(f'{query}: {names}' for query, names in found.items()))
    missed = {query: names for query, names in found.items() if 'mcp__vscode__' + KEYWORDS[query] not in names[:3]}
    assert missed == {} and len(found) == len(KEYWORDS)


def test_readme_gives_these_steps():
    readme = (ROOT / 'README.md').read_text()
    section = readme.split('## Connect Claude Code, Codex and Gemini CLI\n', 1)[1].split('\n## ', 1)[0]
    block = section.split('### Claude Code\n', 1)[1].split('\n### ', 1)[0]
    assert f'Claude Code {version_of(CLIENT)}' in block
    assert 'eval "$(node dist/mcp-server.js config --client claude)"' in block
    assert 'claude mcp list' in block
    assert 'claude -p "' in block and '--allowedTools mcp__vscode__file_read' in block
