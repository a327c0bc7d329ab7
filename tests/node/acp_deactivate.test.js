// dist/extension.js (the real bundle): an ACP agent started through activate()'s AcpAgents is gone, with what it
// started, once deactivate() has returned — also an agent that ignores SIGTERM.
'use strict';
const nodeTest = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));  // discovery files stay out of ~
const { vscode, extension, activateAndServe, partLoaded } = require('./harness');

const test = (name, fn) => nodeTest(name, { timeout: 120000 }, fn);  // turns a hang into a failure only
const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
const gone = (pid) => { try { process.kill(pid, 0); return false; } catch (error) { return error.code === 'ESRCH'; } };

test('deactivate leaves no agent process and nothing an agent started', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  assert.ok(!partLoaded('net.acp.agent'), 'the ACP agent\'s code (dist/part-net.acp.agent.js) loads with the first agent, not before');
  const agent = api.acp.create({ name: 'Scripted', command: PYTHON, args: [AGENT] }, api.acp.client_side);
  assert.ok(partLoaded('net.acp.agent'));
  const stubborn = api.acp.create({ name: 'Stubborn', command: PYTHON, args: [AGENT, 'ignore_term'] }, api.acp.client_side);
  await agent.start();
  await stubborn.start();
  const session = await agent.new_session(os.tmpdir(), []);
  const updates = [];
  await agent.prompt(session.sessionId, [{ type: 'text', text: 'child' }], (u) => updates.push(u));
  const child = Number(updates.find((u) => u.sessionUpdate === 'agent_message_chunk').content.text.split(' ')[1]);
  const pids = [agent.connection.process.pid, stubborn.connection.process.pid];
  assert.ok(!gone(child) && !gone(pids[0]) && !gone(pids[1]));
  await ext.deactivate();
  context.disposeAll();
  assert.ok(gone(pids[0]) && gone(pids[1]), 'the agents have exited when deactivate returns');
  // the child was in the agent's process group: SIGTERM reached it as the agent exited (reaped by init soon after)
  while (!gone(child)) {
    const state = fs.existsSync(`/proc/${child}/stat`) ? fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1][0] : 'X';
    if (state === 'Z') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

for (const signal of ['SIGTERM', 'SIGKILL']) {
  test(`an extension host killed by ${signal} leaves no agent and nothing it started, the agent ignoring SIGTERM`, async () => {
    const { spawn } = require('child_process');
    const host = spawn(process.execPath, [path.join(__dirname, 'host_killed.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise((resolve, reject) => {
      let text = '';
      host.stdout.on('data', (chunk) => { text += chunk; if (text.includes('\n')) resolve(text.split('\n')[0]); });
      host.on('exit', (code) => reject(new Error('the host exited first: ' + code)));
    });
    const { agent, child } = JSON.parse(line);
    assert.ok(!gone(agent) && !gone(child));
    host.kill(signal);  // Node's exit hook never runs: no deactivate, no process.on('exit')
    const ended = (pid) => gone(pid) || (fs.existsSync(`/proc/${pid}/stat`) &&
      fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] === 'Z');
    while (!ended(agent) || !ended(child)) await new Promise((resolve) => setTimeout(resolve, 50));  // (the test's timeout)
  });
}
