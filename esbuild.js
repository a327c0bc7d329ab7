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

// Transcrypt's runtime comes patched from the toolchain (toolchain/runtime.py: fast dicts, fast bound methods, the
// keyword prologue's questions, method entries, pure classes). What only the bundle can tell stays here:
// the runtime puts Python's str/list/set/bytes methods on the JS prototypes when it loads
// (`Array.prototype.union = function …`), which esbuild cannot drop by itself since it cannot know they have no
// side effects. `build` bundles each entry twice: the first pass shows what the bundle's code mentions once
// esbuild has dropped what nothing uses; the second keeps an assignment only if its method's name is a word of
// that code outside the assignments, or of another assignment kept (to a fixed point). Nothing else can call it.
// (Words anywhere count, strings and comments included.)
const PROTOTYPE_METHOD = /^(?:Array|String|Number|Uint8Array)\.prototype\.(\w+) = /;

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

function pruneRuntime(source, usedMethods) {
  if (!usedMethods) return source;
  const lines = source.split('\n');
  const dropped = new Set();
  for (const s of prototypeMethods(lines)) {
    if (!usedMethods.has(s.name)) for (let i = s.first; i <= s.last; i++) dropped.add(i);
  }
  return lines.filter((_, index) => !dropped.has(index)).join('\n');
}

// The runtime without the prototype methods this bundle does not use.
function runtimePlugin(usedMethods) {
  return {
    name: 'transcrypt-runtime',
    setup(build) {
      build.onLoad({ filter: /org\.transcrypt\.__runtime__\.js$/ }, (args) => ({
        contents: pruneRuntime(fs.readFileSync(args.path, 'utf8'), usedMethods), loader: 'js',
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

// ---- Parts loaded on first use (py_src/hermes/js/parts.py) ----
// Each module hermes/lazy_parts.py imports becomes dist/part-<module>.js: the module and what only it needs. What the
// main bundle holds is not bundled again: the part takes it from the main bundle (one runtime, one instance of every
// module, so classes, isinstance and module state are the same on both sides). The main bundle's entry
// (build/transcrypt/__main__.js, written here) exposes exactly the names the parts import from it and hands
// hermes.js.parts the loader; a part is a function of that table.
const PART_FILE = (module) => `./part-${module.replace(/^hermes\./, '')}.js`;
const MAIN_ENTRY = path.join(transpiled, '__main__.js');
// The modules two parts import and the main bundle does not (the ACP modules the panel's controller and the ACP
// sessions share, …) are a part of their own, dist/part-shared.js, required the first time a part that imports one
// loads: the main bundle's table hands them out through getters, so a part takes them as it takes the main bundle's
// modules and each runs once.
const SHARED = 'hermes.shared';
const SHARED_ENTRY = path.join(transpiled, '__shared__.js');

function writeSharedEntry(shared) {
  const modules = [...shared].sort();
  const lines = modules.map((module, n) => `import * as $${n} from './${module}.js';`);
  lines.push(`export const modules = { ${modules.map((module, n) => `${JSON.stringify(module)}: $${n}`).join(', ')} };`);
  fs.writeFileSync(SHARED_ENTRY, lines.join('\n') + '\n');
}

function lazyModules() {
  const entry = path.join(transpiled, 'lazy_parts.js');
  if (!fs.existsSync(entry)) return [];
  return [...fs.readFileSync(entry, 'utf8').matchAll(/from '\.\/(hermes\.[\w.]+)\.js'/g)].map((match) => match[1]);
}

// Resolves a part's imports of transpiled modules: one the main bundle holds is taken from the table the part is called
// with (`__hermes_main`); any other is bundled into the part.
function partPlugin(inMain) {
  return {
    name: 'hermes-part',
    setup(build) {
      build.onResolve({ filter: /^\.\/[\w.]+\.js$/ }, (args) => {
        const module = args.path.slice(2, -3);
        if (args.namespace === 'hermes-main' || !inMain.has(module)) return undefined;
        return { path: module, namespace: 'hermes-main' };
      });
      build.onLoad({ filter: /.*/, namespace: 'hermes-main' }, (args) => ({
        contents: `module.exports = __hermes_main[${JSON.stringify(args.path)}];`, loader: 'js',
      }));
    },
  };
}

// {module: Set of names | '*'}: what a part's probe (CommonJS, the main bundle's modules taken from `__hermes_main`, not
// minified) uses of the main bundle: esbuild binds each such module to a variable (`var import_x = __toESM(require_x())`,
// `var acp = …` for `import * as acp`) and reads `import_x.name`; a binding used otherwise needs the whole module.
function importsOf(text, needs) {
  const modules = {};
  for (const [, require, module] of text.matchAll(/var (require_[\w$]+) = __commonJS\(\{\s*"hermes-main:([\w.]+)"/g)) {
    modules[require] = module;
  }
  const bindings = {};
  let calls = 0;
  for (const [, name, require] of text.matchAll(/var ([\w$]+) = __toESM\((require_[\w$]+)\(\)\)/g)) {
    if (!modules[require]) continue;  // a module of the part's own
    bindings[name] = modules[require];
    calls++;
  }
  const allCalls = [...text.matchAll(/\b(require_[\w$]+)\(\)/g)].filter(([, require]) => modules[require]).length;
  if (allCalls !== calls) throw new Error('parts: a main module is reached other than by an import; review esbuild.js');
  const names = Object.keys(bindings).map((name) => name.replace(/\$/g, '\\$')).join('|');
  if (!names) return needs;
  for (const [, name, member] of text.matchAll(new RegExp(`(?<!var |[\\w$.])(${names})(?![\\w$])(?:\\.([\\w$]+))?`, 'g'))) {
    const module = bindings[name];
    if (!member || needs.get(module) === '*') { needs.set(module, '*'); continue; }  // the namespace as a value
    needs.set(module, (needs.get(module) || new Set()).add(member));
  }
  return needs;
}

function writeMainEntry(needs, lazy, shared) {
  const lines = ["import { provide_parts } from './hermes.js.parts.js';"];
  const table = [];
  let n = 0;
  for (const [module, names] of [...needs].sort()) {
    if (shared.has(module)) {  // from dist/part-shared.js, the first time a part takes it
      table.push(`get ${JSON.stringify(module)}() { return shared()[${JSON.stringify(module)}]; }`);
      continue;
    }
    if (names === '*') {
      lines.push(`import * as $${n} from './${module}.js';`);
      table.push(`${JSON.stringify(module)}: $${n++}`);
      continue;
    }
    const values = [];
    for (const name of [...names].sort()) {
      if (name === '__proto__') throw new Error(`parts: ${module} exports __proto__; review esbuild.js`);
      lines.push(`import { ${name} as $${n} } from './${module}.js';`);
      // The value, not a live binding: the main bundle's modules have all run when this table is made, and none
      // rebinds a module-level name afterwards (tests/unit/test_rules.py, rule 12).
      values.push(`${name}: $${n++}`);
    }
    table.push(`${JSON.stringify(module)}: { ${values.join(', ')} }`);
  }
  lines.push("export * from './extension.js';");
  if (shared.size) {
    lines.push(`let sharedModules = null;\nconst shared = () => sharedModules || (sharedModules = require(${
      JSON.stringify(PART_FILE(SHARED))})(main).modules);`);
  }
  lines.push(`const main = { ${table.join(',\n  ')} };`);
  lines.push(`const parts = { ${lazy.map((m) => `${JSON.stringify(m)}: () => require(${JSON.stringify(PART_FILE(m))})`)
    .join(', ')} };`);
  lines.push('provide_parts((module) => parts[module]()(main));');
  fs.writeFileSync(MAIN_ENTRY, lines.join('\n') + '\n');
}

const PART_WRAPPER = {  // a part is a function of the main bundle's table (see above)
  banner: '"use strict";\nmodule.exports = function (__hermes_main) {\nvar module = { exports: {} }, exports = module.exports;',
  footer: 'return module.exports;\n};',
};

// dist/extension.js and its parts. The main bundle's modules decide what the parts import from it, and the names the
// parts need may pull more modules into the main bundle: repeated until the main bundle's modules stay the same.
async function buildMainAndParts(options) {
  const lazy = lazyModules();
  const probeOptions = { minify: false, write: false, sourcemap: false, outdir: undefined, outfile: 'probe.js' };
  let needs = new Map();
  let inMain = null;
  let partProbes = [];
  let shared = new Set();  // modules two parts import (SHARED above): grows over the rounds
  let sharedGrew = false;
  for (let round = 0; ; round++) {
    writeMainEntry(needs, lazy, shared);
    const probe = await esbuild.build({ ...common, ...options, entryPoints: [MAIN_ENTRY], plugins: [runtimePlugin(null)],
      ...probeOptions, metafile: true });
    const modules = new Set(Object.keys(probe.metafile.inputs).map((input) => path.basename(input, '.js')));
    if (inMain && !sharedGrew && modules.size === inMain.size && [...modules].every((m) => inMain.has(m))) {
      // final: the runtime keeps the prototype methods the main bundle's code or a part's uses
      const usedMethods = methodsUsedBy([probe.outputFiles[0].text, ...partProbes].join('\n'));
      const main = await esbuild.build({ ...common, ...options, entryPoints: [MAIN_ENTRY],
        plugins: [runtimePlugin(usedMethods)] });
      const outputs = modulesIn(main.metafile);
      const owner = {};
      const fromMain = new Set([...inMain, ...shared]);
      for (const module of shared.size ? [...lazy, SHARED] : lazy) {
        const outfile = path.join(path.dirname(options.outfile), PART_FILE(module));
        const entry = module === SHARED ? SHARED_ENTRY : path.join(transpiled, module + '.js');
        const part = await esbuild.build({ ...common, ...options, entryPoints: [entry],
          outfile, plugins: [partPlugin(module === SHARED ? inMain : fromMain)], banner: { js: PART_WRAPPER.banner },
          footer: { js: PART_WRAPPER.footer } });
        Object.assign(outputs, modulesIn(part.metafile));
        for (const input of Object.keys(outputs[path.basename(outfile)]).filter((i) => !i.startsWith('hermes-main:'))) {
          if (owner[input]) throw new Error(`parts: ${input} is in ${owner[input]} and ${module}; import it in the main bundle`);
          owner[input] = module;
        }
        // A relative require resolves beside the part's file, which is the main bundle's folder: the vendor file built
        // beside it (VENDOR_WS, the doors' WebSocket library) resolves the same from both; anything else is refused.
        const relative = fs.readFileSync(outfile, 'utf8').replaceAll(`require("${VENDOR_WS}")`, '')
          .match(/require\(["']\.\.?\/[^"']*["']\)/);
        if (relative) throw new Error(`parts: ${path.basename(outfile)} has ${relative[0]}; keep its module in the main bundle`);
        pointMapAtSources(outfile + '.map');
      }
      return outputs;
    }
    if (round === 6) throw new Error('parts: the main bundle\'s modules do not settle; review esbuild.js');
    inMain = modules;
    shared = new Set([...shared].filter((module) => !inMain.has(module)));
    const sharedBefore = shared.size;
    needs = new Map();
    partProbes = [];
    const firstPart = {};  // a module of a part's own → that part
    const fromMain = new Set([...inMain, ...shared]);
    for (const module of lazy) {
      if (inMain.has(module)) throw new Error(`parts: ${module} is loaded on first use but the main bundle imports it`);
      const partProbe = await esbuild.build({ ...common, external: [...common.external, VENDOR_WS],
        entryPoints: [path.join(transpiled, module + '.js')],
        plugins: [partPlugin(fromMain)], ...probeOptions, metafile: true });
      partProbes.push(partProbe.outputFiles[0].text);
      importsOf(partProbe.outputFiles[0].text, needs);
      // A module two parts import (not the main bundle) goes in the shared part (SHARED above), so that it runs once:
      // each part takes it from there, through the main bundle's table.
      for (const input of Object.keys(partProbe.metafile.inputs).filter((i) => !i.startsWith('hermes-main:'))) {
        const own = path.basename(input, '.js');
        if (!own.startsWith('hermes.') || lazy.includes(own)) continue;
        if (firstPart[own] && firstPart[own] !== module) shared.add(own);
        firstPart[own] = firstPart[own] || module;
      }
    }
    sharedGrew = shared.size !== sharedBefore;
    if (shared.size) {  // what the shared part takes from the main bundle
      writeSharedEntry(shared);
      const sharedProbe = await esbuild.build({ ...common, external: [...common.external, VENDOR_WS],
        entryPoints: [SHARED_ENTRY], plugins: [partPlugin(inMain)], ...probeOptions, metafile: true });
      partProbes.push(sharedProbe.outputFiles[0].text);
      importsOf(sharedProbe.outputFiles[0].text, needs);
      for (const module of shared) needs.set(module, '*');  // a getter each in the main bundle's table
    }
  }
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
  // Everything is in this bundle: the parts too, handed to hermes.js.parts as they are.
  lines.push("import { provide_parts } from './hermes.js.parts.js';");
  const lazy = lazyModules();
  lazy.forEach((module, n) => lines.push(`import * as $part${n} from './${module}.js';`));
  lines.push(`const parts = { ${lazy.map((module, n) => `${JSON.stringify(module)}: $part${n}`).join(', ')} };`);
  lines.push('provide_parts((module) => parts[module]);');
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

// The WebSocket library (npm `ws`) the Claude Code door loads when its first CLI connects (py_src/hermes/js/websocket.py
// requires it by this path, so it stays out of dist/extension.js and of every window's start-up): a file of its own
// beside each bundle that may load it.
const VENDOR_WS = './vendor/ws.js';

async function buildVendor(folder) {
  await esbuild.build({
    stdin: { contents: "module.exports = require('ws');", resolveDir: root, loader: 'js' },
    bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: production, logLevel: 'warning',
    outfile: path.join(folder, VENDOR_WS),
  });
}

// {output file: {module: bytes in it}} from a metafile (the .js outputs; a module is its transpiled file's name).
function modulesIn(metafile) {
  return Object.fromEntries(Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.js'))
    .map(([file, { inputs }]) => [path.basename(file), Object.fromEntries(Object.entries(inputs)
      .map(([input, { bytesInOutput }]) => [path.basename(input, '.js'), bytesInOutput]))]));
}

async function main() {
  const started = Date.now();
  await buildVendor(path.join(root, 'dist'));
  await buildVendor(path.join(root, 'build'));
  for (const old of fs.readdirSync(path.join(root, 'dist')).filter((file) => file.startsWith('part-'))) {
    fs.rmSync(path.join(root, 'dist', old));  // no part of an earlier build survives
  }
  const outputs = await buildMainAndParts({
    external: [...common.external, VENDOR_WS, './part-*'],
    outfile: path.join(root, 'dist', 'extension.js'),
    minify: production,
    metafile: true,
  });
  // What each bundle is made of (bytes each transpiled module takes in it): scripts/bundle_report.py, `inv bench`.
  fs.writeFileSync(path.join(root, 'build', 'bundle-parts.json'), JSON.stringify(outputs));
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
    external: [...common.external, VENDOR_WS],
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
