// Runs the real extension bundle (dist/extension.js) under node with the fake `vscode` and its doors open, so a
// test can start a real terminal CLI (Claude Code, Gemini CLI, Qwen Code) against them: the same code that runs in VS
// Code's extension host.
//   HOME=<tmp> CLAUDE_CONFIG_DIR=<tmp> TMPDIR=<tmp> node tests/node/serve_doors.js <workspace folder>
// The review behind openDiff is a scripted stand-in whose answer the test sets on stdin; everything else is the
// bundle's. Prints JSON lines on stdout:
//   {"ready": {"port", "lock", "ports", "environment"}}  every door listens: Claude Code's port and lock file, each
//                                               door's port by kind, and what VS Code's terminals get
//   {"received": {"method", "id", "params"}}    each JSON-RPC message a CLI sent through Claude Code's door
//   {"sent": {"method", "params"}}              each notification the door sent to a CLI
//   {"connected": {"client", "version", "clientInfo"}}, {"disconnected": {...}}
//   {"propose": {"filePath", "text", "author", "title"}}, {"close": …}, {"cancel": …}   the calls the review got
//   {"decided": {"outcome", "text"}}            what the review answered
//   {"pending": [{"path", "client", "added", "removed"}]}  the change log's pending changes, after each change
// Commands on stdin, one JSON a line:
//   {"answer": {"outcome": "accepted", "replace": ["from", "to"]}}  accept the proposal with the user's own edit
//   {"answer": {"outcome": "rejected"}}
//   {"answer": {"outcome": "hold"}}           decide nothing: the proposal ends when the CLI cancels or closes it
//   {"select": {"file", "line", "from", "to"}}  the user selects text in an editor of that file
//   {"settled": true}   answered {"settled": [pending]} once no ended span of the disk watch is still listening
// VS Code's file watcher is stood in for by fs.watch on the workspace folders (harness.js watchDisk), so the door's
// disk watch sees what a CLI writes by itself, as in VS Code. SIGTERM deactivates (the lock file goes) and exits.
'use strict';
const fs = require('fs');
const { vscode, extension, activateAndServe, until, watchDisk } = require('./harness');

const say = (value) => process.stdout.write(JSON.stringify(value) + '\n');

class ScriptedReview {
  constructor() { this.answer = { outcome: 'rejected' }; }
  propose(filePath, text, author, title, cancellation) {
    say({ propose: { filePath, text, author, title } });
    if (this.answer.outcome === 'hold') return this.hold(cancellation);
    const { outcome, replace } = this.answer;
    const decision = outcome === 'accepted'
      ? { outcome, text: replace ? text.replace(replace[0], replace[1]) : text } : { outcome };
    say({ decided: decision });
    return Promise.resolve(decision);
  }
  // Nobody decides yet: the proposal stays open until the CLI cancels the call or closes its tab.
  hold(cancellation) {
    return new Promise((resolve) => {
      this.held = (how) => { this.held = null; say({ decided: { outcome: 'cancelled', by: how } }); resolve({ outcome: 'cancelled' }); };
      if (cancellation && cancellation.on_cancel) cancellation.on_cancel(() => this.held && this.held('cancellation'));
    });
  }
  close(filePath, title, outcome) {
    say({ close: { filePath, title, outcome: outcome || null } });
    if (this.held) this.held('close');
    return null;
  }
  cancel_where(wanted, outcome) { say({ cancel: { wanted, outcome } }); return 0; }
  pending() { return []; }
}

// Every message through the Claude Code door, both ways: the socket server's protocol factory is wrapped (its
// sessions are Transcrypt objects: own properties are defined, not assigned, to shadow the class's accessors).
function recordTraffic(server) {
  const create = server.create_protocol;
  const wrapped = (send, connection) => {
    const recordingSend = (message, related) => {
      if (message && message.method) say({ sent: { method: message.method, params: message.params } });
      return send(message, related);
    };
    const session = create(recordingSend, connection);
    const handle = session.handle.bind(session);
    Object.defineProperty(session, 'handle', { configurable: true, writable: true, value: (message) => {
      say({ received: { method: message.method, id: message.id, params: message.params } });
      return handle(message);
    } });
    return session;
  };
  Object.defineProperty(server, 'create_protocol', { configurable: true, writable: true, value: wrapped });
}

function editorSelecting(file, line, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const offset = (l, c) => lines.slice(0, l).reduce((sum, entry) => sum + entry.length + 1, 0) + c;
  const start = new vscode.Position(line, from);
  const end = new vscode.Position(line, to);
  const selection = { start, end, anchor: start, active: end, isEmpty: from === to };
  const document = { uri: vscode.Uri.file(file), fileName: file, languageId: 'plaintext', isDirty: false,
    isUntitled: false, lineCount: lines.length,
    getText: (range) => (range ? text.slice(offset(range.start.line, range.start.character),
      offset(range.end.line, range.end.character)) : text) };
  return { document, selection, selections: [selection], visibleRanges: [] };
}

async function main() {
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__openFolders(process.argv.slice(2));
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  await until(() => api.doors.doors);  // the doors open on the tick after activation
  const doors = api.doors.doors;
  await until(() => ['claudeCode', 'gemini', 'qwen'].every((kind) => kind in doors.servers));
  watchDisk(process.argv.slice(2));
  const changeLog = doors.watch.change_log;
  if (changeLog) changeLog.on_change(() => say({ pending: changeLog.pending().map((item) => ({
    path: item.path, client: item.client, added: item.added, removed: item.removed })) }));
  const ownWatchers = vscode.__state.fileWatchers.length;  // the window's, before any CLI (no span runs yet)
  const review = new ScriptedReview();
  doors.proposals = review;
  const door = doors.servers.claudeCode;
  recordTraffic(door.server);
  let known = [];
  doors.on_change(() => {
    const now = doors.describe();
    for (const entry of now) if (!known.some((old) => old.client === entry.client && old.version === entry.version)) {
      const connection = doors.connections.find((c) => c.client === entry.client && c.version === entry.version);
      say({ connected: { client: entry.client, version: entry.version,
        clientInfo: connection && connection.protocol.client_info } });
    }
    for (const old of known) if (!now.some((entry) => entry.client === old.client && entry.version === old.version)) {
      say({ disconnected: old });
    }
    known = now;
  });
  const stop = async () => {
    await ext.deactivate();
    context.disposeAll();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const command = JSON.parse(line);
      if (command.answer) review.answer = command.answer;
      if (command.settled) {  // the running span's watcher stays, and the window's workspace index's (host/changes/
        // window_index.py, made when the first CLI dialled); those of spans in their late window go
        const staying = () => ownWatchers + 1 + (doors.index.made && doors.index.made.watcher ? 1 : 0);
        until(() => vscode.__state.fileWatchers.length <= staying()).then(() => say({ settled:
          changeLog.pending().map((item) => ({ path: item.path, client: item.client, added: item.added, removed: item.removed })) }));
      }
      if (command.select) {
        const { file, line: at, from, to } = command.select;
        vscode.__state.activeTextEditor = editorSelecting(file, at, from, to);
        vscode.__editorEvents.selection.fire({ textEditor: vscode.__state.activeTextEditor,
          selections: vscode.__state.activeTextEditor.selections });
      }
    }
  });
  // Announced last: the signal handlers and the stand-in review must be in place before a CLI can come.
  say({ ready: { port: door.port, lock: door.file,
    ports: Object.fromEntries(Object.entries(doors.servers).map(([kind, open]) => [kind, open.port])),
    environment: Object.fromEntries(context.environmentVariableCollection.values) } });
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
