"""Parts the language-intelligence tools share."""
# __pragma__('tconv')
from hermes.js.objects import is_none
from hermes.host.language import POSITION_PROPERTIES


def position_schema(extra=None, required=None):
    """The input schema of a tool that takes a position (POSITION_PROPERTIES) plus `extra` properties."""
    properties = {}
    for key in ['path', 'line', 'column', 'symbol']:
        properties[key] = POSITION_PROPERTIES[key]
    if not is_none(extra):
        for key in extra.keys():
            properties[key] = extra[key]
    names = ['path']
    if not is_none(required):
        names.extend(required)
    return {'type': 'object', 'properties': properties, 'required': names, 'additionalProperties': False}
