// dist/extension.js (the real bundle) activated and deactivated under node.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { vscode, extension } = require('./harness');

test.beforeEach(() => vscode.__reset());

test('the bundle is strict-mode CommonJS exporting activate/deactivate', () => {
  const source = fs.readFileSync(path.join(__dirname, '..', '..', 'dist', 'extension.js'), 'utf8');
  assert.ok(source.startsWith('"use strict";'), 'the strict banner keeps Transcrypt kwargs working');
  const ext = extension();
  assert.equal(typeof ext.activate, 'function');
  assert.equal(typeof ext.deactivate, 'function');
});

test('activate logs version and time, shows the status item, registers the status command', async () => {
  const context = vscode.__makeContext();
  const api = extension().activate(context);
  assert.equal(api.version, '0.1.0');
  const [channel] = vscode.__state.channels;
  assert.equal(channel.name, 'Hermes');
  assert.deepEqual(channel.options, { log: true });
  assert.match(channel.lines[0], /^\[info\] Hermes Agent 0\.1\.0 activated in \d+ ms$/);
  const [item] = vscode.__state.statusItems;
  assert.equal(item.visible, true);
  assert.equal(item.name, 'Hermes Agent', 'subscript assignment must dodge the py_name renaming');
  assert.equal(item.command, 'hermes.showMcpStatus');
  await vscode.commands.executeCommand('hermes.showMcpStatus');
  assert.equal(vscode.__state.messages[0][0], 'info');
  assert.match(vscode.__state.messages[0][1], /^Hermes Agent 0\.1\.0/);
  context.disposeAll();
});

test('deactivate plus disposing subscriptions leaves nothing registered', () => {
  const context = vscode.__makeContext();
  const ext = extension();
  ext.activate(context);
  assert.equal(context.subscriptions.length, 3);
  ext.deactivate();
  context.disposeAll();
  assert.equal(vscode.__state.commands.size, 0);
  assert.ok(vscode.__state.statusItems.every((item) => item.disposed));
  assert.ok(vscode.__state.channels.every((channel) => channel.disposed));
  ext.activate(vscode.__makeContext()); // a reload activates again in the same host
  assert.ok(vscode.__state.commands.has('hermes.showMcpStatus'));
});
