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
  const extension = await build({
    ...common,
    external: [...common.external, VENDOR_WS],
    entryPoints: [path.join(transpiled, 'extension.js')],
    outfile: path.join(root, 'dist', 'extension.js'),
    minify: production,
    metafile: true,
  });
  // What each bundle is made of (bytes each transpiled module takes in it): scripts/bundle_report.py, `inv bench`.
  fs.writeFileSync(path.join(root, 'build', 'bundle-parts.json'), JSON.stringify(modulesIn(extension.metafile)));
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
