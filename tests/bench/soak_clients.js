// `inv soak`: many MCP clients on one window at once, for a while, the way agents hold a window: each its own
// 2025-11-25 session over keep-alive HTTP, a tools/call about once a second; the first SUBSCRIBED of them also hold
// their GET stream open, subscribe to the editor's resources and read a resource each time it is announced.
//   node soak_clients.js URL TOKEN CLIENTS SUBSCRIBED SECONDS
// Prints JSON lines: {"ready": …} once every client has its session (and subscriptions), {"minute": …} each minute
// (that minute's calls, errors, notifications, reads, call latencies), {"done": …} at the end. An error is anything a
// client would see as one: an HTTP status other than the expected, a JSON-RPC error, a tool result with isError, a
// refused connection, a GET stream that ends before the soak does. {"done": …} also lists the first errors of
// requests that failed on their connection (when, whether the pooled connection was reused and how long it had been
// idle), and each minute gives this process's event loop delay: a reset on a connection idle as long as the server's
// keep-alive time is a different cause from a reset under a stalled client.
'use strict';
const http = require('http');

const [url, token] = [process.argv[2], process.argv[3]];
const [clients, subscribed, seconds] = [Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6])];
const RESOURCES = ['hermes://editor/selection', 'hermes://editor/active', 'hermes://editor/tabs', 'hermes://diagnostics'];
const CALL_EVERY_MS = 1000;
const target = new URL(url);
// No `timeout`: such an agent keeps idle connections for ever, whatever the server's `Keep-Alive: timeout=N` says
// (Node 20 and 24 apply that hint only below an agent timeout they have): the plainest Node client there is.
const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 3 });
agent.on('free', (socket) => { socket.freedAt = Date.now(); });
const lag = require('perf_hooks').monitorEventLoopDelay({ resolution: 20 });
lag.enable();
const failures = [];  // the first 60 errors of requests that failed on their connection

let minute = freshMinute();
const totals = { calls: 0, errors: 0, notifications: 0, reads: 0, errorKinds: {} };
function freshMinute() { return { calls: 0, errors: 0, notifications: 0, reads: 0, latencies: [] }; }
function error(kind, detail) {
  if (detail && failures.length < 60) failures.push({ at: Date.now(), kind, ...detail });
  minute.errors++;
  totals.errors++;
  totals.errorKinds[kind] = (totals.errorKinds[kind] || 0) + 1;
}

function headers(session, extra) {
  const value = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`, ...extra };
  if (session) { value['Mcp-Session-Id'] = session; value['MCP-Protocol-Version'] = '2025-11-25'; }
  return value;
}

function post(body, session) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: headers(session), agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, text, session: res.headers['mcp-session-id'] }));
    });
    const detail = {};
    request.on('socket', (socket) => {
      detail.reused = request.reusedSocket;
      detail.idleMs = socket.freedAt ? Date.now() - socket.freedAt : null;
    });
    request.on('error', (failure) => reject(Object.assign(failure, { detail })));
    request.end(JSON.stringify(body));
  });
}

function lastMessage(text) {
  const data = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
  return JSON.parse(data.length ? data[data.length - 1] : text);
}

async function request(session, id, method, params) {
  const reply = await post({ jsonrpc: '2.0', id, method, params }, session);
  if (reply.status !== 200) throw Object.assign(new Error(method), { kind: `${method}: HTTP ${reply.status}` });
  const message = lastMessage(reply.text);
  if (message.error) throw Object.assign(new Error(method), { kind: `${method}: ${message.error.message}` });
  return message.result;
}

async function openSession() {
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25',
    capabilities: {}, clientInfo: { name: 'soak', version: '1' } } });
  if (init.status !== 200 || !init.session) throw new Error(`initialize: HTTP ${init.status} ${init.text}`);
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
  if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return init.session;
}

// The GET stream: server → client messages; each resources/updated is answered by a read of that resource (one
// read in flight per resource, as a client that shows the resource would do).
function listen(session, until, nextId) {
  const reading = new Set();
  const stream = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'GET',
    headers: headers(session, { Accept: 'text/event-stream' }), agent }, (res) => {
    if (res.statusCode !== 200) { error(`GET stream: HTTP ${res.statusCode}`); return; }
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        if (!data) continue;
        const message = JSON.parse(data);
        if (message.method !== 'notifications/resources/updated') continue;
        minute.notifications++;
        totals.notifications++;
        const uri = message.params.uri;
        if (reading.has(uri) || Date.now() >= until) continue;
        reading.add(uri);
        request_read(session, nextId(), uri).finally(() => reading.delete(uri));
      }
    });
    res.on('end', () => { if (Date.now() < until) error('GET stream ended early'); });
  });
  stream.on('error', () => { if (Date.now() < until) error('GET stream: connection error'); });
  stream.end();
  return stream;
}

async function request_read(session, id, uri) {
  try {
    await request(session, id, 'resources/read', { uri });
    minute.reads++;
    totals.reads++;
  } catch (failure) {
    error(failure.kind || `resources/read: ${failure.message}`, failure.detail);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function prepare(index) {
  const session = await openSession();
  let id = 1;
  const nextId = () => id++;
  return { session, nextId, subscribed: index < subscribed };
}

async function run(client, until) {
  let stream = null;
  if (client.subscribed) {
    stream = listen(client.session, until, client.nextId);
    for (const uri of RESOURCES) {
      try {
        await request(client.session, client.nextId(), 'resources/subscribe', { uri });
      } catch (failure) {
        error(failure.kind || `resources/subscribe: ${failure.message}`);
      }
    }
  }
  await sleep(Math.random() * CALL_EVERY_MS);  // spread the calls over the second
  while (Date.now() < until) {
    const started = process.hrtime.bigint();
    try {
      const result = await request(client.session, client.nextId(), 'tools/call', { name: 'workspace_get_folders', arguments: {} });
      if (result.isError) error('tools/call: isError');
    } catch (failure) {
      error(failure.kind || `tools/call: ${failure.message}`, failure.detail);
    }
    minute.calls++;
    totals.calls++;
    minute.latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    await sleep(CALL_EVERY_MS * (0.8 + Math.random() * 0.4));
  }
  return stream;
}

function summary(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null);
  return { p50: at(0.5), p95: at(0.95), max: sorted.length ? sorted[sorted.length - 1] : null };
}

async function main() {
  const prepared = [];
  for (let index = 0; index < clients; index++) prepared.push(await prepare(index));  // one at a time, as they come
  const until = Date.now() + seconds * 1000;
  const runs = prepared.map((client) => run(client, until));
  process.stdout.write(JSON.stringify({ ready: { clients, subscribed, sessions: prepared.length } }) + '\n');
  let number = 0;
  const ticker = setInterval(() => {
    number++;
    const { latencies, ...counts } = minute;
    minute = freshMinute();
    const loop = { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 };
    lag.reset();
    process.stdout.write(JSON.stringify({ minute: { number, ...counts, call_ms: summary(latencies), loop } }) + '\n');
  }, 60000);
  const streams = await Promise.all(runs);
  clearInterval(ticker);
  await sleep(1000);  // reads answering the last notifications
  for (const stream of streams) if (stream) stream.destroy();
  process.stdout.write(JSON.stringify({ done: totals, failures }) + '\n');
  agent.destroy();
}

main().catch((failure) => { process.stdout.write(JSON.stringify({ failed: String(failure && failure.stack || failure) }) + '\n'); process.exit(1); });
