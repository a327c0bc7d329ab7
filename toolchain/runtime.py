"""Transcrypt's runtime as the bundles use it: text patches on build/transcrypt/org.transcrypt.__runtime__.js, and
class definitions marked pure in every transpiled module (run by toolchain/transpile.py after Transcrypt). Each
patch finds the exact text it replaces and stops the build when Transcrypt changed it; each is idempotent (a
second entry module transpiled into the same folder finds the runtime patched already).

What is left to the bundler (esbuild.js): dropping the runtime's prototype methods no code of the bundle names,
which only a first pass of the bundle itself can tell.
"""
import re
import sys
from pathlib import Path

RUNTIME = 'org.transcrypt.__runtime__.js'

# Transcrypt's dict() gives every dict (each literal in our Python, each object parsed from JSON) its
# Python methods with ~17 Object.defineProperty calls. Measured (inv bench), that was the largest
# single cost of an MCP request. `fast_dicts` gives plain objects one shared, frozen prototype that
# carries the same non-enumerable methods instead; objects with another prototype (class instances
# handed to dict()) still take Transcrypt's original path. Semantics are unchanged: the methods stay
# non-enumerable, JSON.stringify and Object.keys see only the data.
DICT_METHODS_START = "    __setproperty__ (instance, '__class__', {value: dict, enumerable: false, writable: true});"
DICT_PROTOTYPE = """
var __hermesDictPrototype__;
function __hermesSharedDictPrototype__ () {
    if (!__hermesDictPrototype__) {
        const proto = Object.create (Object.prototype);
        Object.defineProperty (proto, '__class__', {value: dict, enumerable: false, writable: true});
        Object.defineProperties (proto, {
            __contains__: {value: __contains__}, py_keys: {value: __keys__},
            __iter__: {value: function () {new __PyIterator__ (this.py_keys ());}},
            py_items: {value: __items__}, py_del: {value: __del__}, py_clear: {value: __clear__},
            py_get: {value: __getdefault__}, py_setdefault: {value: __setdefault__}, py_pop: {value: __pop__},
            py_popitem: {value: __popitem__}, py_update: {value: __update__}, py_copy: {value: __copy__},
            py_values: {value: __values__}, py_fromkeys: {value: __fromkeys__},
            __getitem__: {value: __dgetitem__}, __setitem__: {value: __dsetitem__},
        });
        Object.defineProperty (proto, Symbol.iterator, {value: function () {new __JsIterator__ (this.py_keys ());}});
        __hermesDictPrototype__ = proto;
    }
    return __hermesDictPrototype__;
}
"""
# A new object made on the shared prototype with the data copied in: Object.setPrototypeOf on the object
# itself was measured at 10% of an MCP tools/call's CPU (V8 re-shapes every object it is used on). A copy,
# as Python's dict(x) is. An object with a key that the copy would not keep as its own data ('__proto__'
# would set the copy's prototype; 'py_keys', 'constructor', … are on the prototype) takes the old way.
DICT_FAST_PATH = """    const proto = Object.getPrototypeOf (instance);
    if (proto === Object.prototype || proto === __hermesDictPrototype__) {
        const shared = __hermesSharedDictPrototype__ ();
        const copy = Object.create (shared);
        let plain = true;
        for (const key in instance) {
            if (key === '__proto__' || key in shared) {plain = false; break;}
            copy [key] = instance [key];
        }
        if (plain) {return copy;}
        Object.setPrototypeOf (instance, shared);
        return instance;
    }
"""


def fast_dicts(source):
    if '__hermesSharedDictPrototype__' in source:
        return source
    _require(source, DICT_METHODS_START, 'dict()')
    return source.replace(DICT_METHODS_START, DICT_FAST_PATH + DICT_METHODS_START) + DICT_PROTOTYPE


# Every call of a method through an instance (`self.m(…)`) goes through the function __get__ returns. Transcrypt's
# copies its arguments twice (`[].slice.apply (arguments)`, then `[self].concat (args)`) and calls with `apply`;
# measured on an MCP tools/call (in-process, CPU), that wrapper was 15–18% of the request. Rest parameters and
# a spread call do the same with one array: same `self` (looked up at each call, as before), same arguments.
BOUND_METHOD = """            return function () {
                var args = [] .slice.apply (arguments);
                return func.apply (null, [aThis.__proxy__ ? aThis.__proxy__ : aThis] .concat (args));
            };"""
FAST_BOUND_METHOD = """            return function (...args) {
                return func.call (null, aThis.__proxy__ ? aThis.__proxy__ : aThis, ...args);
            };"""


def fast_bound_methods(source):
    if FAST_BOUND_METHOD in source:
        return source
    _require(source, BOUND_METHOD, '__get__')
    return source.replace(BOUND_METHOD, FAST_BOUND_METHOD)


# toolchain/kwargs.py's keyword-argument prologue asks two questions in every function that has one; they are
# answered here once instead of spelled out in each (same tests as Transcrypt's prologue):
# `$d (value)`: is a defaulted parameter missing (undefined, or a keyword-arguments object in its place)?
# `$k (args)`: the keyword-arguments object a call passed last, or null.
KWARGTRANS = """export function __kwargtrans__ (anObject) {
    anObject.__kwargtrans__ = null;
    anObject.constructor = Object;
    return anObject;
}
"""
KWARGTRANS_QUESTIONS = """__kwargtrans__.$d = function (value) {
    return typeof value == 'undefined' || (value != null && value.hasOwnProperty ("__kwargtrans__"));
};
__kwargtrans__.$k = function (args) {
    var last = args [args.length - 1];
    return last && last.hasOwnProperty ("__kwargtrans__") ? last : null;
};
"""


def kwargtrans_questions(source):
    if KWARGTRANS + KWARGTRANS_QUESTIONS in source:
        return source
    _require(source, KWARGTRANS, '__kwargtrans__')
    return source.replace(KWARGTRANS, KWARGTRANS + KWARGTRANS_QUESTIONS)


# toolchain/compact.py emits a plain method as `name: {$m (self, …) {…}}` instead of Transcrypt's
# `get name () {return __get__ (this, function (self, …) {…});}` (7 kB less); the class factory installs that
# same getter for it. Only an object whose one own key is `$m` (with Object.prototype: no Python value is one,
# dicts have their own prototype) is such an entry.
CLASS_ATTRIBUTES = """        for (var attrib in attribs) {
            var descrip = Object.getOwnPropertyDescriptor (attribs, attrib);
            Object.defineProperty (cls, attrib, descrip);"""
METHOD_ENTRY = """        for (var attrib in attribs) {
            var descrip = Object.getOwnPropertyDescriptor (attribs, attrib);
            const entry = descrip.value;
            if (entry && Object.getPrototypeOf (entry) === Object.prototype && typeof entry.$m == 'function'
                    && Object.keys (entry).length == 1) {
                descrip = {get: function () {return __get__ (this, entry.$m);}, enumerable: true, configurable: true};
            }
            Object.defineProperty (cls, attrib, descrip);"""


def method_entries(source):
    if METHOD_ENTRY in source:
        return source
    _require(source, CLASS_ATTRIBUTES, 'the class factory')
    return source.replace(CLASS_ATTRIBUTES, METHOD_ENTRY)


# `print = __terminal__.print` reads a property of the terminal object at load time, so esbuild would keep the
# terminal (a class and an instance) even when nothing prints: as functions they go when unused.
TERMINAL_EXPORT = re.compile(r'^export var (print|input) = __terminal__\.\1;$', re.MULTILINE)

# Class definitions (`export var X = __class__ (…)`) and the runtime's `__terminal__ = __Terminal__ ()` only build
# objects: marked pure, esbuild drops those nothing uses.
CLASS_DEFINITION = re.compile(r'^(export var \w+ = +)(__class__ \(|__Terminal__ \(\))', re.MULTILINE)


def terminal_functions(source):
    return TERMINAL_EXPORT.sub(r'export function \1 (...args) {return __terminal__.\1 (...args);}', source)


def pure_classes(source):
    return CLASS_DEFINITION.sub(r'\1/* @__PURE__ */ \2', source)


def patch_runtime(source):
    """The order esbuild.js applied them in; each leaves the others' text alone."""
    source = method_entries(fast_bound_methods(kwargtrans_questions(fast_dicts(source))))
    return pure_classes(terminal_functions(source))


def patch_folder(folder):
    """Patch the runtime and mark the classes of every transpiled hermes module in `folder` (build/transcrypt)."""
    folder = Path(folder)
    _rewrite(folder / RUNTIME, patch_runtime)
    for path in sorted(folder.glob('hermes.*.js')):
        _rewrite(path, pure_classes)


def _rewrite(path, patch):
    source = path.read_text()
    patched = patch(source)
    if patched != source:
        path.write_text(patched)


def _require(source, text, what):
    if text not in source:
        raise SystemExit(f'toolchain/runtime.py: {what} in the Transcrypt runtime changed; review this patch')


if __name__ == '__main__':
    patch_folder(sys.argv[1])
