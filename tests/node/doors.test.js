// The doors of terminal CLIs on the real bundle: Claude Code's lock file and WebSocket MCP endpoint, Gemini CLI's
// discovery file and Streamable HTTP endpoint — files, refusals before any work, the tools and the notifications.
// The review behind openDiff is a recording stand-in here (its own tests: tests/unit/test_proposals.py, e2e).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const WebSocket = require('ws');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
process.env.HOME = home;
process.env.CLAUDE_CONFIG_DIR = path.join(home, 'claude-config');
process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-tmp-'));
process.env.QWEN_HOME = path.join(home, 'qwen-home');
const { vscode, extension, activateAndServe, until, partLoaded } = require('./harness');

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-ws-'));
fs.writeFileSync(path.join(workspace, 'notes.md'), 'one\ntwo\n');

class FakeProposals {
  constructor(answer) { this.answer = answer; this.calls = []; this.cancelled = []; this.closed = []; }
  propose(filePath, text, author, title, cancellation) {
    this.calls.push({ filePath, text, author, title });
    return Promise.resolve(this.answer(text));
  }
  close(filePath, title, outcome) { this.closed.push({ filePath, title, outcome }); return 'held text'; }
  cancel_where(wanted, outcome) { this.cancelled.push({ wanted, outcome }); return 0; }
  pending() { return []; }
}

async function start(settings = {}) {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  for (const [key, value] of Object.entries(settings)) vscode.__state.settings[key] = value;
  vscode.__openFolders([workspace]);
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  const doors = api.doors.open();  // the doors open on the next tick after activation; this opens them now
  await until(() => Object.keys(doors.servers).length === 3);
  return { ext, context, api, doors };
}

const lockDir = () => path.join(process.env.CLAUDE_CONFIG_DIR, 'ide');
const geminiDir = () => path.join(process.env.TMPDIR, 'gemini', 'ide');

function dial(port, headers) {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { headers });
    socket.on('open', () => resolve({ socket }));
    socket.on('unexpected-response', (request, response) => resolve({ status: response.statusCode }));
    socket.on('error', () => {});
  });
}

function rpc(socket) {
  let next = 1;
  const waiting = new Map();
  const notifications = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id !== undefined && waiting.has(message.id)) { waiting.get(message.id)(message); waiting.delete(message.id); }
    else notifications.push(message);
  });
  return {
    notifications,
    call: (method, params) => new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    }),
    notify: (method, params) => socket.send(JSON.stringify({ jsonrpc: '2.0', method, params })),
  };
}

// The doors are a part loaded on first use (dist/part-ui.doors.front.js): this file's first tests see it load (the
// bundle stays in require.cache for the tests after them).
const doorsLoaded = () => partLoaded('ui.doors.front');

test('the doors are not loaded by activation: they load and open on the next tick, unasked', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__openFolders([workspace]);
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await ext.activate(context);
  try {
    assert.ok(!doorsLoaded(), 'activation has not loaded the doors\' part');
    assert.equal(api.doors.doors, null, 'nor opened them');
    assert.deepEqual(api.doors.describe(), [], 'until they open, nothing is connected');
    await until(() => doorsLoaded() && api.doors.doors !== null && Object.keys(api.doors.doors.servers).length === 3);
    assert.ok(fs.existsSync(path.join(lockDir(), `${api.doors.doors.servers.claudeCode.port}.lock`)), 'the lock file is written');
    assert.equal(api.doors.open(), api.doors.doors, 'opened once');
    await api.mcp.ready;
  } finally {
    await ext.deactivate();
    context.disposeAll();
  }
});

test('a window closing before the next tick never opens its doors', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__openFolders([workspace]);
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await ext.activate(context);
  const locks = fs.existsSync(lockDir()) ? fs.readdirSync(lockDir()).length : 0;
  await ext.deactivate();
  context.disposeAll();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(api.doors.doors, null);
  assert.equal(api.doors.open(), null, 'asked after the window closed: still none');
  assert.equal(fs.existsSync(lockDir()) ? fs.readdirSync(lockDir()).length : 0, locks, 'no lock file written');
});

test('Claude Code door: a 0600 lock file naming this window, the terminals told its port, refusals before any work', async () => {
  const { ext, context, doors } = await start();
  const port = doors.servers.claudeCode.port;
  const lockPath = path.join(lockDir(), `${port}.lock`);
  const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
  assert.equal(fs.statSync(lockPath).mode & 0o777, 0o600);
  assert.equal(fs.statSync(lockDir()).mode & 0o777, 0o700);
  assert.deepEqual(lock.workspaceFolders, [workspace]);
  assert.equal(lock.pid, process.pid);
  assert.equal(lock.transport, 'ws');
  assert.match(lock.ideName, /Hermes/);
  assert.match(lock.authToken, /^[0-9a-f]{64}$/);
  const environment = context.environmentVariableCollection;
  assert.equal(environment.values.get('CLAUDE_CODE_SSE_PORT'), String(port));
  assert.equal(environment.persistent, false);
  // refused: no token, a wrong token, a browser, a foreign Host, another path; a plain request gets 426
  assert.equal((await dial(port, {})).status, 401);
  assert.equal((await dial(port, { 'x-claude-code-ide-authorization': 'x'.repeat(64) })).status, 401);
  assert.equal((await dial(port, { 'x-claude-code-ide-authorization': lock.authToken, Origin: 'http://127.0.0.1:8080' })).status, 403);
  assert.equal((await dial(port, { 'x-claude-code-ide-authorization': lock.authToken, Host: 'evil.example:' + port })).status, 403);
  const plain = await new Promise((resolve) => http.get(`http://127.0.0.1:${port}/`, (res) => resolve(res.statusCode)));
  assert.equal(plain, 426);
  assert.equal(doors.connections.length, 0, 'a refused upgrade made no connection');
  assert.ok(!Object.keys(require.cache).some((file) => file.endsWith(path.join('vendor', 'ws.js'))),
    'the WebSocket library is not loaded until a CLI gets in');
  const [channel] = vscode.__state.channels;
  assert.ok(!channel.lines.join('\n').includes(lock.authToken), 'the token is never logged');
  await ext.deactivate();
  assert.ok(!fs.existsSync(lockPath), 'the lock file goes with the window');
  assert.equal(environment.values.has('CLAUDE_CODE_SSE_PORT'), false);
  context.disposeAll();
});

test('Claude Code door: initialize, the tools the CLI expects, openDiff answered with what the review kept', async () => {
  const { ext, context, doors } = await start();
  const proposals = new FakeProposals((text) => ({ outcome: 'accepted', text: text.replace('TWO', 'two (mine)') }));
  doors.proposals = proposals;
  const lock = JSON.parse(fs.readFileSync(path.join(lockDir(), `${doors.servers.claudeCode.port}.lock`), 'utf8'));
  const { socket } = await dial(doors.servers.claudeCode.port, { 'x-claude-code-ide-authorization': lock.authToken });
  assert.equal(socket.protocol, 'mcp');
  const client = rpc(socket);
  const init = await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.328' } });
  assert.equal(init.result.protocolVersion, '2025-11-25');
  client.notify('notifications/initialized');
  client.notify('ide_connected', { pid: 1 });
  await until(() => doors.describe().length === 1);
  assert.deepEqual(doors.describe()[0].client, 'Claude Code');
  // the disk watch now counts the CLI as the writer of what changes behind the editor (a list of authors, not a string)
  assert.equal(doors.watch.authors.length, 1);
  assert.equal(doors.watch.authors[0].client, 'Claude Code');
  const item = vscode.__state.statusItems.find((entry) => entry.command === 'hermes.doors.showStatus');
  await until(() => item.visible);
  assert.equal(item.text, '$(terminal) Claude Code ⇄ Hermes');
  const names = (await client.call('tools/list', {})).result.tools.map((tool) => tool.name).sort();
  assert.deepEqual(names, ['checkDocumentDirty', 'closeAllDiffTabs', 'close_tab', 'getCurrentSelection', 'getDiagnostics',
    'getLatestSelection', 'getOpenEditors', 'getWorkspaceFolders', 'openDiff', 'openFile', 'saveDocument']);
  const folders = await client.call('tools/call', { name: 'getWorkspaceFolders', arguments: {} });
  assert.deepEqual(JSON.parse(folders.result.content[0].text).folders.map((folder) => folder.path), [workspace]);
  const target = path.join(workspace, 'notes.md');
  const diff = await client.call('tools/call', { name: 'openDiff', arguments: {
    old_file_path: target, new_file_path: target, new_file_contents: 'one\nTWO\n', tab_name: '✻ [Claude Code] notes.md ⧉' } });
  assert.deepEqual(diff.result.content, [{ type: 'text', text: 'FILE_SAVED' }, { type: 'text', text: 'one\ntwo (mine)\n' }]);
  assert.deepEqual(proposals.calls[0].author, { client: 'Claude Code', session: 'claudeCode-1', turn: 'proposal-1' });
  assert.equal(proposals.calls[0].title, '✻ [Claude Code] notes.md ⧉');
  // outside the workspace: refused with a message, the review never asked
  const outside = await client.call('tools/call', { name: 'openDiff', arguments: {
    old_file_path: '/etc/hosts', new_file_path: '/etc/hosts', new_file_contents: 'x', tab_name: 't' } });
  assert.equal(outside.result.isError, true);
  assert.match(outside.result.content[0].text, /outside the workspace of this VS Code window/);
  assert.equal(proposals.calls.length, 1);
  const dirty = await client.call('tools/call', { name: 'checkDocumentDirty', arguments: { filePath: '/etc/passwd' } });
  assert.equal(dirty.result.isError, true);
  const closed = await client.call('tools/call', { name: 'closeAllDiffTabs', arguments: {} });
  assert.equal(closed.result.content[0].text, 'CLOSED_0_DIFF_TABS');
  // a rejected proposal
  proposals.answer = () => ({ outcome: 'rejected' });
  const rejected = await client.call('tools/call', { name: 'openDiff', arguments: {
    old_file_path: target, new_file_path: target, new_file_contents: 'nope\n', tab_name: 'tab' } });
  assert.equal(rejected.result.content[0].text, 'DIFF_REJECTED');
  // not JSON: a parse error, the connection stays
  const parseError = new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
  socket.send('{not json');
  assert.equal((await parseError).error.code, -32700);
  // the CLI goes: its pending proposals end, the status item hides
  socket.close();
  await until(() => doors.connections.length === 0);
  assert.deepEqual(proposals.cancelled.at(-1), { wanted: { client: 'Claude Code', session: 'claudeCode-1' }, outcome: 'cancelled' });
  await until(() => !item.visible);
  await ext.deactivate();
  context.disposeAll();
});

test('Claude Code door: openFile selects from startText to endText in the editor it opened (a vscode.Selection made with new)', async () => {
  const { ext, context, doors } = await start();
  const shown = [];
  vscode.window.showTextDocument = async (document, options) => {
    const at = new vscode.Position(0, 0);
    const editor = { document, selection: new vscode.Selection(at, at), revealed: [], revealRange(range) { this.revealed.push(range); } };
    shown.push({ editor, options });
    vscode.__state.activeTextEditor = editor;
    return editor;
  };
  const lock = JSON.parse(fs.readFileSync(path.join(lockDir(), `${doors.servers.claudeCode.port}.lock`), 'utf8'));
  const { socket } = await dial(doors.servers.claudeCode.port, { 'x-claude-code-ide-authorization': lock.authToken });
  const client = rpc(socket);
  await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.328' } });
  client.notify('notifications/initialized');
  const target = path.join(workspace, 'notes.md');
  const opened = await client.call('tools/call', { name: 'openFile', arguments: { filePath: target, startText: 'two', makeFrontmost: true } });
  assert.notEqual(opened.result.isError, true, JSON.stringify(opened.result));
  assert.equal(opened.result.content[0].text, 'Opened file: ' + target);
  const { editor } = shown.at(-1);
  assert.ok(editor.selection instanceof vscode.Selection);
  assert.deepEqual([editor.selection.start.line, editor.selection.start.character, editor.selection.end.line, editor.selection.end.character], [1, 0, 1, 3]);
  // in the background: the answer names the document's language and length, not the editor's (it has neither)
  const background = await client.call('tools/call', { name: 'openFile', arguments: { filePath: target, makeFrontmost: false } });
  const facts = JSON.parse(background.result.content[0].text);
  assert.equal(facts.lineCount, 3);
  assert.ok('languageId' in facts);
  socket.close();
  await until(() => doors.connections.length === 0);
  delete vscode.window.showTextDocument;
  await ext.deactivate();
  context.disposeAll();
});

function post(port, token, body, session, extra = {}) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...extra };
    if (token) headers.Authorization = 'Bearer ' + token;
    if (session) headers['Mcp-Session-Id'] = session;
    const request = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    request.on('error', reject);
    request.end(data);
  });
}

function parseReply(text) {
  const line = text.split('\n').find((entry) => entry.startsWith('data: '));
  return JSON.parse(line ? line.slice(6) : text);
}

test('Gemini CLI door: its discovery file, Bearer token and no browsers, openDiff answered at once and decided on the stream', async () => {
  const { ext, context, doors } = await start();
  const proposals = new FakeProposals((text) => ({ outcome: 'accepted', text: text + '// kept\n' }));
  doors.proposals = proposals;
  const port = doors.servers.gemini.port;
  const file = path.join(geminiDir(), `gemini-ide-server-${process.pid}-${port}.json`);
  const info = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(info.port, port);
  assert.equal(info.workspacePath, workspace);
  assert.equal(info.ideInfo.name, 'vscode');
  assert.equal(context.environmentVariableCollection.values.get('GEMINI_CLI_IDE_SERVER_PORT'), String(port));
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gemini-cli-companion-mcp-client', version: '0.61.0' } } };
  assert.equal((await post(port, null, initialize)).status, 401);
  assert.equal((await post(port, 'f'.repeat(64), initialize)).status, 401);
  assert.equal((await post(port, info.authToken, initialize, null, { Origin: 'http://localhost:3000' })).status, 403);
  const opened = await post(port, info.authToken, initialize);
  const session = opened.headers['mcp-session-id'];
  assert.ok(session);
  await post(port, info.authToken, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const stream = await new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: '/mcp', headers: {
    Authorization: 'Bearer ' + info.authToken, Accept: 'text/event-stream', 'Mcp-Session-Id': session } }, resolve));
  let events = '';
  stream.on('data', (chunk) => { events += chunk; });
  const listed = parseReply((await post(port, info.authToken, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).text);
  assert.deepEqual(listed.result.tools.map((tool) => tool.name).sort(), ['closeDiff', 'openDiff']);
  const target = path.join(workspace, 'notes.md');
  const answer = parseReply((await post(port, info.authToken, { jsonrpc: '2.0', id: 3, method: 'tools/call',
    params: { name: 'openDiff', arguments: { filePath: target, newContent: 'one\n' } } }, session)).text);
  assert.deepEqual(answer.result.content, []);
  await until(() => events.includes('ide/diffAccepted'));
  const accepted = events.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)))
    .find((message) => message.method === 'ide/diffAccepted');
  assert.deepEqual(accepted.params, { filePath: target, content: 'one\n// kept\n' });
  assert.equal(proposals.calls[0].author.client, 'Gemini CLI');
  const closed = parseReply((await post(port, info.authToken, { jsonrpc: '2.0', id: 4, method: 'tools/call',
    params: { name: 'closeDiff', arguments: { filePath: target } } }, session)).text);
  assert.deepEqual(JSON.parse(closed.result.content[0].text), { content: 'held text' });
  stream.destroy();
  // Qwen Code: the same protocol on a server and token of its own, its lock where Qwen Code looks
  const qwenPort = doors.servers.qwen.port;
  const qwenLock = path.join(process.env.QWEN_HOME, 'ide', `${qwenPort}.lock`);
  const qwen = JSON.parse(fs.readFileSync(qwenLock, 'utf8'));
  assert.equal(fs.statSync(qwenLock).mode & 0o777, 0o600);
  assert.deepEqual([qwen.port, qwen.workspacePath, qwen.ppid], [qwenPort, workspace, process.pid]);
  assert.notEqual(qwen.authToken, info.authToken);
  assert.equal((await post(qwenPort, info.authToken, initialize)).status, 401, "Gemini's token does not open Qwen's door");
  assert.equal(context.environmentVariableCollection.values.get('QWEN_CODE_IDE_SERVER_PORT'), String(qwenPort));
  const qwenSession = (await post(qwenPort, qwen.authToken, initialize)).headers['mcp-session-id'];
  await post(qwenPort, qwen.authToken, { jsonrpc: '2.0', method: 'notifications/initialized' }, qwenSession);
  await post(qwenPort, qwen.authToken, { jsonrpc: '2.0', id: 5, method: 'tools/call',
    params: { name: 'openDiff', arguments: { filePath: target, newContent: 'q\n' } } }, qwenSession);
  await until(() => proposals.calls.length === 2);
  assert.equal(proposals.calls[1].author.client, 'Qwen Code');
  await ext.deactivate();
  assert.ok(!fs.existsSync(file), 'the discovery file goes with the window');
  assert.ok(!fs.existsSync(qwenLock), "Qwen Code's lock too");
  context.disposeAll();
});

test('a stale lock of a dead window is removed; switching a door off in the settings closes it without a reload', async () => {
  fs.mkdirSync(lockDir(), { recursive: true });
  const stale = path.join(lockDir(), '1.lock');
  fs.writeFileSync(stale, JSON.stringify({ pid: 2 ** 22 + 12345, workspaceFolders: [workspace], transport: 'ws', authToken: 'old' }));
  const { ext, context, doors } = await start();
  assert.ok(!fs.existsSync(stale), 'a lock whose window died is removed when a window opens its door');
  const port = doors.servers.claudeCode.port;
  vscode.__setSetting('hermes.doors.claudeCode', false);
  await until(() => !('claudeCode' in doors.servers));
  assert.ok(!fs.existsSync(path.join(lockDir(), `${port}.lock`)));
  assert.equal(context.environmentVariableCollection.values.has('CLAUDE_CODE_SSE_PORT'), false);
  assert.ok('gemini' in doors.servers, 'the other door stays');
  vscode.__setSetting('hermes.doors.claudeCode', true);
  await until(() => 'claudeCode' in doors.servers);
  await ext.deactivate();
  context.disposeAll();
});

test("the editor's selection reaches both CLIs: Claude Code's selection_changed, Gemini CLI's ide/contextUpdate", async () => {
  const { ext, context, doors } = await start();
  doors.proposals = new FakeProposals(() => ({ outcome: 'rejected' }));
  const lock = JSON.parse(fs.readFileSync(path.join(lockDir(), `${doors.servers.claudeCode.port}.lock`), 'utf8'));
  const { socket } = await dial(doors.servers.claudeCode.port, { 'x-claude-code-ide-authorization': lock.authToken });
  const claude = rpc(socket);
  await claude.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2' } });
  claude.notify('notifications/initialized');
  const port = doors.servers.gemini.port;
  const info = JSON.parse(fs.readFileSync(path.join(geminiDir(), `gemini-ide-server-${process.pid}-${port}.json`), 'utf8'));
  const session = (await post(port, info.authToken, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'streamable-http-client', version: '0.61.0' } } })).headers['mcp-session-id'];
  await post(port, info.authToken, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const stream = await new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: '/mcp', headers: {
    Authorization: 'Bearer ' + info.authToken, Accept: 'text/event-stream', 'Mcp-Session-Id': session } }, resolve));
  let events = '';
  stream.on('data', (chunk) => { events += chunk; });
  await until(() => doors.describe().length === 2);
  const target = path.join(workspace, 'notes.md');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target));
  const first = new vscode.Position(0, 0);
  const end = new vscode.Position(0, 3);
  const editor = { document, selection: { start: first, end, active: end, anchor: first, isEmpty: false }, selections: [] };
  vscode.__state.activeTextEditor = editor;
  vscode.__editorEvents.selection.fire({ textEditor: editor });
  await until(() => claude.notifications.some((message) => message.method === 'selection_changed'));
  const selection = claude.notifications.find((message) => message.method === 'selection_changed').params;
  assert.deepEqual([selection.text, selection.filePath, selection.selection.start, selection.selection.end],
    ['one', target, { line: 0, character: 0 }, { line: 0, character: 3 }]);
  await until(() => events.includes('ide/contextUpdate'));
  const update = events.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)))
    .find((message) => message.method === 'ide/contextUpdate').params;
  assert.equal(update.workspaceState.isTrusted, true);
  assert.deepEqual(update.workspaceState.openFiles.map((file) => [file.path, file.isActive, file.selectedText, file.cursor]),
    [[target, true, 'one', { line: 1, character: 4 }]]);
  // "Send Selection to the Agent in the Terminal": an at_mentioned to Claude Code
  await vscode.commands.executeCommand('hermes.doors.sendSelection');
  await until(() => claude.notifications.some((message) => message.method === 'at_mentioned'));
  assert.deepEqual(claude.notifications.find((message) => message.method === 'at_mentioned').params,
    { filePath: target, lineStart: 0, lineEnd: 0 });
  // a file outside the workspace is nobody's business: nothing is sent about it
  const before = claude.notifications.length;
  const outside = path.join(os.tmpdir(), `hermes-outside-${process.pid}.txt`);
  fs.writeFileSync(outside, 'secret\n');
  const hidden = await vscode.workspace.openTextDocument(vscode.Uri.file(outside));
  const secret = { document: hidden, selection: { start: first, end, active: end, anchor: first, isEmpty: false }, selections: [] };
  vscode.__state.activeTextEditor = secret;
  vscode.__editorEvents.selection.fire({ textEditor: secret });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(!claude.notifications.slice(before).some((message) => JSON.stringify(message).includes('secret')));
  assert.ok(!events.includes('secret'));
  stream.destroy();
  socket.close();
  await ext.deactivate();
  context.disposeAll();
});

test('a workspace folder on another file system (a virtual or remote-only path) is named by no door', async () => {
  const { ext, context, doors } = await start();
  try {
    const remoteOnly = vscode.Uri.parse('vscode-vfs://github/owner/remote-only');
    vscode.__state.workspaceFolders.push({ uri: remoteOnly, name: 'remote-only', index: 1 });
    doors.folders_changed();
    const lock = JSON.parse(fs.readFileSync(path.join(lockDir(), `${doors.servers.claudeCode.port}.lock`), 'utf8'));
    assert.deepEqual(lock.workspaceFolders, [workspace]);
    const gemini = JSON.parse(fs.readFileSync(doors.servers.gemini.file, 'utf8'));
    assert.equal(gemini.workspacePath, workspace);
    const environment = context.environmentVariableCollection;
    assert.equal(environment.values.get('GEMINI_CLI_IDE_WORKSPACE_PATH'), workspace);
    const { socket } = await dial(doors.servers.claudeCode.port, { 'x-claude-code-ide-authorization': lock.authToken });
    const client = rpc(socket);
    await client.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-code', version: '2' } });
    const folders = await client.call('tools/call', { name: 'getWorkspaceFolders', arguments: {} });
    assert.deepEqual(JSON.parse(folders.result.content[0].text).folders.map((folder) => folder.path), [workspace]);
    socket.close();
  } finally {  // a failed assertion must not leave the doors listening (the run would hang, not fail)
    await ext.deactivate();
    context.disposeAll();
  }
});
