// The transpiled MCP transport (hermes.net.mcp_http) against clients that never finish: a connection
// that sends nothing, headers sent byte by byte (slow loris), a body that stops half way. Each is cut by
// the server's own timeouts (made short here), and a normal client is served all the while.
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
