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


def test_client_in_auto_mode_falls_back_to_initialize(window, workspace):
    async def auto():
        async with httpx2.AsyncClient(headers=window.auth) as http:
            async with Client(streamable_http_client(window.url, http_client=http), mode='auto') as client:
                return await client.call_tool('workspace_get_folders', {})
    assert_real_folder(run(auto()), workspace)


def test_unknown_tool_and_bad_arguments_are_tool_errors(window):
    async def bad_calls(session):
        unknown = await session.call_tool('no_such_tool', {})
        invalid = await session.call_tool('workspace_get_folders', {'unexpected': 1})
        return unknown, invalid
    _, (unknown, invalid) = run(streamable(window, bad_calls))
    assert unknown.is_error and unknown.content[0].text.startswith("Unknown tool 'no_such_tool'. Available tools: ")
    assert invalid.is_error and invalid.content[0].text.startswith("Invalid arguments for tool 'workspace_get_folders':")
