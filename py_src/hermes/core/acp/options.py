"""What an ACP agent session lets the user choose, free of VS Code: read from the agent's `session/new` (or
`session/load`) answer — never hard-coded — offered as the chat session's option groups (VS Code's pickers in the
input area), and the choices kept in `conversation.acp` under the option's id so a session shows and keeps them after
a reload (agents do not remember them across processes: they are set again after `session/load`).

Two generations of the protocol:
- **Config options** (stable since 2026-02; `configOptions` [{id, name, description?, category?, type: 'select',
  currentValue, options: [{value, name, description?}] or groups [{group, name, options}]} or {type: 'boolean',
  currentValue}], set with `session/set_config_option {sessionId, configId, value}`, whose answer and the
  `config_option_update` session update carry every option anew). Each is the option `config:<id>`; a boolean one
  is a picker of "<name>: On" / "<name>: Off".
- **Modes and models** (`modes` {availableModes, currentModeId}, the unstable `models` {availableModels,
  currentModelId}; `session/set_mode`, `session/set_model`): deprecated in favour of config options, kept as the
  fallback for agents that offer only them (Hermes Agent 0.19.0: ask before edits / accept edits / don't ask). An
  agent that offers a config option of category `mode` (or `model`) gets no legacy picker for it.
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import Json, JsonObject
# __pragma__('noskip')
from hermes.core.values import copyable_keys, json_type, get_key

MODE = 'mode'
MODEL = 'model'
OPTIONS = [MODE, MODEL]
GROUP_NAMES = {MODE: 'Mode', MODEL: 'Model'}
METHODS = {MODE: 'set_mode', MODEL: 'set_model'}
CONFIG = 'config:'  # the prefix of a config option's id among a session's options
OBSERVE = 'observe'  # Hermes Agent's observe mode (its main branch's acp_adapter/plan_gate.py)
BOOLEAN = 'boolean'
SELECT = 'select'
MAX_CONFIG_OPTIONS = 20  # an agent's options beyond this are not shown (a picker each in the input area)
MAX_CONFIG_VALUES = 200
MAX_NAME_CHARS = 80


def _text(value: 'Json') -> 'Optional[str]':
    return value if json_type(value) == 'string' and value != '' else None


def _name(value: 'Json', fallback: str) -> str:
    """A name an agent gave, bounded and on one line (it is shown in a picker)."""
    text = _text(value)
    if text is None:
        return fallback
    text = ' '.join(text.split())
    return text if len(text) <= MAX_NAME_CHARS else text[:MAX_NAME_CHARS - 1] + '…'


def is_option(option: 'Json') -> bool:
    """Whether `option` names an option of a session: 'mode', 'model' or a config option ('config:<id>')."""
    return json_type(option) == 'string' and (option in OPTIONS or (option.startswith(CONFIG) and
                                                                    len(option) > len(CONFIG)))


def _config_values(entries: 'Json', group: 'Optional[str]', items: 'List[JsonObject]') -> None:
    """A select option's values (flat, or in groups of {group, name, options}) appended to `items`."""
    if json_type(entries) != 'array':
        return
    for entry in entries:
        if len(items) >= MAX_CONFIG_VALUES:
            return
        if json_type(get_key(entry, 'options')) == 'array':
            _config_values(get_key(entry, 'options'), _name(get_key(entry, 'name'), ''), items)
            continue
        value = _text(get_key(entry, 'value'))
        if value is None:
            continue
        item = {'id': value, 'name': _name(get_key(entry, 'name'), value)}  # type: JsonObject
        description = _text(get_key(entry, 'description'))
        if group is not None and group != '':
            description = group if description is None else group + ' · ' + description
        if description is not None:
            item['description'] = description
        items.append(item)


def config_options(entries: 'Json') -> 'JsonObject':
    """`configOptions` as offered options: {'config:<id>': {'items', 'current', 'name', 'kind', 'category'}}, in the
    agent's order; malformed entries (no id, an unknown type, a select without values) are left out."""
    offered = {}  # type: JsonObject
    if json_type(entries) != 'array':
        return offered
    for entry in entries:
        config_id = _text(get_key(entry, 'id'))
        kind = get_key(entry, 'type')
        if config_id is None or len(copyable_keys(offered)) >= MAX_CONFIG_OPTIONS or (CONFIG + config_id) in offered:
            continue
        current = get_key(entry, 'currentValue')
        items = []  # type: List[JsonObject]
        name = _name(get_key(entry, 'name'), config_id)
        if kind == BOOLEAN:  # a picker's label is its item's name alone: "On" would not say what is on
            items = [{'id': 'true', 'name': name + ': On'}, {'id': 'false', 'name': name + ': Off'}]
            current = None if json_type(current) != 'boolean' else ('true' if current else 'false')
        elif kind == SELECT:
            _config_values(get_key(entry, 'options'), None, items)
            current = _text(current)
        if len(items) == 0:
            continue
        option = {'items': items, 'current': current, 'name': name,
                  'kind': kind, 'category': _text(get_key(entry, 'category'))}  # type: JsonObject
        offered[CONFIG + config_id] = option
    return offered


def offers_value(offer: 'Json', value: 'Json') -> bool:
    """Whether an offered option (`offered[option]`) has the item `value`."""
    for item in get_key(offer, 'items', []):
        if item['id'] == value:
            return True
    return False


def wire_value(offered: 'Json', option: str, value: str) -> 'Json':
    """The value `session/set_config_option` carries for `option`'s picker item `value` (a boolean's 'true' →
    true)."""
    if get_key(get_key(offered, option), 'kind') == BOOLEAN:
        return value == 'true'
    return value


def _items(entries: 'Json', id_key: str) -> 'List[JsonObject]':
    items = []  # type: List[JsonObject]
    if json_type(entries) != 'array':
        return items
    for entry in entries:
        item_id = _text(get_key(entry, id_key))
        if item_id is None:
            continue
        name = _text(get_key(entry, 'name'))
        item = {'id': item_id, 'name': item_id if name is None else name}  # type: JsonObject
        description = _text(get_key(entry, 'description'))
        if description is not None:
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
    return with_config_update(offered, get_key(created, 'configOptions'))


def with_config_update(offered: 'Json', entries: 'Json') -> 'JsonObject':
    """`offered` with the config options `entries` (all of them: `session/new`, a `session/set_config_option`
    answer, a `config_option_update`): its legacy options kept unless a config option of their category replaces
    them (the deprecated picker goes)."""
    updated = {}  # type: JsonObject
    configs = config_options(entries)
    replaced = []  # type: List[str]
    for option in copyable_keys(configs):
        replaced.append(configs[option]['category'])
    if json_type(offered) == 'object':
        for option in OPTIONS:
            if option in offered and not (option in replaced):
                updated[option] = offered[option]
    for option in copyable_keys(configs):
        updated[option] = configs[option]
    return updated


def option_groups(offered: 'Json') -> 'List[JsonObject]':
    """The option groups VS Code shows as pickers in a session's input area (chatSessionsProvider)."""
    groups = []  # type: List[JsonObject]
    if offered is None:
        return groups
    for option in copyable_keys(offered):
        if not is_option(option):
            continue
        items = []  # type: List[JsonObject]
        for item in offered[option]['items']:
            shown = {'id': item['id'], 'name': item['name']}  # type: JsonObject
            if 'description' in item:
                shown['description'] = item['description']
            if item['id'] == offered[option]['current']:
                shown['default'] = True
            items.append(shown)
        name = get_key(offered[option], 'name')
        groups.append({'id': option, 'name': get_key(GROUP_NAMES, option) if name is None else name,
                       'items': items})
    return groups


def current_values(offered: 'Json') -> 'JsonObject':
    """The value each offered option has now, as the agent reported it ({option: item id})."""
    values = {}  # type: JsonObject
    if json_type(offered) != 'object':
        return values
    for option in copyable_keys(offered):
        if is_option(option) and get_key(offered[option], 'current') is not None:
            values[option] = offered[option]['current']
    return values


def chosen_values(acp: 'Json') -> 'JsonObject':
    """A session's chosen options ({'mode': id, 'model': id, 'config:<id>': value}, only those chosen or
    reported)."""
    values = {}  # type: JsonObject
    if json_type(acp) != 'object':
        return values
    for option in copyable_keys(acp):
        value = _text(get_key(acp, option))
        if is_option(option) and value is not None:
            values[option] = value
    return values


def option_update(update: 'Json') -> 'Optional[List[Json]]':
    """(option, value) of one option change VS Code reports ({optionId, value: id | {id, …}}), or None when it is
    no option of ours or clears one."""
    option = get_key(update, 'optionId')
    value = get_key(update, 'value')
    if json_type(value) == 'object':
        value = get_key(value, 'id')
    if not is_option(option) or _text(value) is None:
        return None
    return [option, value]


def panel_options(offered: 'Json', chosen: 'Json') -> 'List[JsonObject]':
    """The side panel's pickers for a session: [{'id', 'name', 'kind': 'select' | 'boolean', 'items': [{'id',
    'name'}], 'value'}] — `offered`: what the agent offers (offered_options), `chosen`: the session's values
    (chosen_values); a value the agent does not offer (or none) shows as its current one."""
    pickers = []  # type: List[JsonObject]
    if json_type(offered) != 'object':
        return pickers
    for option in copyable_keys(offered):
        if not is_option(option):
            continue
        offer = offered[option]
        value = get_key(chosen, option)
        if not offers_value(offer, value):
            value = get_key(offer, 'current')
        kind = BOOLEAN if get_key(offer, 'kind') == BOOLEAN else SELECT
        name = get_key(offer, 'name')
        pickers.append({'id': option, 'name': get_key(GROUP_NAMES, option) if name is None else name, 'kind': kind,
                        'items': [{'id': item['id'], 'name': item['name']} for item in offer['items']],
                        'value': value})
    return pickers


def observing(acp: 'Optional[JsonObject]', reported_mode: 'Optional[str]' = None) -> bool:
    """Whether a session is in Hermes Agent's observe mode (after 0.19.0): its mode, or one of its config options
    (Hermes offers the mode as a config option too), is `observe`, as chosen (`conversation.acp`) or as the agent
    reported it during the turn (`reported_mode`, a current_mode_update). In that mode the agent proposes edits for
    the user's review and must run no command (host/acp/client_side.py captures and refuses accordingly)."""
    if reported_mode == OBSERVE:
        return True
    if acp is None:
        return False
    for option in copyable_keys(acp):
        if (option == MODE or option.startswith(CONFIG)) and acp[option] == OBSERVE:
            return True
    return False
