"""The official MCP Python SDK (the client people build agents with) against the transpiled server."""
import asyncio
import json

import httpx2
from mcp import Client, ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def streamable(window, action):
    async with httpx2.AsyncClient(headers=window.auth) as http:
        async with streamable_http_client(window.url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                return init, await action(session)


async def legacy(window, url, action):
    async with sse_client(url, headers=window.auth) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            return init, await action(session)


async def folders_and_tools(session):
    tools = await session.list_tools()
    result = await session.call_tool('workspace_get_folders', {})
    return tools, result


def assert_real_folder(result, workspace):
    assert result.is_error is False
    payload = json.loads(result.content[0].text)
    assert payload['folders'][0]['path'] == str(workspace)
    assert result.structured_content == payload


def test_streamable_http_initialize_list_and_call(window, workspace):
    init, (tools, result) = run(streamable(window, folders_and_tools))
    assert init.server_info.name == 'hermes-vscode'
    assert init.protocol_version == '2025-11-25'
    assert init.capabilities.tools.list_changed is True
    names = [tool.name for tool in tools.tools]
    assert 'workspace_get_folders' in names and 'editor_get_open_tabs' in names
    assert all(tool.description and tool.input_schema['type'] == 'object' for tool in tools.tools)
    assert_real_folder(result, workspace)


def test_streamable_http_ping_and_logging_level(window):
    async def ping_and_level(session):
        await session.send_ping()
        return await session.set_logging_level('debug')
    _, result = run(streamable(window, ping_and_level))
    assert result is not None


def test_legacy_sse_on_slash_sse(window, workspace):
    init, (tools, result) = run(legacy(window, window.base + '/sse', folders_and_tools))
    assert init.server_info.name == 'hermes-vscode'
    assert_real_folder(result, workspace)


def test_legacy_sse_on_slash_mcp_without_session(window, workspace):
    init, (tools, result) = run(legacy(window, window.url, folders_and_tools))
    assert_real_folder(result, workspace)


async def with_client(window, mode, action):
    async with httpx2.AsyncClient(headers=window.auth) as http:
        async with Client(streamable_http_client(window.url, http_client=http), mode=mode) as client:
            return client.protocol_version, client.server_info, await action(client)


async def call_folders(client):
    return await client.call_tool('workspace_get_folders', {})


def test_client_in_auto_mode_speaks_2026(window, workspace):
    version, server_info, result = run(with_client(window, 'auto', call_folders))
    assert (version, server_info.name) == ('2026-07-28', 'hermes-vscode')
    assert_real_folder(result, workspace)


def test_client_in_legacy_mode_keeps_the_handshake(window, workspace):
    version, server_info, result = run(with_client(window, 'legacy', call_folders))
    assert (version, server_info.name) == ('2025-11-25', 'hermes-vscode')
    assert_real_folder(result, workspace)


def test_2026_client_lists_calls_with_progress_and_listens(start_window):
    window = start_window(test_tools=True)
    progress = []

    async def session(client):
        tools = await client.list_tools()
        counted = await client.call_tool('test_progress', {'steps': 3}, progress_callback=(
            lambda value, total, message: _record(progress, value, total, message)))
        async with client.listen(tools_list_changed=True) as subscription:
            await client.call_tool('test_trigger_tool_change', {})
            event = await asyncio.wait_for(subscription.__aiter__().__anext__(), 10)
            honored = subscription.honored
        return tools, counted, event, honored
    version, _, (tools, counted, event, honored) = run(with_client(window, '2026-07-28', session))
    assert version == '2026-07-28'
    assert 'workspace_get_folders' in [tool.name for tool in tools.tools]
    assert counted.content[0].text == 'done 3' and progress == [(1, 3, 'step 1'), (2, 3, 'step 2'), (3, 3, 'step 3')]
    assert honored.tools_list_changed is True and type(event).__name__ == 'ToolsListChanged'


async def _record(progress, value, total, message):
    progress.append((value, total, message))


def test_unknown_tool_and_bad_arguments_are_tool_errors(window):
    async def bad_calls(session):
        unknown = await session.call_tool('no_such_tool', {})
        invalid = await session.call_tool('file_read', {'path': 5})
        return unknown, invalid
    _, (unknown, invalid) = run(streamable(window, bad_calls))
    assert unknown.is_error and unknown.content[0].text.startswith("Unknown tool 'no_such_tool'. Available tools: ")
    assert invalid.is_error
    assert invalid.content[0].text == "Invalid arguments for tool 'file_read':\narguments.path: expected string, got number"


def test_gemini_cli_dependent_call_reads_the_file(window, workspace):
    """Gemini CLI adds `wait_for_previous` to every tool it shows its model and sends it on dependent calls: the
    exact call it makes, over both eras, reads the file; a wrong type on a known argument keeps its exact error."""
    (workspace / 'notes.md').write_text('remember the milk\n')

    async def dependent(session):
        return (await session.call_tool('file_read', {'path': 'notes.md', 'wait_for_previous': True}),
                await session.call_tool('file_read', {'path': 'notes.md', 'start_line': 'one', 'wait_for_previous': True}))

    version, _, modern = run(with_client(window, 'auto', dependent))  # an SDK Client calls tools as a session does
    assert version == '2026-07-28'
    for answered in [run(streamable(window, dependent))[1], modern]:
        read, wrong = answered
        assert read.is_error is False and read.content[0].text == 'notes.md (lines 1-1 of 1)\nremember the milk'
        assert wrong.is_error and wrong.content[0].text == (
            "Invalid arguments for tool 'file_read':\narguments.start_line: expected integer, got string\n"
            "arguments: unexpected property 'wait_for_previous' (allowed: path, start_line, end_line)")
