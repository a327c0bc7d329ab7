"""JSON-RPC 2.0 messages as plain dicts: classify what came in, build what goes out.

Nothing here knows about MCP or about transports; `hermes.core.mcp.protocol` uses it.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Final, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.jsonrpc import (JsonRpcError, JsonRpcErrorObject, JsonRpcNotification, JsonRpcResult,
                                      RequestId)
# __pragma__('noskip')
from hermes.js.objects import or_none
from hermes.core import values
from hermes.core.values import json_type, get_key

# Part of this module's API. A bare re-import would not do: Transcrypt exports only names a
# module assigns itself, so `from hermes.core.jsonrpc import has_key` would break the bundle.
has_key = values.has_key

JSONRPC_VERSION = '2.0'  # type: Final

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def result_response(request_id: 'RequestId', result: 'Json') -> 'JsonRpcResult':
    return {'jsonrpc': JSONRPC_VERSION, 'id': or_none(request_id), 'result': result}


def error_response(request_id: 'RequestId', code: int, message: str, data: 'Json' = None) -> 'JsonRpcError':
    error = {'code': code, 'message': message}  # type: JsonRpcErrorObject
    if data is not None:
        error['data'] = data
    return {'jsonrpc': JSONRPC_VERSION, 'id': or_none(request_id), 'error': error}


def notification(method: str, params: 'Optional[JsonObject]' = None) -> 'JsonRpcNotification':
    message = {'jsonrpc': JSONRPC_VERSION, 'method': method}  # type: JsonRpcNotification
    if params is not None:
        message['params'] = params
    return message


def is_valid_id(value: 'Json') -> bool:
    """Request ids are strings or numbers; null and booleans are not (True is no number here)."""
    kind = json_type(value)
    return kind == 'string' or kind == 'integer' or kind == 'number'


def request_id_of(message: 'Json') -> 'RequestId':
    """The id to answer an invalid message with: its own id when that is usable, else None."""
    request_id = get_key(message, 'id')
    return request_id if is_valid_id(request_id) else None


def invalid_reason(message: 'Json') -> 'Optional[str]':
    """Why `message` is not a JSON-RPC 2.0 request, notification or response; None when it is one."""
    if json_type(message) != 'object':
        return 'expected a JSON object, got ' + json_type(message)
    version = get_key(message, 'jsonrpc')
    if json_type(version) != 'string' or version != JSONRPC_VERSION:
        return 'jsonrpc must be "2.0"'
    if has_key(message, 'method'):
        return _invalid_call_reason(message)
    return _invalid_response_reason(message)


def _invalid_call_reason(message: 'JsonObject') -> 'Optional[str]':
    if json_type(message['method']) != 'string':
        return 'method must be a string'
    if has_key(message, 'id') and not is_valid_id(message['id']):
        return 'id must be a string or a number'
    # A null `params` is treated as absent: lenient towards clients that always send the key.
    params_type = json_type(get_key(message, 'params'))
    if params_type != 'null' and params_type != 'object' and params_type != 'array':
        return 'params must be an object or an array'
    return None


def _invalid_response_reason(message: 'JsonObject') -> 'Optional[str]':
    if not has_key(message, 'id'):
        return 'a message needs a method (request or notification) or an id (response)'
    if has_key(message, 'result') == has_key(message, 'error'):
        return 'a response needs exactly one of result and error'
    return None


def classify(message: 'Json') -> str:
    """'request' | 'notification' | 'response' | 'invalid'."""
    if invalid_reason(message) is not None:
        return 'invalid'
    if has_key(message, 'method'):
        return 'request' if has_key(message, 'id') else 'notification'
    return 'response'
