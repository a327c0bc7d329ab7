// The tool modules and the host side of the tools are parts loaded on first use (dist/part-tools.every_tool.js,
// dist/part-host.tool_services.js; docs/ARCHITECTURE.md, "Parts loaded on first use"): activation registers every tool by
// its index entry, VS Code's language-model tools included; the first read of a spec loads the modules, the first
// call that needs the window's files the host side. One test: the bundle stays in require.cache.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, activateAndServe } = require('./harness');

const loaded = (part) => Object.keys(require.cache).some((file) => file.endsWith(path.join('dist', `part-${part}.js`)));

test('activation registers every tool without its module; tools/list loads the modules, a file call the host side', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-tool-parts-')));
  fs.writeFileSync(path.join(folder, 'a.txt'), 'one\ntwo\n');
  vscode.__openFolders([folder]);
  const registered = [];
  const registerTool = vscode.lm.registerTool;
  vscode.lm.registerTool = (name) => { registered.push(name); return new vscode.Disposable(() => {}); };
  const context = vscode.__makeContext();
  const ext = extension();
  try {
    const api = await activateAndServe(ext, context);
    const registry = api.mcp.registry;
    assert.ok(!loaded('tools.every_tool') && !loaded('host.tool_services'), 'activation loads neither part');
    assert.ok(registered.includes('hermes_file_read') && registered.length === registry.names().length,
      'VS Code gets every tool at activation');
    assert.equal(registry.py_get('file_read').title, 'Read file');
    assert.ok(!loaded('tools.every_tool'), 'a title is in the index');
    // tools/list over the MCP server's HTTP endpoint, as a client sees it
    const post = async (body, session) => {
      const response = await fetch(api.mcp.url, { method: 'POST', body: JSON.stringify(body), headers: {
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${api.mcp.token}`, ...(session ? { 'Mcp-Session-Id': session } : {}) } });
      const text = await response.text();
      const data = text.startsWith('{') || text === '' ? text : text.split('\n').find((line) => line.startsWith('data: ')).slice(6);
      return { session: response.headers.get('mcp-session-id'), message: data && JSON.parse(data) };  // a notification: 202
    };
    const { session } = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'node', version: '1' } } });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const { message } = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    const fileRead = message.result.tools.find((tool) => tool.name === 'file_read');
    assert.equal(fileRead.title, 'Read file');
    assert.deepEqual(fileRead.annotations, { readOnlyHint: true, destructiveHint: false, title: 'Read file' });
    assert.deepEqual(fileRead.inputSchema.required, ['path']);
    assert.equal(message.result.tools.length, registry.names().length);
    assert.ok(loaded('tools.every_tool') && !loaded('host.tool_services'), 'tools/list loads the tool modules only');
    const { message: read } = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {
      name: 'file_read', arguments: { path: 'a.txt' } } }, session);
    assert.equal(read.result.isError, false);
    assert.match(read.result.content[0].text, /^a\.txt \(lines 1-2 of 2\)\n/);
    assert.ok(loaded('host.tool_services'), 'the first file call loads the host side of the tools');
  } finally {
    await ext.deactivate();
    context.disposeAll();
    vscode.lm.registerTool = registerTool;
  }
});
