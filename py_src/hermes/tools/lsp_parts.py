"""Parts the language-intelligence tools share: how a position is asked for, and how a location reads."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')

# 1-based, as editors show them; the language service turns them into VS Code's 0-based positions.
POSITION_PROPERTIES = {
    'path': {'type': 'string', 'description': 'The file, workspace-relative.'},
    'line': {'type': 'integer', 'minimum': 1, 'description': '1-based line.'},
    'column': {'type': 'integer', 'minimum': 1,
               'description': '1-based column (default: the symbol on that line, else its first non-blank character).'},
    'symbol': {'type': 'string', 'minLength': 1,
               'description': 'Instead of a column: the identifier to look up (its declaration in the file, or its '
                              'first occurrence; on `line` if given).'},
}  # type: JsonObject


def position_schema(extra: 'Optional[JsonObject]' = None, required: 'Optional[List[str]]' = None) -> 'JsonObject':
    """The input schema of a tool that takes a position (POSITION_PROPERTIES) plus `extra` properties."""
    properties = {}  # type: JsonObject
    for key in ['path', 'line', 'column', 'symbol']:
        properties[key] = POSITION_PROPERTIES[key]
    if extra is not None:
        for key in extra.keys():
            properties[key] = extra[key]
    names = ['path']
    if required is not None:
        names.extend(required)
    return {'type': 'object', 'properties': properties, 'required': names, 'additionalProperties': False}


def plain_location(location: 'JsonObject') -> 'JsonObject':
    """A location dict (contracts/services.py Language) without its vscode.Uri: what goes into structuredContent."""
    result = {}  # type: JsonObject
    for key in ['path', 'uri', 'line', 'column', 'endLine', 'endColumn', 'text']:
        if key in location:
            result[key] = location[key]
    return result


def location_line(location: 'JsonObject') -> str:
    """'path:line:column  text' (a location outside the workspace: its path alone, which says so)."""
    where = location['path'] + ('' if location['line'] is None else ':' + str(location['line']) + ':' +
                                str(location['column']))
    return where + ('  ' + location['text'] if 'text' in location else '')
