// Bundles Transcrypt's ES modules (build/transcrypt) into CommonJS for VS Code and for tests.
//   node esbuild.js [--production]
// dist/extension.js   the extension (minified with --production); `vscode` stays external.
// dist/mcp-server.js  the CLI (health | config | stdio); `vscode` is replaced by a stub that throws.
// build/testing.js    every transpiled hermes.* module as a namespace, for the node test layer.
// dist/webview/       the side panel's webview bundle (scripts/webview_build.js).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const root = __dirname;
const transpiled = path.join(root, 'build', 'transcrypt');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  // Required: without strict mode Transcrypt's keyword arguments silently fall back to defaults.
  banner: { js: '"use strict";' },
  sourcemap: true,
  logLevel: 'warning',
};

// Transcrypt's dict() gives every dict (each literal in our Python, each object parsed from JSON) its
// Python methods with ~17 Object.defineProperty calls. Measured (inv bench), that was the largest
// single cost of an MCP request. `fastDicts` gives plain objects one shared, frozen prototype that
// carries the same non-enumerable methods instead; objects with another prototype (class instances
// handed to dict()) still take Transcrypt's original path. Semantics are unchanged: the methods stay
// non-enumerable, JSON.stringify and Object.keys see only the data.
const DICT_METHODS_START = "    __setproperty__ (instance, '__class__', {value: dict, enumerable: false, writable: true});";
const DICT_PROTOTYPE = `
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
`;

// scripts/transcrypt_compact.py emits a plain method as `name: {$m (self, …) {…}}` instead of
// Transcrypt's `get name () {return __get__ (this, function (self, …) {…});}` (7 kB less); the class factory
// installs that same getter for it. Only an object whose one own key is `$m` (with Object.prototype: no
// Python value is one, dicts have their own prototype) is such an entry.
const CLASS_ATTRIBUTES = `        for (var attrib in attribs) {
            var descrip = Object.getOwnPropertyDescriptor (attribs, attrib);
            Object.defineProperty (cls, attrib, descrip);`;
const METHOD_ENTRY = `        for (var attrib in attribs) {
            var descrip = Object.getOwnPropertyDescriptor (attribs, attrib);
            const entry = descrip.value;
            if (entry && Object.getPrototypeOf (entry) === Object.prototype && typeof entry.$m == 'function'
                    && Object.keys (entry).length == 1) {
                descrip = {get: function () {return __get__ (this, entry.$m);}, enumerable: true, configurable: true};
            }
            Object.defineProperty (cls, attrib, descrip);`;

function methodEntries(source) {
  if (!source.includes(CLASS_ATTRIBUTES)) {
    throw new Error('method entries: the class factory in the Transcrypt runtime changed; review esbuild.js');
  }
  return source.replace(CLASS_ATTRIBUTES, METHOD_ENTRY);
}

// Every call of a method through an instance (`self.m(…)`) goes through the function __get__ returns. Transcrypt's
// copies its arguments twice (`[].slice.apply (arguments)`, then `[self].concat (args)`) and calls with `apply`;
// measured on an MCP tools/call (in-process, CPU), that wrapper was 15–18% of the request. Rest parameters and
// a spread call do the same with one array: same `self` (looked up at each call, as before), same arguments.
const BOUND_METHOD = `            return function () {
                var args = [] .slice.apply (arguments);
                return func.apply (null, [aThis.__proxy__ ? aThis.__proxy__ : aThis] .concat (args));
            };`;
const FAST_BOUND_METHOD = `            return function (...args) {
                return func.call (null, aThis.__proxy__ ? aThis.__proxy__ : aThis, ...args);
            };`;

function fastBoundMethods(source) {
  if (!source.includes(BOUND_METHOD)) {
    throw new Error('fast bound methods: __get__ in the Transcrypt runtime changed; review esbuild.js');
  }
  return source.replace(BOUND_METHOD, FAST_BOUND_METHOD);
}

// scripts/transcrypt_kwargs.py's keyword-argument prologue asks two questions in every function that has one;
// they are answered here once instead of spelled out in each (same tests as Transcrypt's prologue):
// `$d (value)`: is a defaulted parameter missing (undefined, or a keyword-arguments object in its place)?
// `$k (args)`: the keyword-arguments object a call passed last, or null.
const KWARGTRANS = `export function __kwargtrans__ (anObject) {
    anObject.__kwargtrans__ = null;
    anObject.constructor = Object;
    return anObject;
}
`;
const KWARGTRANS_QUESTIONS = `__kwargtrans__.$d = function (value) {
    return typeof value == 'undefined' || (value != null && value.hasOwnProperty ("__kwargtrans__"));
};
__kwargtrans__.$k = function (args) {
    var last = args [args.length - 1];
    return last && last.hasOwnProperty ("__kwargtrans__") ? last : null;
};
`;

function kwargtransQuestions(source) {
  if (!source.includes(KWARGTRANS)) {
    throw new Error('keyword prologue: __kwargtrans__ in the Transcrypt runtime changed; review esbuild.js');
  }
  return source.replace(KWARGTRANS, KWARGTRANS + KWARGTRANS_QUESTIONS);
}

function fastDicts(source) {
  if (!source.includes(DICT_METHODS_START)) {
    throw new Error('transcrypt-fast-dicts: dict() in the Transcrypt runtime changed; review esbuild.js');
  }
  // A new object made on the shared prototype with the data copied in: Object.setPrototypeOf on the object
  // itself was measured at 10% of an MCP tools/call's CPU (V8 re-shapes every object it is used on). A copy,
  // as Python's dict(x) is. An object with a key that the copy would not keep as its own data ('__proto__'
  // would set the copy's prototype; 'py_keys', 'constructor', … are on the prototype) takes the old way.
  const fastPath = '    const proto = Object.getPrototypeOf (instance);\n' +
    '    if (proto === Object.prototype || proto === __hermesDictPrototype__) {\n' +
    '        const shared = __hermesSharedDictPrototype__ ();\n' +
    '        const copy = Object.create (shared);\n' +
    '        let plain = true;\n' +
    '        for (const key in instance) {\n' +
    '            if (key === \'__proto__\' || key in shared) {plain = false; break;}\n' +
    '            copy [key] = instance [key];\n' +
    '        }\n' +
    '        if (plain) {return copy;}\n' +
    '        Object.setPrototypeOf (instance, shared);\n' +
    '        return instance;\n' +
    '    }\n';
  return source.replace(DICT_METHODS_START, fastPath + DICT_METHODS_START) + DICT_PROTOTYPE;
}

// What esbuild cannot drop by itself, because it cannot know these have no side effects:
// - Transcrypt's runtime puts Python's str/list/set/bytes methods on the JS prototypes when it loads
//   (`Array.prototype.union = function …`). `build` bundles each entry twice: the first pass shows what the
//   bundle's code mentions once esbuild has dropped what nothing uses; the second keeps an assignment only if
//   its method's name is a word of that code outside the assignments, or of another assignment kept (to a
//   fixed point). Nothing else can call it. (Words anywhere count, strings and comments included.)
// - Class definitions (`export var X = __class__ (…)`) and the runtime's `__terminal__ = __Terminal__ ()`
//   only build objects: marked pure, esbuild drops those nothing uses (`print`, `input`: see TERMINAL_EXPORT).
const PROTOTYPE_METHOD = /^(?:Array|String|Number|Uint8Array)\.prototype\.(\w+) = /;
const CLASS_DEFINITION = /^(export var \w+ = +)(__class__ \(|__Terminal__ \(\))/gm;

function wordsIn(text) {
  return new Set(text.match(/[A-Za-z_$][\w$]*/g));
}

// The prototype assignments of the runtime's source (or of an unminified bundle): whole lines.
function prototypeMethods(lines) {
  const statements = [];
  lines.forEach((line, index) => {
    const match = PROTOTYPE_METHOD.exec(line);
    if (!match) return;
    let last = index;
    const oneLine = line.trimEnd().endsWith(';') && line.split('{').length === line.split('}').length;
    if (!oneLine) {  // a function assignment over several lines ends with a column-0 brace
      while (last < lines.length && lines[last] !== '};' && lines[last] !== '}') last++;
      const inside = lines.slice(index + 1, last);
      if (last === lines.length || inside.some((text) => PROTOTYPE_METHOD.test(text) || /^\S/.test(text))) {
        throw new Error(`runtime prune: cannot tell where ${match[1]} ends; review esbuild.js`);
      }
    }
    const words = wordsIn(lines.slice(index, last + 1).join('\n').replace(PROTOTYPE_METHOD, ''));
    statements.push({ name: match[1], first: index, last, words });
  });
  return statements;
}

// The names of the prototype methods a bundle's code can call (see above).
function methodsUsedBy(bundle) {
  const lines = bundle.split('\n');
  const statements = prototypeMethods(lines);
  const inStatement = new Set();
  for (const s of statements) for (let i = s.first; i <= s.last; i++) inStatement.add(i);
  const elsewhere = wordsIn(lines.filter((_, index) => !inStatement.has(index)).join('\n'));
  const kept = new Set(statements);
  for (let changed = true; changed;) {
    changed = false;
    for (const statement of kept) {
      if (!elsewhere.has(statement.name) && ![...kept].some((s) => s !== statement && s.words.has(statement.name))) {
        kept.delete(statement);
        changed = true;
      }
    }
  }
  return new Set([...kept].map((s) => s.name));
}

// `print = __terminal__.print` reads a property of the terminal object at load time, so esbuild keeps the
// terminal (a class and an instance) even when nothing prints: as functions they go when unused.
const TERMINAL_EXPORT = /^export var (print|input) = __terminal__\.\1;$/gm;

function pruneRuntime(source, usedMethods) {
  source = source.replace(TERMINAL_EXPORT, 'export function $1 (...args) {return __terminal__.$1 (...args);}');
  if (!usedMethods) return source;
  const lines = source.split('\n');
  const dropped = new Set();
  for (const s of prototypeMethods(lines)) {
    if (!usedMethods.has(s.name)) for (let i = s.first; i <= s.last; i++) dropped.add(i);
  }
  return lines.filter((_, index) => !dropped.has(index)).join('\n');
}

// Transcrypt's runtime as the bundles use it: fast dicts, unused prototype methods left out, pure classes.
function runtimePlugin(usedMethods) {
  return {
    name: 'transcrypt-runtime',
    setup(build) {
      build.onLoad({ filter: /org\.transcrypt\.__runtime__\.js$/ }, (args) => ({
        contents: pruneRuntime(methodEntries(fastBoundMethods(kwargtransQuestions(fastDicts(fs.readFileSync(args.path, 'utf8'))))),
          usedMethods)
          .replace(CLASS_DEFINITION, '$1/* @__PURE__ */ $2'),
        loader: 'js',
      }));
      build.onLoad({ filter: /hermes\.[\w.]+\.js$/ }, (args) => ({
        contents: fs.readFileSync(args.path, 'utf8').replace(CLASS_DEFINITION, '$1/* @__PURE__ */ $2'), loader: 'js',
      }));
    },
  };
}

// One bundle: a first pass (unminified, not written) finds the prototype methods its code uses.
async function build(options) {
  const probe = await esbuild.build({ ...common, ...options, plugins: [runtimePlugin(null)], minify: false,
    write: false, metafile: false, sourcemap: false, outdir: undefined, outfile: 'probe.js' });
  const usedMethods = methodsUsedBy(probe.outputFiles[0].text);
  return esbuild.build({ ...common, ...options, plugins: [runtimePlugin(usedMethods)] });
}


function testingEntry() {
  const modules = fs.readdirSync(transpiled)
    .filter((file) => file.startsWith('hermes.') && file.endsWith('.js'))
    .sort();
  const lines = modules.map((file) => {
    const name = file.slice('hermes.'.length, -'.js'.length).replace(/\./g, '_');
    return `export * as ${name} from './${file}';`;
  });
  lines.push("export * as runtime from './org.transcrypt.__runtime__.js';");
  const entry = path.join(transpiled, '__testing__.js');
  fs.writeFileSync(entry, lines.join('\n') + '\n');
  return entry;
}

// Transcrypt's maps name copies of the sources in build/transcrypt (hermes.host.log.py); point
// them at the real files (py_src/hermes/host/log.py) so errors and debuggers land in the source.
function pointMapAtSources(mapFile) {
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
  const mapDir = path.dirname(mapFile);
  map.sources = map.sources.map((source) => {
    const base = path.basename(source, '.py');
    if (!source.endsWith('.py') || base.startsWith('org.transcrypt')) return source;
    const modulePath = base.startsWith('hermes.') ? base.replace(/\./g, '/') : 'hermes/' + base;
    const real = path.join(root, 'py_src', modulePath + '.py');
    return fs.existsSync(real) ? path.relative(mapDir, real) : source;
  });
  fs.writeFileSync(mapFile, JSON.stringify(map));
}

async function main() {
  const started = Date.now();
  const extension = await build({
    ...common,
    entryPoints: [path.join(transpiled, 'extension.js')],
    outfile: path.join(root, 'dist', 'extension.js'),
    minify: production,
    metafile: true,
  });
  // What dist/extension.js is made of (bytes each transpiled module takes in it), for `inv bench`.
  fs.writeFileSync(path.join(root, 'build', 'extension-parts.json'), JSON.stringify(Object.fromEntries(
    Object.entries(Object.entries(extension.metafile.outputs).find(([file]) => file.endsWith('extension.js'))[1].inputs)
      .map(([input, { bytesInOutput }]) => [path.basename(input, '.js'), bytesInOutput]))));
  if (fs.existsSync(path.join(transpiled, 'mcp_server_cli.js'))) {
    await build({
      ...common,
      entryPoints: [path.join(transpiled, 'mcp_server_cli.js')],
      outfile: path.join(root, 'dist', 'mcp-server.js'),
      external: [],
      alias: { vscode: path.join(root, 'scripts', 'no_vscode.js') },
      banner: { js: '#!/usr/bin/env node\n"use strict";' },
      minify: production,
    });
    pointMapAtSources(path.join(root, 'dist', 'mcp-server.js.map'));
  }
  await build({
    ...common,
    entryPoints: [testingEntry()],
    outfile: path.join(root, 'build', 'testing.js'),
  });
  // The side panel's webview (browser platform): dist/webview/panel.js + panel.css + codicons.
  await require('./scripts/webview_build').buildWebview(production);
  pointMapAtSources(path.join(root, 'dist', 'extension.js.map'));
  pointMapAtSources(path.join(root, 'build', 'testing.js.map'));
  console.log(`esbuild: bundled in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}

main().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
