"""Hermes tools as VS Code language-model tools, and how a tool call reads to a person — pure.

One registry Tool ↔ one VS Code tool named `hermes_<tool>` (also its `#hermes_<tool>` reference
name in the chat input): the prefix keeps ours apart from other extensions' tools. The
`contributes.languageModelTools` entries in package.json are generated from `contribution(tool)`
at build time (scripts/gen_contributions.py), and `ui/lm_tools.py` registers the same names.

`describe_call` turns a call into the words a chat shows while it runs ("Reading src/app.ts…");
`touched_paths` lists the files a call names, for the chat's references.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.tools import Tool
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.core.values import json_type, is_object, get_key
from hermes.core.dialog_text import escape_invisible

PREFIX = 'hermes_'
ICONS = [('file_', '$(file)'), ('editor_', '$(edit)'), ('terminal_', '$(terminal)'), ('git_', '$(git-branch)'),
         ('debug_', '$(debug-alt)'), ('lsp_', '$(symbol-method)'), ('workspace_', '$(folder)'),
         ('command_', '$(run)')]
DEFAULT_ICON = '$(tools)'
# (words in the tool's name, verb): the first match wins.
VERBS = [
    (['search', 'content'], 'Searching for'), (['search'], 'Finding files matching'), (['read'], 'Reading'),
    (['get', 'content'], 'Reading'), (['write'], 'Writing'), (['create'], 'Creating'), (['delete'], 'Deleting'),
    (['edit'], 'Editing'), (['rename'], 'Renaming'), (['open', 'diff'], 'Proposing changes to'),
    (['open'], 'Opening'), (['close'], 'Closing'), (['list'], 'Listing'), (['run'], 'Running'),
    (['execute'], 'Running'), (['send'], 'Sending to'), (['kill'], 'Stopping'), (['stop'], 'Stopping'),
    (['start'], 'Starting'), (['evaluate'], 'Evaluating'), (['diff'], 'Diffing'), (['definition'], 'Finding the definition in'),
    (['references'], 'Finding references in'), (['hover'], 'Looking up'), (['symbols'], 'Listing symbols in'),
    (['command'], 'Running'),
]
SUBJECT_KEYS = ['path', 'file', 'uri', 'query', 'pattern', 'command', 'args', 'name', 'expression', 'text']
PATH_KEYS = ['path', 'file', 'old_path', 'new_path', 'target']
SUBJECT_LIMIT = 80


def lm_tool_name(tool_name: str) -> str:
    return PREFIX + tool_name


def registry_name(lm_name: 'Json') -> 'Optional[str]':
    """`hermes_file_read` → `file_read`; None for a name that is not ours."""
    if json_type(lm_name) != 'string' or not lm_name.startswith(PREFIX):
        return None
    return lm_name[len(PREFIX):]


def first_sentence(text: 'Json', limit: int = 160) -> str:
    if json_type(text) != 'string':
        return ''
    end = text.find('. ')
    sentence = text if end < 0 else text[:end + 1]
    if len(sentence) > limit:
        sentence = sentence[:limit - 1].rstrip() + '…'
    return sentence


def icon_for(tool_name: str) -> str:
    for entry in ICONS:
        if tool_name.startswith(entry[0]):
            return entry[1]
    return DEFAULT_ICON


def contribution(tool: 'Tool') -> 'JsonObject':
    """The package.json `contributes.languageModelTools` entry for a registry Tool."""
    name = lm_tool_name(tool.name)
    tags = ['hermes', 'read-only' if tool.read_only else ('destructive' if tool.destructive else 'changes-state')]
    return {
        'name': name,
        'toolReferenceName': name,
        'displayName': 'Hermes: ' + (tool.title or tool.name),
        'modelDescription': tool.description,
        'userDescription': first_sentence(tool.description),
        'canBeReferencedInPrompt': True,
        'icon': icon_for(tool.name),
        'tags': tags,
        'inputSchema': tool.input_schema,
    }


def contributions(tools: 'List[Tool]') -> 'List[JsonObject]':
    return [contribution(tool) for tool in tools]


# ------------------------------------------------------------------------------------ how a call reads


def _verb(tool_name: str) -> 'Optional[str]':
    words = tool_name.split('_')
    for entry in VERBS:
        matched = True
        for word in entry[0]:
            if not (word in words):
                matched = False
        if matched:
            return entry[1]
    return None


def _subject(arguments: 'Json') -> 'Optional[str]':
    if not is_object(arguments):
        return None
    for key in SUBJECT_KEYS:
        value = get_key(arguments, key)
        if json_type(value) == 'string' and value.strip() != '':
            text = value.strip().split('\n')[0]
        elif json_type(value) == 'array' and len(value) > 0:
            text = ' '.join([item if json_type(item) == 'string' else dump_json(item) for item in value])
        else:
            continue
        if len(text) > SUBJECT_LIMIT:
            text = text[:SUBJECT_LIMIT - 1] + '…'
        if key == 'query' or key == 'pattern':
            return '"' + text + '"'
        if key == 'command' or key == 'args' or key == 'expression' or key == 'text':
            return '`' + text.replace('`', "'") + '`'
        return text
    return None


def describe_call(tool_name: str, arguments: 'Json', title: 'Json' = None) -> str:
    """'Reading src/app.ts…', 'Running `npm test`…', or the tool's title: what a call is doing."""
    verb = _verb(tool_name)
    subject = _subject(arguments)
    if tool_name.startswith('git_') and verb == 'Running' and subject is not None:
        subject = '`git ' + subject[1:]
    if verb is not None and subject is not None:
        return verb + ' ' + subject + '…'
    label = title if json_type(title) == 'string' and title != '' else tool_name
    if subject is not None:
        return label + ': ' + subject + '…'
    return label + '…'


def touched_paths(arguments: 'Json') -> 'List[str]':
    """The file paths a call's arguments name (for 'used references'), in order, without repeats."""
    paths = []  # type: List[str]
    if not is_object(arguments):
        return paths
    for key in PATH_KEYS:
        value = get_key(arguments, key)
        if json_type(value) == 'string' and value.strip() != '' and not (value in paths):
            paths.append(value)
    for key in ['paths', 'files']:
        value = get_key(arguments, key)
        if json_type(value) == 'array':
            for item in value:
                if json_type(item) == 'string' and item.strip() != '' and not (item in paths):
                    paths.append(item)
    return paths


def confirmation(tool: 'Tool', arguments: 'Json') -> 'Dict[str, str]':
    """{'title', 'message'} (message is Markdown) for VS Code's confirmation of a call. It stands in for the
    gate's own dialog (host/approval.py), so it shows what that dialog shows: every argument, never cut,
    invisible and bidi characters escaped. (No argument can close the code fence: pretty-printed JSON has no
    line that starts with a backtick.)"""
    detail = escape_invisible(dump_json(arguments if is_object(arguments) else {}, 2), True)
    title = tool.title or tool.name
    message = ('Hermes tool `' + tool.name + '`: ' + first_sentence(tool.description, 300) + '\n\n' +
               '```json\n' + detail + '\n```')
    return {'title': 'Run "' + title + '"?', 'message': message}
