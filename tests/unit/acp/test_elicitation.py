"""core/acp/elicitation.py: an ACP agent's question read defensively (hostile words bounded and cleaned, bad requests
refused as invalid params), the user's answers checked against the requested schema, the exact result. Every call
here is also a parity vector (`inv parity`)."""
import pytest

from hermes.core.acp.elicitation import (ElicitationProblem, read_question, read_url, check_answers, default_answers,
                                     accepted, declined, cancelled, answer_text, carries_secret, shown_text,
                                     MAX_LABEL_CHARS, MAX_DESCRIPTION_CHARS, MAX_FIELDS)

FORM = {
    'type': 'object', 'title': 'Refactoring plan',
    'properties': {
        'strategy': {'type': 'string', 'title': 'Strategy', 'description': 'How careful to be',
                     'oneOf': [{'const': 'conservative', 'title': 'Conservative'}, {'const': 'balanced', 'title': 'Balanced'}]},
        'count': {'type': 'integer', 'title': 'Files at most', 'minimum': 1, 'maximum': 10, 'default': 3},
        'ratio': {'type': 'number', 'minimum': 0, 'maximum': 1},
        'dry_run': {'type': 'boolean', 'title': 'Dry run first', 'default': True},
        'note': {'type': 'string', 'maxLength': 5, 'minLength': 2},
        'email': {'type': 'string', 'format': 'email'},
        'day': {'type': 'string', 'format': 'date'},
        'size': {'type': 'string', 'enum': ['s', 'm'], 'default': 'x'}},
    'required': ['strategy', 'count']}


def form(**extra):
    params = {'sessionId': 'sess-1', 'mode': 'form', 'message': 'How should I approach this?',
              'requestedSchema': FORM}
    params.update(extra)
    return read_question(params)


def test_a_form_question_lists_its_fields_with_kinds_labels_defaults_and_choices():
    question = form(toolCallId='call-1')
    assert (question['mode'], question['message'], question['title']) == ('form', 'How should I approach this?',
                                                                          'Refactoring plan')
    assert (question['sessionId'], question['toolCallId'], question['requestId']) == ('sess-1', 'call-1', None)
    fields = {field['name']: field for field in question['fields']}
    assert [field['name'] for field in question['fields']] == ['strategy', 'count', 'ratio', 'dry_run', 'note', 'email',
                                                              'day', 'size']
    assert fields['strategy']['kind'] == 'choice' and fields['strategy']['required']
    assert fields['strategy']['options'] == [{'value': 'conservative', 'label': 'Conservative'},
                                             {'value': 'balanced', 'label': 'Balanced'}]
    assert fields['count']['kind'] == 'integer' and fields['count']['default'] == 3 and fields['count']['label'] == \
        'Files at most'
    assert fields['ratio']['label'] == 'ratio' and not fields['ratio']['required']  # no title: its name
    assert fields['dry_run']['options'] == [{'value': 'true', 'label': 'Yes'}, {'value': 'false', 'label': 'No'}]
    assert fields['size']['default'] is None  # a default that is none of the choices is dropped
    assert default_answers(question) == {'strategy': '', 'count': '3', 'ratio': '', 'dry_run': 'true', 'note': '',
                                         'email': '', 'day': '', 'size': ''}


def test_answers_that_fit_the_form_become_its_content_typed_and_blank_optional_fields_left_out():
    question = form()
    checked = check_answers(question, {'strategy': 'balanced', 'count': ' 7 ', 'ratio': '0.25', 'dry_run': 'false',
                                       'note': 'ok', 'email': 'me@example.com', 'day': '2026-12-05', 'size': '',
                                       'unknown': 'dropped'})
    assert checked == {'content': {'strategy': 'balanced', 'count': 7, 'ratio': 0.25, 'dry_run': False, 'note': 'ok',
                                   'email': 'me@example.com', 'day': '2026-12-05'}, 'problems': []}
    assert check_answers(question, {'strategy': 'conservative', 'count': 2, 'dry_run': True}) == {
        'content': {'strategy': 'conservative', 'count': 2, 'dry_run': True}, 'problems': []}


def test_answers_that_do_not_fit_are_refused_with_a_reason_per_field_and_nothing_to_send():
    question = form()
    checked = check_answers(question, {'strategy': 'reckless', 'count': '11', 'ratio': '1e', 'dry_run': 'maybe',
                                       'note': 'toolong', 'email': 'me@', 'day': '2026-13-01'})
    assert checked['content'] is None
    assert checked['problems'] == ['Strategy: must be one of the choices offered', 'Files at most: must be at most 10',
                                   'ratio: must be a number', 'Dry run first: must be Yes or No',
                                   'note: must be at most 5 characters long', 'email: must be an email address',
                                   'day: must be a date as YYYY-MM-DD']
    assert check_answers(question, {'count': '2.5'})['problems'] == ['Strategy: an answer is required',
                                                                     'Files at most: must be a whole number']
    assert check_answers(question, {'strategy': 'balanced', 'count': '0', 'note': 'x'})['problems'] == [
        'Files at most: must be at least 1', 'note: must be at least 2 characters long']
    assert check_answers(question, {'strategy': '  ', 'count': '1'})['problems'] == ['Strategy: an answer is required']


def test_a_field_type_this_client_cannot_answer_blocks_the_form_only_when_required():
    params = {'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {
        'properties': {'tags': {'type': 'array', 'items': {'type': 'string', 'enum': ['a']}},
                       'name': {'type': 'string'}}, 'required': ['tags']}}
    question = read_question(params)
    assert question['fields'][0]['kind'] == 'unsupported' and question['fields'][0]['type'] == 'array'
    assert check_answers(question, {'name': 'x'})['problems'] == ['tags: an answer is required']
    assert check_answers(question, {'tags': 'a'})['problems'] == ['tags: Hermes cannot answer a field of type "array"']
    params['requestedSchema']['required'] = []
    assert check_answers(read_question(params), {'name': 'x'}) == {'content': {'name': 'x'}, 'problems': []}


def test_hostile_labels_lose_control_and_bidi_characters_and_are_bounded():
    hostile = 'Pick [here](command:x) <img src=x> \u202egnp.exe\u202c \x1b[2J\u200b' + 'y' * 5000
    question = read_question({'sessionId': 's', 'mode': 'form', 'message': 'Line one\n\u202eLine two\x07',
                              'requestedSchema': {'properties': {'answer': {
                                  'type': 'string', 'title': hostile, 'description': '<b>x</b>\n\u2066d' + 'z' * 900,
                                  'enum': ['[ok](command:quit)', 'two\u202e']}}}})
    field = question['fields'][0]
    assert question['message'] == 'Line one\nLine two'  # line breaks kept, the rest gone
    assert len(field['label']) == MAX_LABEL_CHARS and field['label'].endswith('…')
    assert field['label'].startswith('Pick [here](command:x) <img src=x> gnp.exe [2J y')
    assert len(field['description']) == MAX_DESCRIPTION_CHARS and field['description'].startswith('<b>x</b> d')
    # the text stays as the agent wrote it (the front ends render it as text); what reorders or hides is gone
    assert [option['label'] for option in field['options']] == ['[ok](command:quit)', 'two']
    assert [option['value'] for option in field['options']] == ['[ok](command:quit)', 'two\u202e']  # sent back exactly
    assert shown_text(None, 10) == '' and shown_text('a\tb   c', 10) == 'a b c'


def test_requests_that_are_no_question_we_can_ask_are_invalid_params():
    cases = [
        ({'sessionId': 's', 'mode': 'voice', 'message': 'm'}, 'mode "voice" is not supported'),
        ({'sessionId': 's', 'message': 'm'}, 'mode missing is not supported'),
        ({'sessionId': 's', 'mode': 'form'}, '"message" must be a string'),
        ({'mode': 'form', 'message': 'm', 'requestedSchema': {}}, 'needs a "sessionId" or a "requestId"'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm'}, 'needs a "requestedSchema" of type "object"'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {'type': 'array'}}, 'of type "object"'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {'properties': {'a': 1}}},
         'property "a" is not a schema'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {'properties': {
            'a': {'type': 'string', 'enum': [1]}}}}, '"enum" choices must be strings'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {'properties': {
            'a': {'type': 'string', 'enum': []}}}}, 'a choice field needs 1 to 100 choices'),
        ({'sessionId': 's', 'mode': 'form', 'message': 'm', 'requestedSchema': {'properties': {
            'f' + str(n): {'type': 'string'} for n in range(MAX_FIELDS + 1)}}}, 'at most 30 fields'),
        ({'sessionId': 's', 'mode': 'url', 'message': 'm', 'url': 'https://a.example'}, 'needs a string "elicitationId"'),
    ]
    for params, expected in cases:
        with pytest.raises(ElicitationProblem) as caught:
            read_question(params)
        assert expected in str(caught.value) and str(caught.value).startswith('Invalid params: ')


def test_a_request_scoped_question_keeps_its_request_id():
    question = read_question({'requestId': 7, 'mode': 'form', 'message': 'm', 'requestedSchema': {'properties': {}}})
    assert (question['sessionId'], question['requestId'], question['fields']) == (None, 7, [])


def test_a_url_question_names_its_host_and_only_http_and_https_pass():
    question = read_question({'sessionId': 's', 'mode': 'url', 'elicitationId': 'e-1', 'message': 'Sign in',
                              'url': 'https://Login.Example.com:8443/connect?e=1#x'})
    assert (question['host'], question['url'], question['elicitationId'], question['warning']) == (
        'login.example.com', 'https://Login.Example.com:8443/connect?e=1#x', 'e-1', '')
    assert read_url('http://[::1]:8080/x')['host'] == '[::1]'
    assert 'Punycode' in read_url('https://xn--pple-43d.com/')['warning']
    assert 'outside ASCII' in read_url('https://аpple.com/')['warning']
    refused = {
        'javascript:alert(1)': 'only http and https', 'file:///etc/passwd': 'only http and https',
        'command:workbench.action.reload': 'only http and https', 'vscode://x': 'only http and https',
        'https://github.com@evil.example/': 'user name or password', 'https://u:p@a.example': 'user name or password',
        'https:///path': 'no host', 'https:evil.example': 'no host', 'https://a.example/ x': 'spaces or invisible',
        'https://a.example/\u202e': 'spaces or invisible', '': 'needs a "url"', 'https://a.example/' + 'x' * 4000:
        'longer than 4000',
    }
    for url, expected in refused.items():
        with pytest.raises(ElicitationProblem) as caught:
            read_url(url)
        assert expected in str(caught.value)


def test_a_url_that_carries_a_secret_we_handed_the_agent_is_known():
    secrets = ['Bearer tok-5ecret-abcdef0123456789', 'tok-5ecret-abcdef0123456789']
    assert carries_secret('https://collect.example/?t=tok-5ecret-abcdef0123456789', secrets)
    assert not carries_secret('https://login.example.com/connect', secrets)
    assert not carries_secret('https://a.example/short', ['short'])  # short values are no secrets worth hiding


def test_the_results_are_exactly_the_protocols_three_actions():
    assert accepted({'a': 1}) == {'action': 'accept', 'content': {'a': 1}}
    assert accepted() == {'action': 'accept'}  # a URL the user agreed to open: no content
    assert declined() == {'action': 'decline'} and cancelled() == {'action': 'cancel'}
    assert [answer_text(result) for result in [accepted(), declined(), cancelled()]] == ['Answered.', 'Declined.',
                                                                                        'Cancelled.']
