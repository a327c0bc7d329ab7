"""The stdio↔HTTP bridge (hermes.cli.stdio_bridge) with a fake MCP client: what reaches stdout."""
import asyncio
import json

from hermes.cli.select_window import NO_WINDOW, NoWindowError
from hermes.cli.stdio_bridge import StdioBridge, must_wait
from hermes.net.mcp.client import McpClientError

INIT = {'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {'protocolVersion': '2025-06-18'}}
INITIALIZED = {'jsonrpc': '2.0', 'method': 'notifications/initialized'}


class FakeClient:
    def __init__(self, handler):
        self.handler = handler  # async (message, deliver) -> None
        self.posted = []
        self.session_id = None
        self.closed = False
        self.listened = False
        self.abort = None

    async def post(self, message, on_message=None, abort=None):
        self.posted.append(message)
        self.abort = abort
        if isinstance(message, dict) and message.get('method') == 'initialize':
            self.session_id = 's1'
        await self.handler(message, on_message)

    async def listen(self, on_message):
        self.listened = True
        on_message({'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'})

    async def close(self):
        self.closed = True


async def echo(message, deliver):
    """Answers every request with its own method name."""
    if isinstance(message, dict) and 'id' in message and 'method' in message:
        deliver({'jsonrpc': '2.0', 'id': message['id'], 'result': {'method': message['method']}})


def drive(lines, handler=echo, connect=None):
    """Feed `lines` (dicts are dumped to JSON), end stdin; returns (stdout messages, stderr lines, clients)."""
    out, err, clients = [], [], []

    def make_client():
        client = FakeClient(handler)
        clients.append(client)
        return client

    async def main():
        bridge = StdioBridge(connect or make_client, out.append, err.append)
        for line in lines:
            bridge.receive(line if isinstance(line, str) else json.dumps(line))
        await bridge.finish()

    asyncio.run(asyncio.wait_for(main(), 5))
    for text in out:
        assert text.endswith('\n') and '\n' not in text[:-1]
    return [json.loads(text) for text in out], err, clients


def test_messages_are_forwarded_and_replies_written_as_lines():
    out, err, clients = drive([INIT, INITIALIZED, {'jsonrpc': '2.0', 'id': 'a', 'method': 'tools/list'}])
    assert {'jsonrpc': '2.0', 'id': 0, 'result': {'method': 'initialize'}} in out
    assert {'jsonrpc': '2.0', 'id': 'a', 'result': {'method': 'tools/list'}} in out
    assert len(clients) == 1
    assert clients[0].posted[:2] == [INIT, INITIALIZED]
    assert clients[0].listened  # the GET stream opens after the handshake ...
    assert {'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'} in out  # ... and is forwarded
    assert clients[0].closed  # stdin ended: the session is closed
    assert err == []


def test_malformed_lines_get_parse_errors_and_blank_lines_are_ignored():
    out, _, clients = drive(['', '   ', '{"jsonrpc": "2.0", "id": 1,', '42', '"text"'])
    assert out[0]['id'] is None and out[0]['error']['code'] == -32700
    assert out[0]['error']['message'].startswith('Parse error: ')
    assert [m['error']['code'] for m in out[1:]] == [-32600, -32600]
    assert clients == []  # nothing was worth connecting for


def test_http_failures_answer_each_request_with_its_id():
    async def down(message, deliver):
        raise McpClientError("Can't reach the Hermes MCP server at http://x/mcp (connection refused).", 'network')

    out, err, _ = drive([INIT, INITIALIZED, {'jsonrpc': '2.0', 'id': 5, 'method': 'ping'},
                         [{'jsonrpc': '2.0', 'id': 6, 'method': 'ping'}, {'jsonrpc': '2.0', 'method': 'n'},
                          {'jsonrpc': '2.0', 'id': 7, 'method': 'ping'}]], down)
    assert sorted(str(m['id']) for m in out) == ['0', '5', '6', '7']
    for message in out:
        assert message['error'] == {'code': -32000, 'message': "Can't reach the Hermes MCP server at http://x/mcp "
                                                               "(connection refused)."}
    assert len(err) == 1 and err[0].startswith('notifications/initialized failed: ')  # notifications: stderr only


def test_no_window_is_reported_to_every_request_and_retried_on_each():
    attempts = []

    def no_window():
        attempts.append(1)
        raise NoWindowError(NO_WINDOW)

    out, _, _ = drive([INIT, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}], connect=no_window)
    assert [m['id'] for m in out] == [0, 2]
    assert all(m['error'] == {'code': -32000, 'message': NO_WINDOW} for m in out)
    assert len(attempts) == 2


def test_a_reply_that_arrived_before_the_connection_broke_is_not_answered_twice():
    async def half(message, deliver):
        deliver({'jsonrpc': '2.0', 'id': message['id'], 'result': {}})
        raise McpClientError('broke', 'network')

    out, err, _ = drive([INIT], half)
    assert out == [{'jsonrpc': '2.0', 'id': 0, 'result': {}}]
    assert err == ['initialize failed: broke']


def test_slow_requests_do_not_hold_up_later_ones_but_notifications_keep_their_order():
    order = []

    async def handler(message, deliver):
        order.append(message.get('method'))
        if message.get('method') == 'tools/call':
            await asyncio.sleep(0.2)
        await echo(message, deliver)

    out, _, clients = drive([INIT, INITIALIZED, {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call'},
                             {'jsonrpc': '2.0', 'id': 2, 'method': 'ping'}], handler)
    ids = [m.get('id') for m in out if 'id' in m]
    assert ids == [0, 2, 1]  # the ping's reply overtook the slow call's
    assert order[:2] == ['initialize', 'notifications/initialized']


def test_each_initialize_reconnects():
    out, _, clients = drive([INIT, INITIALIZED, dict(INIT, id=9)])
    assert len(clients) == 2
    assert clients[0].closed and clients[1].closed


MODERN = {'io.modelcontextprotocol/protocolVersion': '2026-07-28'}


def test_a_cancelled_2026_request_has_its_post_aborted_and_is_not_answered():
    """2026-07-28 has no session to tell: closing the request's HTTP stream is the cancellation."""
    clients = []

    async def until_aborted(message, deliver):
        if message.get('id') == 7:
            deliver({'jsonrpc': '2.0', 'method': 'notifications/progress', 'params': {'progressToken': 'p', 'progress': 1}})
            abort = clients[0].abort
            while not abort.signal.aborted:
                await asyncio.sleep(0.001)
            raise McpClientError('The connection to the Hermes MCP server broke (aborted).', 'network')
        await echo(message, deliver)

    def connect():
        clients.append(FakeClient(until_aborted))
        return clients[0]

    call = {'jsonrpc': '2.0', 'id': 7, 'method': 'tools/call', 'params': {'name': 'slow', '_meta': MODERN}}
    other = {'jsonrpc': '2.0', 'id': 8, 'method': 'tools/list', 'params': {'_meta': MODERN}}
    cancels = [{'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': {'requestId': request_id}}
               for request_id in [7, '7', 99]]  # '7' is another id; 99 was never sent
    out, err, _ = drive([call, other] + cancels, connect=connect)
    assert [m.get('id') for m in out] == [None, 8]  # the progress that came first, then only the other answer
    assert err == ['tools/call 7: cancelled by the client']
    assert [m.get('method') for m in clients[0].posted] == ['tools/call', 'tools/list']  # no session: not posted


def test_a_2025_cancellation_goes_to_its_session():
    cancel = {'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': {'requestId': 3}}
    out, err, clients = drive([INIT, INITIALIZED, cancel])
    assert clients[0].posted == [INIT, INITIALIZED, cancel]
    assert clients[0].abort is None and err == []


def test_must_wait():
    assert must_wait(INIT)
    assert must_wait(INITIALIZED)
    assert must_wait({'jsonrpc': '2.0', 'id': 3, 'result': {}})  # a response to a server request
    assert must_wait([{'jsonrpc': '2.0', 'id': 3, 'method': 'ping'}])
    assert not must_wait({'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call'})
