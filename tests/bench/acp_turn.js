// inv bench, section "acp": a Hermes Agent session on the bundle (fake vscode.chat, tests/node/fake_chat.js) with the
// real `hermes acp` and the scripted model the caller started (HERMES_HOME's config.yaml points at it):
//   node tests/bench/acp_turn.js HERMES_PROGRAM TURNS  → one JSON line
// Each turn is timed from the request handler's call (the user's Enter) to the first streamed Markdown chunk and to
// the end of the turn (a tool call and its answer). The first turn starts the agent (cold); the others reuse the warm
// process and the same Hermes session.
'use strict';
const { recorder, openSession } = require('../node/fake_chat');

async function main() {
  const [program, turns] = [process.argv[2], Number(process.argv[3] || 5)];
  // the workspace is the folder it runs in (notes.txt): the turn reads it, and the turn's start lists its files
  const session = await openSession({ 'hermes.acp.hermesPath': program }, {}, [process.cwd()]);
  const measured = [];
  try {
    for (let i = 0; i < turns; i++) {
      const started = process.hrtime.bigint();
      let first = null;
      const stream = recorder();
      const markdown = stream.markdown;
      stream.markdown = (text) => { if (first === null) first = process.hrtime.bigint(); markdown(text); };
      const result = await session.ask('Read notes.txt and tell me what it says.', stream);
      const ended = process.hrtime.bigint();
      if (result.metadata.hermes.stopped !== 'done') throw new Error('turn ' + i + ' failed: ' + JSON.stringify(stream.parts));
      measured.push({ first_ms: Number(first - started) / 1e6, end_ms: Number(ended - started) / 1e6 });
    }
  } finally {
    await session.stop();
  }
  process.stdout.write(JSON.stringify({ turns: measured }) + '\n');
  process.exit(0);
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
