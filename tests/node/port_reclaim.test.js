// A window reload: the new extension host starts while the old one still holds the port. The transpiled MCP
// transport waits for the port this window served on before (`reclaim_port`) instead of taking the next one, so
// clients configured with the port find the window where it was; any other taken port is skipped at once.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const net = require('net');
const { testing, kwargs } = require('./harness');

function mcpServer() {
  const t = testing();
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));
  const registry = t.core_tools.ToolRegistry();
  return t.net_mcp_http.McpHttpServer(
    (send) => t.core_mcp_protocol.McpSession(json({ name: 'reclaim', version: '1' }), registry, kwargs({ send })),
    () => json({ status: 'ok' }), 'tok');
}

function holdAFreePort() {  // the old extension host (or another program): a listening socket on some port
  return new Promise((resolve) => {
    const holder = net.createServer().listen(0, '127.0.0.1', () => resolve(holder));
  });
}

test('the port this window served on before is waited for while its old extension host lets go', async () => {
  const holder = await holdAFreePort();
  const port = holder.address().port;
  const server = mcpServer();
  let settled = false;
  const started = server.start(port, port).finally(() => { settled = true; });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(settled, false, 'still waiting for its own port');
  await new Promise((resolve) => holder.close(resolve));  // the old extension host's deactivate
  try {
    assert.equal(await started, port);
  } finally {
    await server.stop();
  }
});

test('a port taken by anything else is skipped at once', async () => {
  const holder = await holdAFreePort();
  const port = holder.address().port;
  const server = mcpServer();
  try {
    const got = await server.start(port, port + 7);  // the remembered port is another one
    assert.notEqual(got, port);
    assert.ok(got > port && got < port + 20);
  } finally {
    await server.stop();
    await new Promise((resolve) => holder.close(resolve));
  }
});
