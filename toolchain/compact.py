"""Smaller JavaScript from Transcrypt, same behaviour (applied by toolchain/transpile.py).

Measured on dist/extension.js (minified, issue 17), each change below is boilerplate Transcrypt emits
around code whose meaning it does not change:
- truth tests (`tconv`): `if (__t__ (a == b))` → `if (a == b)` when the tested expression is already a JS
  boolean: a comparison (`in` included: `__in__` answers a boolean), `not x`, `and`/`or` of such,
  `True`/`False`, or a call to a builtin that answers a boolean (`isinstance`, `hasattr`, …) or to one of
  our functions whose every `return` is such an expression (`is_object`, …; found in py_src, see
  `boolean_functions`). `__t__` of a boolean is that boolean, so nothing else changes (~6 kB).
- `raise E(…)` without `from`: `var e = E(…); e.__cause__ = null; throw e` → `throw E(…)`. Nothing
  reads `__cause__` in the bundle (~4 kB); `raise … from …` and a bare `raise` keep Transcrypt's form.
- default parameters of functions without the keyword-argument prologue: `function (a, b) {if (typeof b
  == 'undefined') {var b = 3;} …}` → `function (a, b = 3) {…}`. Both evaluate the default at call time
  when the argument is missing (undefined); the ES form evaluates it outside the body, as Python does,
  so a local of the same name no longer hides the module's (~3 kB).
- methods: `get m () {return __get__ (this, function (self, …) {…});}` → `m: {$m (self, …) {…}}` (an ES
  method: the same function, called the same way, but it cannot be constructed, which nothing does to a
  method); the runtime's class factory turns each such entry into that same getter when the class is made
  (toolchain/runtime.py, METHOD_ENTRY), so classes look exactly as before (~12 kB). Static and class methods,
  properties and decorated methods keep Transcrypt's form. (A generator method would come out as `$m * (`,
  which esbuild rejects: py_src has none.)
- lambdas (without the keyword-argument prologue, *args or keyword-only parameters) and the function each
  comprehension runs in as arrow functions: `(function __lambda__ (x) {return x.id;})` → `((x) => {return
  x.id;})`. Neither uses `this` or `arguments`, and nothing constructs them (~2 kB).
- `x is None` as `x == null` and `x is not None` as `x != null` (Transcrypt: `=== null`, false for JS
  `undefined`). This one changes behaviour, on purpose: a missing key, a void return or an absent argument is
  `undefined` in JS and None in Python, so `is None` now answers what CPython answers (the unit tests' and the
  parity replay's meaning). Only comparisons with the literal None; `a is b` stays `===`.
- classes: no `__module__: __name__` entry. Nothing reads `__module__` (the runtime, our code, the tests:
  checked at each build), and without it each module's `var __name__ = 'hermes.…'` is unused too (~4 kB).
"""
import ast
import inspect
import re
import sys
from pathlib import Path

from toolchain.lint import skipped_lines  # the one definition of a CPython-only block

# Transcrypt's runtime builtins that always answer a JS boolean (org/transcrypt/__builtin__.js).
MODULE_READ = re.compile(r"\.__module__|['\"]__module__['\"]")  # x.__module__, getattr(x, '__module__')
BOOLEAN_BUILTINS = {'isinstance', 'issubclass', 'hasattr', 'callable', 'bool'}


def _defined_names(tree):
    """Every name a module binds other than by `def` (assignments, parameters, imports under another name)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            bound.add(node.asname)
        elif isinstance(node, ast.ClassDef):
            bound.add(node.name)
    return bound


def _returns(function):
    """The values of a function's own `return` statements (not those of functions nested in it)."""
    found, pending = [], list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return):
            found.append(node.value)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def is_boolean(node, boolean_calls):
    """True when the transpiled expression is always a JS boolean, or a number literal (so `__t__` would
    return it unchanged)."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    if isinstance(node, ast.BoolOp):
        return all(is_boolean(value, boolean_calls) for value in node.values)
    if isinstance(node, ast.Constant):  # __t__ of a number is that number too (`-1` is `-__t__ (1)`)
        return isinstance(node.value, (bool, int, float))
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in boolean_calls
    return False


def boolean_functions(sources):
    """Names that, called as `name(…)` anywhere in py_src, are one module-level function answering a boolean
    on every path: defined by exactly one `def` (CPython-only modules aside), bound in no other way, ending
    with a `return`, every `return` a boolean expression. Found to a fixed point (`is_x` calling `is_object`)."""
    definitions, bound = {}, set()
    for path in sources:
        if path.name.endswith('_cpython.py'):  # CPython twins of the seam: never transpiled
            continue
        source = path.read_text()
        tree = ast.parse(source, str(path))
        skipped = skipped_lines(source)
        tree.body = [node for node in tree.body if node.lineno not in skipped]
        bound |= _defined_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if isinstance(node, ast.FunctionDef) and node in tree.body:
                    definitions.setdefault(node.name, []).append(node)
                elif not isinstance(node, ast.Lambda):
                    bound.add(node.name)  # a method or nested function of that name: calls are ambiguous
    candidates = {name: nodes[0] for name, nodes in definitions.items() if len(nodes) == 1 and name not in bound}
    known = set(BOOLEAN_BUILTINS)
    changed = True
    while changed:
        changed = False
        for name, function in candidates.items():
            if name in known or not function.body or not isinstance(function.body[-1], ast.Return):
                continue
            values = _returns(function)
            if values and all(value is not None and is_boolean(value, known) for value in values):
                known.add(name)
                changed = True
    return known


def patch_truthiness(compiler, boolean_calls):
    """`__t__ (…)` only around expressions that may not be a boolean. Transcrypt emits the wrapper with
    emitBeginTruthy, visits the tested node, then emitEndTruthy: the first node visited after the begin is
    the tested one, and the begin fragment is blanked when that node is known to be a boolean."""
    generator = compiler.Generator
    original_begin, original_end, original_visit = generator.emitBeginTruthy, generator.emitEndTruthy, generator.visit

    def begin(self):
        if not self.allowConversionToTruthValue:
            return
        self.__dict__.setdefault('truthy_stack', []).append({'fragment': self.fragmentIndex, 'tested': None})
        original_begin(self)

    def visit(self, node):
        stack = self.__dict__.get('truthy_stack')
        if stack and stack[-1]['tested'] is None:
            stack[-1]['tested'] = (not self.allowOperatorOverloading) and is_boolean(node, boolean_calls)
        return original_visit(self, node)

    def end(self):
        if not self.allowConversionToTruthValue:
            return
        entry = self.truthy_stack.pop()
        if entry['tested']:
            index = entry['fragment']
            if self.targetFragments[index] != '__t__ (':  # the line's indentation came first
                index += 1
            if self.targetFragments[index] != '__t__ (':
                raise SystemExit('toolchain/compact.py: Transcrypt changed how it emits __t__; review this script')
            self.targetFragments[index] = ''
        else:
            original_end(self)

    if 'self.emit (\'__t__ (\')' not in _source(original_begin):
        raise SystemExit('toolchain/compact.py: Transcrypt changed emitBeginTruthy; review this script')
    generator.emitBeginTruthy, generator.emitEndTruthy, generator.visit = begin, end, visit


def patch_raise(compiler):
    """`raise E(…)` (no `from`) as one `throw E(…)`."""
    generator = compiler.Generator
    original = generator.visit_Raise

    def visit_raise(self, node):
        if node.exc is None or node.cause is not None:
            return original(self, node)
        self.adaptLineNrString(node)
        self.emit('throw ')
        self.visit(node.exc)

    if "'{}.__cause__ = '" not in _source(original):
        raise SystemExit('toolchain/compact.py: Transcrypt changed visit_Raise; review this script')
    generator.visit_Raise = visit_raise


class IsNone(ast.Is):
    """`is` with the literal None on one side: JS `==` (Transcrypt's operator table keys on the op's type)."""


class IsNotNone(ast.IsNot):
    """`is not` with the literal None on one side: JS `!=`."""


NONE_OPERATORS = {ast.Is: IsNone, ast.IsNot: IsNotNone}


def _is_none_literal(node):
    return isinstance(node, ast.Constant) and node.value is None


def patch_is_none(compiler):
    """`x is None` as `x == null` and `x is not None` as `x != null`: Python's meaning for a JS `undefined` too
    (a missing key, a void return, an absent argument), where Transcrypt's `=== null` is false for it. Only a
    comparison with the literal None changes; `a is b` stays `===`. `==` and `===` have the same precedence, so
    the parentheses Transcrypt puts around operands do not change either."""
    generator = compiler.Generator
    original = generator.visit_Compare
    source = _source(compiler)
    if "ast.Is: ('===', 10)," not in source or "ast.IsNot: ('!==', 10)," not in source \
            or "ast.Eq: ('==', 10)," not in source or "ast.NotEq: ('!=', 10)," not in source \
            or "self.emit (' {0} '.format (self.operators [type (op)][0]))" not in _source(original) \
            or 'return self.operators [type (exprNode.ops [0])][1]' not in source:
        raise SystemExit('toolchain/compact.py: Transcrypt changed how it emits `is` comparisons; review patch_is_none')

    def visit_compare(self, node):
        operands = [node.left] + list(node.comparators)
        ops = [NONE_OPERATORS[type(op)]() if type(op) in NONE_OPERATORS
               and (_is_none_literal(operands[index]) or _is_none_literal(operands[index + 1])) else op
               for index, op in enumerate(node.ops)]
        if ops != node.ops:
            self.operators.setdefault(IsNone, ('==', self.operators[ast.Eq][1]))
            self.operators.setdefault(IsNotNone, ('!=', self.operators[ast.NotEq][1]))
            node.ops = ops  # the tree is Transcrypt's own parse of this module, visited once
        return original(self, node)
    generator.visit_Compare = visit_compare


def with_emit(self, rewrite, visit, node, *args):
    """Run visit(self, node, …) with every fragment emitted at this level passing through
    rewrite(emit, fragment, *format_args); fragments of nested visits are rewritten by their own level first."""
    saved = self.__dict__.get('emit')
    emit = self.emit
    self.emit = lambda fragment, *format_args: rewrite(emit, fragment, *format_args)
    try:
        return visit(self, node, *args)
    finally:
        if saved is None:
            del self.emit  # back to the class's method
        else:
            self.emit = saved


def patch_class_module(compiler, sources):
    """Classes without the `__module__` entry nobody reads."""
    runtime = Path(compiler.__file__).parent
    sources = sources + [runtime / '__core__.js', runtime / '__builtin__.js']
    readers = [path for path in sources if MODULE_READ.search(path.read_text())]
    if readers:
        raise SystemExit(f'toolchain/compact.py: {readers[0]} reads __module__; stop leaving it out of classes')
    generator = compiler.Generator
    original = generator.visit_ClassDef
    if "'\\n__module__: __name__,'" not in _source(original):
        raise SystemExit('toolchain/compact.py: Transcrypt changed how classes get __module__; review this script')

    def visit_class_def(self, node):
        def emit_without_module(emit, fragment, *args):
            return emit('\n' if fragment == '\n__module__: __name__,' else fragment, *args)
        return with_emit(self, emit_without_module, original, node)
    generator.visit_ClassDef = visit_class_def


METHOD_GETTER = 'get {} () {{return {} (this, {}function'
METHOD_END = ');}}'


def patch_methods(compiler):
    """Plain methods as `name: {$m: function …}` entries (see the module's docstring)."""
    generator = compiler.Generator
    original = generator.visit_FunctionDef  # maybe toolchain/kwargs.py's wrapper: check Transcrypt's own source
    source = _source(compiler)
    if repr(METHOD_GETTER)[1:-1] not in source or "self.emit (');}}')" not in source:
        raise SystemExit('toolchain/compact.py: Transcrypt changed how it emits methods; review this script')

    def visit_function_def(self, node, anAsync=False):
        if self.allowJavaScriptCall or self.allowMemoizeCalls:
            return original(self, node, anAsync)
        depth = self.__dict__.get('function_depth', 0) + 1
        state = {'rewritten': False}

        def emit_method_entry(emit, fragment, *args):
            if self.function_depth == depth:  # not a fragment of a function nested in this one
                if fragment == METHOD_GETTER and args[1] == '__get__' and not state['rewritten']:
                    state['rewritten'] = True
                    return emit('{}: {{{}$m', args[0], args[2])  # `async ` or ''
                if fragment == METHOD_END and state['rewritten']:
                    return emit('}}')
            return emit(fragment, *args)
        self.function_depth = depth
        try:
            return with_emit(self, emit_method_entry, original, node, anAsync)
        finally:
            self.function_depth = depth - 1
    generator.visit_FunctionDef = visit_function_def


def patch_arrows(compiler):
    """Lambdas and comprehensions as arrow functions (see the module's docstring)."""
    generator = compiler.Generator
    original_lambda, original_comprehension = generator.visit_Lambda, generator.visit_ListComp
    source = _source(compiler)
    if "self.emit ('(function __lambda__ ',)" not in source or "self.emit (';\\n}})')" not in source \
            or source.count("self.emit ('(function () {{\\n')") != 2:
        raise SystemExit('toolchain/compact.py: Transcrypt changed how it emits lambdas or comprehensions; '
                         'review this script')

    def visit_lambda(self, node):
        arguments = node.args
        if self.allowKeywordArgs or arguments.vararg or arguments.kwarg or arguments.kwonlyargs:
            return original_lambda(self, node)
        self.emit('(')
        emit_plain_arguments(self, arguments, ') => {{\n')
        self.emit('return ')
        self.visit(node.body)
        self.dedent()
        self.emit(';\n}})')

    def visit_comprehension(self, node, *args, **kwargs):
        state = {'head': False}

        def emit_arrow_head(emit, fragment, *format_args):
            if fragment == '(function () {{\n' and not state['head']:  # its own: emitted before anything nested
                state['head'] = True
                return emit('(() => {{\n')
            return emit(fragment, *format_args)
        return with_emit(self, emit_arrow_head, lambda self, node: original_comprehension(self, node, *args, **kwargs),
                         node)
    generator.visit_Lambda, generator.visit_ListComp = visit_lambda, visit_comprehension


def emit_plain_arguments(self, node, head_end=') {{\n'):
    """Parameters of a function without the keyword-argument prologue, defaults as ES default parameters.
    The rest is what Transcrypt emits without -k: keyword-only defaults as locals, *args from `arguments`."""
    self.emit('(')
    defaults = [None] * (len(node.args) - len(node.defaults)) + list(node.defaults)
    for index, (arg, default) in enumerate(zip(node.args, defaults)):
        self.emitComma(index)
        self.visit(arg)
        if default is not None:
            self.emit(' = ')
            self.visit(default)
    self.emit(head_end)
    self.indent()  # the body's; Transcrypt dedents after it
    for arg, expr in zip(node.kwonlyargs, node.kw_defaults):
        if expr:
            self.emit('var {} = ', self.filterId(arg.arg))
            self.visit(expr)
            self.emit(';\n')
    if node.vararg:
        self.emit('var {} = tuple ([].slice.apply (arguments).slice ({}));\n', self.filterId(node.vararg.arg),
                  len(node.args))


def _source(function):
    return inspect.getsource(function)


def patch(compiler, sources, js_sources):
    """`sources`: the Python that is transpiled; `js_sources`: the JS that calls it (its tests), which must not
    read `__module__` either."""
    if any('def __contains__' in path.read_text() for path in sources):  # `in` would call it: any value
        raise SystemExit('toolchain/compact.py: a class defines __contains__; `in` may not answer a boolean, '
                         'review is_boolean')
    patch_truthiness(compiler, boolean_functions(sources))
    patch_raise(compiler)
    patch_is_none(compiler)
    patch_class_module(compiler, sources + js_sources)
    patch_methods(compiler)
    patch_arrows(compiler)

