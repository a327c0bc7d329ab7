"""core/acp/options.py: an agent's config options (and the deprecated modes and models) as pickers, malformed offers
left out, the values the wire carries. Every call here is also a parity vector (`inv parity`)."""
from hermes.core.acp.options import (chosen_values, config_options, current_values, is_option, offered_options,
                                     offers_value, option_groups, option_update, wire_value, with_config_update,
                                     MAX_CONFIG_OPTIONS, MAX_NAME_CHARS)

MODES = {'currentModeId': 'default', 'availableModes': [{'id': 'default', 'name': 'Ask'}, {'id': 'plan', 'name': 'Plan'}]}
MODELS = {'currentModelId': 'a', 'availableModels': [{'modelId': 'a', 'name': 'A'}]}
MODEL = {'id': 'model', 'name': 'Model', 'category': 'model', 'type': 'select', 'currentValue': 'b',
         'options': [{'value': 'a', 'name': 'A'}, {'value': 'b', 'name': 'B', 'description': 'bigger'}]}
THINKING = {'id': 'effort', 'name': 'Thinking', 'category': 'thought_level', 'type': 'select', 'currentValue': 'low',
            'options': [{'group': 'g', 'name': 'Effort', 'options': [{'value': 'low', 'name': 'Low'},
                                                                   {'value': 'high', 'name': 'High', 'description': 'slow'}]}]}
AUTO = {'id': 'auto', 'name': 'Approve edits', 'type': 'boolean', 'currentValue': False}


def test_config_options_become_pickers_in_the_agents_order_and_replace_the_deprecated_model():
    offered = offered_options({'modes': MODES, 'models': MODELS, 'configOptions': [MODEL, THINKING, AUTO]})
    assert list(offered) == ['mode', 'config:model', 'config:effort', 'config:auto']
    groups = option_groups(offered)
    assert [(group['id'], group['name'], [item['id'] for item in group['items']]) for group in groups] == [
        ('mode', 'Mode', ['default', 'plan']), ('config:model', 'Model', ['a', 'b']),
        ('config:effort', 'Thinking', ['low', 'high']), ('config:auto', 'Approve edits', ['true', 'false'])]
    assert groups[1]['items'][1] == {'id': 'b', 'name': 'B', 'description': 'bigger', 'default': True}
    assert groups[2]['items'][1] == {'id': 'high', 'name': 'High', 'description': 'Effort · slow'}
    assert groups[3]['items'][1] == {'id': 'false', 'name': 'Approve edits: Off', 'default': True}
    assert current_values(offered) == {'mode': 'default', 'config:model': 'b', 'config:effort': 'low',
                                       'config:auto': 'false'}


def test_malformed_config_options_are_left_out_and_names_bounded():
    entries = [{'type': 'select', 'options': [{'value': 'x'}]},  # no id
               {'id': 'odd', 'type': 'slider', 'currentValue': 3},  # a type nobody knows
               {'id': 'empty', 'type': 'select', 'options': []},  # nothing to choose
               {'id': 'flag', 'type': 'boolean', 'currentValue': 'yes'},  # a boolean that is not one: no current
               {'id': 'long', 'name': 'n\n' * 100, 'type': 'select', 'options': [{'value': 'v', 'name': 7}]},
               'not an object', MODEL, dict(MODEL, name='again')]  # the same id twice: the first counts
    offered = config_options(entries)
    assert list(offered) == ['config:flag', 'config:long', 'config:model']
    assert offered['config:flag']['current'] is None
    assert len(offered['config:long']['name']) == MAX_NAME_CHARS and '\n' not in offered['config:long']['name']
    assert offered['config:long']['items'] == [{'id': 'v', 'name': 'v'}]
    assert offered['config:model']['name'] == 'Model'
    many = [{'id': 'o%d' % n, 'type': 'boolean', 'currentValue': True} for n in range(MAX_CONFIG_OPTIONS + 3)]
    assert len(config_options(many)) == MAX_CONFIG_OPTIONS
    assert config_options(None) == {} and config_options({'id': 'x'}) == {}


def test_an_update_carries_every_config_option_anew_and_keeps_the_legacy_ones_not_replaced():
    offered = offered_options({'modes': MODES, 'models': MODELS})
    updated = with_config_update(offered, [dict(THINKING, currentValue='high')])
    assert list(updated) == ['mode', 'model', 'config:effort'] and updated['config:effort']['current'] == 'high'
    assert list(with_config_update(updated, [MODEL])) == ['mode', 'config:model']
    assert list(with_config_update(None, [AUTO])) == ['config:auto']


def test_values_on_the_wire_and_in_the_stored_conversation():
    offered = offered_options({'configOptions': [MODEL, AUTO]})
    assert wire_value(offered, 'config:auto', 'true') is True and wire_value(offered, 'config:auto', 'false') is False
    assert wire_value(offered, 'config:model', 'a') == 'a'
    assert offers_value(offered['config:model'], 'b') and not offers_value(offered['config:model'], 'c')
    assert is_option('config:model') and is_option('mode') and not is_option('config:') and not is_option('sessionId')
    assert chosen_values({'agent': 'X', 'sessionId': 's', 'mode': 'plan', 'config:auto': 'true', 'config:x': ''}) == \
        {'mode': 'plan', 'config:auto': 'true'}
    assert option_update({'optionId': 'config:effort', 'value': {'id': 'high', 'name': 'High'}}) == ['config:effort', 'high']
    assert option_update({'optionId': 'sessionId', 'value': 'x'}) is None


def test_the_panels_pickers_are_the_offered_options_with_the_sessions_values():
    from hermes.core.acp.options import panel_options
    offered = offered_options({'modes': MODES, 'configOptions': [MODEL, THINKING, AUTO]})
    assert panel_options(offered, {'config:effort': 'high', 'config:model': 'gone'}) == [
        {'id': 'mode', 'name': 'Mode', 'kind': 'select', 'items': [{'id': 'default', 'name': 'Ask'},
                                                                  {'id': 'plan', 'name': 'Plan'}], 'value': 'default'},
        {'id': 'config:model', 'name': 'Model', 'kind': 'select', 'items': [{'id': 'a', 'name': 'A'},
                                                                           {'id': 'b', 'name': 'B'}],
         'value': 'b'},  # a value it no longer offers: its current one
        {'id': 'config:effort', 'name': 'Thinking', 'kind': 'select', 'items': [{'id': 'low', 'name': 'Low'},
                                                                               {'id': 'high', 'name': 'High'}],
         'value': 'high'},
        {'id': 'config:auto', 'name': 'Approve edits', 'kind': 'boolean',
         'items': [{'id': 'true', 'name': 'Approve edits: On'}, {'id': 'false', 'name': 'Approve edits: Off'}],
         'value': 'false'}]
    assert panel_options(None, {}) == [] and panel_options('junk', None) == []


def test_observe_mode_is_the_sessions_mode_or_a_config_option_or_what_the_agent_reported():
    from hermes.core.acp.options import observing
    assert observing(None) is False and observing({'agent': 'Hermes Agent', 'sessionId': 's'}) is False
    assert observing({'mode': 'observe'}) is True
    assert observing({'mode': 'default', 'config:edit_approval_policy': 'observe'}) is True
    assert observing({'model': 'observe', 'sessionId': 'observe'}) is False  # only modes and config options
    assert observing({'mode': 'default'}, 'observe') is True and observing({'mode': 'observe'}, 'plan') is True
    assert observing(None, 'plan') is False
