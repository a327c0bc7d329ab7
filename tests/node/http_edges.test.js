// The transpiled MCP transport (hermes.net.mcp.http) against clients that never finish: a connection
// that sends nothing, headers sent byte by byte (slow loris), a body that stops half way. Each is cut by
// the server's own timeouts (made short here), and a normal client is served all the while. And the other side of
// those timeouts: a keep-alive connection idle between requests is kept, not cut.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const net = require('net');
const { testing, kwargs } = require('./harness');

function startServer() {
  const t = testing();
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));
  const registry = t.core_tools.ToolRegistry();
  const server = t.net_mcp_http.McpHttpServer(
    (send) => t.core_mcp_protocol.McpSession(json({ name: 'edge', version: '1' }), registry, kwargs({ send })),
    () => json({ status: 'ok' }), 'tok', kwargs({ headers_timeout_ms: 300, request_timeout_ms: 600 }));
  return server;
}

// Resolves with what the server sent once it closes the connection; the test's own timeout is the bound.
function openAndWaitForClose(port, send) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(received).toString()));
    socket.on('connect', () => send(socket));
  });
}

async function health(port) {
  const response = await fetch(`http://127.0.0.1:${port}/health`);
  return (await response.json()).status;
}

test('idle, slow-loris and half-sent requests are cut; others are served meanwhile', { timeout: 120000 }, async () => {
  const server = startServer();
  const port = await server.start(0);
  try {
    const silent = openAndWaitForClose(port, () => {});
    const loris = openAndWaitForClose(port, (socket) => {
      const headers = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
      let index = 0;
      const drip = setInterval(() => {  // one byte at a time, forever
        if (socket.destroyed) return clearInterval(drip);
        socket.write(headers[index % headers.length] === '\r' ? 'a' : headers[index % headers.length]);
        index += 1;
      }, 50);
      socket.on('close', () => clearInterval(drip));
    });
    const halfBody = openAndWaitForClose(port, (socket) => {
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Authorization: Bearer tok\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"json');
    });
    assert.equal(await health(port), 'ok');
    const answers = await Promise.all([silent, loris, halfBody]);
    for (const answer of answers) assert.ok(answer === '' || answer.startsWith('HTTP/1.1 408'), answer);
    assert.equal(await health(port), 'ok');
  } finally {
    await server.stop();
  }
});

// A keep-alive connection is closed by the client, not by the server, as long as the client's pool keeps it for
// less than KEEP_ALIVE_TIMEOUT_MS: a server that closes an idle connection races the client sending on it (the
// client sees ECONNRESET or "socket hang up"; `inv soak` saw it on connections idle 5.9-6.1 s, when the server closed
// them at 5 s + Node's 1 s grace). Node's own Agent without a `timeout` never retires an idle connection.
function post(port, agent, body) {
  return new Promise((resolve, reject) => {
    const request = require('http').request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        Authorization: 'Bearer tok' } }, (response) => {
      let text = '';
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, keepAlive: response.headers['keep-alive'],
        reused: request.reusedSocket, text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

test('responses announce the long keep-alive time the server keeps idle connections for', async () => {
  const t = testing();
  const server = startServer();
  const port = await server.start(0);
  const agent = new (require('http').Agent)({ keepAlive: true });
  try {
    const answer = await post(port, agent, { jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.equal(answer.keepAlive, `timeout=${t.net_mcp_http.KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    assert.ok(t.net_mcp_http.KEEP_ALIVE_TIMEOUT_MS >= 120000, 'longer than common clients keep idle connections');
  } finally {
    agent.destroy();
    await server.stop();
  }
});

test('an idle keep-alive connection outlives the header time limit and serves the next request', { timeout: 60000 }, async () => {
  const server = startServer();  // headers within 300 ms
  const port = await server.start(0);
  const agent = new (require('http').Agent)({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await post(port, agent, { jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.equal(first.reused, false);
    const [socket] = Object.values(agent.freeSockets)[0];
    await new Promise((resolve) => setTimeout(resolve, 1000));  // idle for more than three header time limits
    assert.equal(socket.destroyed, false);
    const second = await post(port, agent, { jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.deepEqual([second.reused, second.status], [true, 400]);  // the same connection, answered (no session)
  } finally {
    agent.destroy();
    await server.stop();
  }
});
