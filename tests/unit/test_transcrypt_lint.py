"""The Transcrypt lint (toolchain/lint.py): py_src is clean, and every rule fires where it should."""
import sys
import textwrap
from pathlib import Path

import pytest

from toolchain.lint import RULES, lint_paths, lint_source

SEAM_GLOBALS = {'process', 'require', 'JSON'}


def rules_of(source):
    return [finding.rule for finding in lint_source(textwrap.dedent(source), seam_globals=SEAM_GLOBALS)]


def test_py_src_has_no_findings():
    findings = lint_paths()
    assert findings == [], 'Transcrypt lint findings:\n' + '\n'.join(str(finding) for finding in findings)


# One snippet that must fire each rule (and the known JS-only bugs it was written for).
FIRES = {
    'is-none-helper': [
        "from hermes.js.objects import is_none\nmissing = is_none(value)\n",
        "from hermes.js.objects import is_none\nleft = [v for v in values if not is_none(v)]\n",
        "from hermes.js.objects import is_none\nchecks = list(map(is_none, values))\n",  # passed as a function too
    ],
    'list-plus': [
        "lines = ['a']\nif x:\n    lines = lines + ['b']\n",  # core/client_config.py hermes_snippet
        "allowed = ['type'] + [f[0] for f in fields]\n",  # ui/panel/protocol.py
        "def f(self):\n    self.history = []\n    self.history = self.history + added\n",
        "items = []\nitems += [1]\n",
        "pair = (1,) + rest\n",
    ],
    'await-member': [
        "async def f(path):\n    return (await read_text(path))['text']\n",  # tools/editor_get_content.py
        "async def f():\n    return (await g()).strip()\n",
        "async def f():\n    return (await g())()\n",
    ],
    'strip-chars': ["x = line.lstrip(' ')\n", "y = text.rstrip('\\n')\n", "z = s.strip('/')\n"],
    'int-text': ["n = int(header)\n", "n = int(text, 16)\n",
                 "if text.isdigit():\n    n = int(text)\n",
                 "if text.isdigit() and len(text) < 11:\n    n = int(text)\n"],  # core/sse_parser.py retry: 99999999999 wrapped
    'untrusted-key': [
        "TABLE = {'a': 1}\ndef f(name):\n    return TABLE[name]\n",
        "TABLE = {'a': 1}\ndef f(name):\n    return TABLE.get(name)\n",
    ],
    'js-reserved': ["function = 1\n", "def f(this):\n    pass\n", "from hermes.x import public\n"],
    'js-renamed': ["if isNaN(x):\n    pass\n"],
    'reexport-js-global': ["from hermes.js.process import process\n"],
    'negative-index': ["last = items[-1]\n"],
    'percent-format': ["text = '%d items' % n\n"],
    'fstring-spec': ["text = f'{x:.2f}'\n", "text = f'{x!r}'\n", "text = '{:>4}'.format(x)\n",
                     "text = '{0!r}'.format(x)\n", "text = format(x, 'd')\n"],
    'del-item': ["del items[0]\n", "del items[1:2]\n", "items = []\ndel items[i]\n"],
    'sequence-repeat': ["line = '-' * n\n", "zeros = [0] * n\n"],
    'container-equality': ["if items == []:\n    pass\n", "same = a != {'k': 1}\n"],
    'container-truthiness': ["def f():\n    items = []\n    if items:\n        pass\n"],
    'dict-iteration': ["d = {}\nfor k in d:\n    pass\n"],
    'split-maxsplit': ["a = s.split(None, 1)\n", "b = s.rsplit(maxsplit=1)\n"],
    'splitlines': ["lines = text.splitlines()\n"],
    'find-range': ["i = s.find('x', 0, 5)\n", "j = s.rfind('x', 3)\n"],
    're-backref': ["import re\nx = re.sub('(a)', r'<\\1>', s)\n"],
    'missing-method': ["a, _, b = text.partition('=')\n", "n = text.count('x')\n", "s = str(n).zfill(3)\n"],
    'missing-builtin': ["key = hash(value)\n", "x = eval(text)\n"],
    'dict-number-key': ["names = {1: 'one'}\n", "order = {'b': 1, '2': 2}\n"],
    'py-prefix': ["py_total = 1\n", "meta = {'py_name': 'x'}\n", "def py_run():\n    pass\n"],
    'python37': ["if (n := 3):\n    pass\n", "def f(a, /):\n    pass\n"],
    'import': ["import json\n", "from .sibling import x\n", "from typing import List\n"],
    'annotation': ["LIMIT: int = 5\n", "class A:\n    label: str\n"],
    'main-guard': ["if __name__ == '__main__':\n    run()\n"],
    'proto-copy': [
        "def f(arguments):\n    result = {}\n    for key in object_keys(arguments):\n        result[key] = arguments[key]\n",  # core/tools.py with_defaults
        "def f(v):\n    c = {}\n    for k in keys_of(v):\n        if k != 'x':\n            c[k] = g(v[k])\n",  # host/commands.py
        "def f(v):\n    c = {}\n    for k in Object.js_keys(v):\n        c[k] = v[k]\n",
    ],
    'unused-suppression': ["x = 1  # transcrypt-ok[list-plus]: nothing to suppress\n"],
}


def test_every_rule_has_a_snippet():
    assert set(FIRES) == set(RULES)


@pytest.mark.parametrize('rule,source', [(rule, source) for rule, sources in FIRES.items() for source in sources])
def test_rule_fires(rule, source):
    assert rule in rules_of(source)


def test_findings_say_where_and_what_to_do_instead():
    [finding] = lint_source("x = line.lstrip(' ')\n", 'py_src/hermes/m.py', SEAM_GLOBALS)
    message = str(finding)
    assert message.startswith("py_src/hermes/m.py:1: [strip-chars] (line.lstrip(' ')) ")
    assert 'ignore their argument in JS' in message and 'core/strip_chars.py' in message


def test_is_none_says_write_is_none():
    [finding] = lint_source("from hermes.js.objects import is_none\nx = is_none(v)\n", 'py_src/hermes/m.py',
                            SEAM_GLOBALS)
    assert str(finding) == ('py_src/hermes/m.py:2: [is-none-helper] `is_none(x)` is `x is None` now: the build compiles '
                            'a comparison with None to `== null`, true for JS `undefined` too (toolchain/compact.py). '
                            'Write `x is None` / `x is not None`.')


SAFE = [
    "def f(value):\n    return value is None or value.x is not None\n",
    "lines = ['a']\nlines.extend(['b'])\n",
    "total = a + b\n",
    "async def f():\n    value = await g()\n    return value['text']\n",
    "async def f():\n    return h(await g())\n",
    "x = line.strip()\n",
    "n = int(len(s) / 2)\n",
    "def f(v):\n    if not v.isdigit() or len(v) > 5:\n        raise ValueError(v)\n    return int(v)\n",
    "ok = v.isdigit() and len(v) <= 9 and int(v) > 3\n",
    "ok = v.isdigit() and len(v) < 10 and int(v) > 3\n",
    "TABLE = {'a': 1}\ndef f(name):\n    return TABLE[name] if name in TABLE else None\n",
    "TABLE = {'a': 1}\nvalues = [TABLE[k] for k in TABLE.keys()]\n",
    "TABLE = {'a': 1}\ndef f(k):\n    if k not in TABLE:\n        TABLE[k] = 2\n    return TABLE[k]\n",
    "TABLE = {'a': 1}\nfor k in ['a']:\n    print(TABLE[k])\n",
    "TABLE = {'a': 1}\nx = TABLE['a']\n",
    "tail = items[-2:]\n",
    "text = '{} of {}'.format(done, total)\n",
    "d = {}\ndel d['key']\n",
    "# __pragma__('tconv')\ndef f():\n    items = []\n    if items:\n        pass\n",
    "d = {}\nfor k in d.keys():\n    pass\n",
    "def f(v):\n    c = {}\n    for k in copyable_keys(v):\n        c[k] = v[k]\n",
    "def f(v):\n    n = 0\n    for k in object_keys(v):\n        n += len(v[k])\n",
    "parts = s.split(',', 1)\n",
    "import re\nfrom hermes.core.values import get_key\n",
    "# __pragma__('skip')\nimport json\nfrom hermes.js.process import process\n# __pragma__('noskip')\n",
    "from hermes.js.objects import is_none\n",
    "codes = {'01': 'a', 'x1': 'b', 'n2': 'c'}\n",
    "def f(self):\n    return self.count()\n",
    "from hermes.x import hash\nkey = hash(value)\n",
    "n = int(words[1])  # transcrypt-ok[int-text]: git prints a decimal count here\n",
    "def f(a: int, b: 'List[str]' = None) -> 'Outcome':\n    x: int = a\n    return x\n",
    "class A:\n    count: int = 0\n\n    def __init__(self, n: int) -> None:\n        self.n: int = n\n",
    "LIMIT = 5  # type: int\n",
    "# __pragma__('skip')\nfrom typing import List\nX: List[int] = []\n# __pragma__('noskip')\n",
]


@pytest.mark.parametrize('source', SAFE)
def test_safe_code_is_not_flagged(source):
    assert rules_of(source) == []


def test_a_suppression_needs_a_reason_and_the_right_rule():
    assert rules_of("x = [1] + y  # transcrypt-ok[list-plus]\n") == ['list-plus', 'unused-suppression']
    assert rules_of("x = [1] + y  # transcrypt-ok[strip-chars]: wrong rule\n") == ['list-plus', 'unused-suppression']
    assert rules_of("x = [1] + y  # transcrypt-ok[list-plus]: y is a list of one known item\n") == []
