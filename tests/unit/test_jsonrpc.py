import pytest

from hermes.core import jsonrpc
from hermes.core.jsonrpc import classify, invalid_reason, has_key, request_id_of


def test_error_codes_are_the_json_rpc_ones():
    assert (jsonrpc.PARSE_ERROR, jsonrpc.INVALID_REQUEST, jsonrpc.METHOD_NOT_FOUND,
            jsonrpc.INVALID_PARAMS, jsonrpc.INTERNAL_ERROR) == (-32700, -32600, -32601, -32602, -32603)


def test_result_response():
    assert jsonrpc.result_response(7, {'ok': True}) == {'jsonrpc': '2.0', 'id': 7, 'result': {'ok': True}}


def test_error_response_with_and_without_data():
    assert jsonrpc.error_response('a', -32601, 'Method not found: x') == {
        'jsonrpc': '2.0', 'id': 'a', 'error': {'code': -32601, 'message': 'Method not found: x'}}
    assert jsonrpc.error_response(None, -32600, 'bad', {'why': 1})['error'] == {
        'code': -32600, 'message': 'bad', 'data': {'why': 1}}


def test_notification_omits_absent_params():
    assert jsonrpc.notification('notifications/tools/list_changed') == {
        'jsonrpc': '2.0', 'method': 'notifications/tools/list_changed'}
    assert jsonrpc.notification('m', {'a': 1})['params'] == {'a': 1}


@pytest.mark.parametrize('message, kind', [
    ({'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}, 'request'),
    ({'jsonrpc': '2.0', 'id': 'abc', 'method': 'ping', 'params': {}}, 'request'),
    ({'jsonrpc': '2.0', 'id': 1.5, 'method': 'ping'}, 'request'),
    ({'jsonrpc': '2.0', 'id': 0, 'method': 'ping', 'params': [1]}, 'request'),
    ({'jsonrpc': '2.0', 'id': 1, 'method': 'ping', 'params': None}, 'request'),
    ({'jsonrpc': '2.0', 'method': 'notifications/initialized'}, 'notification'),
    ({'jsonrpc': '2.0', 'id': 1, 'result': {}}, 'response'),
    ({'jsonrpc': '2.0', 'id': None, 'error': {'code': -32700, 'message': 'x'}}, 'response'),
    ({'jsonrpc': '2.0', 'id': True, 'method': 'ping'}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': None, 'method': 'ping'}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': {}, 'method': 'ping'}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': 1, 'method': 5}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': 1, 'method': 'ping', 'params': 'x'}, 'invalid'),
    ({'jsonrpc': '1.0', 'id': 1, 'method': 'ping'}, 'invalid'),
    ({'jsonrpc': 2.0, 'id': 1, 'method': 'ping'}, 'invalid'),
    ({'id': 1, 'method': 'ping'}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': 1}, 'invalid'),
    ({'jsonrpc': '2.0', 'id': 1, 'result': 1, 'error': {}}, 'invalid'),
    ({'jsonrpc': '2.0', 'result': 1}, 'invalid'),
    ([], 'invalid'),
    ('ping', 'invalid'),
    (None, 'invalid'),
    (42, 'invalid'),
])
def test_classify(message, kind):
    assert classify(message) == kind


@pytest.mark.parametrize('message, reason', [
    ('text', 'expected a JSON object, got string'),
    ([1], 'expected a JSON object, got array'),
    ({'id': 1, 'method': 'ping'}, 'jsonrpc must be "2.0"'),
    ({'jsonrpc': '2.0', 'id': 1, 'method': None}, 'method must be a string'),
    ({'jsonrpc': '2.0', 'id': False, 'method': 'ping'}, 'id must be a string or a number'),
    ({'jsonrpc': '2.0', 'id': 1, 'method': 'ping', 'params': 3}, 'params must be an object or an array'),
    ({'jsonrpc': '2.0'}, 'a message needs a method (request or notification) or an id (response)'),
    ({'jsonrpc': '2.0', 'id': 1}, 'a response needs exactly one of result and error'),
])
def test_invalid_reason_says_what_is_wrong(message, reason):
    assert invalid_reason(message) == reason


def test_has_key_only_looks_at_objects():
    assert has_key({'id': None}, 'id')
    assert not has_key({'x': 1}, 'id')
    assert not has_key(['id'], 'id'), 'an element of a list is not a key'
    assert not has_key('the id', 'id'), 'a substring is not a key'
    assert not has_key(None, 'id')


def test_request_id_of_echoes_only_usable_ids():
    assert request_id_of({'id': 3, 'method': 5}) == 3
    assert request_id_of({'id': 'x'}) == 'x'
    assert request_id_of({'id': True}) is None
    assert request_id_of({'id': [1]}) is None
    assert request_id_of('nope') is None
