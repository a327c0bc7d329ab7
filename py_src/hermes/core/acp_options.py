"""What an ACP agent session lets the user choose — its modes (Hermes: ask before edits / accept edits / don't ask)
and its models — free of VS Code: read from the agent's `session/new` answer (never hard-coded), offered as the chat
session's option groups (VS Code's pickers in the input area), and the choices kept in `conversation.acp`
('mode', 'model') so a session shows and keeps them after a reload (Hermes does not remember them across processes:
they are set again after `session/load`).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.js.objects import is_none
from hermes.core.values import json_type, get_key

MODE = 'mode'
MODEL = 'model'
OPTIONS = [MODE, MODEL]
GROUP_NAMES = {MODE: 'Mode', MODEL: 'Model'}
METHODS = {MODE: 'set_mode', MODEL: 'set_model'}


def _text(value: 'Json') -> 'Optional[str]':
    return value if json_type(value) == 'string' and value != '' else None


def _items(entries: 'Json', id_key: str) -> 'List[JsonObject]':
    items = []  # type: List[JsonObject]
    if json_type(entries) != 'array':
        return items
    for entry in entries:
        item_id = _text(get_key(entry, id_key))
        if is_none(item_id):
            continue
        name = _text(get_key(entry, 'name'))
        item = {'id': item_id, 'name': item_id if is_none(name) else name}  # type: JsonObject
        description = _text(get_key(entry, 'description'))
        if not is_none(description):
            item['description'] = description
        items.append(item)
    return items


def offered_options(created: 'Json') -> 'JsonObject':
    """What a `session/new` answer offers: {'mode': {'items', 'current'}, 'model': {...}} (ACP `modes`
    {availableModes [{id, name, description}], currentModeId}, `models` {availableModels [{modelId, ...}],
    currentModelId}); an option the agent does not offer is left out."""
    offered = {}  # type: JsonObject
    modes = get_key(created, 'modes')
    items = _items(get_key(modes, 'availableModes'), 'id')
    if len(items) > 0:
        offered[MODE] = {'items': items, 'current': _text(get_key(modes, 'currentModeId'))}
    models = get_key(created, 'models')
    items = _items(get_key(models, 'availableModels'), 'modelId')
    if len(items) > 0:
        offered[MODEL] = {'items': items, 'current': _text(get_key(models, 'currentModelId'))}
    return offered


def option_groups(offered: 'Json') -> 'List[JsonObject]':
    """The option groups VS Code shows as pickers in a session's input area (chatSessionsProvider)."""
    groups = []  # type: List[JsonObject]
    if is_none(offered):
        return groups
    for option in OPTIONS:
        if option in offered:
            items = []  # type: List[JsonObject]
            for item in offered[option]['items']:
                shown = {'id': item['id'], 'name': item['name']}  # type: JsonObject
                if 'description' in item:
                    shown['description'] = item['description']
                if item['id'] == offered[option]['current']:
                    shown['default'] = True
                items.append(shown)
            groups.append({'id': option, 'name': get_key(GROUP_NAMES, option), 'items': items})
    return groups


def chosen_values(acp: 'Json') -> 'JsonObject':
    """A session's chosen mode and model ({'mode': id, 'model': id}, only those chosen or reported)."""
    values = {}  # type: JsonObject
    for option in OPTIONS:
        value = _text(get_key(acp, option))
        if not is_none(value):
            values[option] = value
    return values


def option_update(update: 'Json') -> 'Optional[List[Json]]':
    """(option, value) of one option change VS Code reports ({optionId, value: id | {id, …}}), or None when it is
    no option of ours or clears one."""
    option = get_key(update, 'optionId')
    value = get_key(update, 'value')
    if json_type(value) == 'object':
        value = get_key(value, 'id')
    if not (option in OPTIONS) or is_none(_text(value)):
        return None
    return [option, value]
