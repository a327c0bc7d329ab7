// The side panel's "/" list (media/panel/commands.js, the webview's own module) under node: which message opens it,
// and which of the agent's commands fit what was typed. The list itself (keys, focus, rendering) is proved in
// code-server: tests/e2e/test_acp_commands.py.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

// The webview's ES module as it is (it imports nothing), loaded without making the package an ES module package.
const SOURCE = fs.readFileSync(path.resolve(__dirname, '..', '..', 'media', 'panel', 'commands.js'), 'utf8');
const MODULE = 'data:text/javascript,' + encodeURIComponent(SOURCE);
const COMMANDS = [{ name: 'help', description: 'Help', hint: '' }, { name: 'model', description: 'Model', hint: 'name' },
  { name: 'tools', description: 'Tools', hint: '' }, { name: 'compact', description: 'Compact', hint: '' }];

test('the list opens only while "/" and a name are all the message holds', async () => {
  const { typedCommand } = await import(MODULE);
  assert.equal(typedCommand('/'), '');
  assert.equal(typedCommand('/mo'), 'mo');
  assert.equal(typedCommand('/model '), null); // the name is done: its input follows
  assert.equal(typedCommand('hello /model'), null);
  assert.equal(typedCommand(' /model'), null);
  assert.equal(typedCommand('/a/b'), null);
  assert.equal(typedCommand(''), null);
  assert.equal(typedCommand('/mo\n'), null);
});

test('names that start with what was typed come first, then names that contain it, case-insensitive', async () => {
  const { matchingCommands } = await import(MODULE);
  assert.deepEqual(matchingCommands(COMMANDS, '').map((c) => c.name), ['help', 'model', 'tools', 'compact']);
  assert.deepEqual(matchingCommands(COMMANDS, 'o').map((c) => c.name), ['model', 'tools', 'compact']);
  assert.deepEqual(matchingCommands(COMMANDS, 'co').map((c) => c.name), ['compact']);
  assert.deepEqual(matchingCommands(COMMANDS, 'OL').map((c) => c.name), ['tools']);
  assert.deepEqual(matchingCommands(COMMANDS, 'zzz'), []);
  const many = Array.from({ length: 80 }, (_, i) => ({ name: `c${i}`, description: '', hint: '' }));
  assert.equal(matchingCommands(many, 'c').length, 50);
});
