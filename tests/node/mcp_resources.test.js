// MCP resources, prompts and completions (hermes.core.mcp.resources, core.mcp.prompts, core.completions,
// throttle) on the transpiled modules: the same contracts as tests/unit/mcp/test_mcp_resources.py, with a
// plain-JS provider standing in for the host and a clock the test drives.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { testing, kwargs } = require('./harness');

const core = () => testing();
const parse = (text) => core().js_json.parse_json(text);
const json = (value) => parse(JSON.stringify(value));
const plain = (value) => JSON.parse(core().js_json.dump_json(value));

class FakeClock {
  constructor() { this.time = 1000; this.timers = []; }
  now() { return this.time; }
  set_timer(callback, delay) { const timer = { due: this.time + delay, callback }; this.timers.push(timer); return timer; }
  clear_timer(handle) { this.timers = this.timers.filter((timer) => timer !== handle); }
  advance(ms) {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.due <= end).sort((a, b) => a.due - b.due);
      if (due.length === 0) break;
      this.clear_timer(due[0]);
      this.time = due[0].due;
      due[0].callback();
    }
    this.time = end;
  }
}

const APP = 'def add(a, b):\n    return a + b\n';

function makeProvider() {
  const { ToolError } = core().core_tools;
  const state = { selection: null, terminals: [{ id: 3, name: 'build' }] };
  const provider = {
    state,
    active_editor: () => (state.selection ? { path: state.selection.path } : null),
    selection: () => state.selection,
    tabs: () => ({ groups: [] }),
    diagnostics: () => ({ files: [], total: 0 }),
    workspace: async () => ({ name: 'p', folders: [] }),
    terminals: () => state.terminals,
    terminal_output: (id) => (id === 3 ? '$ make\nok\n(exit code 0, 0.1 s)' : null),
    confine: (path) => {
      const absolute = require('path').posix.resolve('/ws', path);
      if (!absolute.startsWith('/ws/')) throw ToolError(`"${path}" is outside the workspace (/ws).`);
      return absolute;
    },
    read_file: async (path) => { if (path !== '/ws/src/app.py') throw ToolError(`"${path}" does not exist.`); return { text: APP, size: APP.length }; },
    file_uri: (path) => 'file://' + path,
    display_path: (path) => path.replace('/ws/', ''),
    workspace_files: async () => ['/ws/src/app.py', '/ws/src/util.py', '/ws/README.md'],
    recent_files: () => ['/ws/README.md'],
  };
  return provider;
}

function makeClient(clock) {
  const c = core();
  const provider = makeProvider();
  const hub = c.core_mcp_resources.ResourceHub(200, clock || new FakeClock());
  const sent = [];
  const session = c.core_mcp_protocol.McpSession({ name: 'hermes-vscode', version: '0' }, c.core_tools.ToolRegistry(),
    kwargs({ send: (message) => sent.push(plain(message)) }));
  session.add_feature(c.core_mcp_resources.McpResources(session, c.core_mcp_resources.ResourceCatalog(provider), hub));
  session.add_feature(c.core_mcp_prompts.McpPrompts(provider));
  session.add_feature(c.core_completions.McpCompletions(provider));
  let id = 0;
  const call = async (method, params) => plain(await session.handle(json({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) })));
  const updates = () => sent.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri);
  return { provider, hub, session, sent, call, updates };
}

async function initialized(clock) {
  const client = makeClient(clock);
  const response = await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'node' } });
  client.capabilities = response.result.capabilities;
  return client;
}

test('the throttle fires at once, then at most every interval, and last after a burst', () => {
  const clock = new FakeClock();
  const fired = [];
  const throttle = core().core_throttle.KeyedThrottle(200, (key) => fired.push([key, clock.time]), clock);
  for (let i = 0; i < 100; i++) { throttle.poke('a'); clock.advance(5); }
  throttle.poke('__proto__');
  throttle.poke('constructor');
  clock.advance(1000);
  assert.deepEqual(fired, [['a', 1000], ['a', 1200], ['a', 1400], ['a', 1600], ['__proto__', 1500], ['constructor', 1500]]
    .sort((x, y) => x[1] - y[1]));
});

test('parse_uri and resource keys agree with CPython', () => {
  const { parse_uri, resource_key } = core().core_mcp_resources;
  assert.deepEqual(plain(parse_uri('hermes://terminal/12')), { kind: 'terminal', id: 12 });
  assert.deepEqual(plain(parse_uri('file:///home/u/a%20b.py')), { kind: 'file', path: '/home/u/a b.py' });
  for (const bad of ['hermes://terminal/x', 'hermes://editor', 'file:///a?x=1', 'file:///%E0%A4%A', '__proto__', 42, undefined]) {
    assert.equal(parse_uri(bad), null, String(bad));
  }
  assert.equal(resource_key('file:///p/a%20b.py'), 'file:/p/a b.py');
});

test('capabilities, list and templates', async () => {
  const client = await initialized();
  assert.deepEqual(client.capabilities.resources, { subscribe: true, listChanged: true });
  assert.deepEqual(client.capabilities.completions, {});
  const { result } = await client.call('resources/list');
  assert.deepEqual(result.resources.map((r) => r.uri), ['hermes://editor/active', 'hermes://editor/selection',
    'hermes://editor/tabs', 'hermes://diagnostics', 'hermes://workspace', 'hermes://changes', 'hermes://terminal/3']);
  const templates = await client.call('resources/templates/list');
  assert.deepEqual(templates.result.resourceTemplates.map((t) => t.uriTemplate), ['file:///{+path}', 'hermes://terminal/{id}']);
});

test('the features answer their own methods only: names JS objects and transpiled dicts own are not found', async () => {
  const client = await initialized();
  for (const method of ['__proto__', 'constructor', '__contains__', 'py_keys', 'hasOwnProperty', 'm:prompts/list',
    'resources/', 'prompts/list ']) {
    assert.deepEqual((await client.call(method)).error, { code: -32601, message: 'Method not found: ' + method }, method);
  }
  assert.equal((await client.call('prompts/list')).result.prompts.length, 3);
  const c = core();  // without a session (2026-07-28) resources have no subscribe/unsubscribe
  const alone = c.core_mcp_resources.McpResources(null, c.core_mcp_resources.ResourceCatalog(makeProvider()),
    c.core_mcp_resources.ResourceHub(200, new FakeClock()));
  assert.equal(alone.handler('resources/subscribe'), null);
  assert.equal(alone.handler('resources/unsubscribe'), null);
  assert.equal(typeof alone.handler('resources/read'), 'function');
});

test('reading: selection text exactly, JSON resources, terminals, files, refusals', async () => {
  const client = await initialized();
  client.provider.state.selection = { text: 'return a + b', path: 'src/app.py', range: { start: { line: 2, column: 5 }, end: { line: 2, column: 17 } } };
  const selection = (await client.call('resources/read', { uri: 'hermes://editor/selection' })).result.contents[0];
  assert.equal(selection.text, 'return a + b');
  assert.deepEqual(selection._meta, { path: 'src/app.py', range: { start: { line: 2, column: 5 }, end: { line: 2, column: 17 } } });
  const active = (await client.call('resources/read', { uri: 'hermes://editor/active' })).result.contents[0];
  assert.deepEqual(JSON.parse(active.text), { path: 'src/app.py' });
  assert.equal((await client.call('resources/read', { uri: 'hermes://workspace' })).result.contents[0].mimeType, 'application/json');
  assert.match((await client.call('resources/read', { uri: 'hermes://terminal/3' })).result.contents[0].text, /^\$ make/);
  assert.equal((await client.call('resources/read', { uri: 'hermes://terminal/4' })).error.code, -32002);
  const file = (await client.call('resources/read', { uri: 'file:///ws/src/app.py' })).result.contents[0];
  assert.deepEqual(file, { uri: 'file:///ws/src/app.py', mimeType: 'text/x-python', text: APP });
  const outside = (await client.call('resources/read', { uri: 'file:///etc/passwd' })).error;
  assert.deepEqual([outside.code, outside.message], [-32602, '"/etc/passwd" is outside the workspace (/ws).']);
  assert.equal((await client.call('resources/subscribe', { uri: 'file:///etc/passwd' })).error.code, -32602);
  assert.equal((await client.call('resources/read', { uri: '__proto__' })).error.code, -32002);
  assert.equal((await client.call('resources/read', {})).error.code, -32602);
});

test('a burst of selection changes gives few notifications, the last after the last change', async () => {
  const clock = new FakeClock();
  const client = await initialized(clock);
  assert.deepEqual((await client.call('resources/subscribe', { uri: 'hermes://editor/selection' })).result, {});
  for (let i = 0; i < 100; i++) { client.hub.changed('hermes://editor/selection'); clock.advance(3); }
  clock.advance(1000);
  const updates = client.updates();
  assert.ok(updates.length >= 2 && updates.length <= 4, String(updates.length));
  assert.ok(updates.every((uri) => uri === 'hermes://editor/selection'));
  client.hub.changed('hermes://editor/tabs');  // nobody subscribed
  await client.call('resources/unsubscribe', { uri: 'hermes://editor/selection' });
  client.hub.changed('hermes://editor/selection');
  clock.advance(1000);
  assert.equal(client.updates().length, updates.length);
  assert.equal(client.hub.watched('hermes://editor/selection'), false);
});

test('list_changed reaches every open session until it closes', async () => {
  const client = await initialized();
  client.hub.list_changed();
  assert.equal(client.sent.filter((m) => m.method === 'notifications/resources/list_changed').length, 1);
  client.session.close();
  client.hub.list_changed();
  assert.equal(client.sent.filter((m) => m.method === 'notifications/resources/list_changed').length, 1);
});

test('prompts: the chat texts, the file embedded, arguments checked', async () => {
  const client = await initialized();
  const { COMMAND_PROMPTS, CHAT_SUBJECT, task_prompt } = core().core_chat_prompts;
  assert.equal(task_prompt('test', CHAT_SUBJECT), COMMAND_PROMPTS.test);
  const list = (await client.call('prompts/list')).result.prompts;
  assert.deepEqual(list.map((p) => p.name), ['explain', 'fix', 'write_tests']);
  const result = (await client.call('prompts/get', { name: 'fix', arguments: { path: 'src/app.py', selection: '2' } })).result;
  assert.deepEqual(result.messages[0].content, { type: 'resource', resource: { uri: 'file:///ws/src/app.py', mimeType: 'text/x-python', text: APP } });
  assert.equal(result.messages[1].content.text, task_prompt('fix', 'lines 2-2 of `src/app.py`') + '\n\n```\n    return a + b\n```');
  const bad = (await client.call('prompts/get', { name: 'fix', arguments: { path: 'src/app.py', selection: '1-x' } })).error;
  assert.deepEqual([bad.code, bad.message], [-32602, 'selection must be a line range "START-END" or a line "N", not "1-x"']);
  assert.equal((await client.call('prompts/get', { name: '__proto__' })).error.code, -32602);
  assert.match((await client.call('prompts/get', { name: 'explain', arguments: { path: '../x' } })).error.message, /outside the workspace/);
});

test('completions rank recent files first and complete the file template', async () => {
  const client = await initialized();
  const prompt = (await client.call('completion/complete', { ref: { type: 'ref/prompt', name: 'explain' }, argument: { name: 'path', value: '' } })).result.completion;
  assert.deepEqual(prompt, { values: ['README.md', 'src/app.py', 'src/util.py'], total: 3, hasMore: false });
  const typed = (await client.call('completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'UTIL' } })).result.completion;
  assert.deepEqual(typed.values, ['ws/src/util.py']);
  const ids = (await client.call('completion/complete', { ref: { type: 'ref/resource', uri: 'hermes://terminal/{id}' }, argument: { name: 'id', value: '' } })).result.completion;
  assert.deepEqual(ids.values, ['3']);
});

test('the hub as the event source of 2026-07-28 subscriptions/listen', () => {
  const c = core();
  const clock = new FakeClock();
  const hub = c.core_mcp_resources.ResourceHub(200, clock);
  const source = c.core_mcp_resources.ListenEvents(c.core_mcp_resources.ResourceCatalog(makeProvider()), hub);
  const heard = [];
  const stop = source.on_resource_updated('hermes://editor/selection', (...args) => heard.push(['selection', args.length]));
  const stopList = source.on_list_changed('resources', (...args) => heard.push(['list', args.length]));
  assert.equal(source.on_list_changed('prompts', () => {}), null);
  assert.equal(source.on_resource_updated('file:///etc/passwd', () => {}), null);
  assert.equal(source.on_resource_updated('__proto__', () => {}), null);
  hub.changed('hermes://editor/selection');
  hub.list_changed();
  assert.deepEqual(heard, [['selection', 0], ['list', 0]]);
  stop();
  stopList();
  hub.changed('hermes://editor/selection');
  hub.list_changed();
  clock.advance(1000);
  assert.equal(heard.length, 2);
});
