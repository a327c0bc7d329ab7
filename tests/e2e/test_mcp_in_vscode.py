"""External mode in a real VS Code: an MCP client finds the window, authenticates, and drives it."""
import asyncio
import concurrent.futures
import json

import httpx
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from conftest import open_window
from vscode_server import wait_until


def run_async(coroutine_function, *args, timeout=60):
    """Run an asyncio client on its own thread: Playwright's sync API owns this thread's event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(coroutine_function(*args), timeout))).result()


async def call_tool(url, token, name, arguments=None):
    async with httpx2.AsyncClient(headers={'Authorization': f'Bearer {token}'}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                result = await session.call_tool(name, arguments or {})
                return [tool.name for tool in tools.tools], result


def test_sdk_client_finds_the_window_and_reads_its_real_folder(code_server, workbench, workspace):
    info = code_server.discovery_for(workspace)
    assert info['url'] == f"http://127.0.0.1:{info['port']}/mcp"
    names, result = run_async(call_tool, info['url'], info['token'], 'workspace_get_folders')
    assert 'workspace_get_folders' in names
    assert result.is_error is False
    assert result.structured_content['folders'][0]['path'] == str(workspace)
    code_server.wait_for_log(r'MCP server listening on http://127\.0\.0\.1:\d+/mcp \(auth: token, \d+ tools\)')


def test_request_without_token_is_refused(code_server, workbench, workspace):
    info = code_server.discovery_for(workspace)
    response = httpx.post(info['url'], timeout=60, content=json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}),
                          headers={'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream'})
    assert response.status_code == 401
    assert response.json()['error']['message'].startswith('Unauthorized')


def test_open_tabs_tool_sees_the_real_editor(code_server, workbench, workspace):
    info = code_server.discovery_for(workspace)
    workbench.page.locator('.explorer-folders-view .monaco-list-row', has_text='hello.py').first.dblclick()
    workbench.page.locator('.tabs-container .tab', has_text='hello.py').first.wait_for()

    def tabs():
        _, result = run_async(call_tool, info['url'], info['token'], 'editor_get_open_tabs')
        return [tab for tab in result.structured_content['tabs'] if tab['label'] == 'hello.py']
    [tab] = wait_until(tabs, 30, what='hello.py in the open tabs')
    assert tab['path'] == str(workspace / 'hello.py')


def test_status_bar_shows_the_port(code_server, workbench, workspace, artifacts):
    info = code_server.discovery_for(workspace)
    item = workbench.page.locator('.statusbar-item', has_text=f"Hermes :{info['port']}").first
    item.wait_for(state='visible')
    item.click()
    text = workbench.notification_text('Hermes MCP server:')
    assert f"http://127.0.0.1:{info['port']}/mcp" in text and 'auth: token' in text
    workbench.screenshot(artifacts / 'mcp-status.png')


def test_a_second_window_gets_its_own_port(code_server, workbench, browser, workspace, tmp_path_factory):
    first = code_server.discovery_for(workspace)
    other = tmp_path_factory.mktemp('second') / 'other-project'
    other.mkdir()
    (other / 'notes.txt').write_text('second window\n')
    with open_window(browser, code_server, 'second', url=code_server.url.split('?')[0] + f'?folder={other}'):
        second = code_server.discovery_for(other)
        assert second['port'] != first['port']
        _, result = run_async(call_tool, second['url'], second['token'], 'workspace_get_folders')
        assert result.structured_content['folders'][0]['path'] == str(other)
