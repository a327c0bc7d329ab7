"""The messages the side panel's webview may send to the extension host, and their one validator.

A webview is a web page showing model output: treat everything it sends as untrusted. Every message
passes `parse_webview_message` before the host acts on it; the result is a fresh dict holding only
the declared fields, with their declared types and sizes. Anything else raises `ProtocolError`
with a reason the host logs. Pure: no vscode, no Node (tested under CPython and transpiled).

The messages and their fields are declared once, in contracts/panel.py `FromWebview`; the table this module
reads, ui/panel/messages.py `MESSAGES`, is generated from it (scripts/gen_panel_protocol.py).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.ui.panel.messages import Field
# __pragma__('noskip')
from hermes.js.objects import keys_of
from hermes.core.values import json_type
from hermes.ui.panel.messages import MESSAGES


class ProtocolError(Exception):
    """A message from the webview that the host refuses; the message text says why."""


def message_types() -> 'List[str]':
    return [entry[0] for entry in MESSAGES]


def _fields_of(kind: str) -> 'Optional[List[Field]]':
    for entry in MESSAGES:
        if entry[0] == kind:
            return entry[1]
    return None


def parse_webview_message(raw: 'Json') -> 'JsonObject':
    """A validated copy of `raw`, or ProtocolError naming what is wrong."""
    if json_type(raw) != 'object':
        raise ProtocolError('expected an object, got ' + json_type(raw))
    keys = keys_of(raw)
    if 'type' not in keys:
        raise ProtocolError('missing "type"')
    kind = raw['type']
    if json_type(kind) != 'string':
        raise ProtocolError('"type" must be a string, got ' + json_type(kind))
    fields = _fields_of(kind)
    if fields is None:
        raise ProtocolError('unknown message type "' + kind[:40] + '"')
    allowed = ['type']
    allowed.extend([field[0] for field in fields])
    for key in keys:
        if key not in allowed:
            raise ProtocolError('"' + kind + '" has an unexpected field "' + str(key)[:40] + '"')
    message = {'type': kind}  # type: JsonObject
    for field in fields:
        name, expected, limit, may_be_blank = field[0], field[1], field[2], field[3]
        if name not in keys:
            raise ProtocolError('"' + kind + '" needs "' + name + '"')
        value = raw[name]
        actual = json_type(value)
        if actual != expected:
            raise ProtocolError('"' + kind + '.' + name + '" must be a ' + expected + ', got ' + actual)
        if len(value) > limit:
            raise ProtocolError('"' + kind + '.' + name + '" is too long (' + str(len(value)) + ' > ' +
                                str(limit) + ' characters)')
        if not may_be_blank and value.strip() == '':
            raise ProtocolError('"' + kind + '.' + name + '" is empty')
        message[name] = value
    return message
