"""The transport's reading of a POST body (net/mcp/bodies.py PostedBody): each message classified once, and
what that decides — 202 or a reply, which ids own this POST's stream, whether it may stream, initialize."""
from hermes.host.log import Log
from hermes.net.mcp.bodies import PostedBody
from hermes.net.mcp.sessions import stream_key

CALL = {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call', 'params': {'name': 'x', 'arguments': {}}}
NOTE = {'jsonrpc': '2.0', 'method': 'notifications/initialized'}
INIT = {'jsonrpc': '2.0', 'id': 'a', 'method': 'initialize', 'params': {}}


def shape(message):
    body = PostedBody(message)
    return [body.kind, body.request_ids, body.needs_reply, body.wants_stream, body.initialize]


def test_a_single_message_is_classified_once_and_keeps_its_kind():
    assert shape(CALL) == ['request', [3], True, True, False]
    assert shape(INIT) == ['request', ['a'], True, False, True]
    assert shape(NOTE) == ['notification', [], False, False, False]
    assert shape({'jsonrpc': '2.0', 'id': 3, 'result': {}}) == ['response', [], False, False, False]


def test_invalid_messages_need_a_reply_and_own_no_stream():
    assert shape({'jsonrpc': '1.0', 'id': 4, 'method': 'tools/call'}) == ['invalid', [], True, False, False]
    assert shape('text') == ['invalid', [], True, False, False]
    # an initialize that is not a valid request still counts as one (the session it opens is then refused)
    assert shape({'id': 5, 'method': 'initialize'}) == ['invalid', [], True, False, True]


def test_a_batch_has_no_single_kind():
    assert shape([NOTE, CALL, INIT]) == [None, [3, 'a'], True, True, True]
    assert shape([NOTE, NOTE]) == [None, [], False, False, False]
    assert shape([]) == [None, [], True, False, False]  # an empty batch is answered with an error


def test_stream_keys_keep_numeric_and_string_ids_apart():
    assert stream_key(1) == stream_key(1) and stream_key('1') == stream_key('1')
    assert stream_key(1) != stream_key('1')


class Channel:
    def __init__(self, level=None):
        if level is not None:
            self.logLevel = level
        self.lines = []

    def debug(self, message):
        self.lines.append(message)


def test_debug_lines_are_wanted_only_at_debug_or_trace_level():
    assert Log(Channel(1)).debug_enabled() and Log(Channel(2)).debug_enabled()
    assert not Log(Channel(3)).debug_enabled() and not Log(Channel(5)).debug_enabled()
    assert Log(Channel()).debug_enabled()  # a channel without levels keeps everything
