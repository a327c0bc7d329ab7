"""The system prompt: who the assistant is, the workspace it is looking at, and (in text mode) the
tools and the ```tool protocol. The workspace arrives as data the host gathered:

    {'folders': ['/home/me/project'],
     'activeFile': {'path': 'src/app.py', 'language': 'python', 'line': 12,
                    'selection': {'startLine': 10, 'endLine': 14, 'text': '...'}},
     'openTabs': ['src/app.py', 'README.md'],
     'errors': [{'path': 'src/app.py', 'line': 3, 'message': "undefined name 'x'"}],
     'gitBranch': 'main'}

Every field is optional; long lists and selections are clipped so the prompt stays small.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json
from hermes.core.tools import Tool
# __pragma__('noskip')
from hermes.core.values import json_type, is_object, get_key
from hermes.core.tool_text import protocol_prompt
from hermes.core.output_text import cut_note

MAX_TABS = 30
MAX_ERRORS = 20
MAX_SELECTION_CHARS = 4000

IDENTITY = (
    'You are Hermes, a coding assistant inside the user\'s VS Code window. You can use tools that '
    'read and change this workspace: files, editors, terminals, commands, git and language features. '
    'Prefer looking things up with tools over guessing. Before changing files or running commands, '
    'say briefly what you are about to do; the user may be asked to confirm. Keep answers short and '
    'concrete, and use Markdown code blocks for code.'
)


def build_system_prompt(workspace: 'Json' = None, tools: 'Optional[List[Tool]]' = None, text_protocol: bool = False,
                        instructions: 'Optional[str]' = None) -> str:
    """`tools`: registry Tools, described in the prompt only for the text protocol (native tool
    calling sends them in the request instead). `instructions`: extra text from the user or front end."""
    sections = [IDENTITY]
    if instructions is not None and instructions != '':
        sections.append(instructions)
    context = workspace_section(workspace)
    if context != '':
        sections.append(context)
    if text_protocol and tools is not None and len(tools) > 0:
        sections.append(protocol_prompt(tools))
    return '\n\n'.join(sections)


def workspace_section(workspace: 'Json') -> str:
    if not is_object(workspace):
        return ''
    lines = []
    folders = _strings(get_key(workspace, 'folders'))
    if len(folders) > 0:
        lines.append('Workspace folders: ' + ', '.join(folders))
    branch = get_key(workspace, 'gitBranch')
    if json_type(branch) == 'string' and branch != '':
        lines.append('Git branch: ' + branch)
    active = get_key(workspace, 'activeFile')
    if is_object(active) and json_type(get_key(active, 'path')) == 'string':
        text = 'Active file: ' + active['path']
        language = get_key(active, 'language')
        if json_type(language) == 'string' and language != '':
            text += ' (' + language + ')'
        line = get_key(active, 'line')
        if json_type(line) == 'integer':
            text += ', cursor on line ' + str(line)
        lines.append(text)
        selection = get_key(active, 'selection')
        if is_object(selection) and json_type(get_key(selection, 'text')) == 'string' and selection['text'] != '':
            selected = selection['text']
            clipped = cut_note(selected, MAX_SELECTION_CHARS)  # after the code fence that holds the cut text
            selected = selected[:MAX_SELECTION_CHARS]
            where = ''
            start, end = get_key(selection, 'startLine'), get_key(selection, 'endLine')
            if json_type(start) == 'integer' and json_type(end) == 'integer':
                where = ' (lines ' + str(start) + '–' + str(end) + ')'
            lines.append('Selected text' + where + ':\n```\n' + selected + '\n```' + clipped)
    tabs = _strings(get_key(workspace, 'openTabs'))
    if len(tabs) > 0:
        more = ''
        if len(tabs) > MAX_TABS:
            more = ' (and ' + str(len(tabs) - MAX_TABS) + ' more)'
            tabs = tabs[:MAX_TABS]
        lines.append('Open tabs: ' + ', '.join(tabs) + more)
    errors = get_key(workspace, 'errors')
    if json_type(errors) == 'array' and len(errors) > 0:
        shown = errors[:MAX_ERRORS]
        lines.append('Errors in the workspace (' + str(len(errors)) + '):')
        for error in shown:
            lines.append('- ' + _problem(error))
        if len(errors) > MAX_ERRORS:
            lines.append('- … ' + str(len(errors) - MAX_ERRORS) + ' more')
    if len(lines) == 0:
        return ''
    return '## Workspace\n' + '\n'.join(lines)


def _problem(error: 'Json') -> str:
    if json_type(error) == 'string':
        return error
    if not is_object(error):
        return str(error)
    where = get_key(error, 'path', '')
    line = get_key(error, 'line')
    if json_type(line) == 'integer':
        where = where + ':' + str(line)
    message = get_key(error, 'message', '')
    return (where + ': ' if where != '' else '') + str(message)


def _strings(value: 'Json') -> 'List[str]':
    if json_type(value) != 'array':
        return []
    return [item for item in value if json_type(item) == 'string']
