"""The webview → host protocol of the side panel: every accepted message, and the malformed ones the
host refuses with a reason (tests/node/panel.test.js runs the same cases on the transpiled code)."""
import json
from pathlib import Path

import pytest

from hermes.ui.panel.protocol import parse_webview_message, ProtocolError, message_types
from hermes.ui.panel.messages import MESSAGES

CASES = json.loads((Path(__file__).resolve().parents[2] / 'fixtures' / 'panel_protocol_cases.json').read_text())


@pytest.mark.parametrize('case', CASES['valid'], ids=lambda case: case['name'])
def test_valid_messages_are_accepted_as_clean_copies(case):
    message = parse_webview_message(case['message'])
    assert message == case['message']
    assert message is not case['message']


@pytest.mark.parametrize('case', CASES['invalid'], ids=lambda case: case['name'])
def test_malformed_messages_are_rejected_with_a_reason(case):
    with pytest.raises(ProtocolError) as error:
        parse_webview_message(case['message'])
    assert case['reason'] in str(error.value)


def test_every_message_type_has_a_valid_case():
    assert sorted({case['message']['type'] for case in CASES['valid']}) == sorted(message_types())


def test_limits():
    MAX_TEXT = [fields for kind, fields in MESSAGES if kind == 'send'][0][0][2]
    assert MAX_TEXT == 100000  # contracts/panel.py TEXT
    parse_webview_message({'type': 'send', 'text': 'x' * MAX_TEXT})
    with pytest.raises(ProtocolError, match='too long'):
        parse_webview_message({'type': 'send', 'text': 'x' * (MAX_TEXT + 1)})


def test_non_dict_values_are_rejected():
    for value in (None, 'send', 42, True, ['send'], ({'type': 'send'},)):
        with pytest.raises(ProtocolError, match='expected an object'):
            parse_webview_message(value)
