"""The recorder behind `inv parity` (toolchain/parity/record.py): what a vector holds, and what is skipped."""
import pytest

from toolchain.parity.record import NotJson, Recorder, to_json
from hermes.core.tools import Tool


def test_to_json_is_what_both_platforms_agree_on():
    assert to_json((1, 2.0, [0.5], {'a': None})) == [1, 2, [0.5], {'a': None}]
    assert to_json(ValueError('bad'), result=True) == {'<exception>': ['ValueError', 'bad']}
    tool = Tool('t', 'does t', {'type': 'object'}, lambda args, call: None)
    assert to_json(tool)['<Tool>']['name'] == 't' and 'handler' not in to_json(tool)['<Tool>']
    for value in [object(), {1: 'a'}, float('nan'), len, ValueError('only as a result')]:
        with pytest.raises(NotJson):
            to_json(value)


def test_a_call_becomes_one_vector_with_its_outcome():
    recorder = Recorder()

    def fill(items, extra=0):
        if extra < 0:
            raise KeyError('negative')
        items.append(extra)
        return len(items)

    recording = recorder.wrap('m', fill)
    assert recording([1], extra=2) == 2
    assert recording([1], extra=2) == 2  # the same call again: deduplicated
    with pytest.raises(KeyError):
        recording([], extra=-1)
    recording([object()])  # not JSON-able: counted, not recorded
    vectors = list(recorder.vectors['m:fill'].values())
    assert vectors == [
        {'args': [[1]], 'kwargs': {'extra': 2}, 'returns': 2, 'args_after': [[1, 2]]},
        {'args': [[]], 'kwargs': {'extra': -1}, 'raises': {'type': 'KeyError', 'message': 'negative'}},
    ]
    assert recorder.skipped == {'m:fill': {'arguments not JSON-able: object': 1}}


class Counter:
    def __init__(self, start):
        self.total = start

    def add(self, amount):
        self.total = self._plus(amount)
        return self.total

    def _plus(self, amount):
        return self.total + amount


def test_an_object_is_traced_as_its_constructor_and_outer_method_calls():
    traces = Recorder().traces
    traces.install(__name__, Counter)
    counter = Counter(1)
    assert counter.add(2) == 3 and counter.add(4) == 7  # _plus, called by add, is part of add
    touched = Counter(0)
    touched.total = 10  # set from outside: the replay could not follow
    [trace] = traces.results()[__name__ + ':Counter']
    assert trace == {'class': __name__ + ':Counter', 'args': [[1], {}], 'state': {'total': 7}, 'calls': [
        {'method': 'add', 'args': [2], 'kwargs': {}, 'returns': 3},
        {'method': 'add', 'args': [4], 'kwargs': {}, 'returns': 7}]}
    assert traces.poisoned == {__name__ + ':Counter': {'attribute "total" set from outside the class': 1}}


def test_every_function_left_out_of_the_replay_still_exists():
    # A rename would otherwise put the function back into the replay unannounced.
    import importlib
    from toolchain.parity.modules import EQUIVALENT, NOT_REPLAYED
    for key in list(NOT_REPLAYED) + list(EQUIVALENT):
        module, name = key.split(':')
        assert callable(getattr(importlib.import_module(module), name, None)), f'{key} no longer exists'
