"""The ACP agents the integration, e2e and bench layers run, set up in one place: Hermes Agent itself (PyPI
`hermes-agent[acp,mcp]`, pinned in tests/clients/clients.json and installed by `inv setup` into a folder of its own)
— where its program is and its config.yaml against the scripted model (tests/llm_server) — and our scripted agent
(tests/acp_agent/agent.py) as a `hermes.acp.agents` entry."""
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTED_AGENT = ROOT / 'tests' / 'acp_agent' / 'agent.py'
MODEL = 'scripted-model'  # the model the scripted servers offer and config.yaml names
# Hermes Agent's optional command scanner (tirith) and lazy installs download at run time: off, for CI and offline.
OFFLINE_SECURITY = 'security: {tirith_enabled: false, allow_lazy_installs: false}\n'


def installed_hermes():
    """The `hermes` of the pinned hermes-agent[acp,mcp] (tasks.py client_dir, under $HERMES_CLIENTS where the layer
    is given it), or None when `inv setup` has not installed it with its `acp` extra."""
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # tasks.py
    from tasks import client_dir
    folder = client_dir('hermes-agent')
    if os.environ.get('HERMES_CLIENTS'):
        folder = Path(os.environ['HERMES_CLIENTS']) / folder.name
    program, stamp = folder / 'bin' / 'hermes', folder / '.installed'
    installed = program.exists() and 'acp' in (stamp.read_text() if stamp.exists() else '')
    return program if installed else None


def hermes_program(required=False):
    """`installed_hermes()` for a test: without it the test is skipped, or, in a layer that requires the real clients
    (`required`: e2e), the run stops."""
    program = installed_hermes()
    if program is None:
        message = 'hermes-agent[acp] is not installed: run `inv setup`'
        if required:
            pytest.exit(message, returncode=2)
        pytest.skip(message)
    return program


def hermes_home_in(home):
    """Where Hermes Agent keeps its config.yaml and sessions for a HOME without HERMES_HOME set: ~/.hermes."""
    return Path(home) / '.hermes'


def write_hermes_config(hermes_home, endpoint, model=MODEL):
    """`hermes_home`/config.yaml (HERMES_HOME, or `hermes_home_in(HOME)`): the scripted model `model` at `endpoint`
    (no provider at all when `endpoint` is None), and no downloads at run time."""
    folder = Path(hermes_home)
    folder.mkdir(parents=True, exist_ok=True)
    text = OFFLINE_SECURITY
    if endpoint:
        text = (f'model: {{provider: custom, base_url: {endpoint}, default: {model}, api_key: scripted, '
                f'context_length: 131072}}\n') + text
    (folder / 'config.yaml').write_text(text)


def scripted_agent(name='Scripted', env=None, args=()):
    """Our scripted ACP agent as a `hermes.acp.agents` entry named `name` (`env`: its environment's additions; `args`:
    its modes and flags, e.g. `config`, `--rich`)."""
    entry = {'name': name, 'command': sys.executable, 'args': [str(SCRIPTED_AGENT)] + list(args)}
    if env:
        entry['env'] = env
    return entry
