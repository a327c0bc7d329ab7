// inv bench, section "acp": a chat session of the bundle (fake vscode.chat, tests/node/fake_chat.js) with a real ACP
// agent, against a minimal ACP client (tests/bench/minimal_acp_client.js) driving its own process of the same agent
// program with the same prompts, turns alternating so the machine's load falls on both alike.
//   node tests/bench/acp_turn.js '<json: {settings, agent: {command, args}, prompts: [text…], turns, blockTurns}>'  → one JSON line
// run in the workspace folder (the agent's cwd; the prompts' files are there). Each turn is timed from the request
// handler's call (the user's Enter) / the client's session/prompt to the first agent_message_chunk (ours: the first
// streamed Markdown) and to the end of the turn. Turn 0 of each side starts its agent process (cold: spawn,
// initialize, session/new, then the prompt); the others reuse the warm process and the same session. The minimal
// client hands the agent the same MCP server (this window's) in session/new, so both agents do the same work.
'use strict';
const { recorder, openSession } = require('../node/fake_chat');
const { minimalClient } = require('./minimal_acp_client');

const now = () => process.hrtime.bigint();

// The longest the event loop (the extension host's thread) was held: the largest gap between two turns of the loop,
// kept turning by setImmediate (so the loop never sleeps in its poll phase: it spins, which is why the timed
// turns run without it — only the cold turn and `plan.blockTurns` extra warm turns after the timed ones).
function blockWatch() {
  let last = now(), longest = 0n, running = true;
  const tick = () => { const at = now(); if (at - last > longest) longest = at - last; last = at; if (running) setImmediate(tick); };
  setImmediate(tick);
  return () => { running = false; return Number(longest) / 1e6; };
}
const ms = (from, to) => Number(to - from) / 1e6;

async function oursTurn(session, prompt, watchBlocks) {
  const blocks = watchBlocks ? blockWatch() : null;
  const started = now();
  let first = null;
  const stream = recorder();
  const markdown = stream.markdown;
  stream.markdown = (text) => { if (first === null) first = now(); markdown(text); };
  const result = await session.ask(prompt, stream);
  const ended = now();
  const blocked = blocks ? blocks() : null;
  if (result.metadata.hermes.stopped !== 'done') throw new Error('turn failed: ' + JSON.stringify(stream.parts));
  if (first === null) throw new Error('no chunk: ' + JSON.stringify(stream.parts));
  return { first_ms: ms(started, first), end_ms: ms(started, ended), blocked_ms: blocked };
}

async function minimalTurn(client, prompt) {
  const started = now();
  let first = null;
  const result = await client.prompt(prompt, () => { if (first === null) first = now(); });
  const ended = now();
  if (result.stopReason !== 'end_turn' || first === null) throw new Error('minimal turn failed: ' + JSON.stringify(result));
  return { first_ms: ms(started, first), end_ms: ms(started, ended) };
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const cwd = process.cwd();
  const session = await openSession(plan.settings, {}, [cwd]);
  await session.api.mcp.ready;
  const mcp = session.api.mcp;
  const servers = [{ type: 'http', name: 'vscode', url: mcp.url, headers: [{ name: 'Authorization', value: 'Bearer ' + mcp.token }] }];
  const client = minimalClient({ command: plan.agent.command, args: plan.agent.args || [], cwd, mcpServers: servers });
  const out = { ours: {}, minimal: {} };
  for (const prompt of plan.prompts) { out.ours[prompt] = []; out.minimal[prompt] = []; }
  try {
    for (let i = 0; i < plan.turns; i++) {
      for (const prompt of plan.prompts) {  // alternating, the minimal client first every other turn
        const sides = i % 2 ? [['minimal', () => minimalTurn(client, prompt)], ['ours', () => oursTurn(session, prompt, i === 0)]]
          : [['ours', () => oursTurn(session, prompt, i === 0)], ['minimal', () => minimalTurn(client, prompt)]];
        for (const [name, turn] of sides) out[name][prompt].push(await turn());
      }
    }
    out.blocks = {};
    for (const prompt of plan.prompts) {
      out.blocks[prompt] = [];
      for (let i = 0; i < (plan.blockTurns || 0); i++) out.blocks[prompt].push((await oursTurn(session, prompt, true)).blocked_ms);
    }
  } finally {
    client.stop();
    await session.stop();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
