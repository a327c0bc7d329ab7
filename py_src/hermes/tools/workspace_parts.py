"""What the settings tools (workspace_get_config, workspace_set_config) share: how much of a setting a model is
shown. The configuration service reports a setting whole; a whole section ("workbench") can be far larger than
anything a model should read, so its value is shown as JSON text cut with a note saying what to ask instead."""
# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.json import JsonObject
# __pragma__('noskip')
from hermes.js.json import dump_json
from hermes.core.output_text import cap_chars

MAX_VALUE_CHARS = 30000


def shown_setting(result: 'JsonObject') -> 'JsonObject':
    """`result` (the service's read of a setting) as the tool returns it: whole, or, when its value's JSON is longer
    than MAX_VALUE_CHARS, {'key', 'known', 'truncated': True, 'value': the cut JSON text and its note}."""
    text = dump_json(result['value'])
    if text is None or len(text) <= MAX_VALUE_CHARS:
        return result
    return {'key': result['key'], 'known': True, 'truncated': True,
            'value': cap_chars(text, MAX_VALUE_CHARS, '', 'ask for a narrower key')}
