// The side panel's webview: media/panel/main.js with its libraries (marked, DOMPurify, highlight.js)
// bundled for the browser into dist/webview/panel.js, plus its CSS and the codicon font. Everything
// the webview loads comes from dist/webview (its only localResourceRoot); nothing from the network.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'dist', 'webview');

async function buildWebview(production) {
  fs.mkdirSync(path.join(out, 'codicons'), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(root, 'media', 'panel', 'main.js')],
    outfile: path.join(out, 'panel.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'linked' : 'inline',
    logLevel: 'warning',
  });
  if (production) fs.rmSync(path.join(out, 'panel.js.map'), { force: true }); // no stale map in the .vsix
  fs.copyFileSync(path.join(root, 'media', 'panel', 'panel.css'), path.join(out, 'panel.css'));
  const codicons = path.join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  for (const file of ['codicon.css', 'codicon.ttf']) {
    fs.copyFileSync(path.join(codicons, file), path.join(out, 'codicons', file));
  }
}

module.exports = { buildWebview };
