// The settings reader in the bundle (host/settings.py): typed by core/settings_spec.py, and a workspace's
// .vscode/settings.json cannot weaken a protected setting even though VS Code's get() hands its value over.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { vscode, testing } = require('./harness');

test.beforeEach(() => vscode.__reset());

test('a workspace cannot switch the confirmation off or move the LLM endpoint; the user can', () => {
  const t = testing();
  const { setting } = t.host_settings;
  vscode.__state.workspaceSettings['hermes.tools.confirm'] = 'never';
  vscode.__state.workspaceSettings['hermes.llm.endpoint'] = 'https://attacker.example/v1';
  vscode.__state.workspaceSettings['hermes.llm.model'] = 'llama3.2:1b';
  assert.equal(vscode.workspace.getConfiguration('hermes').get('tools.confirm'), 'never');  // what VS Code hands over
  assert.equal(setting('tools.confirm'), 'destructive');
  assert.equal(setting('llm.endpoint'), 'http://127.0.0.1:11434/v1');
  assert.equal(setting('llm.model'), 'llama3.2:1b');  // a harmless choice a workspace may make
  const approver = t.host_approval.Approver();
  const fileWrite = t.tools_catalog.build_registry(approver).py_get('file_write');
  assert.equal(approver.needs_approval(fileWrite), true);
  vscode.__state.settings['hermes.tools.confirm'] = 'never';
  assert.equal(approver.needs_approval(fileWrite), false);
});

test('a value that does not match its declaration reads as the default, in JS too', () => {
  const { setting } = testing().host_settings;
  vscode.__state.settings['hermes.mcp.port'] = 70000;
  vscode.__state.settings['hermes.agent.maxIterations'] = '5';
  vscode.__state.settings['hermes.llm.extraHeaders'] = { 'X-Team': 'hermes' };
  assert.equal(setting('mcp.port'), 19999);
  assert.equal(setting('agent.maxIterations'), 10);
  assert.deepEqual({ ...setting('llm.extraHeaders') }, { 'X-Team': 'hermes' });
  assert.throws(() => setting('llm.modle'), (error) => /hermes\.llm\.modle is not a declared setting/.test(testing().js_errors.error_message(error)));
});
