// The CLI's pure parts (hermes.cli.*, hermes.net.mcp.client helpers) as transpiled, where JS differs
// from CPython: loose ==, undefined, string methods, integer parsing, exceptions from Python code.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { execFileSync } = require('child_process');
const { testing, kwargs, until } = require('./harness');

const mod = () => {
  const modules = testing();
  if (!modules.cli_args) throw new Error('build/testing.js has no hermes.cli modules: they are transpiled with the '
    + 'CLI entry, py_src/hermes/mcp_server_cli.py (inv build)');
  return modules;
};
const plain = (value) => JSON.parse(JSON.stringify(value));
const root = path.resolve(__dirname, '..', '..');

function usageError(argv) {
  try {
    mod().cli_args.parse_args(argv);
  } catch (error) {
    assert.equal(error.__class__.__name__, 'UsageError');
    return error.text;
  }
  assert.fail('no UsageError for ' + JSON.stringify(argv));
}

test('parse_args', () => {
  const { parse_args } = mod().cli_args;
  assert.deepEqual(plain(parse_args(['health'])), { command: 'health', url: null, token: null, port: null,
    client: 'all', json: false, help: false });
  const options = plain(parse_args(['--port=20001', 'config', '--client', 'claude', '--token', 'a=b']));
  assert.equal(options.port, 20001);  // a number, not the string
  assert.equal(typeof options.port, 'number');
  assert.equal(options.client, 'claude');
  assert.equal(options.token, 'a=b');
  assert.equal(parse_args(['-h']).help, true);
  assert.match(usageError([]), /missing command/);
  assert.match(usageError(['nope']), /unknown command nope/);
  assert.match(usageError(['health', '--port', '12ab']), /--port must be a number/);
  assert.match(usageError(['health', '--port', '0x10']), /--port must be a number/);
  assert.match(usageError(['health', '--port', '99999']), /--port must be a number/);
  assert.match(usageError(['health', '--port', ' 5']), /--port must be a number/);
  assert.match(usageError(['health', '--bogus']), /unknown option --bogus/);
  assert.match(usageError(['stdio', '--json']), /--json does not apply/);
});

test('select_window: cwd containment, --port, --url; ports compared as numbers', () => {
  const { select_window, contains_path } = mod().cli_select_window;
  const win = (port, folders) => ({ url: `http://127.0.0.1:${port}/mcp`, port, token: 't' + port, pid: port + 1,
    workspaceFolders: folders });
  const windows = mod().js_json.parse_json(JSON.stringify([win(3, ['/w/web']), win(2, ['/w/mono/app']), win(1, ['/w/mono'])]));
  const opts = (o) => mod().js_json.parse_json(JSON.stringify(Object.assign({ url: null, token: null, port: null }, o)));
  assert.equal(select_window(windows, '/w/mono/app/src', opts({})).port, 2);
  assert.equal(select_window(windows, '/w/mono/lib', opts({})).port, 1);
  assert.equal(select_window(windows, '/w/monolith', opts({})).port, 3);
  assert.equal(select_window(windows, '/elsewhere', opts({})).reason, 'the newest window');
  assert.equal(select_window(windows, '/w/web', opts({ port: 1 })).token, 't1');
  const byUrl = plain(select_window(windows, '/', opts({ url: 'http://127.0.0.1:2/mcp' })));
  assert.equal(byUrl.token, 't2');
  assert.equal(byUrl.pid, 3);
  assert.throws(() => select_window(windows, '/', opts({ port: 9 })), (error) => {
    assert.match(error.text, /No running Hermes window serves on port 9/);
    return true;
  });
  assert.throws(() => select_window([], '/', opts({})), (error) => /Open VS Code with the Hermes extension/.test(error.text));
  assert.equal(contains_path('/a/b', '/a/b/c'), true);
  assert.equal(contains_path('/a/b', '/a/bc'), false);
  assert.equal(contains_path('C:\\Users\\me', 'c:\\users\\me\\x'), true);
  assert.equal(contains_path(undefined, '/a'), false);
});

test('mcp_client helpers: messages and ports', () => {
  const client = mod().net_mcp_client;
  assert.equal(client.http_error_message(401, 'Unauthorized',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: the bearer token is wrong"}}'),
  '401 Unauthorized: the bearer token is wrong');
  assert.equal(client.http_error_message(404, '', ''), '404 Not Found');
  assert.equal(client.http_error_message(418, '', 'teapot'), '418 HTTP error: teapot');
  assert.equal(client.unreachable_message('http://127.0.0.1:19999/mcp', 'ECONNREFUSED', 'fetch failed'),
    "Can't reach the Hermes MCP server at http://127.0.0.1:19999/mcp (connection refused). Is VS Code open with Hermes running?");
  assert.match(client.unreachable_message('u', 'constructor', 'odd'), /\(odd\)/);  // no prototype lookups
  assert.equal(client.port_of('http://127.0.0.1:19999/mcp'), 19999);
  assert.equal(client.port_of('http://localhost/mcp'), 80);
  assert.equal(client.port_of('http://[::1]:81/mcp'), 81);
  assert.equal(client.port_of('http://h:x/mcp'), null);
  assert.equal(client.base_url_of('http://127.0.0.1:5/mcp'), 'http://127.0.0.1:5');
});

test('McpClientError reads well in JS: its text, String(), and error_message', () => {
  const { McpClientError } = mod().net_mcp_client;
  const error = McpClientError('401 Unauthorized: the bearer token is wrong', 'http', 401);
  assert.equal(error.status, 401);
  assert.equal(error.kind, 'http');
  assert.equal(mod().js_errors.error_message(error), '401 Unauthorized: the bearer token is wrong');
});

function closedPort() {
  return new Promise((resolve) => {
    const server = require('net').createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

test('a fetch to a closed port becomes the clear message (real fetch)', async () => {
  const { McpHttpClient } = mod().net_mcp_client;
  const port = await closedPort();
  const client = McpHttpClient(`http://127.0.0.1:${port}/mcp`);
  await assert.rejects(client.post(mod().js_json.parse_json('{"jsonrpc":"2.0","id":1,"method":"ping"}')), (error) => {
    assert.equal(error.kind, 'network');
    assert.match(error.text, new RegExp(`^Can't reach the Hermes MCP server at http://127\\.0\\.0\\.1:${port}/mcp \\(connection refused\\)\\. Is VS Code open`));
    return true;
  });
});

test('health formatting (format_ms uses JS numbers)', () => {
  const health = mod().cli_health;
  assert.equal(health.format_ms(0.4321), '0.4 ms');
  assert.equal(health.format_ms(3), '3 ms');
  assert.equal(health.format_ms(12.6), '13 ms');
  assert.equal(health.median([5, 10, 1]), 5);  // numeric order, not string order
  assert.equal(health.median([9, 10, 100, 2]), 9.5);
});

test('loading the CLI bundle under another script name does not run it', () => {
  const script = `require(${JSON.stringify(path.join(root, 'dist', 'mcp-server.js'))}); console.log('loaded');`;
  const output = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(output, 'loaded\n');
});

// The client against the transpiled server itself (hermes.net.mcp.http), in one process: the SSE answer
// to tools/call with its progress notification first, the GET stream carrying tools/list_changed, DELETE.
test('McpHttpClient ↔ McpHttpServer: SSE replies, the GET stream, session end', async () => {
  const t = mod();
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));
  const registry = t.core_tools.ToolRegistry();
  const addTool = (name, handler) => registry.add(t.core_tools.Tool(name, name + ' tool',
    json({ type: 'object', properties: {} }), handler));
  addTool('slow', async (args, call) => { call.progress(1, 2, 'halfway'); return 'done'; });
  const server = t.net_mcp_http.McpHttpServer(
    (send) => t.core_mcp_protocol.McpSession(json({ name: 'test-server', version: '1' }), registry, kwargs({ send })),
    () => json({ status: 'ok', tools: registry.names().length, sessions: server.session_count() }), 'tok');
  const port = await server.start(0);
  try {
    const client = t.net_mcp_client.McpHttpClient(`http://127.0.0.1:${port}/mcp`, 'tok');
    const init = await client.initialize();
    assert.equal(init.serverInfo.name, 'test-server');
    assert.equal(client.protocol_version, '2025-11-25');
    assert.equal(typeof client.session_id, 'string');
    const health = await t.net_mcp_client.get_health(`http://127.0.0.1:${port}`);
    assert.equal(health.sessions, 1);

    const streamed = [];
    const replies = await client.post(json({ jsonrpc: '2.0', id: 5, method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: { progressToken: 'p' } } }), (m) => streamed.push(plain(m)));
    assert.deepEqual(streamed.map((m) => m.method || m.id), ['notifications/progress', 5]);
    assert.deepEqual(plain(replies), streamed);
    assert.equal(streamed[1].result.content[0].text, 'done');

    const notifications = [];
    const listening = client.listen((m) => notifications.push(plain(m)));
    // conditions, not delays: the server holds the GET stream, then the notification has arrived
    await until(() => Object.values(server.sessions.by_id).some((session) => session.stream && session.stream.open));
    addTool('late', async () => 'late');
    await until(() => notifications.length > 0);
    assert.deepEqual(notifications, [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);

    await client.close();
    await listening;  // close() ends the GET stream quietly
    assert.equal(client.session_id, null);
    assert.equal(server.session_count(), 0);

    const stranger = t.net_mcp_client.McpHttpClient(`http://127.0.0.1:${port}/mcp`, 'wrong');
    await assert.rejects(stranger.initialize(), (error) => {
      assert.equal(error.status, 401);
      assert.equal(error.text, '401 Unauthorized: the bearer token is wrong');
      return true;
    });
  } finally {
    await server.stop();
  }
});
