"""Pytest plugin: record the calls the unit tests make to the pure functions, for replay on the bundle.

    HERMES_PARITY_VECTORS=build/parity/vectors.json pytest -p toolchain.parity.record tests/unit

Every module-level function of the modules in `modules.py` is wrapped before the tests import it.
Each call whose arguments are JSON-able becomes a vector: arguments (and keyword arguments), the
result or the exception (type and message), and the arguments after the call (functions that fill
a list or dict they were given). Vectors are deduplicated and capped per function; calls that cannot
be replayed are counted with the reason, so the report can say what is not covered and why.
"""
import functools
import importlib
import inspect
import json
import math
import os
import re
import sys
from pathlib import Path

from toolchain.parity.record_traces import Traces
from toolchain.parity.modules import ADAPTED_CLASSES, EQUIVALENT, NOT_REPLAYED, recorded_modules

VECTORS_ENV = 'HERMES_PARITY_VECTORS'
CAP_PER_FUNCTION = 200


class NotJson(Exception):
    pass


MAX_VALUES = 3000  # values in one call's arguments or result: bigger calls are skipped (the recording stays cheap)


def to_json(value, result=False):
    """The JSON value both sides must agree on: tuples are lists, integral floats are ints (JS has
    one number type), dicts need string keys, exceptions and ADAPTED_CLASSES become tagged objects;
    anything else (other objects, callables, NaN, more than MAX_VALUES values) is NotJson."""
    return _to_json(value, 0, result, [MAX_VALUES])


def _to_json(value, depth, result, budget):
    budget[0] -= 1
    if budget[0] < 0:
        raise NotJson('more than ' + str(MAX_VALUES) + ' values')
    if depth > 40:
        raise NotJson('nested too deeply')
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if abs(value) > 2 ** 53:
            raise NotJson('integer beyond 2**53')
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise NotJson('NaN or infinity')
        return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value
    if isinstance(value, (list, tuple)):
        return [_to_json(item, depth + 1, result, budget) for item in value]
    if isinstance(value, dict):
        converted = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJson('a dict with non-string keys')
            converted[key] = _to_json(item, depth + 1, result, budget)
        return converted
    if result and isinstance(value, BaseException):  # functions that build an error for the caller to raise
        return {'<exception>': [type(value).__name__, message_of(value)]}
    if type(value).__name__ in ADAPTED_CLASSES:  # rebuilt from its fields by replay.js
        fields = {key: item for key, item in vars(value).items() if not callable(item)}
        return {'<' + type(value).__name__ + '>': _to_json(fields, depth + 1, result, budget)}
    raise NotJson(type(value).__name__)


def message_of(error):
    """str(error), except that CPython quotes a KeyError's message (str(KeyError('x')) is "'x'")."""
    if isinstance(error, KeyError) and len(error.args) == 1 and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


CLOCK_OR_CHANCE = re.compile(r'\b(now_ms|monotonic_ms|perf_counter|randomBytes|random|randint|uuid4)\(')


def source_of(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ''


class Recorder:
    def __init__(self):
        self.vectors = {}  # 'module:function' -> {key: vector}
        self.skipped = {}  # 'module:function' -> {reason: count}
        self.functions = {}  # 'module:function' -> 'sync' | 'async' | 'generator'
        self.traces = Traces(to_json, NotJson, message_of)
        self.not_replayed = dict(NOT_REPLAYED)

    def skip(self, name, reason):
        reasons = self.skipped.setdefault(name, {})
        reasons[reason] = reasons.get(reason, 0) + 1

    def wrap(self, module_name, function):
        name = module_name + ':' + function.__name__
        if inspect.iscoroutinefunction(function):
            self.functions[name] = 'async'
            return function
        if inspect.isgeneratorfunction(function):
            self.functions[name] = 'generator'
            return function
        self.functions[name] = 'sync'
        found = CLOCK_OR_CHANCE.search(source_of(function))
        if found:  # its result changes from run to run: not comparable (found by its source, so renames keep it)
            self.not_replayed[name] = 'reads the clock or chance (calls ' + found.group(1) + ')'
        recorder = self

        @functools.wraps(function)
        def recording(*args, **kwargs):
            known = recorder.vectors.setdefault(name, {})
            if len(known) >= CAP_PER_FUNCTION:
                return function(*args, **kwargs)
            try:
                given = to_json([list(args), kwargs])
            except NotJson as reason:
                recorder.skip(name, 'arguments not JSON-able: ' + str(reason))
                return function(*args, **kwargs)
            key = json.dumps(given, sort_keys=True)
            if key in known:
                return function(*args, **kwargs)
            vector = {'args': given[0], 'kwargs': given[1]}
            try:
                result = function(*args, **kwargs)
            except Exception as error:
                vector['raises'] = {'type': type(error).__name__, 'message': message_of(error)}
                recorder.keep(name, key, vector, args, kwargs)
                raise
            try:
                vector['returns'] = to_json(result, result=True)
            except NotJson as reason:
                recorder.skip(name, 'result not JSON-able: ' + str(reason))
                return result
            recorder.keep(name, key, vector, args, kwargs)
            return result

        return recording

    def keep(self, name, key, vector, args, kwargs):
        try:
            after = to_json([list(args), kwargs])
        except NotJson:
            return
        if after != [vector['args'], vector['kwargs']]:
            vector['args_after'] = after[0]
        self.vectors[name][key] = vector

    def install(self):
        wrapped = {}  # id(original) -> wrapper
        for module_name in recorded_modules():
            module = importlib.import_module(module_name)
            for attribute, value in list(vars(module).items()):
                if inspect.isfunction(value) and value.__module__ == module_name:
                    wrapped[id(value)] = self.wrap(module_name, value)
                    setattr(module, attribute, wrapped[id(value)])
                elif inspect.isclass(value) and value.__module__ == module_name:
                    self.traces.install(module_name, value)
        # Modules imported along the way bound the originals (`from hermes.core.values import get_key`).
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith('hermes.') and module is not None:
                for attribute, value in list(vars(module).items()):
                    if id(value) in wrapped and inspect.isfunction(value):
                        setattr(module, attribute, wrapped[id(value)])

    def save(self, path):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            'functions': self.functions,
            'not_replayed': self.not_replayed,
            'equivalent': EQUIVALENT,
            'adapted': ADAPTED_CLASSES,
            'skipped': self.skipped,
            'vectors': {name: list(found.values()) for name, found in sorted(self.vectors.items()) if found},
            'classes': self.traces.classes,
            'poisoned': self.traces.poisoned,
            'traces': self.traces.results(),
        }
        path.write_text(json.dumps(data, indent=0))  # key order matters (object_keys)


RECORDER = Recorder()


def pytest_configure(config):
    if os.environ.get(VECTORS_ENV):
        RECORDER.install()


def pytest_runtest_setup(item):
    RECORDER.traces.current_test = item.nodeid.split('[')[0]


def pytest_unconfigure(config):
    if os.environ.get(VECTORS_ENV):
        RECORDER.save(os.environ[VECTORS_ENV])
