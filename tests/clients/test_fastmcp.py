"""fastmcp's `Client` (PyPI `fastmcp`, run from its own venv): the default auto mode (which probes the 2026-07-28
`server/discover` first), the legacy handshake mode, and the legacy SSE transport."""
import json
import subprocess
from pathlib import Path

import httpx
import pytest

from conftest import PROOF_FILE, client_dir, file_read_text, record, without_noise

SCRIPT = Path(__file__).parent / 'fastmcp_call.py'


@pytest.mark.parametrize('mode,path', [('auto', '/mcp'), ('legacy', '/mcp'), ('sse', '/sse')])
def test_fastmcp_client_lists_our_tools_and_reads_a_file(mode, path, window, base, proof):
    result = subprocess.run([str(client_dir('fastmcp') / 'bin' / 'python'), str(SCRIPT), base + path,
                             window['token'], mode, PROOF_FILE], capture_output=True, text=True, timeout=120)
    record('fastmcp', f'Client {mode} on {path}', result.stderr)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert len(answer['tools']) == httpx.get(base + '/health').json()['tools']
    assert file_read_text(answer['text']).strip() == proof
    assert without_noise(result.stderr) == []
