"""The TRANSPILED LLM client and agent loop (build/testing.js, run by tests/node/llm_turn.js under node)
against the scripted OpenAI-compatible server over real HTTP: the same scenarios and checks as the
CPython run in tests/unit/test_llm_scenarios.py. Needs `inv build` first."""
import json
import subprocess
import sys

import pytest

from conftest import NODE, ROOT

sys.path.insert(0, str(ROOT / 'tests'))

from llm_server.expectations import check  # noqa: E402
from llm_server.scenarios import SCENARIOS  # noqa: E402
from llm_server.server import ScriptedLlmServer  # noqa: E402

RUNNER = ROOT / 'tests' / 'node' / 'llm_turn.js'


def run_node(endpoint, run, timeout=60):
    result = subprocess.run([NODE, '--enable-source-maps', str(RUNNER), endpoint, json.dumps(run)],
                            capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize('name', sorted(SCENARIOS))
def test_scenario_in_node(name):
    scenario = SCENARIOS[name]
    with ScriptedLlmServer(scenario) as server:
        events = run_node(server.endpoint, scenario['run'])
        check(name, events, server)


def test_unreachable_ollama_endpoint_in_node():
    events = run_node('http://127.0.0.1:11434/v1', {'prompt': 'Hi', 'client': {'connect_timeout_ms': 2000}})
    errors = [e for e in events if e['event'] == 'error']
    if errors and errors[0]['kind'] != 'unreachable':
        pytest.skip('something answers on 11434 here')
    assert errors[0]['message'] == "Can't reach the LLM at http://127.0.0.1:11434/v1 — is Ollama running (`ollama serve`)?"
