"""Hermes conversations as VS Code chat sessions ("Hermes Agent" in the Chat view's "+" menu), free of
VS Code: the `chatSessions` contribution, a conversation as a session item (label, description,
status, timing, changed files), and as the history the session shows when it is opened.

Session type `hermes`: VS Code sends a session's requests to the participant whose id is the type, so
ui/chat/sessions.py creates a participant `hermes` that package.json must NOT declare (the `@hermes`
participant is `hermes.agent`). The contribution's `name` is not `hermes` either: with `canDelegate`
VS Code registers an agent under that name, which would take `@hermes` away from the participant.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Mapping, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key
from hermes.core.chat.prompts import COMMANDS
from hermes.core.lm_tools import describe_call, touched_paths
from hermes.core.acp.turn_usage import cost_text, session_usage

SESSION_TYPE = 'hermes'
SESSION_NAME = 'hermes-agent'
SESSION_DISPLAY_NAME = 'Hermes Agent'
API_PROPOSAL = 'chatSessionsProvider'
# Every proposal the session uses (package.json `enabledApiProposals`): VS Code started with --enable-proposed-api lets
# an extension use only the proposals it declares. chatParticipantAdditions: thinking, tool invocation parts, the
# in-chat permission question (questionCarousel). chatSessionCustomizationProvider: an ACP agent's own slash commands
# in the session's "/" completion (ui/chat/session_commands.py). code-server allows every proposal to every extension.
COMMANDS_PROPOSAL = 'chatSessionCustomizationProvider'
EXTENSION_ID = 'hermes-agent.hermes-agent'
ENABLE_HINT = ('Hermes chat sessions ("Hermes Agent" in the Chat view\'s "+" menu) need VS Code\'s chatSessionsProvider '
               'API proposal, which this VS Code has not enabled for Hermes. To turn them on, run "Preferences: '
               'Configure Runtime Arguments", add "enable-proposed-api": ["' + EXTENSION_ID + '"] to argv.json, and '
               'restart VS Code (or start it with --enable-proposed-api ' + EXTENSION_ID + '). Everything else works '
               'without it.')
# globalState: the information message with ENABLE_HINT was shown (once per install, the log says it each start)
PROPOSALS_HINT_SHOWN = 'hermes.proposalsHintShown'

# vscode.ChatSessionStatus
STATUS_FAILED = 0
STATUS_COMPLETED = 1
STATUS_IN_PROGRESS = 2
STATUS_NEEDS_INPUT = 3
STATUS_CODES = {'failed': STATUS_FAILED, 'completed': STATUS_COMPLETED, 'in_progress': STATUS_IN_PROGRESS,
                'needs_input': STATUS_NEEDS_INPUT}


def session_contribution() -> 'List[JsonObject]':
    """package.json `contributes.chatSessions` (generated, so the type and commands match the code)."""
    return [{
        'type': SESSION_TYPE,
        'name': SESSION_NAME,
        'displayName': SESSION_DISPLAY_NAME,
        'description': 'Hermes Agent itself (when installed) or your own LLM, with the tools that drive this VS Code '
                       'window; shared with the Hermes side panel',
        'icon': '$(hubot)',
        'canDelegate': True,
        'welcomeTitle': 'Hermes Agent',
        'welcomeMessage': 'Ask Hermes: Hermes Agent itself answers when it is installed (`pip install '
                          '\'hermes-agent[acp]\'`), otherwise your own model (settings `hermes.llm.*`). Either can '
                          'read, edit and run things in this window; what changes things asks you first.',
        'inputPlaceholder': 'Ask Hermes, or type / for commands',
        # supportsPromptAttachments: VS Code's "/" completion lists a session's prompt customizations (an ACP agent's
        # own commands, ui/chat/session_commands.py) only for a session that accepts prompts
        # supportsImageAttachments: images go to an ACP agent that reads them (core/acp/prompt_content.py)
        'capabilities': {'supportsFileAttachments': True, 'supportsImageAttachments': True,
                         'supportsPromptAttachments': True},
        'commands': [{'name': command['name'], 'description': command['description']} for command in COMMANDS],
    }]


def conversation_id(path: 'Json') -> str:
    """The conversation a session resource names: its path without the leading '/'."""
    if json_type(path) != 'string':
        return ''
    return path[1:] if path.startswith('/') else path


def item_view(conversation: 'Any', format_time: 'Callable[[float], str]') -> 'JsonObject':
    """What a session item shows; `format_time(ms)` formats the time of the last change for the tooltip (the list
    shows `timing` itself, as "now" / "5 min ago": a time in the description too said it twice)."""
    description = conversation.model if json_type(conversation.model) == 'string' else ''
    usage = getattr(conversation, 'acp_usage', None)  # an ACP agent's last usage_update (context used / size, cost)
    if usage is not None and usage['size'] > 0:
        description = description + ' · ' + str(round(usage['used'] * 100 / usage['size'])) + '% of context'
    stored_cost = get_key(getattr(conversation, 'acp', None), 'cost')  # the session's cost as last said (kept across reloads)
    if usage is not None and get_key(usage, 'cost') is not None:
        description = description + ' · ' + usage['cost']
    elif cost_text(stored_cost) is not None:
        description = description + ' · ' + (cost_text(stored_cost) or '')
    tooltip = conversation.title + ('\n' + description if description != '' else '')
    totals = session_usage(conversation.messages, stored_cost)
    if totals is not None:
        tooltip = tooltip + '\n' + totals['text']
    when = conversation.updated if conversation.updated is not None else conversation.created
    if when is not None:
        tooltip = tooltip + '\n' + format_time(when)
    timing = {'created': conversation.created or 0}
    if conversation.last_started is not None:
        timing['lastRequestStarted'] = conversation.last_started
    if conversation.last_ended is not None:
        timing['lastRequestEnded'] = conversation.last_ended
    status = conversation.status()
    return {'label': conversation.title, 'description': description, 'status': get_key(STATUS_CODES, status, STATUS_COMPLETED),
            'tooltip': tooltip, 'timing': timing, 'changes': conversation.changes[:], 'archived': conversation.archived}


def history_plan(conversation: 'Any', tool_titles: 'Optional[Mapping[str, Optional[str]]]' = None) -> 'List[JsonObject]':
    """The conversation as chat turns: [{'kind': 'request', 'prompt'} | {'kind': 'response', 'parts':
    [{'kind': 'markdown', 'text'} | {'kind': 'progress', 'text'} | {'kind': 'reference', 'path'}], 'turn'}]
    ('turn': the checkpoint id of the prompt it answers, None for turns from before checkpoints).
    A running reply is left out (VS Code shows only finished turns in a session's history)."""
    turns = []
    turn_id = None
    for message in conversation.messages:
        if message['role'] == 'user':
            turns.append({'kind': 'request', 'prompt': message['text']})
            turn = get_key(message, 'turn')
            turn_id = turn if json_type(turn) == 'string' else None
            continue
        if message['status'] == 'running':
            continue
        turns.append({'kind': 'response', 'parts': _response_parts(message, tool_titles), 'turn': turn_id})
    return turns


def _response_parts(reply: 'Any', tool_titles: 'Optional[Mapping[str, Optional[str]]]') -> 'List[JsonObject]':
    parts = []
    referenced = []
    for part in reply['parts']:
        if part['kind'] == 'text':
            if part['text'] != '':
                parts.append({'kind': 'markdown', 'text': part['text']})
            continue
        if part['kind'] == 'thought':
            continue  # an ACP agent's thinking: shown live, not replayed
        if part['kind'] == 'plan':
            parts.append({'kind': 'markdown', 'text': plan_markdown(part['entries'])})
            continue
        if part['kind'] != 'tool':
            continue
        if get_key(part, 'paths') is not None:  # an ACP agent's tool call: its title says what it did
            nested = '↳ ' if 'parent' in part else ''  # a Hermes subagent, under the call that delegated it
            parts.append({'kind': 'progress', 'text': nested + part['name'] + status_ending(part['status'])})
            for path in part['paths']:
                if not (path in referenced):
                    referenced.append(path)
                    parts.append({'kind': 'reference', 'path': path})
            continue
        title = get_key(tool_titles, part['name']) if tool_titles is not None else None
        text = describe_call(part['name'], part['arguments'], title)
        if part['status'] == 'error':
            text = text + ' (failed)'
        elif part['status'] == 'cancelled':
            text = text + ' (cancelled)'
        parts.append({'kind': 'progress', 'text': text})
        for path in touched_paths(part['arguments']):
            if not (path in referenced):
                referenced.append(path)
                parts.append({'kind': 'reference', 'path': path})
    usage = get_key(reply, 'usage')
    if usage is not None:
        parts.append({'kind': 'markdown', 'text': '\n\n' + usage_markdown(usage)})
    if reply['status'] == 'error':
        parts.append({'kind': 'markdown', 'text': '\n\n**The reply failed:** ' + (reply['error'] or 'unknown error')})
    elif reply['status'] == 'stopped':
        parts.append({'kind': 'markdown', 'text': '\n\n*(stopped)*'})
    elif len(parts) == 0:
        parts.append({'kind': 'markdown', 'text': '*(The model gave no answer.)*'})
    return parts


def usage_markdown(usage: 'Any') -> str:
    """The line under a turn that says what it used and cost (core/acp/turn_usage.py: digits, our words, a currency's
    sign or three letters — nothing the agent wrote), muted."""
    return '*' + usage['text'] + '*'


def status_ending(status: str) -> str:
    """What a tool's line in a session's history ends with: how it ended, when it did not succeed."""
    if status == 'error':
        return ' (failed)'
    if status == 'cancelled':
        return ' (cancelled)'
    return ''


PLAN_MARKS = {'completed': '[x]', 'in_progress': '[~]', 'pending': '[ ]'}


def plan_markdown(entries: 'List[Any]') -> str:
    """An agent's plan as a Markdown to-do list."""
    lines = ['**Plan**', '']
    for entry in entries:
        mark = get_key(PLAN_MARKS, entry['status'], '[ ]')
        lines.append('- ' + mark + ' ' + entry['title'])
    return '\n'.join(lines) + '\n'
