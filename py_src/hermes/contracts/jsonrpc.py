"""JSON-RPC 2.0 messages (core/jsonrpc.py builds and classifies them)."""
# __pragma__('skip')
from typing import Literal, TypedDict, Union

from hermes.contracts.json import Json, JsonObject

RequestId = Union[str, int, None]


class JsonRpcErrorObject(TypedDict, total=False):
    code: int  # required in practice: PARSE_ERROR … INTERNAL_ERROR, or a protocol's own
    message: str
    data: Json


class JsonRpcRequest(TypedDict, total=False):
    jsonrpc: Literal['2.0']
    id: RequestId
    method: str
    params: JsonObject


class JsonRpcNotification(TypedDict, total=False):
    jsonrpc: Literal['2.0']
    method: str
    params: JsonObject


class JsonRpcResult(TypedDict):
    jsonrpc: Literal['2.0']
    id: RequestId
    result: Json


class JsonRpcError(TypedDict):
    jsonrpc: Literal['2.0']
    id: RequestId
    error: JsonRpcErrorObject


JsonRpcResponse = Union[JsonRpcResult, JsonRpcError]
# __pragma__('noskip')
