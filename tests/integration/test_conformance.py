"""The official MCP conformance suite against the transpiled server.

The suite cannot send an Authorization header, so these windows run with "hermes.mcp.auth": "none";
token auth is covered by test_http_transport.py and test_sdk_clients.py.
"""
import subprocess

import pytest

from conftest import NODE, ROOT

STABLE = ROOT / 'node_modules' / '@modelcontextprotocol' / 'conformance' / 'dist' / 'index.js'
NEXT = ROOT / 'node_modules' / 'conformance-next' / 'dist' / 'index.js'  # 0.2.0-alpha: session lifecycle


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
