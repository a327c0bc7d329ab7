"""An external MCP client — the official Python SDK — edits files in the transpiled extension's window
(dist/extension.js under node, real HTTP): the change log records each write under the client's name, and
`changes_list` and the `hermes://changes` resource (with an update notification to a subscriber) show it."""
import asyncio
import json

import httpx2
import pytest
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

CLIENT = types.Implementation(name='sdk-agent', version='1.0')


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def as_client(window, action, on_message=None):
    async with httpx2.AsyncClient(headers=window.auth) as http:
        async with streamable_http_client(window.url, http_client=http) as (read, write):
            async with ClientSession(read, write, client_info=CLIENT, message_handler=on_message) as session:
                await session.initialize()
                return await action(session)


# The 2025-11-25 session era on purpose: its resources/subscribe is what handshake-era clients use.
@pytest.mark.filterwarnings('ignore:resources/subscribe is removed')
def test_an_sdk_clients_edits_are_listed_under_its_name(start_window, workspace):
    window = start_window({'hermes.tools.confirm': 'never'})
    (workspace / 'lib.py').write_text('a = 1\nb = 2\nc = 3\n')
    updates = []

    async def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(str(message.params.uri))

    async def edit_and_look(session):
        await session.subscribe_resource('hermes://changes')
        edited = await session.call_tool('editor_edit_file', {
            'path': 'lib.py', 'edits': [{'old_text': 'b = 2', 'new_text': 'b = 20'}]})
        assert edited.is_error is False, edited.content[0].text
        created = await session.call_tool('file_create', {'path': 'new.py', 'content': 'x = 1\n'})
        assert created.is_error is False, created.content[0].text
        listed = await session.call_tool('changes_list', {})
        resource = await session.read_resource('hermes://changes')
        for _ in range(50):  # the update is throttled (at most one per 200 ms): wait for it, not for a duration
            if updates:
                break
            await asyncio.sleep(0.1)
        return listed, resource

    listed, resource = run(as_client(window, edit_and_look, on_message))
    view = listed.structured_content
    assert [(item['path'], item['client']) for item in view['pending']] == [('lib.py', 'sdk-agent'),
                                                                          ('new.py', 'sdk-agent')]
    assert view['pending'][0]['hunks'] == [{'id': 'h1', 'line': 2, 'added': 1, 'removed': 1,
                                            'removed_lines': ['b = 2'], 'added_lines': ['b = 20']}]
    assert view['pending'][1]['created'] is True
    assert '- lib.py: +1 −1 by sdk-agent, hunks at line 2' in listed.content[0].text
    from_resource = json.loads(resource.contents[0].text)
    assert from_resource['pending'] == view['pending']
    assert 'hermes://changes' in updates
    assert (workspace / 'lib.py').read_text() == 'a = 1\nb = 20\nc = 3\n'


def test_with_tracking_off_an_sdk_clients_edits_are_not_recorded(start_window, workspace):
    window = start_window({'hermes.tools.confirm': 'never', 'hermes.changes.trackExternal': False})

    async def edit_and_list(session):
        await session.call_tool('file_write', {'path': 'main.py', 'content': 'print(2)\n'})
        return await session.call_tool('changes_list', {})

    listed = run(as_client(window, edit_and_list))
    assert listed.structured_content['pending'] == [] and listed.content[0].text == 'No pending changes.'
    assert (workspace / 'main.py').read_text() == 'print(2)\n'
