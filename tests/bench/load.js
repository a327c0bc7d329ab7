// MCP load generator for `inv bench`: C concurrent clients, each with its own session, each making N
// sequential tools/call requests over keep-alive HTTP.
//   node load.js URL TOKEN|- CLIENTS CALLS  → prints {"latencies_ms": [...], "seconds": s, "errors": n}
'use strict';
const http = require('http');

const [url, token, clients, calls] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])];
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });

function post(body, sessionId) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (token !== '-') headers.Authorization = `Bearer ${token}`;
    if (sessionId) { headers['Mcp-Session-Id'] = sessionId; headers['MCP-Protocol-Version'] = '2025-11-25'; }
    const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, text, session: res.headers['mcp-session-id'] }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

function lastMessage(text) {
  const data = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
  return JSON.parse(data.length ? data[data.length - 1] : text);
}

async function client(latencies, errors) {
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load', version: '1' } } });
  const session = init.session;
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  for (let i = 1; i <= calls; i++) {
    const started = process.hrtime.bigint();
    try {
      const reply = await post({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'workspace_get_folders', arguments: {} } }, session);
      const message = lastMessage(reply.text);
      if (reply.status !== 200 || message.id !== i || !message.result || message.result.isError) errors.count++;
    } catch (error) {
      errors.count++;
    }
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}

async function main() {
  const latencies = [];
  const errors = { count: 0 };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: clients }, () => client(latencies, errors)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ latencies_ms: latencies, seconds, errors: errors.count }) + '\n');
  agent.destroy();
}

main().catch((error) => { console.error(error); process.exit(1); });
