"""MCP resources and prompts in a real VS Code (code-server), through the official Python SDK: the user
selects text in the real editor with the keyboard, a subscribed client hears of it and reads exactly
that text; a burst of selection changes gives few notifications and the final state; files outside the
workspace are refused; prompts come back with the file embedded.

Files are made under resources/ of the fixture workspace and removed at the end."""
import asyncio
import concurrent.futures
import json
import shutil
import threading
import time

import httpx2
import pytest
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from mcp_session import McpSession
from vscode_server import wait_until

SELECTION = 'hermes://editor/selection'
LINE = "print('hello from the Hermes fixture workspace')"
BURST_LINE = ''.join(str(index % 10) for index in range(150))


class Notifications:
    """What the server sent unasked: when each arrived, and the time the server stamped on each update
    (`_meta` "hermes/sentAt", ms since the epoch: the throttle's promise is about these, not about when a
    loaded machine got round to delivering them). With `follow` set to the session, every update is
    followed by a read of its resource, as a client that mirrors the resource does."""

    def __init__(self):
        self.received = []  # (monotonic seconds, method, uri, sent_at)
        self.follow = None
        self.follow_reads = {}  # index in `received` → the text a read right after that update gave

    async def __call__(self, message):
        if isinstance(message, Exception):
            return
        params = getattr(message, 'params', None)
        meta = getattr(params, 'meta', None) or {}
        uri = getattr(params, 'uri', None)
        self.received.append((time.monotonic(), message.method, None if uri is None else str(uri),
                              meta.get('hermes/sentAt')))
        if message.method == 'notifications/resources/updated' and self.follow is not None:
            index = len(self.received) - 1
            # not awaited here: the SDK delivers the read's answer through this same receive loop
            asyncio.get_running_loop().create_task(self._read_after(index, str(uri)))

    async def _read_after(self, index, uri):
        try:
            self.follow_reads[index] = (await self.follow.read_resource(uri)).contents[0].text
        except Exception as error:  # (the session closing under a late read: nothing to follow)
            self.follow_reads[index] = error

    def updates(self, uri, since=0.0):
        return [at for at, method, about, _ in self.received
                if method == 'notifications/resources/updated' and about == uri and at >= since]

    def sent_at(self, uri, since=0.0):
        return [sent for at, method, about, sent in self.received
                if method == 'notifications/resources/updated' and about == uri and at >= since]

    def read_after_last_update(self, uri, since=0.0):
        """What the read after the newest update of `uri` (received after `since`) gave, or None."""
        indexes = [index for index, (at, method, about, _) in enumerate(self.received)
                   if method == 'notifications/resources/updated' and about == uri and at >= since]
        return self.follow_reads.get(indexes[-1]) if indexes else None

    def quiet_for(self, seconds):
        return not self.received or time.monotonic() - self.received[-1][0] >= seconds


@pytest.fixture(scope='module')
def notes():
    return Notifications()


@pytest.fixture(scope='module')
def client(code_server, workbench, workspace, notes):
    (workspace / 'resources').mkdir(exist_ok=True)
    (workspace / 'resources' / 'burst.txt').write_text(BURST_LINE + '\n')
    info = code_server.discovery_for(workspace)
    session = McpSession(info['url'], info['token'], message_handler=notes)
    notes.follow = session.session
    yield session
    try:
        session.call('command_execute', {'command': 'workbench.action.closeAllEditors'})
    finally:
        session.close()
        shutil.rmtree(workspace / 'resources', ignore_errors=True)


def read_text(client, uri):
    return client.run(lambda session: session.read_resource(uri)).contents[0].text


def focus_editor(client, workbench, path, label):
    client.ok('editor_open_file', {'path': path, 'line': 1, 'preview': False})
    wait_until(lambda: workbench.page.locator('.tabs-container .tab.active', has_text=label).count() > 0, 60,
               what=f'the {label} tab')
    workbench.page.locator('.editor-instance .monaco-editor .view-lines').first.click()
    workbench.page.keyboard.press('Control+Home')


def settle(client, notes, expected, cursor=None):
    """Wait until a read shows `expected` (and the cursor at `cursor`, so the last key press has reached
    the extension host) and no notification came for half a second (the throttle's trailing
    notification of earlier changes has gone out)."""
    def settled():
        if cursor is not None and json.loads(read_text(client, 'hermes://editor/active'))['cursor'] != cursor:
            return False
        return read_text(client, SELECTION) == expected and notes.quiet_for(0.5)
    wait_until(settled, 60, what=f'the selection to be {expected!r} and the notifications to stop')


def test_a_selection_in_the_real_editor_is_announced_and_reads_exactly(client, workbench, notes):
    assert client.run(lambda session: session.subscribe_resource(SELECTION)) is not None
    focus_editor(client, workbench, 'hello.py', 'hello.py')
    settle(client, notes, '', cursor={'line': 1, 'column': 1})
    started, pressed_ms = time.monotonic(), time.time() * 1000
    workbench.page.keyboard.press('Shift+End')
    # The verdict is what a client that follows the resource ends up reading, however long the trip takes.
    wait_until(lambda: notes.read_after_last_update(SELECTION, started) == LINE, 60, interval=0.02,
               what='an update of the selection after which a read gives the selected line')
    sent = [at for at in notes.sent_at(SELECTION, started) if at is not None and at >= pressed_ms]
    if sent:  # informative only: the same machine's wall clock on both sides
        print(f'selection → update sent: {sent[0] - pressed_ms:.0f} ms')
    assert read_text(client, SELECTION) == LINE
    contents = client.run(lambda session: session.read_resource(SELECTION)).contents[0]
    assert contents.meta['path'] == 'hello.py'
    assert contents.meta['range'] == {'start': {'line': 1, 'column': 1}, 'end': {'line': 1, 'column': len(LINE) + 1}}


def test_a_2026_client_listening_hears_the_selection_and_reads_it(code_server, workspace, client, workbench, notes):
    """The same through 2026-07-28's subscriptions/listen (no session, no resources/subscribe)."""
    info = code_server.discovery_for(workspace)
    focus_editor(client, workbench, 'hello.py', 'hello.py')
    settle(client, notes, '', cursor={'line': 1, 'column': 1})
    listening = threading.Event()
    heard = []

    async def listen():
        async with httpx2.AsyncClient(headers={'Authorization': f"Bearer {info['token']}"}) as http:
            async with Client(streamable_http_client(info['url'], http_client=http), mode='2026-07-28') as modern:
                async with modern.listen(resource_subscriptions=[SELECTION]) as subscription:
                    honored = subscription.honored
                    listening.set()
                    events = subscription.__aiter__()
                    text = None
                    while text != LINE:  # an event of an earlier change may come first: read after each
                        event = await asyncio.wait_for(events.__anext__(), 120)
                        heard.append(time.monotonic())
                        text = (await modern.read_resource(SELECTION)).contents[0].text
                return modern.protocol_version, honored, event, text

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        future = pool.submit(lambda: asyncio.run(listen()))
        assert listening.wait(120), 'subscriptions/listen was not acknowledged'
        started = time.monotonic()
        workbench.page.keyboard.press('Shift+End')
        version, honored, event, text = future.result(180)
    assert version == '2026-07-28' and list(honored.resource_subscriptions) == [SELECTION]
    assert event.uri == SELECTION and text == LINE
    print(f'selection → listen event: {(heard[-1] - started) * 1000:.0f} ms')


def test_a_burst_of_100_selection_changes_is_throttled_and_the_final_state_comes_through(client, workbench, notes):
    """The throttle's promise, whatever the machine's speed: updates of one resource at least 200 ms apart by
    the server's own stamps (not by when they arrived: a loaded client may read two at once), and the last
    change is never swallowed: a client that reads after each update ends up with the final selection."""
    client.run(lambda session: session.subscribe_resource(SELECTION))
    focus_editor(client, workbench, 'resources/burst.txt', 'burst.txt')
    settle(client, notes, '', cursor={'line': 1, 'column': 1})
    started = time.monotonic()
    for _ in range(100):
        workbench.page.keyboard.press('Shift+ArrowRight')
    typed_for = time.monotonic() - started
    wait_until(lambda: notes.read_after_last_update(SELECTION, started) == BURST_LINE[:100], 120, interval=0.05,
               what='an update after which a read gives the final selection')
    sent_at = notes.sent_at(SELECTION, started)
    print(f'100 selection changes in {typed_for:.2f} s → {len(sent_at)} notifications')
    assert sent_at and None not in sent_at, 'every update carries its hermes/sentAt stamp'
    gaps = [later - earlier for earlier, later in zip(sent_at, sent_at[1:])]
    assert all(gap >= 200 for gap in gaps), gaps
    assert read_text(client, SELECTION) == BURST_LINE[:100]


def test_the_active_editor_and_tabs_describe_the_real_window(client, workbench):
    focus_editor(client, workbench, 'hello.py', 'hello.py')
    # Control+Home reaches the extension host a moment after the key press
    active = wait_until(lambda: (lambda value: value if value['cursor'] == {'line': 1, 'column': 1} else None)(
        json.loads(read_text(client, 'hermes://editor/active'))), 60, what='the cursor at 1:1 in the active editor')
    assert active['path'] == 'hello.py' and active['languageId'] == 'python' and active['isDirty'] is False
    groups = json.loads(read_text(client, 'hermes://editor/tabs'))['groups']
    assert 'hello.py' in [tab['label'] for group in groups for tab in group['tabs']]
    workspace_state = json.loads(read_text(client, 'hermes://workspace'))
    assert workspace_state['folders'][0]['git']['branch'] == 'main'


@pytest.mark.parametrize('uri', ['file:///etc/passwd', 'file:///{workspace}/../outside.txt'])
def test_resources_outside_the_workspace_are_refused(client, workspace, uri):
    with pytest.raises(MCPError) as refused:
        read_text(client, uri.replace('/{workspace}', str(workspace)))
    assert refused.value.error.code == -32602
    assert 'is outside the workspace' in refused.value.error.message


def test_a_workspace_file_reads_through_the_template(client, workspace):
    assert read_text(client, 'file://' + str(workspace / 'hello.py')) == (workspace / 'hello.py').read_text()


def test_prompts_come_back_with_the_file_embedded(client, workspace):
    names = [prompt.name for prompt in client.run(lambda session: session.list_prompts()).prompts]
    assert names == ['explain', 'fix', 'write_tests']
    result = client.run(lambda session: session.get_prompt('explain', {'path': 'hello.py'}))
    embedded = result.messages[0].content
    assert embedded.type == 'resource'
    assert str(embedded.resource.uri) == 'file://' + str(workspace / 'hello.py')
    assert embedded.resource.text == (workspace / 'hello.py').read_text()
    assert result.messages[1].content.text.startswith('Explain `hello.py`: what it does')


def test_prompt_paths_complete_with_recent_files_first(client):
    completion = client.run(lambda session: session.complete(
        types.PromptReference(name='explain'), {'name': 'path', 'value': ''})).completion
    assert completion.values[0] in ['hello.py', 'resources/burst.txt']
    assert set(completion.values[:2]) == {'hello.py', 'resources/burst.txt'}


def test_a_terminal_is_listed_read_and_announced_when_its_output_grows(client, notes):
    started = time.monotonic()
    _, ran = client.ok('terminal_run', {'command': 'echo "resource-$((6 * 7))"'})
    try:
        check_terminal_resource(client, notes, ran['terminal'], started)
    finally:
        # An idle Hermes terminal left behind would be reused by the terminal tools' tests.
        killed = time.monotonic()
        client.ok('terminal_kill', {'terminal': ran['terminal']})
    gone = f"hermes://terminal/{ran['terminal']}"
    wait_until(lambda: gone not in [str(item.uri) for item in client.run(lambda session: session.list_resources()).resources]
               and [at for at, method, *_ in notes.received if method == 'notifications/resources/list_changed'
                    and at >= killed], 60, what='the killed terminal to leave resources/list, announced')


def check_terminal_resource(client, notes, terminal, started):
    uri = f'hermes://terminal/{terminal}'
    wait_until(lambda: [at for at, method, *_ in notes.received
                        if method == 'notifications/resources/list_changed' and at >= started] or
               uri in [str(item.uri) for item in client.run(lambda session: session.list_resources()).resources],
               60, what='the terminal in resources/list')
    assert uri in [str(item.uri) for item in client.run(lambda session: session.list_resources()).resources]
    assert 'resource-42' in read_text(client, uri)
    client.run(lambda session: session.subscribe_resource(uri))
    started = time.monotonic()
    client.ok('terminal_run', {'terminal': terminal, 'command': 'echo "again-$((6 * 7))"'})
    wait_until(lambda: notes.updates(uri, started), 60, what=f'notifications/resources/updated for {uri}')
    output = read_text(client, uri)
    assert 'again-42' in output and '\x1b[' not in output
