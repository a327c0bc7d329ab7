// host/acp/client_side.py on the bundle (build/testing.js) with tests/node/fake_vscode.js: the scripted ACP agent
// (tests/acp_agent/agent.py) reads, writes and runs a command through this window, behind the tools' gate and
// confinement, as tests/unit/acp/test_acp_client_side.py does under CPython.
'use strict';
const nodeTest = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing, windowServices } = require('./harness');

const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);  // turns a hang into a failure only
const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
const mods = () => testing();
let context;

function setup() {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-acp-side-')));
  fs.writeFileSync(path.join(folder, 'notes.md'), 'one\ntwo\nthree\n');
  vscode.__openFolders([folder]);
  context = vscode.__makeContext();
  const services = windowServices(context);
  const registry = mods().tools_catalog.build_registry(mods().host_approval.Approver(), services);
  const agents = mods().host_acp_agents.register_acp_agents(context, null, registry, services.terminals);
  return { folder, agents };
}

nodeTest.afterEach(() => context && context.disposeAll());

async function say(agent, folder, text) {
  const session = await agent.new_session(folder, []);
  const updates = [];
  await agent.prompt(session.sessionId, [{ type: 'text', text }], (u) => updates.push(u));
  return updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join('');
}

test('the agent reads (line/limit), writes after the gate says yes, runs a command in a VS Code terminal; outside paths are refused', async () => {
  const { folder, agents } = setup();
  vscode.__state.warningAnswer = 'Allow';
  vscode.__state.shellCommands['echo hi'] = [['\x1b]633;C\x07hi\r\n'], 0];
  const agent = agents.create({ name: 'Scripted', command: PYTHON, args: [AGENT] }, agents.client_side);
  await agent.start();
  const read = await say(agent, folder, `read ${path.join(folder, 'notes.md')} 2 1`);
  const write = await say(agent, folder, `write ${path.join(folder, 'made.md')} made by the agent`);
  const ran = await say(agent, folder, 'terminal echo hi');
  const outside = await say(agent, folder, 'read /etc/passwd');
  await agents.stop_all();
  assert.equal(read, 'read: {"content": "two\\n"}');
  assert.equal(write, 'write: {}');
  assert.equal(fs.readFileSync(path.join(folder, 'made.md'), 'utf8'), 'made by the agent');
  assert.match(ran, /^terminal: \{"exit": \{"exitCode": 0, "signal": null\}, "output": \{"exitStatus": \{"exitCode": 0, "signal": null\}, "output": "hi\\n", "truncated": false\}\}$/);
  assert.match(outside, /^read: \{"error": \{"code": -32602, "message": "\\"\/etc\/passwd\\" is outside the workspace/);
  const asked = vscode.__state.messages.filter((m) => m[0] === 'warning').map((m) => m[1]);
  assert.deepEqual(asked, ['Allow Hermes to run "Write file"?', 'Allow Hermes to run "Run command in terminal"?']);
});

test('a write the user declines leaves the file as it was and the agent hears why', async () => {
  const { folder, agents } = setup();
  vscode.__state.warningAnswer = undefined;  // the dialog closed
  const agent = agents.create({ name: 'Scripted', command: PYTHON, args: [AGENT] }, agents.client_side);
  await agent.start();
  const write = await say(agent, folder, `write ${path.join(folder, 'notes.md')} replaced`);
  await agents.stop_all();
  assert.match(write, /^write: \{"error": \{"code": -32603, "message": "The user declined to run file_write\./);
  assert.equal(fs.readFileSync(path.join(folder, 'notes.md'), 'utf8'), 'one\ntwo\nthree\n');
});

test("Hermes' observe mode on the bundle: the scripted Hermes main gates plan and observe itself; the window captures an observe edit without a question and refuses a command", async () => {
  const { folder, agents } = setup();
  vscode.__state.warningAnswer = undefined;  // any question would be answered "no"
  const agent = agents.create({ name: 'Scripted', command: PYTHON, args: [AGENT, 'plan_modes'] }, agents.client_side);
  await agent.start();
  const session = await agent.new_session(folder, []);
  const id = session.sessionId;
  const said = [];
  for (const [mode, text] of [['plan', 'propose notes.md planned'], ['observe', 'propose notes.md observed'],
    ['observe', 'run make'], ['observe', 'terminal make']]) {
    await agent.set_mode(id, mode);
    agents.client_side.set_observing(id, () => mode === 'observe');
    const updates = [];
    await agent.prompt(id, [{ type: 'text', text }], (u) => updates.push(u));
    said.push(updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join(''));
    agents.client_side.set_observing(id, null);
  }
  await agents.stop_all();
  assert.match(said[0], /^Blocked in Plan mode: 'write_file' would change the workspace/);
  assert.equal(said[1], 'propose: {}');
  assert.equal(fs.readFileSync(path.join(folder, 'notes.md'), 'utf8'), 'observed\n');
  assert.match(said[2], /^Blocked in Observe mode: 'terminal' would run a command\./);
  assert.equal(said[3], 'terminal: {"error": {"code": -32603, "message": "Observe mode: this window runs no command for the agent (it may read the workspace and propose edits, which the user reviews)."}}');
  assert.deepEqual(vscode.__state.messages.filter((m) => m[0] === 'warning'), []);
});
