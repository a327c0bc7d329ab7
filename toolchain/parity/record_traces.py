"""Traces of class instances for the parity replay: a stateful object (SseParser, the tool-text stream
parser, Conversation…) is replayed as its constructor call followed by its method calls, in order.

Only objects built by test code are traced. A trace keeps only what replay.js can redo exactly: the
constructor and the outermost method calls with JSON-able arguments (a method calling another method of
the same object is part of the outer call). A trace is dropped ("poisoned") when replaying it could not
reproduce the state: an argument that is not JSON-able, an async or generator method, an attribute set
from outside the class's own methods, or an argument its caller changed afterwards. At the end, the
instance's JSON-able attributes are kept too, so the replay also compares the state the calls left behind.
"""
import functools
import inspect
import json
import sys

CAP_TRACES_PER_CLASS = 300
CAP_TRACES_PER_TEST = 15  # per class and test function: a test that splits a stream 500 ways keeps 15
CAP_LIVE_PER_TEST = 60  # traces started per class and test
CAP_CALLS_PER_TRACE = 300


def made_by_a_test():
    """Only objects a test builds itself are traced: the ones py_src builds on its hot paths (a parser per
    HTTP stream) would fill the cap with look-alikes and slow the timing-sensitive tests down."""
    caller = sys._getframe(2).f_code.co_filename.replace('\\', '/')
    return '/tests/' in caller and '/toolchain/' not in caller


class Entry:
    def __init__(self, instance, trace):
        self.instance = instance  # kept alive, so its id is not reused while recorded
        self.trace = trace
        self.depth = 0
        self.ready = False  # the constructor has returned
        self.arguments = []  # (args, kwargs, their JSON right after the call) per recorded call


class Traces:
    def __init__(self, to_json, not_json, message_of):
        self.to_json, self.not_json, self.message_of = to_json, not_json, message_of
        self.classes = {}  # 'module:Class' -> list of method names
        self.entries = {}  # id(instance) -> Entry
        self.live = {}  # ('module:Class', test) -> number of traces started
        self.poisoned = {}  # 'module:Class' -> {reason: count}
        self.current_test = ''  # set by the plugin for each test (its function, without parameters)

    def snapshot(self, args, kwargs):
        try:
            return json.dumps(self.to_json([list(args), kwargs]))
        except self.not_json:
            return None

    def poison(self, entry, reason):
        if entry.trace is not None:
            reasons = self.poisoned.setdefault(entry.trace['class'], {})
            reasons[reason] = reasons.get(reason, 0) + 1
            entry.trace = None

    def install(self, module_name, cls):
        if issubclass(cls, BaseException) or cls.__module__ != module_name:
            return
        name = module_name + ':' + cls.__name__
        methods = []
        for attribute, value in list(vars(cls).items()):
            if inspect.isfunction(value) and not attribute.startswith('__'):
                methods.append(attribute)
                setattr(cls, attribute, self.wrap_method(value))
        self.classes[name] = methods
        self.wrap_init(cls, name)
        self.wrap_setattr(cls)

    def wrap_init(self, cls, name):
        original = cls.__init__
        traces = self

        @functools.wraps(original)
        def init(instance, *args, **kwargs):
            entry = traces.entries.get(id(instance))
            if entry is not None:  # a parent class's __init__ inside the child's
                entry.depth += 1
                try:
                    return original(instance, *args, **kwargs)
                finally:
                    entry.depth -= 1
            trace = None
            live = (name, traces.current_test)
            if type(instance) is cls and traces.live.get(live, 0) < CAP_LIVE_PER_TEST and made_by_a_test():
                try:
                    trace = {'class': name, 'args': traces.to_json([list(args), kwargs]), 'calls': [],
                             'test': traces.current_test}
                    traces.live[live] = traces.live.get(live, 0) + 1
                except traces.not_json:
                    traces.poisoned.setdefault(name, {})
                    traces.poisoned[name]['constructor arguments not JSON-able'] = \
                        traces.poisoned[name].get('constructor arguments not JSON-able', 0) + 1
            if trace is None:
                return original(instance, *args, **kwargs)
            entry = Entry(instance, trace)
            traces.entries[id(instance)] = entry
            entry.depth += 1
            try:
                return original(instance, *args, **kwargs)
            except Exception as error:
                if entry.trace is not None:
                    entry.trace['raises'] = {'type': type(error).__name__, 'message': traces.message_of(error)}
                raise
            finally:
                entry.depth -= 1
                entry.ready = True

        cls.__init__ = init

    def wrap_setattr(self, cls):
        original = cls.__setattr__
        traces = self

        def setattr_(instance, attribute, value):
            entry = traces.entries.get(id(instance))
            if entry is not None and entry.ready and entry.depth == 0:
                traces.poison(entry, 'attribute "' + attribute + '" set from outside the class')
            original(instance, attribute, value)

        cls.__setattr__ = setattr_

    def wrap_method(self, function):
        traces = self
        if inspect.iscoroutinefunction(function) or inspect.isgeneratorfunction(function):
            @functools.wraps(function)
            def unreplayable(instance, *args, **kwargs):
                entry = traces.entries.get(id(instance))
                if entry is not None and entry.depth == 0:
                    traces.poison(entry, 'async or generator method ' + function.__name__)
                return function(instance, *args, **kwargs)
            return unreplayable

        @functools.wraps(function)
        def method(instance, *args, **kwargs):
            entry = traces.entries.get(id(instance))
            if entry is None:
                return function(instance, *args, **kwargs)
            call = None
            if entry.trace is not None and entry.depth == 0 and entry.ready:
                if len(entry.trace['calls']) >= CAP_CALLS_PER_TRACE:
                    traces.poison(entry, 'more than ' + str(CAP_CALLS_PER_TRACE) + ' calls')
                else:
                    try:
                        given = traces.to_json([list(args), kwargs])
                        call = {'method': function.__name__, 'args': given[0], 'kwargs': given[1]}
                    except traces.not_json as reason:
                        traces.poison(entry, 'arguments of ' + function.__name__ + ' not JSON-able: ' + str(reason))
            entry.depth += 1
            try:
                result = function(instance, *args, **kwargs)
            except Exception as error:
                if call is not None and entry.trace is not None:
                    call['raises'] = {'type': type(error).__name__, 'message': traces.message_of(error)}
                    entry.trace['calls'].append(call)
                raise
            finally:
                entry.depth -= 1
            if call is not None and entry.trace is not None:
                try:
                    call['returns'] = traces.to_json(result, result=True)
                except traces.not_json:
                    pass  # replayed for its effect on the state; its result is not compared
                entry.trace['calls'].append(call)
                # The arguments as the call left them: if they change later (a dict the object keeps, changed
                # by its caller), the replay cannot follow and the trace is dropped (see results()).
                entry.arguments.append((args, kwargs, traces.snapshot(args, kwargs)))
            return result

        return method

    def results(self):
        """Deduplicated traces per class, each with the JSON-able state its calls left behind."""
        found, per_test = {}, {}
        for entry in self.entries.values():
            trace = entry.trace
            if trace is None or (not trace['calls'] and 'raises' not in trace):
                continue
            if any(self.snapshot(args, kwargs) != after for args, kwargs, after in entry.arguments):
                self.poison(entry, 'an argument was changed after the call (by the caller)')
                continue
            state = {}
            for attribute, value in vars(entry.instance).items():
                try:
                    state[attribute] = self.to_json(value)
                except self.not_json:
                    pass
            test = (trace['class'], trace.pop('test'))
            trace = dict(trace, state=state)
            kept = found.setdefault(trace['class'], {})
            key = json.dumps([trace['args'], trace['calls']], sort_keys=True)
            if len(kept) < CAP_TRACES_PER_CLASS and key not in kept and per_test.get(test, 0) < CAP_TRACES_PER_TEST:
                kept[key] = trace
                per_test[test] = per_test.get(test, 0) + 1
        return {name: list(kept.values()) for name, kept in sorted(found.items())}
