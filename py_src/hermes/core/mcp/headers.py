"""The request metadata a 2026-07-28 request mirrors into headers, checked against its body.

Streamable HTTP copies `_meta`'s protocol version, the method, the tool/prompt name or resource
URI, and tool arguments marked `x-mcp-header` in their schema into `MCP-Protocol-Version`,
`Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}`, so that proxies can route without reading the
body. A server that reads the body MUST refuse a request whose headers say something else
(HeaderMismatch): a proxy and this server must never act on two different requests.

`headers` maps lower-case header names to values (Node's `request.headers`); nothing here knows
about HTTP beyond that, so any transport that mirrors metadata can use it.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import Json
# __pragma__('noskip')
from hermes.js.text import base64_utf8, utf8_base64
from hermes.core.values import json_type, get_key, is_object, object_keys

BASE64_PREFIX = '=?base64?'
BASE64_SUFFIX = '?='
NAME_FIELDS = {'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri'}


def header_value(headers: 'Json', name: str) -> 'Optional[str]':
    """The value of header `name` (lower case), or None when it is absent."""
    value = get_key(headers, name)
    return value if json_type(value) == 'string' else None


def encode_mirrored(value: str) -> str:
    """How a client mirrors `value` into a header: as it is when a header can carry it unchanged, else
    `=?base64?…?=` (non-ASCII, control characters, surrounding spaces, or text that looks encoded)."""
    if _header_safe(value) and value == value.strip() and value.find('\t') < 0 \
            and not (value.startswith(BASE64_PREFIX) and value.endswith(BASE64_SUFFIX)):
        return value
    return BASE64_PREFIX + utf8_base64(value) + BASE64_SUFFIX


def mirrored_headers(message: 'Json') -> 'Optional[Dict[str, str]]':
    """The headers a client sends with a single 2026-07-28 request (its `_meta` names the version),
    else None. Tool arguments marked `x-mcp-header` are not among them: that needs the tool's schema."""
    if not is_object(message) or json_type(get_key(message, 'method')) != 'string':
        return None
    params = get_key(message, 'params')
    version = get_key(get_key(params, '_meta'), 'io.modelcontextprotocol/protocolVersion')
    if json_type(version) != 'string':
        return None
    method = message['method']
    headers = {'MCP-Protocol-Version': version, 'Mcp-Method': method}
    field = name_field(method)
    name = None if field is None else get_key(params, field)  # type: Any
    if json_type(name) == 'string':
        headers['Mcp-Name'] = encode_mirrored(name)
    return headers


def decode_mirrored(value: str) -> 'Optional[str]':
    """What a mirrored header value stands for: `=?base64?…?=` decoded, anything else literally.
    None when the value is malformed (bad Base64, not UTF-8, or characters a header may not carry)."""
    if not _header_safe(value):
        return None
    if len(value) >= len(BASE64_PREFIX) + len(BASE64_SUFFIX) and value.startswith(BASE64_PREFIX) \
            and value.endswith(BASE64_SUFFIX):
        return base64_utf8(value[len(BASE64_PREFIX):len(value) - len(BASE64_SUFFIX)])
    return value


def _header_safe(value: str) -> bool:
    """RFC 9110 field values: visible ASCII, space and tab."""
    for index in range(len(value)):
        code = ord(value[index])
        if not (code == 9 or (code >= 32 and code <= 126)):
            return False
    return True


def name_field(method: 'Json') -> 'Optional[str]':
    """The params field `Mcp-Name` mirrors for `method` ('name', 'uri'), or None."""
    for known in ['tools/call', 'prompts/get', 'resources/read']:
        if method == known:
            return NAME_FIELDS[known]
    return None


def header_mismatch(headers: 'Json', method: str, params: 'Json', version: 'Json', input_schema: 'Json' = None,
                    mirrored: 'Optional[List[Any]]' = None) -> 'Optional[str]':
    """Why the mirrored headers disagree with the body (the HeaderMismatch message), or None.

    `version` is the body's `_meta` protocol version; `input_schema` is the called tool's, for
    `tools/call` (its `x-mcp-header` properties must be mirrored exactly); `mirrored`: its
    `mirrored_params`, when the caller keeps them (then `input_schema` is not walked)."""
    protocol = header_value(headers, 'mcp-protocol-version')
    if protocol is None:
        return 'Header mismatch: the MCP-Protocol-Version header is required'
    if protocol != version:
        return ("Header mismatch: MCP-Protocol-Version header value '" + protocol +
                "' does not match _meta io.modelcontextprotocol/protocolVersion '" + str(version) + "'")
    problem = _compare('Mcp-Method', header_value(headers, 'mcp-method'), method, False)
    if problem is not None:
        return problem
    field = name_field(method)
    if field is not None:
        problem = _compare('Mcp-Name', header_value(headers, 'mcp-name'), get_key(params, field), True)
        if problem is not None:
            return problem
    if method == 'tools/call' and (is_object(input_schema) or mirrored is not None):
        if mirrored is None:
            mirrored = mirrored_params(input_schema)
        return _params_mismatch(headers, mirrored, get_key(params, 'arguments'))
    return None


def _compare(header: str, raw: 'Optional[str]', body_value: 'Json', encoded: bool) -> 'Optional[str]':
    if raw is None:
        if body_value is None:
            return None
        return 'Header mismatch: the ' + header + ' header is required'
    value = decode_mirrored(raw) if encoded else raw
    if value is None:
        return 'Header mismatch: the ' + header + ' header value is malformed'
    if json_type(body_value) != 'string' or value != body_value:
        return ('Header mismatch: ' + header + " header value '" + raw + "' does not match body value '" +
                str(body_value) + "'")
    return None


def mirrored_params(input_schema: 'Json') -> 'List[Any]':
    """[[property path, header name]] for every `x-mcp-header` reachable through `properties` alone."""
    found = []  # type: List[Any]
    _collect(input_schema, [], found)
    return found


def _collect(schema: 'Json', path: 'List[str]', found: 'List[Any]') -> None:
    properties = get_key(schema, 'properties')
    if not is_object(properties):
        return
    for key in object_keys(properties):
        child = properties[key]
        if not is_object(child):
            continue
        child_path = path[:]
        child_path.append(key)
        header = get_key(child, 'x-mcp-header')
        if json_type(header) == 'string' and header != '':
            found.append([child_path, header])
        _collect(child, child_path, found)


def _params_mismatch(headers: 'Json', mirrored: 'List[Any]', arguments: 'Json') -> 'Optional[str]':
    for entry in mirrored:
        header = 'Mcp-Param-' + entry[1]
        raw = header_value(headers, header.lower())
        value = _value_at(arguments, entry[0])
        if value is None:
            if raw is not None:
                return 'Header mismatch: ' + header + ' is present but the argument it mirrors is not'
            continue
        if raw is None:
            return 'Header mismatch: the ' + header + ' header is required (the argument is in the body)'
        decoded = decode_mirrored(raw)
        if decoded is None:
            return 'Header mismatch: the ' + header + ' header value is malformed'
        if not _same_value(decoded, value):
            return 'Header mismatch: ' + header + " header value '" + raw + "' does not match the body's argument"
    return None


def _value_at(arguments: 'Json', path: 'List[str]') -> 'Json':
    value = arguments
    for key in path:
        value = get_key(value, key)
        if value is None:
            return None
    return value


def _same_value(text: str, value: 'Json') -> bool:
    kind = json_type(value)
    if kind == 'string':
        return text == value
    if kind == 'boolean':
        return text == ('true' if value else 'false')
    if kind == 'integer' or kind == 'number':
        # Numerically: '42.0' mirrors 42. float() raises on text that is no number.
        try:
            return float(text) == value
        except ValueError:
            return False
    return False
