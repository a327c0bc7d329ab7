"""The LLM client and loop against a third-party OpenAI-compatible server implementation that runs here
without model weights: fakellm (PyPI, pinned in pyproject's dev deps), a rules-driven mock of the OpenAI
HTTP API on FastAPI/uvicorn with its own SSE streaming of text and tool calls. Both the transpiled loop
(node) and the CPython loop run one tool round trip through it."""
import asyncio
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / 'tests'))
sys.path.insert(0, str(ROOT / 'py_src'))
sys.path.insert(0, str(ROOT / 'tests' / 'shim'))

from test_llm_loop import run_node

FAKELLM = os.path.join(os.path.dirname(sys.executable), 'fakellm')
RULES = """\
version: 1
rules:
  - name: call_echo
    when:
      turn: 1
      messages_contain: "please echo"
      tools_include: echo
      header.x-team: hermes
    respond:
      tool_calls:
        - name: echo
          arguments: {text: "via fakellm"}
  - name: answer_after_tool
    when:
      turn: 2
      tool_result_contains: "via fakellm"
    respond:
      content: "fakellm saw the echo: via fakellm."
  - name: anything_else
    respond:
      content: "no rule matched"
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


@pytest.fixture(scope='module')
def fakellm(tmp_path_factory):
    if not os.path.exists(FAKELLM):
        pytest.skip('fakellm is not installed (inv setup)')
    folder = tmp_path_factory.mktemp('fakellm')
    config = folder / 'fakellm.yaml'
    config.write_text(RULES)
    port = free_port()
    process = subprocess.Popen([FAKELLM, 'serve', '--port', str(port), '--config', str(config)], cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f'http://127.0.0.1:{port}'
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(base + '/_fakellm/stats', timeout=1)
            break
        except httpx.HTTPError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError('fakellm did not start:\n' + (process.stdout.read() or ''))
            time.sleep(0.2)
    yield base
    process.terminate()
    process.wait(10)


RUN = {'prompt': 'Could you please echo something?', 'extra_headers': {'X-Team': 'hermes'}, 'model': 'gpt-4o-mini'}


def check(events):
    calls = [e for e in events if e['event'] == 'tool_call']
    assert [(c['name'], c['arguments']) for c in calls] == [('echo', {'text': 'via fakellm'})], events
    results = [e for e in events if e['event'] == 'tool_result']
    assert results[0]['text'] == 'via fakellm' and results[0]['isError'] is False
    done = [e for e in events if e['event'] == 'done'][0]['outcome']
    assert done['stopped'] == 'done' and done['text'] == 'fakellm saw the echo: via fakellm.', events
    text = ''.join(e['text'] for e in events if e['event'] == 'text')
    assert text == 'fakellm saw the echo: via fakellm.'


def test_transpiled_loop_against_fakellm(fakellm):
    httpx.post(fakellm + '/_fakellm/reset')
    check(run_node(fakellm + '/v1', RUN))


def test_cpython_loop_against_fakellm(fakellm):
    from llm_server.runner import run_turn
    httpx.post(fakellm + '/_fakellm/reset')
    check(asyncio.run(run_turn(fakellm + '/v1', RUN)))
