"""The official MCP conformance suite against the transpiled server.

The suite cannot send an Authorization header, so these windows run with "hermes.mcp.auth": "none";
token auth is covered by test_http_transport.py and test_sdk_clients.py.
"""
import subprocess

import pytest

from conftest import NODE, ROOT

STABLE = ROOT / 'node_modules' / '@modelcontextprotocol' / 'conformance' / 'dist' / 'index.js'
NEXT = ROOT / 'node_modules' / 'conformance-next' / 'dist' / 'index.js'  # 0.2.0-alpha: session lifecycle, 2026-07-28


# 2026-07-28 (stateless). server-stateless, http-header-validation and http-custom-header-server-validation
# call fixture tools by name (test_missing_capability, test_logging_tool, test_trigger_tool_change,
# test_streaming_elicitation, one tool with an x-mcp-header argument): the window runs with test tools.
# caching reads prompts and resources as well as tools.
STATELESS_SCENARIOS = ['server-stateless', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams',
                       'caching', 'http-header-validation', 'http-custom-header-server-validation']


@pytest.mark.parametrize('scenario', STATELESS_SCENARIOS)
def test_conformance_2026_scenario(start_window, tmp_path, scenario):
    window = start_window({'hermes.mcp.auth': 'none'}, test_tools=True)
    result = subprocess.run([NODE, str(NEXT), 'server', '--url', window.url, '--scenario', scenario,
                             '--spec-version', '2026-07-28', '-o', str(tmp_path / 'results')],
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert ' 0 failed' in output and 'FAILURE' not in output, output


@pytest.mark.parametrize('suite, scenario', [
    (STABLE, 'server-initialize'),
    (STABLE, 'ping'),
    (STABLE, 'tools-list'),
    (STABLE, 'logging-set-level'),
    (STABLE, 'dns-rebinding-protection'),
    (STABLE, 'server-sse-multiple-streams'),
    (NEXT, 'server-session-lifecycle'),
])
def test_conformance_scenario(start_window, tmp_path, suite, scenario):
    window = start_window({'hermes.mcp.auth': 'none'})
    result = subprocess.run([NODE, str(suite), 'server', '--url', window.url, '--scenario', scenario,
                             '-o', str(tmp_path / 'results')], capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert ' 0 failed' in output and 'FAILURE' not in output, output
