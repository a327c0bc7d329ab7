"""An ACP agent's slash commands (`available_commands_update`), free of VS Code: what the agent offers, kept with
the conversation (`conversation.acp['commands']`, stored and restored with it), and the one line a chat session
shows about them.

ACP runs a command as the prompt's text: `/model gpt-5` typed as the message is the command `model` with its
input. So nothing here runs a command; the front ends only make the commands known:
- the chat session (VS Code 1.139 gives a session no way to offer commands at run time) says once, at the end of
  the next response after a list arrives or changes, which commands there are (`commands_hint`);
- the side panel lists them when the user types "/" (media/panel/main.js, from the `commands` message).

An agent sends its commands whenever it likes — Hermes Agent 0.19.0 right after `session/new`, before a front end
watches the session — so host/acp/session_updates.py keeps the latest list per session until the conversation takes it.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import json_type, get_key, is_object

MAX_COMMANDS = 100
"""Commands kept of one list (an agent that sends thousands gets the first ones)."""
TEXT_CHARS = 200
"""A command's description or input hint is cut to this."""
HINT_NAMES = 12
"""Commands named in the chat's hint; more are '…'."""


def _text(value: 'Json') -> str:
    if json_type(value) != 'string':
        return ''
    text = value.strip()
    return text[:TEXT_CHARS - 1] + '…' if len(text) > TEXT_CHARS else text


def _valid_name(name: 'Json') -> bool:
    """A name that can follow "/" in a typed message: no spaces, no leading "/"."""
    if json_type(name) != 'string' or name == '' or len(name) > 64 or name.startswith('/'):
        return False
    for character in name:
        if character == ' ' or character == '\n' or character == '\t':
            return False
    return True


def commands_of(value: 'Json') -> 'List[JsonObject]':
    """The `availableCommands` of an update (ACP: [{name, description, input?: {hint}}]), or a stored list
    ([{name, description, hint}]), as [{'name', 'description', 'hint'}]: entries without a usable name are left out,
    a name seen twice is kept once; anything that is not a list is no commands."""
    commands = []  # type: List[JsonObject]
    if json_type(value) != 'array':
        return commands
    names = []  # type: List[str]
    for entry in value:
        if not is_object(entry):
            continue
        name = get_key(entry, 'name')
        if not _valid_name(name) or name in names:
            continue
        hint = get_key(get_key(entry, 'input'), 'hint')
        if json_type(hint) != 'string':
            hint = get_key(entry, 'hint')
        names.append(name)
        commands.append({'name': name, 'description': _text(get_key(entry, 'description')), 'hint': _text(hint)})
        if len(commands) >= MAX_COMMANDS:
            break
    return commands


def commands_key(commands: 'List[JsonObject]') -> str:
    """What the hint depends on: the names, in order (a changed description does not repeat the hint)."""
    return ' '.join(['/' + command['name'] for command in commands])


def commands_update(update: 'Json') -> 'Optional[List[JsonObject]]':
    """The commands an `available_commands_update` carries, or None for any other update."""
    if get_key(update, 'sessionUpdate') != 'available_commands_update':
        return None
    return commands_of(get_key(update, 'availableCommands'))


def hint_text(agent_name: str, commands: 'List[JsonObject]') -> str:
    """The chat's line about the commands: their names, and how to run one."""
    names = ['`/' + command['name'] + '`' for command in commands[:HINT_NAMES]]
    more = ' …' if len(commands) > HINT_NAMES else ''
    return agent_name + ' commands: ' + ', '.join(names) + more + ' — type one as your message.'


def commands_hint(agent_name: str, acp: 'Json') -> 'Optional[str]':
    """The hint a chat session shows at the end of a response, or None: only when the conversation's agent session
    has commands it was not yet told about (`acp['commandsShown']`, the `commands_key` of the last list shown).
    Marks them shown in `acp`."""
    if not is_object(acp):
        return None
    commands = commands_of(get_key(acp, 'commands'))
    if len(commands) == 0:
        return None
    key = commands_key(commands)
    if get_key(acp, 'commandsShown') == key:
        return None
    acp['commandsShown'] = key
    return hint_text(agent_name, commands)


def restore_commands(value: 'Json', restored: 'JsonObject') -> None:
    """A stored conversation's `acp` commands and the hint's mark, checked, into `restored`."""
    commands = commands_of(get_key(value, 'commands'))
    if len(commands) > 0:
        restored['commands'] = commands
    shown = get_key(value, 'commandsShown')
    if json_type(shown) == 'string' and shown != '':
        restored['commandsShown'] = shown

