// Drives a real ACP agent through the bundle's AcpAgent (build/testing.js) and prints what happened as JSON:
// used by tests/integration/test_acp_hermes.py with the real Hermes Agent 0.19.0 and the scripted model.
//   node tests/node/acp_hermes_turn.js '<json: {command, args, env, cwd, servers, prompt, slowPrompt}>'
'use strict';
const { testing } = require('./harness');

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const lines = [];
  const log = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (text) => lines.push(`${level} ${text}`)]));
  const asked = [];
  const side = { async request_permission(sessionId, params) { asked.push(params.toolCall.toolCallId); return { outcome: { outcome: 'cancelled' } }; } };
  const agent = testing().net_acp_agent.AcpAgent({ name: 'Hermes Agent', command: plan.command, args: plan.args, env: plan.env, cwd: plan.cwd }, side, log);
  const out = { errors: [] };
  try {
    const started = await agent.start();
    out.initialize = JSON.parse(JSON.stringify(started));
    const session = await agent.new_session(plan.cwd, plan.servers);
    out.sessionId = session.sessionId;
    out.modes = JSON.parse(JSON.stringify(session.modes || null));
    const updates = [];
    out.first = await agent.prompt(session.sessionId, [{ type: 'text', text: plan.prompt }], (u) => updates.push(JSON.parse(JSON.stringify(u))));
    out.firstUpdates = updates.map((u) => u.sessionUpdate);
    out.firstText = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join('');
    const slow = [];
    const running = agent.prompt(session.sessionId, [{ type: 'text', text: plan.slowPrompt }], (u) => slow.push(u.sessionUpdate));
    while (!slow.includes('agent_message_chunk')) await new Promise((resolve) => setTimeout(resolve, 20));
    agent.cancel(session.sessionId);
    out.cancelled = await running;
    out.listed = (await agent.list_sessions(plan.cwd)).map((s) => s.sessionId);
  } catch (error) {
    out.errors.push({ kind: error.kind, code: error.code, text: testing().js_errors.error_message(error) });
  }
  out.pid = agent.connection ? agent.connection.process.pid : null;
  agent.dispose();
  await agent.closed();
  out.log = lines;
  out.asked = asked;
  process.stdout.write(JSON.stringify(out) + '\n');
}

main();
