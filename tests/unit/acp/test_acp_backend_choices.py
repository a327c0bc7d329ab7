"""What the front ends offer to answer a new conversation (core/acp/backends.py): the built-in loop, Hermes Agent
(installed or not), the agents of hermes.acp.agents; the default read from hermes.agent.backend as a session reads
it; and a stored conversation's agent as a choice."""
from hermes.core.acp.backends import (backend_choices, default_choice, choice_of_agent, choose_backend, INSTALL_HINT,
                                      RESTRICTED_HINT)

HERMES = {'name': 'Hermes Agent', 'command': '/usr/bin/hermes', 'args': ['acp'], 'env': {}, 'cwd': None}
CLAUDE = {'name': 'Claude Code', 'command': 'claude-code-acp', 'args': [], 'env': {}, 'cwd': None}


def test_every_backend_is_offered_with_what_it_is():
    choices = backend_choices(HERMES, [CLAUDE], True)
    assert [(c['id'], c['label'], c['available']) for c in choices] == [
        ('builtin', 'Built-in loop', True), ('hermes', 'Hermes Agent', True), ('Claude Code', 'Claude Code', True)]
    assert choices[1]['detail'] == 'Hermes Agent itself over ACP (/usr/bin/hermes)'
    assert choices[2]['detail'] == 'ACP agent (claude-code-acp)'


def test_a_missing_hermes_is_offered_as_not_installed_and_choosing_it_gives_the_sessions_notice():
    choices = backend_choices(None, [], True)
    assert choices[1] == {'id': 'hermes', 'label': 'Hermes Agent', 'available': False,
                          'detail': "Not installed: pip install 'hermes-agent[acp]'"}
    assert choose_backend(choices[1]['id'], None, [], True) == {'kind': 'builtin', 'notice': INSTALL_HINT}


def test_restricted_mode_offers_no_agent():
    choices = backend_choices(HERMES, [CLAUDE], False)
    assert [c['available'] for c in choices] == [True, False, False]
    assert choices[2]['detail'] == 'Restricted Mode: no agent program starts in this workspace'
    assert choose_backend('Claude Code', HERMES, [CLAUDE], False) == {'kind': 'builtin', 'notice': RESTRICTED_HINT}


def test_the_default_is_read_from_the_setting_as_a_session_reads_it():
    assert default_choice('auto', HERMES, [], True) == 'hermes'
    assert default_choice('auto', None, [], True) == 'builtin'
    assert default_choice('auto', HERMES, [], False) == 'builtin'
    assert default_choice(' Hermes ', None, [], True) == 'hermes'  # chosen on purpose: the notice says how to get it
    assert default_choice('hermes agent', HERMES, [], True) == 'hermes'
    assert default_choice('builtin', HERMES, [], True) == 'builtin'
    assert default_choice('claude code', HERMES, [CLAUDE], True) == 'Claude Code'
    assert default_choice('Gone Agent', HERMES, [CLAUDE], True) == 'builtin'
    assert default_choice(None, HERMES, [], True) == 'hermes'


def test_a_stored_conversations_agent_is_its_choice():
    assert choice_of_agent('Hermes Agent') == 'hermes'
    assert choice_of_agent('Claude Code') == 'Claude Code'
