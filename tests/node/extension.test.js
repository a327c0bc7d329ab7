// dist/extension.js (the real bundle) activated and deactivated under node, MCP server included.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');

// Discovery files go to ~/.hermes/ide: keep them in a temporary home.
process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, testing, activateAndServe } = require('./harness');

test.beforeEach(() => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
});

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
}

test('the bundle is strict-mode CommonJS exporting activate/deactivate', () => {
  const source = fs.readFileSync(path.join(__dirname, '..', '..', 'dist', 'extension.js'), 'utf8');
  assert.ok(source.startsWith('"use strict";'), 'the strict banner keeps Transcrypt kwargs working');
  const ext = extension();
  assert.equal(typeof ext.activate, 'function');
  assert.equal(typeof ext.deactivate, 'function');
});

test('activate logs, serves MCP, shows the port in the status bar, registers commands', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  assert.equal(api.version, '0.1.0');
  const service = api.mcp;
  assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const [channel] = vscode.__state.channels;
  assert.equal(channel.name, 'Hermes');
  assert.deepEqual(channel.options, { log: true });
  const activated = channel.lines.findIndex((line) => /^\[info\] Hermes Agent 0\.1\.0 activated in \d+ ms$/.test(line));
  const listening = channel.lines.findIndex((line) => line.startsWith(`[info] MCP server listening on ${service.url} (auth: token, `));
  assert.ok(activated >= 0 && listening > activated, 'the server is announced after activation: ' + channel.lines.join(' | '));
  const [item] = vscode.__state.statusItems;
  assert.equal(item.visible, true);
  assert.equal(item.name, 'Hermes Agent', 'subscript assignment must dodge the py_name renaming');
  assert.equal(item.text, `$(radio-tower) Hermes :${service.port}`);
  assert.equal(item.command, 'hermes.showMcpStatus');
  const health = await get(service.url.replace('/mcp', '/health'));
  assert.equal(JSON.parse(health.body).status, 'ok');
  assert.equal((await get(service.url)).status, 401);
  const status = await vscode.commands.executeCommand('hermes.showMcpStatus');
  assert.equal(status, `Hermes MCP server: ${service.url} · 0 clients · ${testing().tools_catalog.build_registry().names().length} tools · auth: token`);
  assert.deepEqual(vscode.__state.messages[0], ['info', status, ['Copy MCP Config', 'Show Log']]);
  await ext.deactivate();
  context.disposeAll();
});

test('activate() returns before the MCP server listens; the discovery file appears once it does', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await ext.activate(context);
  assert.equal(mcp.running, false, 'activation must not wait for secret storage and the port');
  assert.equal(mcp.port, null);
  await mcp.ready;
  assert.equal(mcp.running, true);
  const discovery = JSON.parse(fs.readFileSync(path.join(process.env.HOME, '.hermes', 'ide', `${mcp.port}.json`), 'utf8'));
  assert.equal(discovery.url, mcp.url);
  await ext.deactivate();
  context.disposeAll();
});

test('deactivate during the first start still closes the port that start opens', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await ext.activate(context);
  await ext.deactivate();
  assert.equal(mcp.running, false);
  assert.equal(fs.existsSync(path.join(process.env.HOME, '.hermes', 'ide')) &&
    fs.readdirSync(path.join(process.env.HOME, '.hermes', 'ide')).length, 0);
  context.disposeAll();
});

test('the status command waits for the server that is still starting', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await ext.activate(context);
  const status = await vscode.commands.executeCommand('hermes.showMcpStatus');
  assert.match(status, /^Hermes MCP server: http:\/\/127\.0\.0\.1:\d+\/mcp · 0 clients/);
  assert.equal(mcp.running, true);
  await ext.deactivate();
  context.disposeAll();
});

test('copy config puts the chosen snippet with the token on the clipboard', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await activateAndServe(ext, context);
  vscode.__state.quickPickAnswer = (items) => items.find((item) => item.client === 'claude');
  await vscode.commands.executeCommand('hermes.copyMcpConfig');
  assert.equal(vscode.__state.clipboard,
    `claude mcp add --transport http vscode ${mcp.url} --header "Authorization: Bearer ${mcp.token}"\n`);
  assert.deepEqual(vscode.__state.quickPicks.map((item) => item.client),
    ['hermes', 'claude', 'codex', 'codex-toml', 'gemini', 'gemini-json', 'vscode', 'cursor', 'all']);
  vscode.__state.quickPickAnswer = (items) => items.find((item) => item.client === 'gemini');
  await vscode.commands.executeCommand('hermes.copyMcpConfig');
  assert.equal(vscode.__state.clipboard,
    `gemini mcp add --transport http vscode ${mcp.url} -H "Authorization: Bearer ${mcp.token}" -s user\n`);
  const [provider] = [...vscode.__state.mcpProviders.values()];
  const [definition] = provider.provideMcpServerDefinitions();
  assert.equal(definition.label, 'Hermes (this window)');
  assert.equal(definition.uri.toString(), mcp.url);
  assert.deepEqual({ ...definition.headers }, { Authorization: `Bearer ${mcp.token}` });
  await ext.deactivate();
  context.disposeAll();
});

test('the token is generated once and kept in secret storage', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const first = (await activateAndServe(ext, context)).mcp.token;
  assert.match(first, /^[0-9a-f]{64}$/);
  assert.equal(context.secrets.values.get('hermes.mcp.token'), first);
  await ext.deactivate();
  context.disposeAll();
  const reloaded = vscode.__makeContext();  // a window reload: new context, same secret storage
  reloaded.secrets = context.secrets;
  const again = (await activateAndServe(ext, reloaded)).mcp.token;
  assert.equal(again, first);
  await ext.deactivate();
  reloaded.disposeAll();
});

test('deactivate closes the port and disposing subscriptions leaves nothing registered', async () => {
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await activateAndServe(ext, context);
  const url = mcp.url;
  await ext.deactivate();
  context.disposeAll();
  await assert.rejects(get(url.replace('/mcp', '/health')), /ECONNREFUSED/);
  assert.equal(vscode.__state.commands.size, 0);
  assert.equal(vscode.__state.mcpProviders.size, 0);
  assert.ok(vscode.__state.statusItems.every((item) => item.disposed));
  assert.ok(vscode.__state.channels.every((channel) => channel.disposed));
});

test('auth "none" serves without a token and warns visibly', async () => {
  vscode.__state.settings['hermes.mcp.auth'] = 'none';
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await activateAndServe(ext, context);
  assert.equal(mcp.token, null);
  assert.equal((await get(mcp.url.replace('/mcp', '/health'))).status, 200);
  const [level, text] = vscode.__state.messages[0];
  assert.equal(level, 'warning');
  assert.equal(text, 'Hermes: MCP authentication is off ("hermes.mcp.auth": "none"). Any program on this machine can drive this window.');
  assert.equal(vscode.__state.statusItems[0].backgroundColor.id, 'statusBarItem.warningBackground');
  assert.match(mcp.describe(), /auth: off$/);
  await ext.deactivate();
  context.disposeAll();
});

test('a port that cannot be bound shows an error and a failed status, not a crash', async () => {
  // 65535 taken: the next port to try, 65536, is out of range and listen() throws. (A setting out of
  // range never gets here: the settings reader reads it as the default.)
  const blocker = require('net').createServer();
  await new Promise((resolve) => { blocker.once('error', resolve); blocker.listen(65535, '127.0.0.1', resolve); });
  vscode.__state.settings['hermes.mcp.port'] = 65535;
  const context = vscode.__makeContext();
  const ext = extension();
  const { mcp } = await activateAndServe(ext, context);
  assert.equal(mcp.running, false);
  assert.match(mcp.describe(), /^Hermes MCP server is not running: /);
  const [level, text] = vscode.__state.messages[0];
  assert.equal(level, 'error');
  assert.match(text, /^Hermes: could not start the MCP server: .*Set another "hermes.mcp.port" to try again\.$/);
  assert.equal(vscode.__state.statusItems[0].text, '$(error) Hermes');
  await ext.deactivate();
  context.disposeAll();
  blocker.close();
});
