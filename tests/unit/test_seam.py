import pytest

from hermes.js import errors, json, objects


def test_parse_json_round_trip():
    assert json.parse_json('{"a": [1, {"b": null}]}') == {'a': [1, {'b': None}]}
    assert json.dump_json({'a': [1, None]}) == '{"a":[1,null]}'
    assert json.dump_json({'t': 'é ✓ \u202e'}) == '{"t":"é ✓ \u202e"}'  # as JSON.stringify writes it (seam.test.js)


def test_parse_json_rejects_bad_json_with_value_error():
    with pytest.raises(ValueError):
        json.parse_json('{"a": ')


def test_error_message():
    assert errors.error_message(ValueError('boom')) == 'boom'
    assert errors.error_message('plain') == 'plain'
    assert errors.error_message(None) == 'unknown error'
