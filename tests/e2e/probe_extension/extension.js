// Test-only: an HTTP endpoint on 127.0.0.1 that runs the JavaScript an e2e test POSTs, with `vscode` and `require`
// in scope (a fault test patches Node's `fs`, which Hermes shares with it), inside the real extension host — the tests act as "another extension" calling vscode.lm.* and
// vscode.commands. The port goes to ~/.hermes-e2e-probe.json (code-server's HOME is a temporary folder).
'use strict';
const vscode = require('vscode');
const http = require('http');
const fs = require('fs');
const os = require('os');
const path = require('path');

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;

function plain(value, seen = new Set()) {
  if (value === undefined || value === null || typeof value !== 'object') return value === undefined ? null : value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('utf8') };
  if (Array.isArray(value)) return value.map((item) => plain(item, seen));
  const out = value.constructor && value.constructor !== Object ? { $class: value.constructor.name } : {};
  for (const key of Object.keys(value)) out[key] = plain(value[key], seen);
  if (value instanceof vscode.Uri) out.fsPath = value.fsPath;
  return out;
}

function activate(context) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', async () => {
      let answer;
      try {
        const { code } = JSON.parse(body);
        answer = { ok: true, value: plain(await new AsyncFunction('vscode', 'require', code)(vscode, require)) };
      } catch (error) {
        answer = { ok: false, error: String(error && error.stack || error), name: error && error.name,
          message: error && error.message, code: error && error.code };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    fs.writeFileSync(path.join(os.homedir(), '.hermes-e2e-probe.json'), JSON.stringify({ port: server.address().port }));
  });
  context.subscriptions.push({ dispose: () => server.close() });
}

module.exports = { activate, deactivate() {} };
