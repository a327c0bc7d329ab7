// The ACP client on the bundle (build/testing.js: net/acp/agent.py and the seam's line process as transpiled)
// against the scripted agent tests/acp_agent/agent.py: the same cases as tests/unit/acp/test_acp_agent.py.
'use strict';
const nodeTest = require('node:test');
// The bound only turns a hang into a failure (a condition waited for that never comes); no verdict depends on it.
const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);
const assert = require('node:assert/strict');
const path = require('path');
const { testing, until } = require('./harness');

const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
const TOKEN = 'tok-5ecret-abcdef0123456789';

const acp = () => testing().net_acp_agent;
const message = (error) => testing().js_errors.error_message(error);

function makeLog() {
  const lines = [];
  const add = (level) => (text) => lines.push(`${level} ${text}`);
  return { lines, debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error'), text: () => lines.join('\n') };
}

function clientSide() {
  const calls = [];
  return {
    calls,
    permission: { outcome: { outcome: 'selected', optionId: 'allow_once' } },
    async request_permission(sessionId, params) { calls.push(['request_permission', sessionId, params.toolCall.toolCallId]); return this.permission; },
    async read_text_file(params) {
      calls.push(['read_text_file', params.path]);
      if (params.path === 'missing.txt') throw acp().RequestError(-32002, 'Resource not found: missing.txt');
      return { content: 'line 1\nline 2\n' };
    },
    async write_text_file(params) { calls.push(['write_text_file', params.path, params.content]); return null; },
    async terminal_create(params) { calls.push(['terminal_create', params.command]); return { terminalId: 'term-1' }; },
    async terminal_output() { return { output: 'hi\n', truncated: false, exitStatus: { exitCode: 0, signal: null } }; },
    async terminal_wait_for_exit() { return { exitCode: 0, signal: null }; },
    async terminal_kill() { return {}; },
    async terminal_release(params) { calls.push(['terminal_release', params.terminalId]); return {}; },
  };
}

function spec(mode = 'normal', extra = {}) {
  return { name: 'Scripted Agent', command: PYTHON, args: [AGENT, mode], env: {}, cwd: null, ...extra };
}

async function started(mode = 'normal', extra = {}, side = clientSide(), log = makeLog()) {
  const agent = acp().AcpAgent(spec(mode, extra), side, log);
  await agent.start();
  return agent;
}

async function turn(agent, text, updates = []) {
  const session = await agent.new_session('/tmp', []);
  const result = await agent.prompt(session.sessionId, [{ type: 'text', text }], (update) => updates.push(update));
  return { session, result, updates };
}

const texts = (updates, kind = 'agent_message_chunk') =>
  updates.filter((u) => u.sessionUpdate === kind).map((u) => u.content.text);

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return { kind: error.kind, text: message(error), code: error.code, data: error.data };
  }
  assert.fail('expected an AcpError');
}

test('start: initialize with protocol version 1 and our capabilities; dispose ends the process', async () => {
  const agent = acp().AcpAgent(spec(), clientSide(), makeLog());
  const result = await agent.start();
  assert.deepEqual(JSON.parse(JSON.stringify(result.echo)), {
    protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true,
      auth: { terminal: true }, elicitation: { form: {}, url: {} } } });
  assert.equal(agent.capabilities.loadSession, true);
  assert.equal(agent.agent_info.name, 'scripted-acp-agent');
  assert.equal(agent.alive, true);
  const pid = agent.connection.process.pid;
  agent.dispose();
  await agent.closed();
  assert.equal(agent.alive, false);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test('prompt streams the session\'s updates in order; what comes between turns goes to on_session_update', async () => {
  const agent = await started();
  const between = [];
  agent.on_session_update((sessionId, update) => between.push([sessionId, update.sessionUpdate]));
  const session = await agent.new_session('/tmp', []);
  await until(() => between.length > 0);  // sent after session/new's answer: no turn runs to collect it
  const updates = [];
  const result = await agent.prompt(session.sessionId, [{ type: 'text', text: 'hello there' }], (u) => updates.push(u));
  agent.dispose();
  assert.equal(session.sessionId, 'sess-1');
  assert.equal(result.stopReason, 'end_turn');
  assert.deepEqual(updates.map((u) => u.sessionUpdate), [
    'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update',
    'agent_message_chunk']);
  assert.deepEqual(texts(updates), ['Hello', ', you said: hello there']);
  assert.deepEqual(between, [['sess-1', 'available_commands_update']]);
});

test('cancel: session/cancel, the turn ends cancelled', async () => {
  const agent = await started();
  const session = await agent.new_session('/tmp', []);
  const updates = [];
  const running = agent.prompt(session.sessionId, [{ type: 'text', text: 'wait_cancel' }], (u) => updates.push(u));
  await until(() => updates.length > 0);
  agent.cancel(session.sessionId);
  assert.equal((await running).stopReason, 'cancelled');
  assert.deepEqual(texts(updates), ['working', 'stopping']);
  agent.dispose();
});

test('dispose mid-turn rejects the turn with AcpError exited and calls no on_exit', async () => {
  const agent = await started();
  const session = await agent.new_session('/tmp', []);
  const updates = [];
  const exits = [];
  agent.on_exit((text) => exits.push(text));
  const running = agent.prompt(session.sessionId, [{ type: 'text', text: 'ignore_cancel' }], (u) => updates.push(u));
  await until(() => updates.length > 0);
  const pid = agent.connection.process.pid;
  agent.dispose();
  assert.deepEqual(await rejection(running), { kind: 'exited', text: 'Scripted Agent was stopped.', code: null, data: null });
  await agent.closed();
  assert.deepEqual(exits, []);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

// -- the agent's requests, answered by a client side --------------------------------------------------------------

test('fs, terminal, permission and unknown requests reach the client side; its answers and errors go back', async () => {
  const side = clientSide();
  const agent = await started('normal', {}, side);
  const said = [];
  for (const text of ['read notes.md 2 1', 'read missing.txt', 'write notes.md new text', 'terminal echo hi', 'permission', 'unknown_method']) {
    said.push(texts((await turn(agent, text)).updates)[0]);
  }
  agent.dispose();
  assert.deepEqual(said, [
    'read: {"content": "line 1\\nline 2\\n"}',
    'read: {"error": {"code": -32002, "message": "Resource not found: missing.txt"}}',
    'write: {}',
    'terminal: {"exit": {"exitCode": 0, "signal": null}, "output": {"exitStatus": {"exitCode": 0, "signal": null}, "output": "hi\\n", "truncated": false}}',
    'permission: {"optionId": "allow_once", "outcome": "selected"}',
    'unknown_method: {"error": {"code": -32601, "message": "Method not found: fs/delete_everything"}}',
  ]);
  assert.deepEqual(side.calls.slice(0, 3), [['read_text_file', 'notes.md'], ['read_text_file', 'missing.txt'], ['write_text_file', 'notes.md', 'new text']]);
});

test('a client side that throws a plain JS error answers -32603 with its message', async () => {
  const side = clientSide();
  side.read_text_file = async () => { throw new TypeError('disk on fire'); };
  const agent = await started('normal', {}, side);
  const { result, updates } = await turn(agent, 'read notes.md');
  agent.dispose();
  assert.equal(result.stopReason, 'end_turn');
  assert.deepEqual(texts(updates), ['read: {"error": {"code": -32603, "message": "disk on fire"}}']);
});

test('cancel answers a waiting permission request "cancelled"', async () => {
  const side = clientSide();
  let release;
  side.request_permission = async (sessionId, params) => {
    side.calls.push(['request_permission', sessionId]);
    await new Promise((resolve) => { release = resolve; });  // the user never answers
    return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
  };
  const agent = await started('normal', {}, side);
  const session = await agent.new_session('/tmp', []);
  const updates = [];
  const running = agent.prompt(session.sessionId, [{ type: 'text', text: 'permission' }], (u) => updates.push(u));
  await until(() => side.calls.length > 0);
  agent.cancel(session.sessionId);
  assert.equal((await running).stopReason, 'end_turn');
  release();
  agent.dispose();
  assert.deepEqual(texts(updates), ['permission: {"outcome": "cancelled"}']);
});

test('a turn not ended after cancel rejects with timeout; the agent goes on', async () => {
  const agent = await started('normal', { cancel_grace_ms: 200 });
  const session = await agent.new_session('/tmp', []);
  const updates = [];
  const running = agent.prompt(session.sessionId, [{ type: 'text', text: 'ignore_cancel' }], (u) => updates.push(u));
  await until(() => updates.length > 0);
  agent.cancel(session.sessionId);
  assert.deepEqual(await rejection(running), { kind: 'timeout', text: 'Scripted Agent did not end the turn within 0.2 s of being asked to stop.', code: null, data: null });
  assert.equal(agent.alive, true);
  agent.dispose();
});

test('load replays into on_update; list follows every page', async () => {
  const agent = await started();
  const replayed = [];
  await agent.load_session('old-1', '/work', [], (u) => replayed.push(u.sessionUpdate));
  const sessions = await agent.list_sessions('/work');
  agent.dispose();
  assert.deepEqual(replayed, ['user_message_chunk', 'agent_message_chunk']);
  assert.deepEqual(sessions.map((s) => s.sessionId), ['old-1-0', 'old-1-1', 'old-2-0', 'old-2-1', 'old-3-0', 'old-3-1']);
  assert.deepEqual(JSON.parse(JSON.stringify(sessions[0])), { sessionId: 'old-1-0', title: 'Session 1.0', updatedAt: '2026-12-01T10:00:00Z', cwd: '/work' });
});

// -- the agent fails: each ends in one clear AcpError -------------------------------------------------------------

async function startFails(specified) {
  const agent = acp().AcpAgent(specified, clientSide(), makeLog());
  const exits = [];
  agent.on_exit((text) => exits.push(text));
  const error = await rejection(agent.start());
  return { agent, error, exits };
}

test('a command that does not exist is a spawn error', async () => {
  const { error } = await startFails({ name: 'Hermes Agent', command: 'no-such-hermes-xyz', args: ['acp'] });
  assert.deepEqual([error.kind, error.text], ['spawn', 'Could not start Hermes Agent: the command "no-such-hermes-xyz" was not found.']);
});

test('a bad spec is a spawn error naming the problem', async () => {
  for (const [bad, problem] of [[{ name: 'A', command: '' }, 'no command is set'],
    [{ name: 'A', command: 'x', args: 'acp' }, '"args" must be a list of strings'],
    [{ name: 'A', command: 'x', env: { K: 1 } }, '"env" must map names to strings']]) {
    const { error } = await startFails(bad);
    assert.deepEqual([error.kind, error.text], ['spawn', `Could not start A: ${problem}.`]);
  }
});

test('a crash at start: exit code and last output, on_exit told', async () => {
  const { error, exits } = await startFails(spec('crash_at_start'));
  const text = 'Scripted Agent exited with code 3 while starting.\nIts last output:\nscripted agent: cannot start, no configuration';
  assert.deepEqual([error.kind, error.text, exits], ['exited', text, [text]]);
});

test('a hang at initialize times out and the process is ended', async () => {
  const { agent, error } = await startFails(spec('hang_init', { initialize_timeout_ms: 300 }));
  const pid = agent.connection.process.pid;
  await agent.closed();
  assert.deepEqual([error.kind, error.text], ['timeout', 'Scripted Agent did not answer "initialize" within 0.3 s.']);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test('a protocol version we do not speak', async () => {
  const { error } = await startFails(spec('wrong_version'));
  assert.deepEqual([error.kind, error.text], ['protocol', 'Scripted Agent speaks ACP protocol version 2; Hermes for VS Code speaks version 1.']);
});

test('an exit mid-turn rejects the turn and every later call, and tells on_exit', async () => {
  const agent = await started();
  const exits = [];
  agent.on_exit((text) => exits.push(text));
  const error = await rejection(turn(agent, 'exit_mid_turn'));
  const text = 'Scripted Agent exited with code 7 during a turn.\nIts last output:\nfatal: boom';
  assert.deepEqual([error.kind, error.text, exits, agent.alive], ['exited', text, [text], false]);
  assert.deepEqual((await rejection(agent.new_session('/tmp', []))).text, text);
});

test('a line that is no ACP message ends the connection and the process', async () => {
  for (const [command, reason, shown] of [['malformed', 'not JSON', 'this is not json'],
    ['not_rpc', 'expected a JSON object, got array', '[1, 2, 3]']]) {
    const agent = await started();
    const exits = [];
    agent.on_exit((text) => exits.push(text));
    const error = await rejection(turn(agent, command));
    const pid = agent.connection.process.pid;
    await agent.closed();
    const text = `Scripted Agent wrote something that is not an ACP message on its stdout (${reason}): ${shown}`;
    assert.deepEqual([error.kind, error.text, exits], ['protocol', text, [text]]);
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  }
});

test('a message over the limit ends the connection; one at the limit passes; the default is 32 MB', async () => {
  const agent = await started('normal', { max_message_bytes: 100000 });
  const { updates } = await turn(agent, 'huge 100000');
  assert.ok(texts(updates)[0].length > 99000);
  const error = await rejection(turn(agent, 'huge 100001'));
  assert.deepEqual([error.kind, error.text], ['protocol', 'Scripted Agent sent a message larger than 100000 bytes, the limit; the connection was closed.']);
  const big = await started();
  const over = await rejection(turn(big, 'huge 40000000'));
  assert.deepEqual([over.kind, over.text], ['protocol', 'Scripted Agent sent a message larger than 32 MB, the limit; the connection was closed.']);
});

test('a stderr flood is drained, its tail kept bounded, its log capped', async () => {
  const log = makeLog();
  const agent = await started('normal', {}, clientSide(), log);
  const { result, updates } = await turn(agent, 'flood 5000000');
  await until(() => agent.connection.stderr_tail.endsWith('the last line of the flood\n'));
  const tail = agent.connection.stderr_tail;
  agent.dispose();
  assert.equal(result.stopReason, 'end_turn');
  assert.deepEqual(texts(updates), ['flooded']);
  assert.ok(tail.length > 4000 - 91 && tail.length <= 4000 && tail.startsWith('noise '), tail.length);  // whole lines
  const prefix = 'debug Scripted Agent stderr: ';
  const logged = log.lines.filter((l) => l.startsWith(prefix)).reduce((sum, l) => sum + l.length - prefix.length, 0);
  assert.ok(logged >= 1000000 && logged < 1100000, String(logged));
  assert.ok(log.lines.includes('info Scripted Agent: its stderr is no longer logged (over 1 MB); the last 4000 characters are kept for error messages'));
});

test('dispose ends what the agent started too; an agent that ignores SIGTERM gets SIGKILL', async () => {
  const agent = await started();
  const { updates } = await turn(agent, 'child');
  const child = Number(texts(updates)[0].split(' ')[1]);
  process.kill(child, 0);
  agent.dispose();
  await agent.closed();
  await until(() => { try { process.kill(child, 0); return false; } catch (e) { return true; } });
  const stubborn = await started('ignore_term');
  const pid = stubborn.connection.process.pid;
  stubborn.dispose();
  await stubborn.closed();
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test('the token reaches the agent only in session/new: never a log line or an error text', async () => {
  const log = makeLog();
  const agent = await started('normal', { env: { SCRIPTED_KEY: 'sk-env-secret-123456' } }, clientSide(), log);
  const servers = [{ type: 'http', name: 'vscode', url: 'http://127.0.0.1:19999/mcp', headers: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }] }];
  const session = await agent.new_session('/tmp', servers);
  const error = await rejection(agent.prompt(session.sessionId, [{ type: 'text', text: 'echo_secret' }], () => {}));
  await until(() => log.text().includes('connecting with'));
  const tail = agent.connection.stderr_tail;
  agent.dispose();
  assert.ok(tail.includes(TOKEN));  // the agent did get it
  assert.deepEqual([error.kind, error.code, error.text, error.data], ['agent', -32602,
    'Scripted Agent: Invalid params: bad header [redacted] (-32602): {"headers":["[redacted]"]}', '{"headers":["[redacted]"]}']);
  assert.ok(log.text().includes('stderr: connecting with [redacted]'));
  assert.ok(!log.text().includes(TOKEN) && !log.text().includes('sk-env-secret-123456'));
});

test('an agent error keeps its code for the front end', async () => {
  const agent = await started('no_provider');
  const error = await rejection(agent.new_session('/tmp', []));
  agent.dispose();
  assert.deepEqual([error.kind, error.code, error.text], ['agent', -32603, 'Scripted Agent: No LLM provider configured (-32603)']);
});

test('a question reaches the client side for its session (or the turn of the request it names); cancel answers a waiting one "cancel"', async () => {
  const side = clientSide();
  const answers = [{ action: 'accept', content: { strategy: 'balanced', count: 2 } }, { action: 'decline' }];
  side.create_elicitation = async (sessionId, question) => {
    side.calls.push(['create_elicitation', sessionId, question.mode]);
    if (answers.length) return answers.shift();
    await new Promise(() => {}); // the user never answers
  };
  const agent = await started('normal', {}, side);
  const session = await agent.new_session('/tmp', []);
  const said = [];
  for (const text of ['elicit_form', 'elicit_request']) {
    await agent.prompt(session.sessionId, [{ type: 'text', text }], (u) => said.push(u));
  }
  const running = agent.prompt(session.sessionId, [{ type: 'text', text: 'elicit_form' }], (u) => said.push(u));
  await until(() => side.calls.length === 3);
  agent.cancel(session.sessionId);
  await running;
  agent.dispose();
  assert.deepEqual(side.calls, [['create_elicitation', session.sessionId, 'form'], ['create_elicitation', session.sessionId, 'form'],
    ['create_elicitation', session.sessionId, 'form']]);
  assert.deepEqual(texts(said), ['elicit: {"action": "accept", "content": {"count": 2, "strategy": "balanced"}}',
    'elicit: {"action": "decline"}', 'elicit: {"action": "cancel"}']);
});

test('a URL carrying the MCP token, and a mode nobody advertised, are invalid params and never asked', async () => {
  const side = clientSide();
  side.create_elicitation = async () => { side.calls.push(['create_elicitation']); return { action: 'accept' }; };
  const agent = await started('normal', {}, side);
  const session = await agent.new_session('/tmp', [{ type: 'http', name: 'vscode', url: 'http://127.0.0.1:1/mcp',
    headers: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }] }]);
  const said = [];
  for (const text of ['elicit_secret', 'elicit_mode']) {
    await agent.prompt(session.sessionId, [{ type: 'text', text }], (u) => said.push(u));
  }
  agent.dispose();
  assert.deepEqual(side.calls, []);
  const [secret, mode] = texts(said);
  assert.match(secret, /^elicit: \{"error": \{"code": -32602, "message": "Invalid params: the URL carries a credential/);
  assert.ok(!secret.includes(TOKEN));
  assert.match(mode, /-32602, "message": "Invalid params: elicitation mode \\"voice\\" is not supported/);
});
