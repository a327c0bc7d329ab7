"""Signing in to an ACP agent (core/acp/sign_in.py, host/acp/sign_in.py): the methods an agent offers read as the
schema says (malformed ones left out, names shown as bounded text), a terminal method run as the agent's own
resolved program with the method's args and env (never a program the agent names), exit 0 → the agent starts anew,
anything else → a warning and nothing forgotten; an agent method → `authenticate`; `auth_required` (-32000) → a
readable failure with the sign-in button in both front ends; the panel retries the turn once signed in; sign-out
only where the agent offers `logout`; Restricted Mode starts nothing to sign in with."""
import asyncio

import pytest

import vscode

from hermes.core.acp.backends import describe_failure
from hermes.core.acp.sign_in import sign_in_methods, terminal_invocation, can_log_out, sign_in_title
from hermes.host.acp.sign_in import AgentSignIn
from test_acp_sessions import FakeError, make_world, ask
from test_panel_acp import panel, send, of
from test_acp_turn import chunk

SCRIPTED = {'name': 'Scripted', 'command': '/opt/agents/scripted', 'args': ['--acp'], 'env': {'LEVEL': 'base'},
            'cwd': None}
TERMINAL_LOGIN = {'id': 'login', 'name': 'Log in from the terminal', 'type': 'terminal', 'args': ['--login'],
                  'env': {'LEVEL': 'login', 'ACP_INTERACTIVE_LOGIN': '1'}}
AGENT_LOGIN = {'id': 'oauth', 'name': 'Sign in with the browser', 'description': 'Opens the provider\'s page'}


def run(coroutine):
    return asyncio.run(coroutine)


def test_methods_are_read_as_the_schema_says_and_malformed_ones_left_out():
    offered = [AGENT_LOGIN, TERMINAL_LOGIN, {'name': 'no id'}, {'id': 'x', 'type': 'env_var', 'name': 'unknown type'},
               {'id': 'odd', 'type': 'terminal', 'args': ['ok', 7, None], 'env': {'A': 'b', 'N': 3}},
               {'id': 'loud', 'name': 'Sign\u202e in\x1b[31m\n' + 'x' * 500}, 'not an object']
    methods = sign_in_methods(offered)
    assert [(m['id'], m['type']) for m in methods] == [('oauth', 'agent'), ('login', 'terminal'), ('odd', 'terminal'),
                                                       ('loud', 'agent')]
    assert methods[0]['args'] == [] and methods[0]['description'] == 'Opens the provider\'s page'
    assert (methods[2]['args'], methods[2]['env'], methods[2]['name']) == (['ok'], {'A': 'b'}, 'odd')
    loud = methods[3]['name']
    assert len(loud) <= 200 and '\u202e' not in loud and '\x1b' not in loud and '\n' not in loud
    assert sign_in_methods(None) == [] and sign_in_methods({'id': 'x'}) == []


def test_a_terminal_method_runs_the_agents_own_program_with_its_args_after_and_its_env_over():
    launched = {'command': '/opt/agents/scripted', 'args': ['--acp'], 'env': {'LEVEL': 'base', 'KEEP': '1'},
                'cwd': '/home/me/.storage/agent-home'}
    [method] = sign_in_methods([dict(TERMINAL_LOGIN, command='/bin/evil')])  # a descriptor cannot name a program
    assert terminal_invocation(launched, method) == {
        'command': '/opt/agents/scripted', 'args': ['--acp', '--login'],
        'env': {'LEVEL': 'login', 'KEEP': '1', 'ACP_INTERACTIVE_LOGIN': '1'}, 'cwd': '/home/me/.storage/agent-home'}


def test_auth_required_reads_as_a_sign_in_with_the_button():
    failure = describe_failure('agent', -32000, 'Authentication required', 'Scripted')
    assert failure == {'message': 'Scripted needs you to sign in. Use the button below (or "Hermes: Sign In to an '
                                  'Agent"), then ask again.', 'setup': True}
    assert sign_in_title('Scripted') == 'Sign in to Scripted'
    assert sign_in_title('Hermes Agent') == 'Set up Hermes Agent'  # Hermes keeps its wording
    assert can_log_out({'auth': {'logout': {}}}) and not can_log_out({'auth': {'logout': None}})
    assert not can_log_out({}) and not can_log_out(None)


def signing_in(scripts, trusted=True):
    world = make_world(dict({'turns': []}, **scripts), trusted=trusted)
    return world, AgentSignIn(world['acp'].processes, world['log'])


def close_with(code):
    """Whenever the sign-in terminal opens: it ends with exit `code`."""
    def ended(terminal):
        terminal.exitStatus = vscode._Undefined()
        terminal.exitStatus.code = code
        vscode.window._terminal_closed.fire(terminal)
    vscode.window._terminal_opened.event(ended)


def test_a_terminal_method_signs_in_when_its_process_exits_with_0_and_the_agent_starts_anew():
    world, sign_in = signing_in({'auth_methods': [TERMINAL_LOGIN]})
    close_with(0)
    assert run(sign_in.sign_in(SCRIPTED)) is True
    [terminal] = vscode.window.created_terminals
    options = terminal.creationOptions
    assert (options['name'], options['shellPath'], options['shellArgs']) == (
        'Sign in: Scripted', '/opt/agents/scripted', ['--acp', '--login'])
    assert options['env']['LEVEL'] == 'login' and options['env']['ACP_INTERACTIVE_LOGIN'] == '1'
    assert options['cwd'].endswith('agent-home') and terminal.shown
    [agent] = world['made']
    assert ('authenticate', 'login') not in agent.calls, 'a terminal method is never passed to authenticate'
    assert ('dispose',) in agent.calls, 'the agent starts anew after a sign-in (reconnect and reinitialize)'
    assert ('info', 'Hermes: signed in to Scripted.', []) in vscode.window.messages


@pytest.mark.parametrize('code, said', [(1, 'exit code 1'), (None, 'the terminal was closed')])
def test_a_terminal_method_that_fails_or_is_closed_says_so_and_keeps_the_agent(code, said):
    world, sign_in = signing_in({'auth_methods': [TERMINAL_LOGIN]})
    close_with(code)
    assert run(sign_in.sign_in(SCRIPTED)) is False
    assert [m for m in vscode.window.messages if m[0] == 'warning' and said in m[1]], vscode.window.messages
    assert ('dispose',) not in world['made'][0].calls


def test_an_agent_method_is_authenticate_and_several_methods_are_a_pick():
    world, sign_in = signing_in({'auth_methods': [AGENT_LOGIN, TERMINAL_LOGIN]})
    vscode.window.quick_pick_answers.append(lambda items: items[0])
    assert run(sign_in.sign_in(SCRIPTED)) is True
    [items] = vscode.window.quick_picks
    assert [(item['label'], item['description']) for item in items] == [
        ('Sign in with the browser', ''), ('Log in from the terminal', 'in a terminal')]
    assert ('authenticate', 'oauth') in world['made'][0].calls and vscode.window.created_terminals == []


def test_a_failed_authenticate_is_an_error():
    world, sign_in = signing_in({'auth_methods': [AGENT_LOGIN], 'auth_error': FakeError('agent', 'denied', -32000)})
    assert run(sign_in.sign_in(SCRIPTED)) is False
    assert [m for m in vscode.window.messages if m[0] == 'error' and 'denied' in m[1]]


def test_no_pick_is_no_sign_in():
    world, sign_in = signing_in({'auth_methods': [AGENT_LOGIN, TERMINAL_LOGIN]})
    assert run(sign_in.sign_in(SCRIPTED)) is False  # the pick dismissed
    assert ('authenticate', 'oauth') not in world['made'][0].calls and vscode.window.created_terminals == []


def test_an_agent_without_methods_says_so():
    world, sign_in = signing_in({'auth_methods': []})
    assert run(sign_in.sign_in(SCRIPTED)) is False
    assert [m for m in vscode.window.messages if 'offers no way to sign in' in m[1]]


def test_restricted_mode_starts_nothing_to_sign_in_with():
    world, sign_in = signing_in({'auth_methods': [TERMINAL_LOGIN]}, trusted=False)
    assert run(sign_in.sign_in(SCRIPTED)) is False
    assert world['made'] == [] and vscode.window.created_terminals == []
    assert [m for m in vscode.window.messages if m[0] == 'error' and 'Restricted Mode' in m[1]]


def test_no_sign_out_where_the_agent_does_not_offer_logout():
    world, sign_in = signing_in({})
    assert run(sign_in.sign_out(SCRIPTED)) is False
    assert ('logout',) not in world['made'][0].calls


def test_sign_out_is_logout_and_the_agent_starts_anew():
    world, sign_in = signing_in({'capabilities': {'loadSession': True, 'auth': {'logout': {}}}})
    assert run(sign_in.sign_out(SCRIPTED)) is True
    assert ('logout',) in world['made'][0].calls and ('dispose',) in world['made'][0].calls


def test_auth_required_in_a_session_offers_the_button_with_the_agents_name():
    world = make_world({'turns': [], 'new_error': FakeError('agent', 'Authentication required', -32000)})
    world['acp'].choice.agents_configured = lambda: [SCRIPTED]
    vscode.workspace.settings['hermes.agent.backend'] = 'Scripted'
    stream, _ = ask(world, 'hi')
    assert 'Scripted needs you to sign in' in stream.text()
    assert stream.of('button') == [{'command': 'hermes.acp.signIn', 'title': 'Sign in to Scripted',
                               'arguments': ['Scripted']}]


def test_the_panel_runs_the_turn_again_once_signed_in():
    world = make_world({'turns': [[chunk('signed in, hello')]],
                        'new_error': FakeError('agent', 'Authentication required', -32000)})
    world['acp'].choice.agents_configured = lambda: [SCRIPTED]
    vscode.workspace.settings['hermes.agent.backend'] = 'Scripted'
    controller, host = panel(world)
    send(controller, 'hi')
    [error] = of(host, 'error')
    assert (error['setup'], error['retry']) == ('Sign in to Scripted', 'turn')
    world['made'][-1].scripts['new_error'] = None  # the user signs in
    host.signs_in = True
    asyncio.run(controller.handle({'type': 'setupAgent'}))
    assert ('setup_agent', 'Scripted') in host.actions
    [conversation] = world['store'].conversations
    assert [m['role'] for m in conversation.messages] == ['user', 'assistant']  # the failed reply replaced
    assert conversation.messages[1]['status'] == 'done' and of(host, 'textDelta')[-1]['text'] == 'signed in, hello'
