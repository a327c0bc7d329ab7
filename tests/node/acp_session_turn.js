// Drives a chat session of the bundle (fake vscode.chat, tests/node/fake_chat.js) whose agent is a real ACP agent,
// and prints what the user would have seen as JSON: used by tests/integration/test_acp_agents.py.
//   node tests/node/acp_session_turn.js '<json: {settings, folders, warningAnswer, prompts: [text…]}>'
// → {turns: [{parts, result}], asked: [[dialog text, buttons]], log: [output channel lines]}
'use strict';
const { vscode, recorder, openSession } = require('./fake_chat');

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const session = await openSession(plan.settings, { warningAnswer: plan.warningAnswer }, plan.folders || []);
  const out = { turns: [] };
  try {
    for (const prompt of plan.prompts) {
      const stream = recorder();
      const result = await session.ask(prompt, stream);
      out.turns.push({ parts: JSON.parse(JSON.stringify(stream.parts)), result: JSON.parse(JSON.stringify(result || {})) });
    }
  } finally {
    out.asked = vscode.__state.messages.filter((m) => m[0] === 'warning').map((m) => [m[1], m[2]]);
    await session.stop();
    out.log = vscode.__state.channels.flatMap((channel) => channel.lines);
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
