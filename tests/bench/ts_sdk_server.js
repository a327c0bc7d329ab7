// Baseline for `inv bench`: the official TypeScript SDK's Streamable HTTP server (stateful sessions,
// as in the SDK's own example) serving the same trivial tool Hermes serves.
//   node ts_sdk_server.js  → prints {"url": ...} once listening
'use strict';
const http = require('http');
const { randomUUID } = require('crypto');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { isInitializeRequest } = require('@modelcontextprotocol/sdk/types.js');

const folders = { name: 'project', folders: [{ name: 'project', path: '/tmp/project', uri: 'file:///tmp/project', index: 0 }] };

function newServer() {
  const server = new McpServer({ name: 'ts-sdk-baseline', version: '1.0.0' });
  server.registerTool('workspace_get_folders', { description: 'List the workspace folders.' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(folders, null, 2) }],
    structuredContent: folders,
  }));
  return server;
}

const transports = new Map();

function readJson(req) {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => resolve(body ? JSON.parse(body) : undefined));
  });
}

const httpServer = http.createServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request' } }));
    return;
  }
  await transport.handleRequest(req, res, body);
});

httpServer.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${httpServer.address().port}/mcp` }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
