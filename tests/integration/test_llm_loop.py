"""The TRANSPILED LLM client and agent loop (build/testing.js, run by tests/node/llm_turn.js under node)
against the scripted OpenAI-compatible server over real HTTP: the same scenarios and checks as the
CPython run in tests/unit/test_llm_scenarios.py. Needs `inv build` first."""
import json
import subprocess
import sys

import pytest

from conftest import NODE, ROOT

sys.path.insert(0, str(ROOT / 'tests'))

from llm_server.expectations import check, outcome_of, text_of
from llm_server.scenarios import SCENARIOS, Reply, text_events, tool_events
from llm_server.server import ScriptedLlmServer

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


def test_the_requests_of_a_run_share_one_connection_in_node():
    """Three iterations (tool call, tool call, answer) over one keep-alive connection: the client reads each
    body to its end after [DONE] instead of cancelling it (a cancelled body makes Node's fetch drop the
    connection, and every iteration paid a new one)."""
    # Each event its own write, a moment apart, as a model streams: the body's end comes after [DONE].
    calls = [Reply(tool_events([(f'call_k{n}', 'echo', {'text': f'round {n}'})]), delay_ms=5) for n in (1, 2)]
    with ScriptedLlmServer({'replies': calls + [Reply(text_events('Both rounds echoed.'), delay_ms=5)]}) as server:
        events = run_node(server.endpoint, {'prompt': 'Echo twice'})
        assert outcome_of(events)['stopped'] == 'done' and text_of(events).endswith('Both rounds echoed.')
        assert server.progress()['requests_received'] == 3
        assert server.progress()['connections'] == 1, [(r['path'], r['connection']) for r in server.requests]


def test_a_stream_held_open_after_done_still_ends_the_turn_in_node():
    """A server that sends [DONE] and then neither ends the body nor closes (here for 10 minutes): the client
    gives up on the end after a short grace, and the turn ends with the whole answer."""
    events = text_events('Held open.') + ['{"never": "sent"}']
    with ScriptedLlmServer({'replies': [Reply(events, stall_after=len(events) - 1, hang_s=600)]}) as server:
        finished = run_node(server.endpoint, {'prompt': 'Hi'}, timeout=120)
        assert outcome_of(finished)['stopped'] == 'done' and text_of(finished) == 'Held open.'
        assert server.progress()['replies_sent'] == 0  # the body really was never ended
