// The floor for `inv bench`'s MCP section: a minimal Node `http` JSON-RPC endpoint in the same process
// as the extension (tests/node/serve_mcp.js starts it when HERMES_BENCH_MINIMAL=1). It does what any
// MCP server must do per tools/call — read and parse the body, check the bearer token, look the session
// up, call the same tool through the same registry, reply with JSON — and nothing else: no Origin/Host
// checks, no protocol-version routing, no argument validation beyond the registry's, no SSE.
'use strict';
const http = require('http');
const crypto = require('crypto');

function serveMinimal(registry, token) {
  const sessions = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const reply = (status, body, headers = {}) => {
        const text = body === null ? '' : JSON.stringify(body);
        res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
        res.end(text);
      };
      if (token && req.headers.authorization !== `Bearer ${token}`) return reply(401, { error: 'unauthorized' });
      let message;
      try { message = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return reply(400, { error: 'bad json' }); }
      if (message.method === 'initialize') {
        const id = crypto.randomUUID();
        sessions.set(id, { created: Date.now() });
        return reply(200, { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} },
          serverInfo: { name: 'minimal', version: '0' } } }, { 'Mcp-Session-Id': id });
      }
      if (!sessions.has(req.headers['mcp-session-id'])) return reply(404, { error: 'no session' });
      if (message.id === undefined) return reply(202, null);
      if (message.method !== 'tools/call') return reply(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not here' } });
      const result = await registry.call(message.params.name, message.params.arguments || {});
      return reply(200, { jsonrpc: '2.0', id: message.id, result });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/mcp`)));
}

module.exports = { serveMinimal };
