// The MCP protocol core (hermes.core.*) on the transpiled modules (build/testing.js). These cases
// mirror tests/unit and add the ones where JS semantics differ from CPython: loose `==`, `undefined`,
// JS errors thrown by handlers, raw JSON.parse objects, method names that collide with the
// transpiled dict's own machinery.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { testing, kwargs } = require('./harness');

const core = () => testing();
const parse = (text) => core().js_json.parse_json(text);
const json = (value) => parse(JSON.stringify(value)); // what the transport hands to handle()
const plain = (value) => JSON.parse(core().js_json.dump_json(value)); // what the transport sends back
const tick = () => new Promise((resolve) => setImmediate(resolve));

const SERVER_INFO = { name: 'hermes-vscode', version: '0.1.0' };
const EMPTY = { type: 'object', properties: {} };

function makeRegistry() {
  const { Tool, ToolRegistry, ToolError } = core().core_tools;
  const registry = ToolRegistry();
  const add = (name, schema, handler, options) => registry.add(Tool(name, name + ' tool', json(schema), handler, ...(options ? [kwargs(options)] : [])));
  add('echo', { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, async (args) => args.text);
  add('chatty', EMPTY, async (args, call) => {
    call.progress(1, 2, 'halfway');
    call.progress(2, 2);
    call.log('debug', 'details');
    call.log('info', 'started');
    return 'done';
  });
  add('wait', EMPTY, (args, call) => new Promise((resolve) => call.on_cancel(() => resolve('stopped'))));
  add('typeerror', EMPTY, async () => { const nothing = undefined; return nothing.field; });
  add('throws_string', EMPTY, async () => { throw 'plain string'; });
  add('tool_error', EMPTY, async () => { throw ToolError('Nothing selected: open a file first.'); });
  add('structured', EMPTY, async () => ({ files: ['a.py'], count: 1 }), { read_only: false, destructive: true, title: 'Structured' });
  return registry;
}

function makeSession(options = {}) {
  const sent = [];
  const lines = [];
  const log = { info: (t) => lines.push('info ' + t), warn: (t) => lines.push('warn ' + t), error: (t) => lines.push('error ' + t) };
  const registry = makeRegistry();
  const session = core().core_mcp_protocol.McpSession(SERVER_INFO, registry, kwargs({
    send: (message, related) => sent.push([plain(message), related]), log, ...options }));
  return { session, sent, lines, registry };
}

const request = (id, method, params) => json(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const note = (method, params) => json(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
const handle = async (session, message) => plain(await session.handle(message));

async function initialize(session, version = '2025-11-25') {
  const response = await handle(session, request(0, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'node', version: '24' } }));
  assert.equal(await session.handle(note('notifications/initialized')), null);
  return response;
}

const errorOf = (response) => [response.error.code, response.error.message];
const textOf = (response) => response.result.content[0].text;

// ------------------------------------------------------------------------------------- values

test('json_type agrees with CPython on the JS edge cases', () => {
  const { json_type } = core().core_values;
  const cases = [[null, 'null'], [undefined, 'null'], [true, 'boolean'], [0, 'integer'], [1.0, 'integer'],
    [1.5, 'number'], ['', 'string'], [[], 'array'], [{}, 'object'], [JSON.parse('{"a":1}'), 'object'], [parse('{"a":1}'), 'object']];
  for (const [value, name] of cases) assert.equal(json_type(value), name, JSON.stringify(value));
});

test('has_key works on dicts and raw objects and not on strings or arrays', () => {
  const { has_key, json_equal } = core().core_values;
  assert.equal(has_key(parse('{"id": null}'), 'id'), true);
  assert.equal(has_key({ id: 1 }, 'id'), true);
  assert.equal(has_key({}, 'id'), false);
  assert.equal(has_key(['id'], 'id'), false);
  assert.equal(has_key('the id', 'id'), false);
  assert.equal(has_key(undefined, 'id'), false);
  assert.equal(json_equal(1, '1'), false, 'JS loose == must not leak into JSON equality');
  assert.equal(json_equal(0, false), false);
  assert.equal(json_equal(parse('{"a":[1,{"b":2}]}'), { a: [1, { b: 2 }] }), true);
  // Transcrypt exports only names a module assigns itself; these two are documented API.
  assert.equal(core().core_jsonrpc.has_key(parse('{"id": 1}'), 'id'), true);
  assert.equal(core().core_schema.json_type(1.5), 'number');
});

// ------------------------------------------------------------------------------------- jsonrpc

test('classify rejects what JS loose equality would let through', () => {
  const { classify } = core().core_jsonrpc;
  assert.equal(classify(json({ jsonrpc: '2.0', id: 1, method: 'ping' })), 'request');
  assert.equal(classify(json({ jsonrpc: '2.0', method: 'x' })), 'notification');
  assert.equal(classify(json({ jsonrpc: '2.0', id: 1, result: {} })), 'response');
  assert.equal(classify(json({ jsonrpc: 2, id: 1, method: 'ping' })), 'invalid', "2 == '2.0' is true in JS");
  assert.equal(classify(json({ jsonrpc: '2.0', id: true, method: 'ping' })), 'invalid');
  assert.equal(classify(json({ jsonrpc: '2.0', id: null, method: 'ping' })), 'invalid');
  assert.equal(classify(json({ jsonrpc: '2.0', id: [1], method: 'ping' })), 'invalid');
  assert.equal(classify(json(['x'])), 'invalid');
  assert.equal(classify(undefined), 'invalid');
  assert.equal(classify(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping"}')), 'request', 'raw objects work too');
});

test('error_response omits absent data and maps undefined ids to null', () => {
  const { error_response, result_response } = core().core_jsonrpc;
  assert.deepEqual(plain(error_response(undefined, -32600, 'bad')), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } });
  assert.deepEqual(plain(error_response(1, -32602, 'bad', { x: 1 })).error, { code: -32602, message: 'bad', data: { x: 1 } });
  assert.deepEqual(plain(result_response('a', {})), { jsonrpc: '2.0', id: 'a', result: {} });
});

// ------------------------------------------------------------------------------------- schema

test('validate gives the same messages as under CPython', () => {
  const { validate } = core().core_schema;
  const schema = json({
    type: 'object', required: ['path'], additionalProperties: false,
    properties: { path: { type: 'string' }, mode: { enum: ['a', 'b'] }, line: { type: 'integer', minimum: 1 }, paths: { type: 'array', items: { type: 'string' } } },
  });
  assert.deepEqual(validate(json({ path: 5 }), schema), ['arguments.path: expected string, got number']);
  assert.deepEqual(validate(json({}), schema), ["arguments: missing required property 'path'"]);
  assert.deepEqual(validate(json({ path: 'x', mode: 'c' }), schema), ['arguments.mode: expected one of "a", "b", got "c"']);
  assert.deepEqual(validate(json({ path: 'x', extra: 1 }), schema), ["arguments: unexpected property 'extra' (allowed: path, mode, line, paths)"]);
  assert.deepEqual(validate(json({ path: 'x', paths: ['a', 2] }), schema), ['arguments.paths[1]: expected string, got number']);
  assert.deepEqual(validate(json({ path: 'x', line: 0 }), schema), ['arguments.line: expected a number >= 1, got 0']);
});

test('validate: booleans are not numbers, 1.0 is an integer, "1" is not 1', () => {
  const { validate } = core().core_schema;
  assert.deepEqual(validate(true, json({ type: 'integer' })), ['arguments: expected integer, got boolean']);
  assert.deepEqual(validate(false, json({ type: 'number' })), ['arguments: expected number, got boolean']);
  assert.deepEqual(validate(1.5, json({ type: 'integer' })), ['arguments: expected integer, got number']);
  assert.deepEqual(validate(1.0, json({ type: 'integer' })), []);
  assert.deepEqual(validate('1', json({ enum: [1] })), ['arguments: expected one of 1, got "1"']);
  assert.deepEqual(validate(0, json({ const: false })), ['arguments: expected false, got 0']);
  assert.deepEqual(validate(null, json({ type: ['string', 'null'] })), []);
  assert.deepEqual(validate(3, json({ anyOf: [{ type: 'string' }, { type: 'array' }] })),
    ['arguments: matches none of the allowed forms: (1) expected string, got number; (2) expected array, got number']);
});

test('validate accepts schemas that are raw JSON.parse objects', () => {
  const { validate } = core().core_schema;
  const raw = JSON.parse('{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}');
  assert.deepEqual(validate(json({ n: 1 }), raw), []);
  assert.deepEqual(validate(json({ n: 'x', m: 1 }), raw), ['arguments.n: expected integer, got string', "arguments: unexpected property 'm' (allowed: n)"]);
});

// ------------------------------------------------------------------------------------- tools

test("a client's extra top-level arguments are left out and logged once per client and name, on both eras", async () => {
  const c = core();
  const seen = [];
  const lines = [];
  const log = { debug: (t) => lines.push('debug ' + t), info: (t) => lines.push('info ' + t), warn() {}, error() {} };
  const registry = c.core_tools.ToolRegistry();
  registry.add(c.core_tools.Tool('file_read', 'read', json({ type: 'object', properties: { path: { type: 'string' } },
    required: ['path'], additionalProperties: false }), async (args) => { seen.push(plain(args)); return 'read ' + args.path; }));
  const ignored = c.core_ignored_arguments.IgnoredArguments(log);
  const session = c.core_mcp_protocol.McpSession(SERVER_INFO, registry, kwargs({ log, ignored }));
  await handle(session, request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gemini-cli-mcp-client', version: '0.61.0' } }));
  const gemini = { name: 'file_read', arguments: { path: 'notes.md', wait_for_previous: true } };
  for (const id of [1, 2]) assert.deepEqual((await handle(session, request(id, 'tools/call', gemini))).result, { content: [{ type: 'text', text: 'read notes.md' }], isError: false });
  const modern = c.core_mcp_stateless.McpStatelessServer(SERVER_INFO, registry, log, null, ignored);
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'gemini-cli-mcp-client', version: '0.61.0' } };
  const response = plain(await modern.handle(request(3, 'tools/call', { ...gemini, _meta: meta })));
  assert.equal(response.result.isError, false);
  assert.deepEqual(seen, [{ path: 'notes.md' }, { path: 'notes.md' }, { path: 'notes.md' }]);
  assert.deepEqual(lines.filter((line) => line.startsWith('debug ') || line.includes(' speaks ')), [
    "debug mcp: gemini-cli-mcp-client 0.61.0 sends 'wait_for_previous', which file_read does not declare: " +
    'left out of the call (said once per client and argument)',
    'info mcp: gemini-cli-mcp-client 0.61.0 speaks 2026-07-28 (no session: every request says who it is)']);
  const hostile = plain(await session.handle(request(4, 'tools/call', { name: 'file_read', arguments: JSON.parse('{"path": "a", "__proto__": {"path": "/etc/passwd"}}') })));
  assert.deepEqual(hostile.result.content, [{ type: 'text', text: 'read a' }]);
  assert.deepEqual(seen[3], { path: 'a' });
});

test('Tool.to_mcp with keyword options and the registry basics', () => {
  const registry = makeRegistry();
  assert.deepEqual(registry.names(), ['echo', 'chatty', 'wait', 'typeerror', 'throws_string', 'tool_error', 'structured']);
  const structured = registry.py_get('structured');
  assert.equal(structured.py_name, 'structured', 'Transcrypt renames .name to .py_name');
  assert.deepEqual(plain(structured.to_mcp()), {
    name: 'structured', title: 'Structured', description: 'structured tool', inputSchema: EMPTY,
    annotations: { readOnlyHint: false, destructiveHint: true, title: 'Structured' } });
  assert.equal(registry.py_get('missing'), null);
  const { Tool } = core().core_tools;
  // A Python exception is no JS Error (String(e) throws), so match its message through the seam.
  assert.throws(() => Tool('x', 'd', json(EMPTY), async () => '', kwargs({ destructive: true })),
    (error) => /read-only tool cannot be destructive/.test(core().js_errors.error_message(error)));
  const events = [];
  const unsubscribe = registry.on_change(() => events.push(registry.names().length));
  const remove = registry.add(Tool('extra', 'd', json(EMPTY), async () => ''));
  remove();
  unsubscribe();
  registry.remove('echo');
  assert.deepEqual(events, [8, 7]);
  assert.equal(registry.list().length, 6);
});

test('registry.call turns every handler outcome into a CallToolResult', async () => {
  const registry = makeRegistry();
  const call = (name, args) => registry.call(name, args).then(plain);
  assert.deepEqual(await call('echo', json({ text: 'hi' })), { content: [{ type: 'text', text: 'hi' }], isError: false });
  assert.deepEqual(await call('structured', undefined), {
    content: [{ type: 'text', text: '{\n  "files": [\n    "a.py"\n  ],\n  "count": 1\n}' }], isError: false,
    structuredContent: { files: ['a.py'], count: 1 } });
  assert.equal((await call('nope', json({}))).content[0].text,
    "Unknown tool 'nope'. Available tools: echo, chatty, wait, typeerror, throws_string, tool_error, structured");
  assert.deepEqual(await call('echo', json({})), { content: [{ type: 'text', text: "Invalid arguments for tool 'echo':\narguments: missing required property 'text'" }], isError: true });
  assert.equal((await call('echo', json([1]))).content[0].text, "Invalid arguments for tool 'echo': expected an object, got array");
  assert.equal((await call('echo', undefined)).isError, true, 'undefined arguments count as {}');
  const typeError = await call('typeerror', json({}));
  assert.equal(typeError.isError, true);
  assert.match(typeError.content[0].text, /^Tool 'typeerror' failed: Cannot read properties of undefined/);
  assert.deepEqual(await call('throws_string', json({})), { content: [{ type: 'text', text: "Tool 'throws_string' failed: plain string" }], isError: true });
  assert.deepEqual(await call('tool_error', json({})), { content: [{ type: 'text', text: 'Nothing selected: open a file first.' }], isError: true });
});

test('ToolCall: progress, log, cancel and its listeners', () => {
  const { ToolCall } = core().core_tools;
  const reports = [];
  const logs = [];
  const call = ToolCall((p, t, m) => reports.push([p, t, m]), (level, message) => logs.push([level, message]));
  call.progress(1);
  call.progress(2, 4, 'half');
  call.log('info', 'hello');
  const fired = [];
  call.on_cancel(() => fired.push('first'));
  const unsubscribe = call.on_cancel(() => fired.push('gone'));
  call.on_cancel(() => { throw new Error('listener bug'); });
  call.on_cancel(() => fired.push('after a throwing one'));
  unsubscribe();
  assert.equal(call.cancelled, false);
  call.cancel('stop');
  call.cancel();
  call.progress(3, 4);
  assert.equal(call.cancelled, true);
  assert.equal(call.cancel_reason, 'stop');
  assert.deepEqual(reports, [[1, null, null], [2, 4, 'half']]);
  assert.deepEqual(logs, [['info', 'hello']]);
  assert.deepEqual(fired, ['first', 'after a throwing one']);
  ToolCall().progress(1); // no reporter: a no-op
});

// ------------------------------------------------------------------------------------- session

test('handshake: negotiation for every supported version and an unsupported one', async () => {
  const { SUPPORTED_PROTOCOL_VERSIONS } = core().core_mcp_protocol;
  for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01']) {
    const { session } = makeSession({ instructions: 'Drive VS Code.' });
    const response = await initialize(session, version);
    const expected = version === '1999-01-01' ? '2025-11-25' : version;
    assert.deepEqual(response, { jsonrpc: '2.0', id: 0, result: {
      protocolVersion: expected, capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: SERVER_INFO, instructions: 'Drive VS Code.' } });
    assert.equal(session.negotiated_version, expected);
    assert.equal(session.initialized, true);
    assert.equal(session.ready, true);
    assert.deepEqual(plain(session.client_info), { name: 'node', version: '24' });
  }
});

test('handshake errors and the pre-initialize gate', async () => {
  const { session, lines } = makeSession();
  assert.deepEqual(await handle(session, request(1, 'ping')), { jsonrpc: '2.0', id: 1, result: {} });
  assert.deepEqual(errorOf(await handle(session, request(1, 'tools/list'))), [-32600, 'Server not initialized: send initialize first']);
  assert.deepEqual(errorOf(await handle(session, request(1, 'initialize', { protocolVersion: 20250618 }))),
    [-32602, 'initialize: params.protocolVersion must be a string, such as "2025-11-25"']);
  assert.deepEqual(errorOf(await handle(session, request(1, 'initialize'))),
    [-32602, 'initialize: params.protocolVersion must be a string, such as "2025-11-25"']);
  assert.deepEqual(errorOf(await handle(session, request(1, 'server/discover'))), [-32601,
    'Method not found: server/discover (this is an initialize session, protocol versions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05; 2026-07-28 requests are sent without Mcp-Session-Id, with MCP-Protocol-Version: 2026-07-28)']);
  await initialize(session);
  assert.deepEqual(errorOf(await handle(session, request(1, 'initialize', { protocolVersion: '2025-11-25' }))),
    [-32600, 'Session already initialized: initialize may be sent only once']);
  assert.match(lines.find((line) => line.includes('initialize: node 24')), /asked for 2025-11-25, speaking 2025-11-25/);
});

test('method names that exist on JS objects or transpiled dicts are simply not found', async () => {
  const { session } = makeSession();
  await initialize(session);
  for (const method of ['constructor', '__class__', 'hasOwnProperty', 'py_keys', 'toString', '__proto__']) {
    assert.deepEqual(errorOf(await handle(session, request(1, method))), [-32601, 'Method not found: ' + method]);
  }
});

test('2026-07-28: method names that exist on JS objects or transpiled dicts are simply not found', async () => {
  const c = core();
  const server = c.core_mcp_stateless.McpStatelessServer(SERVER_INFO, makeRegistry());
  server.add_feature(c.core_mcp_prompts.McpPrompts(null));
  server.add_feature(c.core_completions.McpCompletions(null));
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const ask = async (method) => plain(await server.handle(request(1, method, { _meta: meta })));
  for (const method of ['__proto__', 'constructor', 'py_keys', '__contains__', 'hasOwnProperty', 'toString', '__class__',
    'm:tools/list', 'tools/list ', 'server/']) {
    const response = await ask(method);
    assert.deepEqual(errorOf(response), [-32601, 'Method not found: ' + method], method);
    assert.equal(c.core_mcp_stateless.http_status_of(json(response)), 404, method);
  }
  assert.deepEqual(errorOf(await ask('ping')),
    [-32601, 'Method not found: ping (not part of 2026-07-28; it exists only after an initialize handshake)']);
  assert.deepEqual((await ask('server/discover')).result.supportedVersions.slice(0, 1), ['2026-07-28']);
  assert.equal((await ask('tools/list')).result.tools.length, 7);
  assert.equal((await ask('prompts/list')).result.prompts.length, 3);
});

test('invalid messages are answered with -32600', async () => {
  const { session } = makeSession();
  for (const value of ['"text"', '42', 'null', 'true']) {
    const response = await handle(session, parse(value));
    assert.equal(response.id, null);
    assert.equal(response.error.code, -32600);
  }
  assert.deepEqual(await handle(session, json({ jsonrpc: '1.0', id: 5, method: 'ping' })),
    { jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0"' } });
  assert.equal(await session.handle(json({ jsonrpc: '2.0', id: 9, result: {} })), null, 'client responses get no answer');
});

test('batches: refused before initialize and outside 2025-03-26, handled in it', async () => {
  let { session } = makeSession();
  assert.deepEqual(errorOf(await handle(session, json([{ jsonrpc: '2.0', id: 1, method: 'ping' }]))), [-32600, 'Batches are not supported before initialize']);
  await initialize(session, '2025-06-18');
  assert.deepEqual(errorOf(await handle(session, json([{ jsonrpc: '2.0', id: 1, method: 'ping' }]))), [-32600, 'Batches are not supported in protocol version 2025-06-18']);
  ({ session } = makeSession());
  await initialize(session, '2025-03-26');
  assert.deepEqual(errorOf(await handle(session, json([]))), [-32600, 'Invalid Request: empty batch']);
  assert.deepEqual(await handle(session, json([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/whatever' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
    [{ jsonrpc: '2.0', id: 3, method: 'ping' }],
    { jsonrpc: '2.0', id: 4, method: 'nope' },
  ])), [
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }], isError: false } },
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: expected a JSON object, got array' } },
    { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found: nope' } },
  ]);
  assert.equal(await session.handle(json([{ jsonrpc: '2.0', method: 'notifications/a' }])), null);
});

test('tools/list and tools/call through the session', async () => {
  const { session, lines } = makeSession();
  await initialize(session);
  const list = await handle(session, request(1, 'tools/list', { cursor: 'ignored' }));
  assert.equal(list.result.tools.length, 7);
  assert.equal(list.result.nextCursor, undefined);
  assert.deepEqual(list.result.tools[0], { name: 'echo', description: 'echo tool',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true, destructiveHint: false } });
  assert.equal(textOf(await handle(session, request('a', 'tools/call', { name: 'echo', arguments: { text: 'yo' } }))), 'yo');
  assert.match(lines[lines.length - 1], /^info mcp: tools\/call echo: ok \(\d+ ms\)$/);
  assert.deepEqual(errorOf(await handle(session, request(2, 'tools/call', { arguments: {} }))), [-32602, 'tools/call: params.name must be a string (the tool name)']);
  const failed = await handle(session, request(3, 'tools/call', { name: 'typeerror' }));
  assert.equal(failed.result.isError, true);
  assert.match(lines[lines.length - 1], /^warn mcp: tools\/call typeerror: tool error \(\d+ ms\)$/);
});

test('progress notifications go out only with a progress token (0 included)', async () => {
  const { session, sent } = makeSession();
  await initialize(session);
  sent.length = 0;
  await session.handle(request(7, 'tools/call', { name: 'chatty' }));
  assert.deepEqual(sent.map(([message]) => message.method), ['notifications/message']);
  sent.length = 0;
  await session.handle(request(8, 'tools/call', { name: 'chatty', _meta: { progressToken: 0 } }));
  assert.deepEqual(sent.filter(([m]) => m.method === 'notifications/progress'), [
    [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 1, total: 2, message: 'halfway' } }, 8],
    [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 2, total: 2 } }, 8],
  ]);
  assert.deepEqual(sent.filter(([m]) => m.method === 'notifications/message'), [
    [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'chatty', data: 'started' } }, 8],
  ]);
});

test('notifications/cancelled drops the response of the matching in-flight call', async () => {
  const { session, lines } = makeSession();
  await initialize(session);
  const running = session.handle(request(42, 'tools/call', { name: 'wait' }));
  await tick();
  assert.equal(await session.handle(note('notifications/cancelled', { requestId: '42' })), null);
  let settled = false;
  running.then(() => { settled = true; });
  await tick();
  assert.equal(settled, false, "the string id '42' is not the number 42");
  await session.handle(note('notifications/cancelled', { requestId: 42, reason: 'user stop' }));
  assert.equal(await running, null);
  assert.ok(lines.includes('info mcp: cancelling request 42: user stop'));
  assert.equal(textOf(await handle(session, request(42, 'tools/call', { name: 'echo', arguments: { text: 'again' } }))), 'again');
});

test('logging/setLevel filters notifications/message', async () => {
  const { session, sent } = makeSession();
  await initialize(session);
  sent.length = 0;
  session.log_to_client('debug', 'hidden');
  session.log_to_client('info', parse('{"structured": true}'));
  assert.deepEqual(errorOf(await handle(session, request(1, 'logging/setLevel', { level: 'verbose' }))),
    [-32602, 'logging/setLevel: params.level must be one of debug, info, notice, warning, error, critical, alert, emergency']);
  assert.deepEqual(errorOf(await handle(session, request(1, 'logging/setLevel', { level: ['error'] }))),
    [-32602, 'logging/setLevel: params.level must be one of debug, info, notice, warning, error, critical, alert, emergency'],
    "['error'] == 'error' is true in JS");
  assert.deepEqual(await handle(session, request(1, 'logging/setLevel', { level: 'error' })), { jsonrpc: '2.0', id: 1, result: {} });
  session.log_to_client('warning', 'hidden too');
  session.log_to_client('critical', 'shown', 'hermes.mcp');
  assert.deepEqual(sent.map(([m, related]) => [m.params.level, m.params.data, m.params.logger, related]), [
    ['info', { structured: true }, 'hermes', null], ['critical', 'shown', 'hermes.mcp', null]]);
});

test('tools/list_changed after initialize, nothing after close; close drops in-flight calls', async () => {
  const { session, sent, registry } = makeSession();
  registry.remove('echo');
  assert.equal(sent.length, 0);
  await initialize(session);
  registry.remove('chatty');
  assert.deepEqual(sent, [[{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, null]]);
  const running = session.handle(request(1, 'tools/call', { name: 'wait' }));
  await tick();
  session.close();
  assert.equal(await running, null);
  registry.remove('wait');
  assert.equal(sent.length, 1);
  assert.deepEqual(errorOf(await handle(session, request(2, 'ping'))), [-32600, 'Session closed']);
});

test('a send that throws does not fail the tool call, and a session needs neither send nor log', async () => {
  const { session, lines } = makeSession({ send: () => { throw new Error('stream closed'); } });
  await initialize(session);
  const response = await handle(session, request(1, 'tools/call', { name: 'chatty', _meta: { progressToken: 't' } }));
  assert.equal(response.result.isError, false);
  assert.ok(lines.includes('warn mcp: could not send notifications/progress: stream closed'));
  const bare = core().core_mcp_protocol.McpSession(SERVER_INFO, makeRegistry());
  await initialize(bare);
  assert.equal(textOf(await handle(bare, request(1, 'tools/call', { name: 'chatty', _meta: { progressToken: 1 } }))), 'done');
});
