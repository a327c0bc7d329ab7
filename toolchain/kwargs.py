"""Keyword arguments only where our code uses them: a patch of Transcrypt's code generator (toolchain/transpile.py).

Transcrypt's `-k` gives EVERY function a prologue that unpacks `__kwargtrans__` objects; measured on
dist/extension.js (minified), that prologue was 270 of 640 kB. A definition needs it only when some
call passes keyword arguments to it: so this runs Transcrypt (same command line, `-k` included) with
its generator patched to emit the prologue, in `hermes.*` modules, only for functions whose name is
called with keywords somewhere in py_src, in the unit tests (the parity layer replays their calls
on the bundle) or in the JS tests that call the transpiled code with
`kwargs(...)` (every `__init__` once any class is called so; every function taking **kwargs).
Transcrypt's own modules (runtime, re) keep `-k` everywhere. A call with keywords to a function
without the prologue would silently use the defaults, so the rule is by name and deliberately wide:
any definition sharing a name with a keyword callee gets it. The other size patches (truth tests, raise,
default parameters) are toolchain/compact.py's.
"""
import ast
import inspect
import re
import sys

from toolchain.compact import emit_plain_arguments
JS_CALL = re.compile(r'(\w+)\(')
JS_KWARGS_CALL = re.compile(r'(\w+)\([^()]*(?:\([^()]*\)[^()]*)*kwargs\(')  # f(a, g(b), kwargs(


def keyword_callees(sources, js_sources):
    """Names of functions that some call passes keyword arguments to, and 'Class.__init__' for the
    classes (and their bases) that are constructed with keywords."""
    names, bases, called, constructed = set(), {}, set(), set()
    for path in sources:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [base.id for base in node.bases if isinstance(base, ast.Name)]
                for inner in ast.walk(node):  # super().__init__(…, key=…) constructs the bases with keywords
                    if (isinstance(inner, ast.Call) and inner.keywords and isinstance(inner.func, ast.Attribute)
                            and inner.func.attr == '__init__'):
                        constructed.update(bases[node.name])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.args.kwarg is not None:
                names.add(node.name)
            elif isinstance(node, ast.Call) and node.keywords:
                func = node.func
                if isinstance(func, ast.Name):
                    called.add(func.id)
                elif isinstance(func, ast.Attribute):
                    called.add(func.attr)
    for path in js_sources:
        text = path.read_text()
        called.update(JS_KWARGS_CALL.findall(text))
        if 'kwargs(' in text:  # a JS test passing keywords: every class it constructs, to be safe
            constructed.update(name for name in JS_CALL.findall(text) if name in bases)
    names.update(called)
    constructed.update(name for name in called if name in bases)
    pending = list(constructed)
    while pending:  # a class without its own __init__ runs its base's
        name = pending.pop()
        names.add(name + '.__init__')
        for base in bases.get(name, []):
            if base + '.__init__' not in names:
                pending.append(base)
    names.discard('__init__')  # decided per class above
    return names


def patch_transcrypt(needs_kwargs):
    import transcrypt.__main__  # (puts Transcrypt's own `org` package on sys.path)
    compiler = sys.modules['org.transcrypt.compiler']
    original = compiler.Generator.visit_FunctionDef
    if not hasattr(compiler.Generator, 'visit_arguments'):
        raise SystemExit('toolchain/kwargs.py: Transcrypt changed (no visit_arguments); review this script')

    def visit_function_def(self, node, anAsync=False):
        if not self.module.name.startswith('hermes.'):
            return original(self, node, anAsync)
        name = node.name
        if name == '__init__':
            owner = self.getScope(ast.ClassDef)
            name = (owner.node.name if owner is not None else '') + '.__init__'
        saved = self.allowKeywordArgs
        self.allowKeywordArgs = saved and name in needs_kwargs
        try:
            return original(self, node, anAsync)
        finally:
            self.allowKeywordArgs = saved

    compiler.Generator.visit_FunctionDef = visit_function_def

    # A function without the prologue is never handed a `__kwargtrans__` object: its defaults become ES
    # default parameters (toolchain/compact.py, `emit_plain_arguments`).
    original_arguments = compiler.Generator.visit_arguments

    def visit_arguments(self, node):
        if not self.allowKeywordArgs:
            return emit_plain_arguments(self, node)
        if self.module.name.startswith('hermes.') and node.vararg is None and node.kwarg is None:
            return emit_keyword_arguments(self, node)
        return original_arguments(self, node)

    if 'hasOwnProperty ("__kwargtrans__"))) {{;' not in inspect.getsource(original_arguments) \
            or "'var {} = arguments [{}--];\\n'" not in inspect.getsource(original_arguments):
        raise SystemExit('toolchain/kwargs.py: Transcrypt changed its default-argument test; review this script')
    compiler.Generator.visit_arguments = visit_arguments


# The prologue's two questions are functions on __kwargtrans__ (toolchain/runtime.py, KWARGTRANS_QUESTIONS), not spelled out
# in every function: `$d (x)` is Transcrypt's `typeof x == 'undefined' || (x != null && x.hasOwnProperty
# ("__kwargtrans__"))`, `$k (arguments)` the last argument when it is a keyword-arguments object, else null.
KEYWORD_DEFAULT_TEST = 'if (__kwargtrans__.$d ({0})) {{;\n'


def emit_keyword_arguments(self, node):
    """Transcrypt's -k parameters of a function without *args and **kwargs, with a shorter prologue that does
    the same: the last argument, when it is a `__kwargtrans__` object, assigns the parameters it names.
    (Transcrypt's also counts down the positional arguments for *args; a function with no parameter gets
    none: there is nothing to assign.)"""
    self.emit('(')
    for index, arg in enumerate(node.args):
        self.emitComma(index)
        self.visit(arg)
    self.emit(') {{\n')
    self.indent()  # the body's; Transcrypt dedents after it
    for arg, expr in zip(node.args[len(node.args) - len(node.defaults):], node.defaults):
        # a __kwargtrans__ object in a defaulted parameter's place is not its value
        self.emit(KEYWORD_DEFAULT_TEST, self.filterId(arg.arg))
        self.indent()
        self.emit('{} = ', self.filterId(arg.arg))  # a parameter: declared already
        self.visit(expr)
        self.emit(';\n')
        self.dedent()
        self.emit('}};\n')
    for arg, expr in zip(node.kwonlyargs, node.kw_defaults):
        if expr:
            self.emit('var {} = ', self.filterId(arg.arg))
            self.visit(expr)
            self.emit(';\n')
    names = node.args + node.kwonlyargs
    if not names:
        return
    given, key = self.nextTemp('allkwargs'), self.nextTemp('attrib')
    self.emit('var {0} = __kwargtrans__.$k (arguments);\n', given)
    self.emit('if ({0}) {{\n', given)
    self.indent()
    self.emit('for (var {} in {}) {{\n', key, given)
    self.indent()
    self.emit('switch ({}) {{\n', key)
    self.indent()
    for arg in node.args:  # parameters: declared already
        self.emit('case \'{0}\': {0} = {1} [{2}]; break;\n', self.filterId(arg.arg), given, key)
    for arg in node.kwonlyargs:
        self.emit('case \'{0}\': var {0} = {1} [{2}]; break;\n', self.filterId(arg.arg), given, key)
    self.dedent()
    self.emit('}}\n')
    self.dedent()
    self.emit('}}\n')
    self.dedent()
    self.emit('}}\n')
    self.prevTemp('attrib')
    self.prevTemp('allkwargs')
