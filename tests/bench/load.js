// MCP load generator for `inv bench`: C concurrent clients, each making N sequential tools/call requests
// over keep-alive HTTP; in 2025 mode each client first opens its own session (initialize), in 2026 mode
// every request stands alone (2026-07-28: `_meta` and mirrored headers, no session).
//   node load.js URL TOKEN|- CLIENTS CALLS [2025|2026]  → prints {"latencies_ms": [...], "seconds": s, "errors": n}
'use strict';
const http = require('http');

const [url, token, clients, calls] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])];
const era = process.argv[6] || '2025';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'load', version: '1' } };
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });

function post(body, sessionId, extraHeaders) {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extraHeaders };
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

async function openSession() {
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load', version: '1' } } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
  return init.session;
}

const MODERN_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'workspace_get_folders' };

async function client(latencies, errors) {
  const session = era === '2026' ? undefined : await openSession();
  const params = { name: 'workspace_get_folders', arguments: {} };
  if (era === '2026') params._meta = MODERN_META;
  for (let i = 1; i <= calls; i++) {
    const started = process.hrtime.bigint();
    try {
      const reply = await post({ jsonrpc: '2.0', id: i, method: 'tools/call', params }, session,
        era === '2026' ? MODERN_HEADERS : undefined);
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
