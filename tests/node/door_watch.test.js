// The disk watch of the Claude Code door on the bundle, driven in the order the real CLI (2.1.328, traced with
// strace in tests/integration/test_door_claude_code.py's setting) writes a file it edits, in manual and acceptEdits
// mode alike: `getDiagnostics {uri}` of the file (its baseline), then the write — `<name>.tmp.<pid>.<hex>` created
// and renamed over the file —, then `getDiagnostics {}`. What it wrote becomes its pending change; its temporary
// file does not.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const WebSocket = require('ws');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
process.env.HOME = home;
process.env.CLAUDE_CONFIG_DIR = path.join(home, 'claude-config');
process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-tmp-'));
const { vscode, extension, activateAndServe, until } = require('./harness');

const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-ws-')));
const notes = path.join(workspace, 'notes.md');

async function connectedCli() {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__openFolders([workspace]);
  const context = vscode.__makeContext();
  const ext = extension();
  const doors = (await activateAndServe(ext, context)).doors.open();
  await until(() => 'claudeCode' in doors.servers);
  // the review (not under test here): nothing pending to cancel when the CLI goes
  doors.proposals = { cancel_where: () => 0, close: () => null, pending: () => [] };
  const { port, token } = doors.servers.claudeCode;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { headers: { 'x-claude-code-ide-authorization': token } });
  await new Promise((resolve, reject) => { socket.on('open', resolve); socket.on('error', reject); });
  let next = 1;
  const waiting = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (waiting.has(message.id)) { waiting.get(message.id)(message); waiting.delete(message.id); }
  });
  const call = (method, params) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
  await call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.328' } });
  socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  await until(() => doors.describe().length === 1);
  const done = async () => { socket.close(); await ext.deactivate(); context.disposeAll(); };
  return { doors, call, done };
}

// Claude Code's atomic write, each step reported as VS Code's file watcher reports it
function writeAsClaudeCode(file, text) {
  const temporary = `${file}.tmp.4242.d8057c0356d2`;
  fs.writeFileSync(temporary, text);
  vscode.__fileChanged(temporary, 'create');
  fs.renameSync(temporary, file);
  vscode.__fileChanged(temporary, 'delete');
  vscode.__fileChanged(file, 'change');
}

test('an edit Claude Code writes itself is its pending change, announced by getDiagnostics; its temporary file is not', async (t) => {
  fs.writeFileSync(notes, 'one\ntwo\nthree\n');
  const { doors, call, done } = await connectedCli();
  t.after(done);  // also when an assertion fails: no window left open
  const changeLog = doors.watch.change_log;
  await call('tools/call', { name: 'getDiagnostics', arguments: { uri: vscode.Uri.file(notes).toString() } });
  writeAsClaudeCode(notes, 'one\ntwo (mine)\nTHREE\n');
  await call('tools/call', { name: 'getDiagnostics', arguments: {} });
  // recorded at once, not after the watch's quiet wait: the CLI said its write was done
  const pending = changeLog.pending().map((item) => [item.path, item.client, item.added, item.removed]);
  assert.deepEqual(pending, [[notes, 'Claude Code', 2, 2]]);
});

test('a file Claude Code announced is recorded even when the watcher reports its write late', async (t) => {
  fs.writeFileSync(notes, 'alpha\nbeta\n');
  const { doors, call, done } = await connectedCli();
  t.after(done);  // also when an assertion fails: no window left open
  const changeLog = doors.watch.change_log;
  await call('tools/call', { name: 'getDiagnostics', arguments: { uri: vscode.Uri.file(notes).toString() } });
  fs.writeFileSync(notes, 'alpha\nBETA\n');  // no watcher event yet
  await call('tools/call', { name: 'getDiagnostics', arguments: {} });
  assert.deepEqual(changeLog.pending().map((item) => [item.path, item.added, item.removed]), [[notes, 1, 1]]);
});

test('the next edit right after one was recorded: its temporary file is not recorded by the span that just ended', async (t) => {
  const other = path.join(workspace, 'other.md');
  fs.writeFileSync(notes, 'one\ntwo\n');
  fs.writeFileSync(other, 'a\nb\n');
  const { doors, call, done } = await connectedCli();
  t.after(done);  // also when an assertion fails: no window left open
  const changeLog = doors.watch.change_log;
  const watchers = vscode.__state.fileWatchers.length;  // the running span's (and the window's own)
  const diagnostics = (file) => call('tools/call', { name: 'getDiagnostics', arguments: file ? { uri: vscode.Uri.file(file).toString() } : {} });
  await diagnostics(notes);
  writeAsClaudeCode(notes, 'one\nTWO\n');
  await diagnostics();  // the span ends here; it goes on hearing late reports of writes made before
  await diagnostics(other);  // the model's next Edit, at once
  const temporary = `${other}.tmp.4242.d8057c0356d2`;
  fs.writeFileSync(temporary, 'a\nB\n');
  vscode.__fileChanged(temporary, 'create');  // heard while it exists
  fs.renameSync(temporary, other);
  vscode.__fileChanged(temporary, 'delete');
  vscode.__fileChanged(other, 'change');
  await diagnostics();
  assert.ok(!changeLog.pending().some((item) => item.path === temporary), 'not at once');
  // the spans that ended have closed their late windows (their watchers are gone): nothing more will be recorded
  await until(() => vscode.__state.fileWatchers.length === watchers);
  const pending = changeLog.pending().map((item) => [path.basename(item.path), item.added, item.removed]);
  assert.deepEqual(pending, [['notes.md', 1, 1], ['other.md', 1, 1]]);
});

test('a new file written before the span ended and reported late is still recorded, once the late window closes', async (t) => {
  const made = path.join(workspace, 'made-by-a-command.txt');
  fs.rmSync(made, { force: true });
  fs.writeFileSync(notes, 'one\n');
  const { doors, call, done } = await connectedCli();
  t.after(done);  // also when an assertion fails: no window left open
  const changeLog = doors.watch.change_log;
  const watchers = vscode.__state.fileWatchers.length;
  await call('tools/call', { name: 'getDiagnostics', arguments: { uri: vscode.Uri.file(notes).toString() } });
  writeAsClaudeCode(notes, 'ONE\n');
  fs.writeFileSync(made, 'made\n');  // the CLI's shell command, reported after the span ended
  await call('tools/call', { name: 'getDiagnostics', arguments: {} });
  vscode.__fileChanged(made, 'create');
  await until(() => vscode.__state.fileWatchers.length === watchers);
  const pending = changeLog.pending().map((item) => [path.basename(item.path), item.client, !!item.created]);
  assert.deepEqual(pending, [['notes.md', 'Claude Code', false], ['made-by-a-command.txt', 'Claude Code', true]]);
});
