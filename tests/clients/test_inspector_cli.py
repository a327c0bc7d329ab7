"""The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, `inspector --cli`): tools/list with `--strict`
(its tool-schema portability check) over both transports, and a tools/call with and without
`--protocol-era auto` (which tries 2026-07-28's `server/discover` first)."""
import json
import os
import subprocess

import httpx
import pytest

from conftest import NODE, PROOF_FILE, client_dir, complaints, file_read_text, record


def inspector(tmp_path, window, url, *args):
    launcher = client_dir('inspector') / 'node_modules' / '@modelcontextprotocol' / 'inspector' / 'clients' / \
        'launcher' / 'build' / 'index.js'
    command = [NODE, str(launcher), '--cli', url, '--header', 'Authorization: Bearer ' + window['token']] + list(args)
    result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, HOME=str(tmp_path)))  # its catalog file goes to a scratch HOME
    record('inspector', ' '.join([url.rsplit('/', 1)[1]] + list(args)), result.stderr)
    return result


@pytest.mark.parametrize('path', ['/mcp', '/sse'])
def test_tools_list_is_strict_clean(path, tmp_path, window, base):
    result = inspector(tmp_path, window, base + path, '--method', 'tools/list', '--strict')
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)['tools']) == httpx.get(base + '/health').json()['tools']
    assert result.stderr.strip() == ''  # --strict reports every portability warning on stderr


@pytest.mark.parametrize('path,era', [('/mcp', []), ('/sse', []), ('/mcp', ['--protocol-era', 'auto'])])
def test_tools_call_reads_a_file(path, era, tmp_path, window, base, proof):
    result = inspector(tmp_path, window, base + path, '--method', 'tools/call', '--tool-name', 'file_read',
                       '--tool-arg', 'path=' + PROOF_FILE, *era)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer['isError'] is False
    assert file_read_text(answer['content'][0]['text']).strip() == proof
    assert complaints(result.stderr) == []
