// Bundles Transcrypt's ES modules (build/transcrypt) into CommonJS for VS Code and for tests.
//   node esbuild.js [--production]
// dist/extension.js   the extension (minified with --production); `vscode` stays external.
// dist/mcp-server.js  the CLI (health | config | stdio); `vscode` is replaced by a stub that throws.
// build/testing.js    every transpiled hermes.* module as a namespace, for the node test layer.
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
  await esbuild.build({
    ...common,
    entryPoints: [path.join(transpiled, 'extension.js')],
    outfile: path.join(root, 'dist', 'extension.js'),
    minify: production,
    metafile: true,
  });
  if (fs.existsSync(path.join(transpiled, 'mcp_server_cli.js'))) {
    await esbuild.build({
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
  await esbuild.build({
    ...common,
    entryPoints: [testingEntry()],
    outfile: path.join(root, 'build', 'testing.js'),
  });
  pointMapAtSources(path.join(root, 'dist', 'extension.js.map'));
  pointMapAtSources(path.join(root, 'build', 'testing.js.map'));
  console.log(`esbuild: bundled in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}

main().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
