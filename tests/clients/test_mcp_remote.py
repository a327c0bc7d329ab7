"""mcp-remote (npm), the stdio bridge Claude Desktop users run for HTTP servers, driven over stdio by the
official Python SDK: forced Streamable HTTP, forced legacy SSE, and `--protocol auto` (which tries 2026-07-28's
`server/discover` first)."""
import os

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from conftest import NODE, PROOF_FILE, client_dir, complaints, file_read_text, record, run_async


async def read_through_bridge(args, env, errlog):
    server = StdioServerParameters(command=NODE, args=args, env=env)
    async with stdio_client(server, errlog=errlog) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            result = await session.call_tool('file_read', {'path': PROOF_FILE})
    return [tool.name for tool in tools.tools], result


@pytest.mark.parametrize('path,options', [('/mcp', ['--transport', 'http-only']), ('/sse', ['--transport', 'sse-only']),
                                          ('/mcp', ['--protocol', 'auto'])])
def test_mcp_remote_bridges_to_our_server(path, options, window, base, proof, tmp_path):
    proxy = client_dir('mcp-remote') / 'node_modules' / 'mcp-remote' / 'dist' / 'proxy.js'
    args = [str(proxy), base + path, '--header', 'Authorization: Bearer ' + window['token']] + options
    env = dict(os.environ, MCP_REMOTE_CONFIG_DIR=str(tmp_path / 'mcp-auth'), HOME=str(tmp_path))
    with open(tmp_path / 'stderr.txt', 'w') as errlog:
        names, result = run_async(read_through_bridge(args, env, errlog))
    stderr = (tmp_path / 'stderr.txt').read_text()
    record('mcp-remote', ' '.join([path] + options), stderr)
    assert len(names) == httpx.get(base + '/health').json()['tools']
    assert result.is_error is False
    assert file_read_text(result.content[0].text).strip() == proof
    if '--protocol' in options:  # auto: it found the stateless revision and bridged the handshake to it
        assert 'Remote server speaks MCP 2026-07-28' in stderr
    assert complaints(stderr) == []
