"""MCP prompts `explain`, `fix` and `write_tests`: the tasks of @hermes's /explain, /fix and /test
(core/chat/prompts.py, one text for both), about a workspace file that comes embedded as a resource.

Arguments: `path` (workspace-relative or absolute inside the workspace, checked like the tools'
paths) and optional `selection`, a 1-based line range "START-END" (or one line "N") the task is
about. The host provides `confine(path_text)` → absolute path, `async read_file(path)` →
{'text', 'size'} and `file_uri(path)`, `display_path(path)`.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.method_table import Handler
# __pragma__('noskip')
from hermes.js.errors import error_message
from hermes.core.values import json_type, get_key
from hermes.core.tools import ToolError
from hermes.core.jsonrpc import INVALID_PARAMS
from hermes.core.mcp.protocol import ProtocolError
from hermes.core.mcp.resources import mime_type
from hermes.core.method_table import MethodTable
from hermes.core.chat.prompts import task_prompt

PATH_ARGUMENT = {'name': 'path', 'description': 'The file, relative to the workspace (e.g. "src/app.py").',
                 'required': True}
SELECTION_ARGUMENT = {'name': 'selection', 'required': False,
                      'description': 'Only these lines: "START-END" (1-based, inclusive) or one line "N".'}
PROMPTS = [
    {'name': 'explain', 'task': 'explain', 'title': 'Explain code',
     'description': 'Explain a file (or some of its lines): what it does, how it works, anything surprising.'},
    {'name': 'fix', 'task': 'fix', 'title': 'Fix problems',
     'description': 'Find and fix the bugs and reported problems in a file (or some of its lines).'},
    {'name': 'write_tests', 'task': 'test', 'title': 'Write tests',
     'description': 'Write tests for a file (or some of its lines) in the project\'s style, and run them.'},
]


def find_prompt(name: 'Json') -> 'Optional[Dict[str, str]]':
    for prompt in PROMPTS:
        if prompt['name'] == name:
            return prompt
    return None


def parse_line_range(text: str, line_count: int) -> 'List[int]':
    """[start, end] (1-based, inclusive) from "START-END" or "N"; a ProtocolError saying what is wrong."""
    parts = text.strip().split('-')
    if len(parts) > 2 or len([part for part in parts if not part.strip().isdigit() or len(part.strip()) > 9]) > 0:
        raise ProtocolError(INVALID_PARAMS, 'selection must be a line range "START-END" or a line "N", not "' +
                            text + '"')
    start = int(parts[0].strip())  # transcrypt-ok[int-text]: every part was checked with isdigit() above
    end = int(parts[len(parts) - 1].strip())  # transcrypt-ok[int-text]: checked above
    if start < 1 or end < start or start > line_count:
        raise ProtocolError(INVALID_PARAMS, 'selection "' + text + '" is not a line range of the file (it has ' +
                            str(line_count) + ' lines)')
    return [start, min(end, line_count)]


class McpPrompts:
    def __init__(self, files: 'Any') -> None:
        self.files = files
        self._methods = MethodTable({'prompts/list': self._list, 'prompts/get': self._get})

    def capabilities(self) -> 'JsonObject':
        return {'prompts': {'listChanged': False}}

    def handler(self, method: str) -> 'Optional[Handler]':
        return self._methods.get(method)

    def close(self) -> None:
        pass

    async def _list(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        return {'prompts': [{'name': prompt['name'], 'title': prompt['title'], 'description': prompt['description'],
                             'arguments': [dict(PATH_ARGUMENT), dict(SELECTION_ARGUMENT)]} for prompt in PROMPTS]}

    async def _get(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        name = get_key(params, 'name')
        prompt = find_prompt(name) if json_type(name) == 'string' else None
        if prompt is None:
            raise ProtocolError(INVALID_PARAMS, 'Unknown prompt: ' + str(name) + ' (prompts: ' +
                                ', '.join([item['name'] for item in PROMPTS]) + ')')
        arguments = get_key(params, 'arguments')
        path_text = get_key(arguments, 'path')
        if json_type(path_text) != 'string' or path_text.strip() == '':
            raise ProtocolError(INVALID_PARAMS, 'prompts/get ' + name + ': the argument "path" is required (a file '
                                'relative to the workspace)')
        selection = get_key(arguments, 'selection')
        if selection is not None and json_type(selection) != 'string':
            raise ProtocolError(INVALID_PARAMS, 'selection must be a string such as "10-20"')
        try:
            path = self.files.confine(path_text)
            content = await self.files.read_file(path)
        except ToolError as error:
            raise ProtocolError(INVALID_PARAMS, error_message(error))
        shown = self.files.display_path(path)
        text = content['text']
        subject = '`' + shown + '`'
        excerpt = ''
        if selection is not None and selection.strip() != '':
            lines = text.split('\n')
            span = parse_line_range(selection, len(lines))
            subject = 'lines ' + str(span[0]) + '-' + str(span[1]) + ' of `' + shown + '`'
            chosen = '\n'.join(lines[span[0] - 1:span[1]])
            fence = '````' if chosen.find('```') >= 0 else '```'
            excerpt = '\n\n' + fence + '\n' + chosen + '\n' + fence
        resource = {'uri': self.files.file_uri(path), 'mimeType': mime_type(path), 'text': text}
        return {
            'description': prompt['title'] + ': ' + subject.replace('`', ''),
            'messages': [
                {'role': 'user', 'content': {'type': 'resource', 'resource': resource}},
                {'role': 'user', 'content': {'type': 'text',
                                             'text': task_prompt(prompt['task'], subject) + excerpt}},
            ],
        }
