// The real bundle (dist/extension.js) with the fake `vscode`, its doors for terminal CLIs open, and a scripted
// review behind openDiff, so a test can drive the real Claude Code / Gemini CLI against the doors.
//   HOME=… TMPDIR=… CLAUDE_CONFIG_DIR=… node tests/node/serve_doors.js <workspace folder>
// stdout, one JSON line each: {"claude": port, "gemini": port} once both doors listen; {"propose": {path, text,
// author, title}} for each proposal the review gets; {"log": line} for the window's log.
// stdin, one JSON line each: {"review": {"outcome": "accepted", "replace": [old, new]}} (the user's own edit of the
// proposal) or {"review": {"outcome": "rejected"}} — how the next proposals end; {"pending": true} — the change log's
// pending changes, answered as {"pending": [...]}. The fake's file watchers hear the folder's real disk changes.
'use strict';
const { vscode, extension, activateAndServe, until, watchDisk } = require('./harness');

const say = (value) => process.stdout.write(JSON.stringify(value) + '\n');

async function main() {
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__openFolders(process.argv.slice(2));
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  await until(() => Object.keys(api.doors.servers).length === 3);
  watchDisk(process.argv.slice(2));
  let review = { outcome: 'accepted' };
  api.doors.proposals = {
    propose(path, text, author, title) {
      say({ propose: { path, text, author, title } });
      if (review.outcome !== 'accepted') return Promise.resolve({ outcome: review.outcome });
      const [from, to] = review.replace || ['', ''];
      return Promise.resolve({ outcome: 'accepted', text: from ? text.replace(from, to) : text });
    },
    close() { return ''; },
    cancel_where() { return 0; },
  };
  const stop = async () => { await ext.deactivate(); context.disposeAll(); process.exit(0); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const command = JSON.parse(line);
      review = command.review || review;
      if (command.pending) say({ pending: JSON.parse(JSON.stringify(api.doors.watch.change_log.pending())) });
    }
  });
  const lines = vscode.__state.channels[0].lines;
  setInterval(() => { while (lines.length) say({ log: lines.shift() }); }, 100);
  say({ claude: api.doors.servers.claudeCode.port, gemini: api.doors.servers.gemini.port,
    environment: Object.fromEntries(context.environmentVariableCollection.values) });
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
