// An extension host that dies by a signal (tests/node/acp_deactivate.test.js): activates the bundle, starts the
// scripted agent ignoring SIGTERM, has it start a child, prints {"agent": pid, "child": pid} and waits to be killed.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, activateAndServe } = require('./harness');

const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';

(async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  const api = await activateAndServe(extension(), vscode.__makeContext());
  const agent = api.acp.create({ name: 'Stubborn', command: PYTHON, args: [AGENT, 'ignore_term'] }, api.acp.client_side);
  await agent.start();
  const session = await agent.new_session(os.tmpdir(), []);
  const updates = [];
  await agent.prompt(session.sessionId, [{ type: 'text', text: 'child' }], (u) => updates.push(u));
  const child = Number(updates.find((u) => u.sessionUpdate === 'agent_message_chunk').content.text.split(' ')[1]);
  process.stdout.write(JSON.stringify({ agent: agent.connection.process.pid, child }) + '\n');
  setInterval(() => {}, 1000);
})();
