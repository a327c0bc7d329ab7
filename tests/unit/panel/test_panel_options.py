"""The agent's options as pickers in the side panel (ui/panel/backends.py post_options / set_option): the config
options (select and boolean) and modes the agent offers, with the session's values; a choice goes to the agent with
session/set_config_option (as a chat session's input area sets it); the pickers follow when the agent changes a value
itself; a choice it does not offer is refused."""
import asyncio

from test_acp_options import MODEL, THINKING, AUTO
from test_acp_sessions import make_world
from test_acp_turn import chunk
from test_panel_acp import panel, send, of

OFFERED = {'configOptions': [MODEL, THINKING, AUTO]}


def pickers(host):
    return [(p['id'], p['kind'], p['value']) for p in of(host, 'options')[-1]['options']]


def test_after_the_agents_first_turn_the_panel_shows_its_options_and_a_choice_is_set_on_its_session():
    world = make_world({'turns': [[chunk('one')]], 'offered': dict(OFFERED)})
    controller, host = panel(world)
    asyncio.run(controller.handle({'type': 'ready'}))
    assert of(host, 'options')[-1]['options'] == []  # no agent session yet
    send(controller, 'first')
    assert pickers(host) == [('config:model', 'select', 'b'), ('config:effort', 'select', 'low'),
                             ('config:auto', 'boolean', 'false')]
    asyncio.run(controller.handle({'type': 'setOption', 'option': 'config:effort', 'value': 'high'}))
    asyncio.run(controller.handle({'type': 'setOption', 'option': 'config:auto', 'value': 'true'}))
    agent = world['made'][0]
    assert [c for c in agent.calls if c[0] == 'set_config'] == [('set_config', 'sess-1', 'effort', 'high'),
                                                               ('set_config', 'sess-1', 'auto', True)]
    assert pickers(host) == [('config:model', 'select', 'b'), ('config:effort', 'select', 'high'),
                             ('config:auto', 'boolean', 'true')]
    assert controller.conversation.acp['config:effort'] == 'high'  # kept with the conversation (stored)


def test_a_value_the_agent_changes_itself_moves_the_panels_picker():
    update = {'sessionUpdate': 'config_option_update',
              'configOptions': [MODEL, dict(THINKING, currentValue='high'), AUTO]}
    world = make_world({'turns': [[chunk('one')], [update, chunk('thinking harder')]], 'offered': dict(OFFERED)})
    controller, host = panel(world)
    send(controller, 'first')
    send(controller, 'think harder')
    assert pickers(host)[1] == ('config:effort', 'select', 'high')


def test_a_choice_the_agent_does_not_offer_is_refused_and_nothing_is_sent():
    world = make_world({'turns': [[chunk('one')]], 'offered': dict(OFFERED)})
    controller, host = panel(world)
    send(controller, 'first')
    for option, value in [('config:effort', 'extreme'), ('config:nope', 'x'), ('__proto__', 'x'), ('mode', 'plan')]:
        asyncio.run(controller.handle({'type': 'setOption', 'option': option, 'value': value}))
    assert [c for c in world['made'][0].calls if c[0] in ('set_config', 'set_mode')] == []
    assert [text for level, text in world['log'].lines if 'does not offer' in text] == [
        'Panel: ignored a choice the agent does not offer ("config:effort")',
        'Panel: ignored a choice the agent does not offer ("config:nope")',
        'Panel: ignored a choice the agent does not offer ("__proto__")',
        'Panel: ignored a choice the agent does not offer ("mode")']
