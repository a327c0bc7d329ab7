import pytest

from hermes import js


def test_parse_json_round_trip():
    assert js.parse_json('{"a": [1, {"b": null}]}') == {'a': [1, {'b': None}]}
    assert js.dump_json({'a': [1, None]}) == '{"a":[1,null]}'
    assert js.dump_json({'t': 'é ✓ \u202e'}) == '{"t":"é ✓ \u202e"}'  # as JSON.stringify writes it (seam.test.js)


def test_parse_json_rejects_bad_json_with_value_error():
    with pytest.raises(ValueError):
        js.parse_json('{"a": ')


def test_is_none_and_error_message():
    assert js.is_none(None) and not js.is_none(0) and not js.is_none('')
    assert js.error_message(ValueError('boom')) == 'boom'
    assert js.error_message('plain') == 'plain'
    assert js.error_message(None) == 'unknown error'
