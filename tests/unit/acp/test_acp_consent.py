"""core/acp/consent.py: what the user allowed in an ACP agent's permission question covers the one write or command
that carries it out — exactly that text at that path, or that command line, once, by that session, for a minute."""
from hermes.core.acp.consent import CONSENT_WINDOW_MS, MAX_KEPT, Consents, allowed_actions, chosen_allows

OPTIONS = [{'optionId': 'allow_once', 'kind': 'allow_once', 'name': 'Allow edit'},
           {'optionId': 'always', 'kind': 'allow_always', 'name': 'Always'},
           {'optionId': 'deny', 'kind': 'reject_once', 'name': 'Deny'}]


def test_only_an_allow_option_the_question_offered_counts():
    params = {'options': OPTIONS}
    assert chosen_allows(params, {'outcome': 'selected', 'optionId': 'allow_once'})
    assert chosen_allows(params, {'outcome': 'selected', 'optionId': 'always'})
    assert not chosen_allows(params, {'outcome': 'selected', 'optionId': 'deny'})
    assert not chosen_allows(params, {'outcome': 'selected', 'optionId': 'invented'})
    assert not chosen_allows(params, {'outcome': 'cancelled'})
    assert not chosen_allows({'options': 'x'}, {'outcome': 'selected', 'optionId': 'allow_once'})
    assert not chosen_allows(None, None)


def test_a_question_shows_its_diffs_and_its_command():
    # Hermes Agent's edit approval: one diff with the file's whole new text; its raw input names the tool
    edit = {'toolCall': {'kind': 'edit', 'content': [
        {'type': 'diff', 'path': '/ws/a.py', 'oldText': 'x = 1\n', 'newText': 'x = 2\n'},
        {'type': 'content', 'content': {'type': 'text', 'text': 'not a diff'}},
        {'type': 'diff', 'path': 7, 'newText': 'no path'}],
        'rawInput': {'tool': 'patch', 'arguments': {'path': '/ws/a.py'}}}}
    assert allowed_actions(edit) == {'writes': [['/ws/a.py', 'x = 2\n']], 'commands': []}
    command = {'toolCall': {'kind': 'execute', 'rawInput': {'command': 'npm test'}}}
    assert allowed_actions(command) == {'writes': [], 'commands': ['npm test']}
    nested = {'toolCall': {'rawInput': {'tool': 'terminal', 'arguments': {'command': 'make'}}}}
    assert allowed_actions(nested) == {'writes': [], 'commands': ['make']}
    assert allowed_actions({'toolCall': {'rawInput': {'command': ''}, 'content': 'x'}}) == {'writes': [], 'commands': []}
    assert allowed_actions(None) == {'writes': [], 'commands': []}


def test_a_question_allows_at_most_its_first_eight_diffs():
    many = {'toolCall': {'content': [{'type': 'diff', 'path': '/ws/' + str(n), 'newText': 'n'} for n in range(20)]}}
    assert [write[0] for write in allowed_actions(many)['writes']] == ['/ws/' + str(n) for n in range(8)]


def test_a_consent_covers_exactly_its_write_once():
    consents = Consents()
    consents.remember('s1', [['/ws/a.py', 'x = 2\n']], [], 1000)
    assert not consents.take_write('s1', '/ws/a.py', 'x = 3\n', 1001)  # another text
    assert not consents.take_write('s1', '/ws/b.py', 'x = 2\n', 1001)  # another file
    assert not consents.take_write('s2', '/ws/a.py', 'x = 2\n', 1001)  # another session
    assert not consents.take_command('s1', 'x = 2\n', 1001)  # a write's text is no command
    assert consents.take_write('s1', '/ws/a.py', 'x = 2\n', 1001)
    assert not consents.take_write('s1', '/ws/a.py', 'x = 2\n', 1002)  # once


def test_a_command_consent_is_that_line_exactly():
    consents = Consents()
    consents.remember('s1', [], ['npm test'], 0)
    assert not consents.take_command('s1', 'npm test; rm -rf ~', 5)
    assert not consents.take_command('s1', 'npm  test', 5)
    assert consents.take_command('s1', 'npm test', 5)
    assert not consents.take_command('s1', 'npm test', 6)


def test_a_consent_lasts_a_minute_and_not_before_it_was_given():
    consents = Consents()
    consents.remember('s1', [], ['make'], 10000)
    assert not consents.take_command('s1', 'make', 10000 + CONSENT_WINDOW_MS + 1)
    consents.remember('s1', [], ['make'], 10000)
    assert not consents.take_command('s1', 'make', 9999)  # a clock that went back: nothing is trusted
    consents.remember('s1', [], ['make'], 10000)
    assert consents.take_command('s1', 'make', 10000 + CONSENT_WINDOW_MS)


def test_a_sessions_unused_consents_end_with_its_turn_and_the_list_is_bounded():
    consents = Consents()
    consents.remember('s1', [['/ws/a', 'a']], ['make'], 0)
    consents.remember('s2', [], ['make'], 0)
    consents.forget('s1')
    assert not consents.take_command('s1', 'make', 1) and not consents.take_write('s1', '/ws/a', 'a', 1)
    assert consents.take_command('s2', 'make', 1)
    for n in range(MAX_KEPT + 5):
        consents.remember('s3', [], ['cmd ' + str(n)], 0)
    assert len(consents.kept) == MAX_KEPT
    assert not consents.take_command('s3', 'cmd 0', 1)  # the oldest left first
    assert consents.take_command('s3', 'cmd ' + str(MAX_KEPT + 4), 1)
