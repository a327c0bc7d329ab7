"""The @hermes chat participant's words and memory, free of VS Code: its contribution (id, slash
commands), the user message a request becomes (command, prompt, #file references), /help, the
follow-ups it suggests, and the conversation rebuilt from VS Code's chat history.

History: VS Code gives a participant its earlier turns (`ChatContext.history`): request turns
(`prompt`, `command`) and response turns (`response` parts, `result.metadata`). Each answer stores
the LLM's own view of its turn in `result.metadata['hermes']['messages']` (the user message as
sent, the assistant replies with their tool calls, the tool results, shortened), so the next turn
sees what the model saw; turns without it (another version, an error before the run) fall back
to the prompt and the answer's Markdown.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.tools import Tool
# __pragma__('noskip')
from hermes.js.json import dump_json, parse_json
from hermes.core.values import json_type, is_object, get_key
from hermes.core.chat.messages import prop
from hermes.core.lm_tools import first_sentence
from hermes.core.output_text import cap_chars, cut_note

PARTICIPANT_ID = 'hermes.agent'
PARTICIPANT_NAME = 'hermes'
PARTICIPANT_FULL_NAME = 'Hermes Agent'
PARTICIPANT_DESCRIPTION = 'Ask Hermes: your own LLM with tools that drive this VS Code window'
VENDOR = 'hermes'
VENDOR_DISPLAY_NAME = 'Hermes Agent'
METADATA_VERSION = 1
STORED_USER_CHARS = 12000
STORED_TOOL_CHARS = 2000
REFERENCE_CHARS = 20000  # of one #file reference's text in the prompt
REFERENCES_TOTAL_CHARS = 60000

COMMANDS = [
    {'name': 'help', 'description': 'What Hermes can do here, and the tools it uses'},
    {'name': 'explain', 'description': 'Explain the selected code, the active file, or a #file'},
    {'name': 'fix', 'description': 'Find and fix the problems in the selected code, the active file, or a #file'},
    {'name': 'test', 'description': 'Write tests for the selected code, the active file, or a #file, and run them'},
]
# The tasks behind /explain, /fix and /test; MCP clients get the same texts as the prompts `explain`, `fix`
# and `write_tests` (core/mcp/prompts.py), each naming its own {subject}.
CHAT_SUBJECT = 'the code in question (the #file references below, else the selected text, else the active file)'
TASKS = {
    'explain': ('Explain {subject}: what it does, how it works, and anything surprising. Read more of the workspace '
                'with the tools if that helps; do not change any file.'),
    'fix': ('Find the problems in {subject}: bugs, and the errors VS Code reports. Fix them with the tools, editing '
            'the files directly, then say briefly what you changed and why.'),
    'test': ('Write tests for {subject} in the style and framework of the project\'s existing tests. Add them to the '
             'right test file with the tools, run them if there is a way to, and report the result.'),
}


def task_prompt(command: str, subject: str) -> str:
    """The instruction for `command` ('explain', 'fix', 'test') about `subject`."""
    return TASKS[command].replace('{subject}', subject)  # transcrypt-ok[untrusted-key]: callers pass our own names


COMMAND_PROMPTS = {
    'explain': task_prompt('explain', CHAT_SUBJECT),
    'fix': task_prompt('fix', CHAT_SUBJECT),
    'test': task_prompt('test', CHAT_SUBJECT),
}
FOLLOWUPS = {
    'help': [{'prompt': 'Explain the active file', 'command': 'explain', 'label': 'Explain the active file'}],
    'explain': [{'prompt': 'Write tests for it', 'command': 'test', 'label': 'Write tests for this code'},
                {'prompt': 'Are there bugs in it? Fix them.', 'command': 'fix', 'label': 'Look for bugs and fix them'}],
    'fix': [{'prompt': 'Write tests that cover the fix', 'command': 'test', 'label': 'Write tests that cover the fix'}],
    'test': [{'prompt': 'Run the tests again and fix any failures', 'label': 'Run the tests again'}],
}
ERROR_FOLLOWUPS = {
    'unreachable': [{'prompt': 'Try again', 'label': 'Try again'}],
    'timeout': [{'prompt': 'Try again', 'label': 'Try again'}],
    'stream_cut': [{'prompt': 'Continue', 'label': 'Continue where the answer stopped'}],
    'max_iterations': [{'prompt': 'Continue', 'label': 'Continue'}],
}


def participant_contribution() -> 'List[JsonObject]':
    """package.json `contributes.chatParticipants` (generated, so ids and commands match the code)."""
    return [{
        'id': PARTICIPANT_ID,
        'name': PARTICIPANT_NAME,
        'fullName': PARTICIPANT_FULL_NAME,
        'description': PARTICIPANT_DESCRIPTION,
        'isSticky': True,
        'commands': [{'name': command['name'], 'description': command['description']} for command in COMMANDS],
    }]


def provider_contribution() -> 'List[JsonObject]':
    """package.json `contributes.languageModelChatProviders`."""
    return [{'vendor': VENDOR, 'displayName': VENDOR_DISPLAY_NAME}]


# ------------------------------------------------------------------------------------ the request

def user_message(prompt: 'Json', command: 'Json' = None, references: 'Json' = None) -> str:
    """The text of the user message for one request. `references`: [{'label', 'text', 'language'}]
    for the #file (and #selection, …) references, already read by the host; long ones are cut."""
    sections = []
    template = get_key(COMMAND_PROMPTS, command) if json_type(command) == 'string' else None
    if template is not None:
        sections.append('/' + command + ': ' + template)
    text = prompt.strip() if json_type(prompt) == 'string' else ''
    if text != '':
        sections.append(text)
    elif template is None:
        sections.append('(no question was typed)')
    block = references_block(references)
    if block != '':
        sections.append(block)
    return '\n\n'.join(sections)


def references_block(references: 'Json') -> str:
    if json_type(references) != 'array' or len(references) == 0:
        return ''
    parts = ['## Referenced context']
    budget = REFERENCES_TOTAL_CHARS
    for reference in references:
        label = get_key(reference, 'label', 'reference')
        text = get_key(reference, 'text')
        if json_type(text) != 'string':
            parts.append('### ' + label)
            continue
        limit = min(REFERENCE_CHARS, budget)
        note = cut_note(text, limit, '', 'read the rest with the tools')  # after the fence that holds the cut text
        text = text[:limit]
        budget -= len(text)
        fence = '````' if text.find('```') >= 0 else '```'
        language = get_key(reference, 'language', '')
        parts.append('### ' + label + '\n' + fence + (language or '') + '\n' + text + '\n' + fence + note)
    return '\n\n'.join(parts)


def help_markdown(tools: 'List[Tool]', model_description: str) -> str:
    """/help: no LLM involved. `tools`: registry Tools; `model_description`: 'qwen2.5:7b at http://…'."""
    lines = ['**Hermes Agent** answers with **' + model_description + '** and can use ' + str(len(tools)) +
             ' tools that work in this VS Code window. It runs on the Hermes model picked in the chat\'s model '
             'picker, or else on `hermes.llm.model` (settings `hermes.llm.*`).', '',
             '**Commands**', '']
    for command in COMMANDS:
        lines.append('- `/' + command['name'] + '` — ' + command['description'])
    lines.append('')
    lines.append('Add `#file` references or select code to give Hermes context. Tools that change things ask you '
                 'first (setting `hermes.tools.confirm`). Every agent in VS Code can use these tools too, as '
                 '`#hermes_…`.')
    lines.append('')
    lines.append('**Tools**')
    lines.append('')
    for tool in tools:
        marker = '' if tool.read_only else (' *(asks first)*' if tool.destructive else ' *(changes state)*')
        lines.append('- `' + tool.name + '` — ' + first_sentence(tool.description, 120) + marker)
    return '\n'.join(lines)


def followups(metadata: 'Json') -> 'List[JsonObject]':
    """Suggestions after an answer, from the result metadata this participant returned."""
    hermes = get_key(metadata, 'hermes') if is_object(metadata) else None
    if not is_object(hermes):
        return []
    error_kind = get_key(hermes, 'errorKind')
    if json_type(error_kind) == 'string':
        return _copies(get_key(ERROR_FOLLOWUPS, error_kind, []))
    if get_key(hermes, 'stopped') == 'cancelled':
        return []
    command = get_key(hermes, 'command')
    if json_type(command) == 'string':
        return _copies(get_key(FOLLOWUPS, command, []))
    return []


def _copies(items: 'List[Any]') -> 'List[JsonObject]':
    copies = []
    for item in items:
        copy = {}
        for key in ['prompt', 'label', 'command']:
            if get_key(item, key) is not None:
                copy[key] = item[key]
        copies.append(copy)
    return copies


# ------------------------------------------------------------------------------------ metadata & history

def turn_metadata(messages: 'List[Any]', command: 'Json', stopped: 'Json', error_kind: 'Json' = None) -> 'JsonObject':
    """`result.metadata` for one answer: the turn's LLM messages (shortened) and how it ended."""
    stored = []
    for message in messages:
        stored.append(_shortened(message))
    hermes = {'v': METADATA_VERSION, 'messages': stored, 'stopped': stopped}
    if json_type(command) == 'string':
        hermes['command'] = command
    if json_type(error_kind) == 'string':
        hermes['errorKind'] = error_kind
    return {'hermes': hermes}


def _shortened(message: 'Any') -> 'Any':
    role = get_key(message, 'role')
    content = get_key(message, 'content')
    limit = STORED_USER_CHARS if role == 'user' else (STORED_TOOL_CHARS if role == 'tool' else 0)
    if limit == 0 or json_type(content) != 'string' or len(content) <= limit:
        return message
    copy = {}
    for key in message.keys():
        copy[key] = message[key]
    copy['content'] = cap_chars(content, limit)
    return copy


def history_from_turns(turns: 'Any') -> 'List[Any]':
    """VS Code's `ChatContext.history` → OpenAI messages for the agent loop."""
    history = []
    pending_user = None
    for turn in turns or []:
        if json_type(prop(turn, 'prompt')) == 'string':  # a ChatRequestTurn
            if pending_user is not None:
                history.append(pending_user)
            pending_user = {'role': 'user', 'content': user_message(prop(turn, 'prompt'), prop(turn, 'command'))}
            continue
        response = prop(turn, 'response')
        if json_type(response) != 'array':
            continue
        stored = _stored_messages(prop(turn, 'result'))
        if stored is not None:
            for message in stored:
                history.append(message)
        else:
            if pending_user is not None:
                history.append(pending_user)
            text = response_text(response)
            if text != '':
                history.append({'role': 'assistant', 'content': text})
        pending_user = None
    # A request without a response (the current one is not in the history; VS Code never sends this).
    return history


def _stored_messages(result: 'Any') -> 'Optional[List[Any]]':
    metadata = prop(result, 'metadata')
    hermes = get_key(metadata, 'hermes') if is_object(metadata) else None
    messages = get_key(hermes, 'messages') if is_object(hermes) else None  # type: Any
    if json_type(messages) != 'array' or len(messages) == 0:
        return None
    clean = []
    for message in parse_json(dump_json(messages)):  # plain dicts, whatever VS Code stored them as
        if get_key(message, 'role') in ['user', 'assistant', 'tool', 'system']:
            clean.append(message)
    return clean if len(clean) > 0 else None


def response_text(parts: 'List[Any]') -> str:
    """The Markdown text of a response turn (ChatResponseMarkdownPart values)."""
    texts = []
    for part in parts:
        value = prop(part, 'value')
        if json_type(value) == 'string':
            continue  # not markdown (a progress message, a command button's title)
        text = prop(value, 'value')
        if json_type(text) == 'string':
            texts.append(text)
    return ''.join(texts)

