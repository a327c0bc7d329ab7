"""The LLM client and the agent loop under CPython, against the scripted OpenAI-compatible server over
real HTTP — the same scenarios and checks as the transpiled run (tests/integration/test_llm_loop.py)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from llm_server.expectations import CHECKS, check
from llm_server.runner import run_turn_sync
from llm_server.scenarios import SCENARIOS
from llm_server.server import ScriptedLlmServer


@pytest.mark.parametrize('name', sorted(SCENARIOS))
def test_scenario(name):
    scenario = SCENARIOS[name]
    with ScriptedLlmServer(scenario) as server:
        events = run_turn_sync(server.endpoint, scenario['run'])
        check(name, events, server)


def test_every_scenario_is_checked():
    assert sorted(SCENARIOS) == sorted(CHECKS)


def test_unreachable_ollama_endpoint():
    events = run_turn_sync('http://127.0.0.1:1/v1', {'prompt': 'Hi', 'client': {'ollama': True}})
    errors = [e for e in events if e['event'] == 'error']
    assert errors[0]['kind'] == 'unreachable'
    assert errors[0]['message'] == "Can't reach the LLM at http://127.0.0.1:1/v1 — is Ollama running (`ollama serve`)?"
