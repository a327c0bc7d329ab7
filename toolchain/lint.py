"""Transcrypt lint: Python constructs in py_src/ that run differently once transpiled to JavaScript.

Each rule is a construct that was seen to behave differently under node (docs/TRANSCRYPT.md, "The
machines that catch the rest"). A finding names the rule and says what to write instead. When a flagged
construct is provably safe, keep it and say why on the same line:

    n = int(words[1])  # transcrypt-ok[int-text]: git prints a decimal count here

A suppression needs a reason, and one that suppresses nothing is itself reported.
Code inside `# __pragma__('skip')` … `# __pragma__('noskip')` is CPython-only and is not linted.

    python -m toolchain.lint [files…]     (default: every module under py_src/)
"""
import ast
import functools
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / 'py_src'
SEAM = SOURCES / 'hermes' / 'js'
CPYTHON_ONLY = '_cpython.py'  # the seam's CPython twins (hermes/js/*_cpython.py) end so: never transpiled

FORMAT_SPEC = re.compile(r'\{[^{}]*[:!][^{}]*\}')  # '{:.2f}', '{0!r}' in a str.format template
SUPPRESSION = re.compile(r'#\s*transcrypt-ok\[([a-z0-9-]+)\]\s*:?\s*(.*)$')

RULES = {
    'list-plus': "`+` on lists/tuples is string concatenation in JS (no opov): build the list with "
                 "`.extend(...)`/`.append(...)` on a copy (`result = list(a)`; `result.extend(b)`).",
    'await-member': "`(await f()).x`, `(await f())[k]` and `(await f())(…)` lose their parentheses in JS: the "
                    "member is taken from the promise. Assign the awaited value first: `v = await f()`; `v[k]`.",
    'strip-chars': "`strip/lstrip/rstrip(chars)` ignore their argument in JS (whitespace only): "
                   "use `lstrip_chars`/`rstrip_chars` from core/strip_chars.py.",
    'int-text': "`int(text)` is `parseFloat(text) | 0` in JS: '1.5' → 1, '1e3' → 1000, values past 2**31 wrap "
                "(99999999999 → 1215752191), a base is ignored. Check the text first: `text.isdigit()` and "
                "`len(text) <= 9`, or mark why the value is already a small number.",
    'untrusted-key': "Dicts are JS objects: `d[key]` and `d.get(key)` with a key from outside "
                     "(`'constructor'`, `'keys'`, `'__class__'`) return inherited members (`d.get('keys')` is a "
                     "function in JS). Test `key in d` first (own keys only) or use `core.values.get_key`.",
    'js-reserved': "A JS reserved word as a name is a syntax error at bundle time (ES modules are strict): "
                   "rename it.",
    'js-renamed': "Transcrypt renames this identifier (`isNaN` → `py_isNaN`, …): it is not the JS global. "
                  "Test NaN with `x != x`; reach JS globals through the seam (hermes/js/).",
    'reexport-js-global': "A JS global imported from hermes.js is not exported by the bundle (it is undefined "
                          "in JS): add a function to the seam module (hermes/js/*.py) that uses it, with a CPython twin.",
    'negative-index': "`a[-1]` is `undefined` in JS (no opov): write `a[len(a) - 1]` (slices like `a[-2:]` "
                      "are fine).",
    'percent-format': "`'…' % args` is arithmetic in JS (NaN): use an f-string or `'…'.format(…)`.",
    'fstring-spec': "Format specs and conversions (`f'{x:.2f}'`, `f'{x!r}'`, `'{:>4}'.format(x)`, `format(x, 'd')`) "
                    "are not applied in JS: the build leaves out Transcrypt's formatter (-sf, 4 kB of runtime). "
                    "Use `repr(x)`/`str(x)` explicitly, or a seam helper for numbers.",
    'del-item': "`del a[i]` on a list leaves a hole in JS and `del a[i:j]` does nothing: use `a.pop(i)` or "
                "rebuild the list (`del d[key]` on a dict is fine: give a string key).",
    'sequence-repeat': "`'s' * n` is NaN and `[x] * n` is a number in JS: build it with a loop or `''.join(...)`.",
    'container-equality': "`==`/`!=` on lists, tuples or dicts compares identity in JS (`[1] == [1]` is false): "
                          "compare lengths/items, or use `core.values.json_equal`.",
    'container-truthiness': "Without `# __pragma__('tconv')`, `[]` and `{}` are true in JS: add the pragma "
                            "to the module or test `len(x) > 0`.",
    'dict-iteration': "Iterating a dict directly throws in JS (no iconv): iterate `d.keys()` / `d.items()`.",
    'split-maxsplit': "`split()`/`rsplit()` on whitespace with a maxsplit produces garbage in JS "
                      "('a b c'.split(None, 1) → ['a', 'b/\\s+/c']): split on an explicit separator.",
    'splitlines': "`splitlines()` trims trailing whitespace first in JS ('a  \\n\\n' → ['a']): use "
                  "`core.text_window.split_lines` or `text.split('\\n')` and handle '\\r'.",
    'find-range': "`find(sub, start, end)` ignores `end` and `rfind(sub, start…)` searches backwards from "
                  "`start` in JS: slice first (`text[start:end].find(sub)`).",
    're-backref': "`re.sub` does not translate `\\1`/`\\g<name>` in the replacement in JS: pass a function.",
    'missing-method': "Transcrypt's runtime has no such str/list method (calling it throws 'is not a function' in JS): "
                      "write it with find/slices/loops (`text.find(sep)` for partition, a loop for count, `text[:n]`…).",
    'missing-builtin': "Transcrypt has no such builtin (it is undefined in JS): do without it, or add a seam function.",
    'dict-number-key': "Dicts are JS objects: a number key becomes a string (`list({1: 'a'}.keys())` is ['1'], and "
                       "`'1' in d` is true) and keys that look like integers come first, in numeric order "
                       "({'b': 1, '2': 2} iterates '2', 'b'). Looking up by number works; for anything else use "
                       "string keys that are not numbers (a prefix: 'n1').",
    'py-prefix': "Names and dict keys starting with `py_` clash with Transcrypt's own (`py_get`, `py_keys`, `py_name`…): "
                 "rename it.",
    'python37': "Only Python 3.7 syntax compiles to working JS (no walrus, positional-only parameters, "
                "`match`, `except*`).",
    'import': "Only absolute imports of hermes modules work in the bundle: relative imports fail and stdlib "
              "imports make Transcrypt compile CPython's library. Put CPython-only imports in a skip block.",
    'annotation': "Transcrypt drops function annotations, but a module-level `X: T = v` becomes `var X` (not "
                  "exported: importing it gives undefined) and a bare class-level `x: T` is a syntax error in the "
                  "bundle. Write `X = v  # type: T`, or annotate in `__init__` (`self.x: T = v`).",
    'main-guard': "`if __name__ == '__main__':` runs inside the bundle: bundled modules must not have one.",
    'proto-copy': "A key-by-key copy (`for k in object_keys(v): copy[k] = …`) sets the copy's prototype in JS when `v` "
                  "has a `\"__proto__\"` key (JSON.parse makes one): the copy then shows values no validation saw. "
                  "Loop over `core.values.copyable_keys(v)` or use `copy_object(v)`.",
    'is-none-helper': "`is_none(x)` is `x is None` now: the build compiles a comparison with None to `== null`, true for "
                      "JS `undefined` too (toolchain/compact.py). Write `x is None` / `x is not None`.",
    'unused-suppression': "This `transcrypt-ok` comment suppresses nothing (or has no reason): remove it or "
                          "give the reason after the colon.",
}

# Reserved in strict-mode ES modules and not renamed by Transcrypt (compiler.py predef_aliases renames
# arguments, case, default, new, switch, true, false, undefined, …).
JS_RESERVED = {
    'catch', 'const', 'debugger', 'delete', 'do', 'enum', 'export', 'extends', 'function', 'implements',
    'instanceof', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static', 'this', 'throw',
    'typeof', 'var', 'void', 'eval', 'null',
}
JS_RENAMED_GLOBALS = {'isNaN', 'NaN', 'Infinity'}
# Checked against the runtime under node (String.prototype / Array.prototype / the runtime's exports).
MISSING_METHODS = {
    'casefold', 'center', 'count', 'encode', 'expandtabs', 'isascii', 'isidentifier', 'isprintable', 'istitle',
    'ljust', 'maketrans', 'partition', 'removeprefix', 'removesuffix', 'rindex', 'rjust', 'rpartition', 'swapcase',
    'title', 'translate', 'zfill',
}
MISSING_BUILTINS = {
    'id', 'hash', 'frozenset', 'vars', 'globals', 'open', 'slice', 'ascii', 'complex', 'memoryview', 'compile',
    'exec', 'eval',
}

LIST_BUILDERS = {'list', 'sorted'}
LIST_METHODS = {'split', 'rsplit', 'splitlines', 'py_split'}
DICT_BUILDERS = {'dict'}
NUMERIC_CALLS = {'len', 'round', 'abs', 'int', 'float', 'min', 'max', 'sum', 'now_ms', 'monotonic_ms'}
DIGIT_CHECKS = {'isdigit', 'isdecimal'}
ALL_KEYS_CALLS = {'object_keys', 'keys_of', 'js_keys'}  # every own key, "__proto__" included


class Finding:
    def __init__(self, path, line, rule, detail=''):
        self.path, self.line, self.rule, self.detail = path, line, rule, detail

    def __str__(self):
        where = f'{self.path}:{self.line}'
        detail = f' ({self.detail})' if self.detail else ''
        return f'{where}: [{self.rule}]{detail} {RULES[self.rule]}'


def skipped_lines(source):
    """Line numbers inside `# __pragma__('skip')` … `# __pragma__('noskip')` (CPython only)."""
    skipped, inside = set(), False
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip().replace(' ', '').replace('"', "'")
        if text.startswith("#__pragma__('skip')"):
            inside = True
        elif text.startswith("#__pragma__('noskip')"):
            inside = False
            skipped.add(number)
        if inside:
            skipped.add(number)
    return skipped


def has_pragma(source, name):
    return re.search(r"__pragma__\s*\(\s*['\"]" + name + r"['\"]", source) is not None


def js_globals_of_seam():
    """The names the seam's modules (hermes/js/*.py) take from their skip blocks and do not define:
    JS globals in the bundle, not exports."""
    found = set()
    for path in sorted(SEAM.glob('*.py')):
        if path.name.endswith(CPYTHON_ONLY):
            continue
        source = path.read_text()
        tree, skipped = ast.parse(source), skipped_lines(source)
        imported, defined = set(), set()
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno in skipped:
                imported.update(alias.asname or alias.name for alias in node.names)
            elif node.lineno not in skipped:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    defined.add(node.name)
                for target in getattr(node, 'targets', []):
                    defined.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        # an executable comment (`#?Name = …`, `__pragma__('ecom')`) defines a name only Transcrypt sees
        defined.update(re.findall(r'^#\?\s*(\w+)\s*=', source, re.MULTILINE))
        found |= imported - defined
    return found


@functools.lru_cache(maxsize=None)
def transcrypt_modules():
    """The library modules Transcrypt ships its own JS version of (re, math, …): importable anywhere."""
    spec = importlib.util.find_spec('transcrypt')
    if spec is None or not spec.submodule_search_locations:
        return frozenset({'re', 'math', 'random', 'time', 'datetime', 'itertools'})
    folder = Path(list(spec.submodule_search_locations)[0]) / 'modules'
    # its `typing` only exports ClassVar: typing stays in skip blocks
    return frozenset(path.name for path in folder.iterdir() if path.is_dir() and path.name[0] != '_') - {'org', 'typing'}


def facts(test, truth=True):
    """What holds when `test` is `truth`: ('key', k, d) for `k in d`, ('digits', x) for `x.isdigit()`,
    ('short', x) for `len(x) <= 9` (or less)."""
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And) == truth:  # all of an `and` is true, all of an `or` is false
            return set().union(*[facts(value, truth) for value in test.values])
        return set()
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return facts(test.operand, not truth)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        limit = test.comparators[0]
        if call_name(test.left) == 'len' and test.left.args and isinstance(limit, ast.Constant) \
                and isinstance(limit.value, int):
            # at most 9 digits: `len(x) < 10`, `len(x) <= 9`, or false: `len(x) > 9`, `len(x) >= 10`
            bound = {ast.Lt: 10, ast.LtE: 9} if truth else {ast.Gt: 9, ast.GtE: 10}
            if type(op) in bound and limit.value <= bound[type(op)]:
                return {('short', ast.unparse(test.left.args[0]))}
        if (isinstance(op, ast.In) and truth) or (isinstance(op, ast.NotIn) and not truth):
            return {('key', ast.unparse(test.left), ast.unparse(test.comparators[0]))}
    name = call_name(test)
    if truth and name and 'digit' in name.lower() or name in DIGIT_CHECKS:
        checked = test.func.value if isinstance(test.func, ast.Attribute) else (test.args or [None])[0]
        if checked is not None:
            return {('digits', ast.unparse(checked))}
    return set()


def loop_facts(target, iterable):
    """`for k in d.keys()` (or list(d.keys())): k is a key of d; `for k in ['a', 'b']`: a constant key."""
    if isinstance(iterable, ast.Call) and call_name(iterable) in ('list', 'sorted') and iterable.args:
        iterable = iterable.args[0]
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
            and iterable.func.attr == 'keys':
        return {('key', ast.unparse(target), ast.unparse(iterable.func.value))}
    if isinstance(iterable, (ast.List, ast.Tuple)) and all(
            isinstance(item, ast.Constant) and isinstance(item.value, str) for item in iterable.elts):
        return {('key', ast.unparse(target), '*')}
    return set()


def leaves_block(statements):
    return len(statements) > 0 and isinstance(statements[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def call_name(node):
    """'f' for f(...), 'm' for x.m(...), else None."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def target_key(node):
    """A name for a binding target we track: `x` or `self.x`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == 'self':
        return 'self.' + node.attr
    return None


class Scope:
    """What the names of one function (or module/class body) may be: 'list', 'dict', 'other' or 'mixed'."""

    def __init__(self, parent=None):
        self.kinds = {}
        self.parent = parent

    def bind(self, key, kind):
        """A name is a list (or dict) when it is ever bound to one: `x = []` … `x = x + y`."""
        if key is None:
            return
        known = self.kinds.get(key, 'other')
        if kind in ('list', 'dict'):
            self.kinds[key] = kind if known in ('other', kind) else 'mixed'
        else:
            self.kinds[key] = known

    def kind(self, key):
        scope = self
        while scope is not None:
            if key in scope.kinds:
                return scope.kinds[key]
            scope = scope.parent
        return None


def collect_bindings(body_nodes, scope, classify):
    """Bind every assignment in these statements (not nested functions) to the kind of its value."""
    stack = list(body_nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assign):
            kind = classify(node.value, scope)
            for target in node.targets:
                scope.bind(target_key(target), kind or 'other')
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            scope.bind(target_key(node.target), classify(node.value, scope) or 'other')
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            for name in ast.walk(node.target):
                scope.bind(target_key(name), 'other')
        stack.extend(ast.iter_child_nodes(node))


class Linter(ast.NodeVisitor):
    def __init__(self, path, source, seam_globals):
        self.path = path
        self.source = source
        self.skipped = skipped_lines(source)
        self.tconv = has_pragma(source, 'tconv')
        self.iconv = has_pragma(source, 'iconv')
        self.seam_globals = seam_globals
        self.library = transcrypt_modules()
        self.defined = set()  # module-level functions, classes and imported names
        self.findings = []
        self.scope = Scope()
        self.class_scope = None
        self.facts = [set()]  # what enclosing tests guarantee: see facts(); the first set is the function's

    # ---- helpers
    def report(self, node, rule, detail=''):
        line = getattr(node, 'lineno', 0)
        if line in self.skipped:
            return
        self.findings.append(Finding(self.path, line, rule, detail))

    def classify(self, node, scope=None):
        scope = scope or self.scope
        if isinstance(node, (ast.List, ast.ListComp, ast.Tuple)):
            return 'list'
        if isinstance(node, (ast.Dict, ast.DictComp)):
            return 'dict'
        name = call_name(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and name in LIST_BUILDERS:
            return 'list'
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and name in LIST_METHODS:
            return 'list'
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and name in DICT_BUILDERS:
            return 'dict'
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.classify(node.left, scope) or self.classify(node.right, scope)
        key = target_key(node)
        if key is not None:
            kind = scope.kind(key)
            if kind is None and key.startswith('self.') and self.class_scope is not None:
                kind = self.class_scope.kind(key)
            return kind if kind in ('list', 'dict') else None
        return None

    def scope_names(self):
        """Names bound in this module or function (a local `hash = …` is not the builtin)."""
        names, scope = set(), self.scope
        while scope is not None:
            names.update(scope.kinds)
            scope = scope.parent
        return names | self.defined

    def is_list(self, node):
        return self.classify(node) == 'list'

    def is_dict(self, node):
        return self.classify(node) == 'dict'

    # ---- scopes
    def visit_Module(self, node):
        for item in node.body:
            if isinstance(item, ast.AnnAssign):
                self.report(item, 'annotation', ast.unparse(item.target))
        collect_bindings(node.body, self.scope, self.classify)
        for item in ast.walk(node):
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defined.add(item.name)
            elif isinstance(item, (ast.Import, ast.ImportFrom)):
                self.defined.update((alias.asname or alias.name).split('.')[0] for alias in item.names)
            elif isinstance(item, ast.arg):
                self.defined.add(item.arg)
        self.generic_visit(node)

    def visit_ClassDef(self, node):
        self.check_name(node, node.name)
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and item.value is None:
                self.report(item, 'annotation', ast.unparse(item.target))
        outer_class = self.class_scope
        self.class_scope = Scope()
        for item in ast.walk(node):  # self.x bindings anywhere in the class's methods
            if isinstance(item, ast.Assign):
                kind = self.classify(item.value, Scope())
                for target in item.targets:
                    key = target_key(target)
                    if key and key.startswith('self.'):
                        self.class_scope.bind(key, kind or 'other')
        self.generic_visit(node)
        self.class_scope = outer_class

    def visit_FunctionDef(self, node):
        self.check_name(node, node.name)
        for arg in node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
            if arg is not None:
                self.check_name(arg, arg.arg)
        outer, outer_facts = self.scope, self.facts
        self.scope, self.facts = Scope(outer), [set()]
        for arg in node.args.args + node.args.kwonlyargs:
            self.scope.bind(arg.arg, 'other')
        collect_bindings(node.body, self.scope, self.classify)
        self.generic_visit(node)
        self.scope, self.facts = outer, outer_facts

    visit_AsyncFunctionDef = visit_FunctionDef

    # ---- names
    def check_name(self, node, name):
        if name in JS_RESERVED:
            self.report(node, 'js-reserved', name)
        if name.startswith('py_'):
            self.report(node, 'py-prefix', name)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self.check_name(node, node.id)
        elif node.id in JS_RENAMED_GLOBALS:
            self.report(node, 'js-renamed', node.id)
        elif node.id == 'is_none':  # the helper the build made needless (a habit of older code)
            self.report(node, 'is-none-helper')

    def visit_Import(self, node):
        for alias in node.names:
            self.check_name(node, alias.asname or alias.name)
            if not alias.name.startswith('hermes') and alias.name not in self.library:
                self.report(node, 'import', 'import ' + alias.name)

    def visit_ImportFrom(self, node):
        if node.level:
            self.report(node, 'import', 'relative import')
        elif not (node.module or '').startswith('hermes') and node.module not in self.library:
            self.report(node, 'import', 'from ' + str(node.module))
        if (node.module or '').startswith('hermes.js.'):
            for alias in node.names:
                if alias.name in self.seam_globals:
                    self.report(node, 'reexport-js-global', alias.name)
        for alias in node.names:
            self.check_name(node, alias.asname or alias.name)

    def visit_If(self, node):
        test = node.test
        if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == '__name__'):
            self.report(node, 'main-guard')
        self.check_truthiness(node.test)
        self.visit(node.test)
        self.visit_guarded(node.body, facts(node.test, True))
        self.visit_guarded(node.orelse, facts(node.test, False))
        otherwise = facts(node.test, False)
        if leaves_block(node.body):  # `if not x.isdigit(): raise …` guards the rest of the function
            self.facts[0] |= otherwise
        else:  # `if k not in d: d[k] = …` makes `d[k]` safe afterwards
            assigned = {('key', ast.unparse(target.slice), ast.unparse(target.value))
                        for statement in node.body if isinstance(statement, ast.Assign)
                        for target in statement.targets if isinstance(target, ast.Subscript)}
            self.facts[0] |= otherwise & assigned

    def visit_guarded(self, nodes, known):
        self.facts.append(known)
        for item in nodes if isinstance(nodes, list) else [nodes]:
            self.visit(item)
        self.facts.pop()

    def known(self, fact):
        return any(fact in known for known in self.facts)

    # ---- truthiness
    def check_truthiness(self, test):
        if self.tconv:
            return
        tests = test.values[:-1] if isinstance(test, ast.BoolOp) else [test]  # the last one is a value
        for item in tests:
            if isinstance(item, ast.UnaryOp) and isinstance(item.op, ast.Not):
                item = item.operand
            if self.classify(item) in ('list', 'dict'):
                self.report(item, 'container-truthiness', ast.unparse(item))

    def visit_While(self, node):
        self.check_truthiness(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node):
        self.check_truthiness(node.test)
        self.visit(node.test)
        self.visit_guarded(node.body, facts(node.test, True))
        self.visit_guarded(node.orelse, facts(node.test, False))

    def visit_BoolOp(self, node):
        self.check_truthiness(node)
        known = set()  # `k in d and d[k]`, `not x.isdigit() or int(x)`: each operand guards the next
        for value in node.values:
            self.visit_guarded(value, set(known))
            known |= facts(value, isinstance(node.op, ast.And))

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            self.check_truthiness(node)
        self.generic_visit(node)

    # ---- operators
    def visit_BinOp(self, node):
        if isinstance(node.op, ast.Add) and (self.is_list(node.left) or self.is_list(node.right)):
            self.report(node, 'list-plus', ast.unparse(node)[:60])
        if isinstance(node.op, ast.Mod) and isinstance(node.left, (ast.JoinedStr, ast.Constant)) \
                and isinstance(getattr(node.left, 'value', ''), str):
            self.report(node, 'percent-format')
        if isinstance(node.op, ast.Mult):
            for side in (node.left, node.right):
                if (isinstance(side, ast.Constant) and isinstance(side.value, str)) \
                        or isinstance(side, (ast.JoinedStr, ast.List, ast.Tuple, ast.ListComp)):
                    self.report(node, 'sequence-repeat', ast.unparse(node)[:60])
                    break
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.op, ast.Add) and (self.is_list(node.target) or self.is_list(node.value)):
            self.report(node, 'list-plus', ast.unparse(node)[:60])
        if isinstance(node.op, ast.Mult) and isinstance(node.target, ast.Name) and self.is_list(node.target):
            self.report(node, 'sequence-repeat', ast.unparse(node)[:60])
        self.generic_visit(node)

    def visit_Compare(self, node):
        operands = [node.left] + list(node.comparators)
        for index, op in enumerate(node.ops):
            left, right = operands[index], operands[index + 1]
            if isinstance(op, (ast.Eq, ast.NotEq)):
                if self.classify(left) or self.classify(right):
                    self.report(node, 'container-equality', ast.unparse(node)[:60])
        self.generic_visit(node)

    def trusted_key(self, node, container=None):
        """A constant string key, or one the enclosing `if` checked with `key in container`."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return True
        if container is None:
            return False
        key = ast.unparse(node)
        return self.known(('key', key, ast.unparse(container))) or self.known(('key', key, '*'))

    # ---- subscripts, attributes, calls
    def visit_Subscript(self, node):
        index = node.slice
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) \
                and isinstance(index.operand, ast.Constant):
            self.report(node, 'negative-index', ast.unparse(node))
        if isinstance(node.value, ast.Await):
            self.report(node, 'await-member', ast.unparse(node)[:60])
        if isinstance(node.ctx, ast.Load) and self.is_dict(node.value) and not self.trusted_key(index, node.value) \
                and not isinstance(index, ast.Slice):
            self.report(node, 'untrusted-key', ast.unparse(node)[:60])
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Await):
            self.report(node, 'await-member', ast.unparse(node)[:60])
        self.generic_visit(node)

    def visit_Delete(self, node):
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                index = target.slice
                numeric = isinstance(index, ast.Slice) or (isinstance(index, ast.Constant)
                                                           and isinstance(index.value, int)) \
                    or isinstance(index, ast.UnaryOp)
                if numeric or self.is_list(target.value):
                    self.report(node, 'del-item', ast.unparse(target))
        self.generic_visit(node)

    def visit_Call(self, node):
        name = call_name(node)
        args = node.args
        method = isinstance(node.func, ast.Attribute)
        if isinstance(node.func, ast.Await):
            self.report(node, 'await-member', ast.unparse(node)[:60])
        receiver = node.func.value if method else None
        js_object = call_name(receiver) == 'new' or (isinstance(receiver, ast.Name) and receiver.id == 'self')
        if method and name in MISSING_METHODS and not js_object:  # `new(TextEncoder).encode(…)` is JS's
            self.report(node, 'missing-method', ast.unparse(node)[:60])
        if not method and name in MISSING_BUILTINS and name not in self.scope_names():
            self.report(node, 'missing-builtin', name)
        if method and name in ('strip', 'lstrip', 'rstrip') and args:
            self.report(node, 'strip-chars', ast.unparse(node)[:60])
        if not method and name == 'int':
            self.check_int(node)
        if method and name in ('split', 'rsplit'):
            sep_missing = not args or (isinstance(args[0], ast.Constant) and args[0].value is None)
            has_max = len(args) > 1 or any(k.arg == 'maxsplit' for k in node.keywords)
            if sep_missing and has_max:
                self.report(node, 'split-maxsplit', ast.unparse(node)[:60])
        if (method and name == 'format' and isinstance(node.func.value, ast.Constant)
                and isinstance(node.func.value.value, str) and FORMAT_SPEC.search(node.func.value.value)) \
                or (not method and name == 'format' and name not in self.scope_names()):
            self.report(node, 'fstring-spec', ast.unparse(node)[:60])
        if method and name == 'splitlines':
            self.report(node, 'splitlines', ast.unparse(node)[:60])
        if method and ((name == 'find' and len(args) > 2) or (name == 'rfind' and len(args) > 1)):
            self.report(node, 'find-range', ast.unparse(node)[:60])
        if method and name == 'get' and args and self.is_dict(node.func.value) \
                and not self.trusted_key(args[0]):
            self.report(node, 'untrusted-key', ast.unparse(node)[:60])
        if method and name == 'sub' and isinstance(node.func.value, ast.Name) and node.func.value.id == 're' \
                and len(args) > 1 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str) \
                and re.search(r'\\(\d|g<)', args[1].value):
            self.report(node, 're-backref', ast.unparse(node)[:60])
        self.generic_visit(node)

    def check_int(self, node):
        if len(node.args) > 1 or node.keywords:
            self.report(node, 'int-text', 'base ignored: ' + ast.unparse(node)[:50])
            return
        if not node.args:
            return
        arg = node.args[0]
        numeric = (isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float))) \
            or isinstance(arg, (ast.BinOp, ast.UnaryOp)) or call_name(arg) in NUMERIC_CALLS
        checked = self.known(('digits', ast.unparse(arg))) and self.known(('short', ast.unparse(arg)))
        if not numeric and not checked:
            self.report(node, 'int-text', ast.unparse(node)[:60])

    def visit_For(self, node):
        if not self.iconv and self.is_dict(node.iter):
            self.report(node, 'dict-iteration', ast.unparse(node.iter)[:60])
        if call_name(node.iter) in ALL_KEYS_CALLS and isinstance(node.target, ast.Name):
            for item in ast.walk(ast.Module(body=node.body, type_ignores=[])):
                targets = item.targets if isinstance(item, ast.Assign) else []
                if any(isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Name)
                       and target.slice.id == node.target.id for target in targets):
                    self.report(item, 'proto-copy', ast.unparse(node.iter)[:60])
        self.visit(node.iter)
        self.visit(node.target)
        self.visit_guarded(node.body, loop_facts(node.target, node.iter))
        for statement in node.orelse:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_comprehension(self, node):
        if not self.iconv and self.is_dict(node.iter):
            self.report(node.iter, 'dict-iteration', ast.unparse(node.iter)[:60])
        self.generic_visit(node)

    def visit_comprehension_scope(self, node):
        known = set()
        for generator in node.generators:
            self.visit_guarded(generator, set(known))
            known |= loop_facts(generator.target, generator.iter)
            for condition in generator.ifs:
                known |= facts(condition, True)
        for part in ('elt', 'key', 'value'):
            if hasattr(node, part):
                self.visit_guarded(getattr(node, part), set(known))

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_comprehension_scope

    def visit_Dict(self, node):
        numbers = [key for key in node.keys if isinstance(key, ast.Constant) and key.value is not None and (
            not isinstance(key.value, str) or (key.value.isdigit() and (key.value == '0' or key.value[0] != '0')))]
        if numbers:  # once per dict
            self.report(node, 'dict-number-key', ', '.join(repr(key.value) for key in numbers[:3]))
        for key in node.keys:
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith('py_'):
                self.report(node, 'py-prefix', repr(key.value))
        self.generic_visit(node)

    def visit_JoinedStr(self, node):
        for value in node.values:
            if isinstance(value, ast.FormattedValue) and (value.format_spec is not None or value.conversion != -1):
                self.report(node, 'fstring-spec', ast.unparse(value)[:60])
        self.generic_visit(node)


def apply_suppressions(path, source, findings):
    """Drop findings suppressed on their line (with a reason); report suppressions without effect."""
    comments = {}
    for number, line in enumerate(source.splitlines(), 1):
        match = SUPPRESSION.search(line)
        if match:
            comments[number] = (match.group(1), match.group(2).strip())
    used, kept = set(), []
    for finding in findings:
        comment = comments.get(finding.line)
        if comment and comment[0] == finding.rule and comment[1]:
            used.add(finding.line)
        else:
            kept.append(finding)
    for number, (rule, reason) in sorted(comments.items()):
        if number not in used:
            kept.append(Finding(path, number, 'unused-suppression', f'[{rule}]' + ('' if reason else ' no reason')))
    return kept


def lint_source(source, path='<snippet>', seam_globals=None):
    """Findings for one module's source text."""
    if seam_globals is None:
        seam_globals = js_globals_of_seam()
    try:
        ast.parse(source, feature_version=(3, 7))
    except SyntaxError as error:
        return [Finding(path, error.lineno or 0, 'python37', str(error.msg))]
    linter = Linter(path, source, seam_globals)
    linter.visit(ast.parse(source))
    unique = {(f.line, f.rule, f.detail): f for f in linter.findings}
    findings = sorted(unique.values(), key=lambda f: (f.line, f.rule))
    return apply_suppressions(path, source, findings)


def bundled_sources():
    """Every module that is transpiled (the seam's CPython-only twins are not)."""
    return [path for path in sorted((SOURCES / 'hermes').rglob('*.py')) if not path.name.endswith(CPYTHON_ONLY)]


def lint_paths(paths=None):
    seam_globals = js_globals_of_seam()
    findings = []
    for path in paths or bundled_sources():
        path = Path(path).resolve()
        if path.name.endswith(CPYTHON_ONLY):
            continue
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        findings.extend(lint_source(path.read_text(), str(shown), seam_globals))
    return findings


def main(argv):
    paths = [path for path in (argv[1:] or bundled_sources()) if not Path(path).name.endswith(CPYTHON_ONLY)]
    findings = lint_paths(paths)
    for finding in findings:
        print(finding)
    print(f'transcrypt lint: {len(RULES) - 1} rules, {len(paths)} modules, {len(findings)} findings')
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
