// The ACP client on the bundle (build/testing.js: net/acp_agent.py and the seam's line process as transpiled)
// against the scripted agent tests/acp_agent/agent.py: the same cases as tests/unit/test_acp_agent.py.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { testing } = require('./harness');

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

async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

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
    protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
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
