// The change log on the transpiled modules (build/testing.js) with tests/node/fake_vscode.js: tools' writes
// recorded with the call's author, Keep/Undo per hunk through the editor, CRLF kept byte for byte, the store in
// the workspace storage (atomic write, reload, a corrupt file moved aside and reported once), changes_list and
// the re-read rule — the places where dicts, `undefined`, sorting with keys and Node's fs could differ from CPython.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing, windowServices } = require('./harness');

const mods = () => testing();
const args = (value) => mods().js_json.parse_json(JSON.stringify(value));
const plain = (value) => JSON.parse(mods().js_json.dump_json(value));
const CLAUDE = { client: 'claude-code', session: null, turn: null, external: true };
const PANEL = { client: 'Hermes panel', session: 'c1', turn: 't1' };

let contexts = [];

function window(folder) {
  const context = vscode.__makeContext();
  contexts.push(context);
  const services = windowServices(context);  // what activate() builds
  return { context, services, log: services.changes, registry: mods().tools_catalog.build_registry(null, services) };
}

function setup() {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-changes-')));
  fs.writeFileSync(path.join(folder, 'app.py'), 'one\ntwo\nthree\nfour\nfive\n');
  vscode.__openFolders([folder]);
  return { folder, ...window(folder) };
}

test.afterEach(() => { for (const context of contexts) context.disposeAll(); contexts = []; });

async function call(registry, name, value, author) {
  const toolCall = mods().core_tools.ToolCall();
  toolCall.author = args(author || PANEL);
  return plain(await registry.call(name, args(value || {}), toolCall));
}

test('an edit is recorded with its client; Keep one hunk, Undo the other: the disk holds exactly the result', async () => {
  const { folder, log, registry } = setup();
  const edited = await call(registry, 'editor_edit_file', { path: 'app.py', edits: [
    { old_text: 'two', new_text: 'TWO' }, { old_text: 'five', new_text: 'FIVE' }] }, CLAUDE);
  assert.equal(edited.isError, false, edited.content[0].text);
  const [item] = plain(log.pending());
  assert.equal(item.client, 'claude-code');
  assert.equal(item.path, path.join(folder, 'app.py'));
  assert.deepEqual(item.hunks.map((h) => [h.id, h.start, h.before_lines, h.after_lines]),
    [['h1', 1, ['two'], ['TWO']], ['h2', 4, ['five'], ['FIVE']]]);
  assert.deepEqual(plain(log.keep(path.join(folder, 'app.py'), 'h1')), ['h1']);
  assert.deepEqual(plain(await log.undo(path.join(folder, 'app.py'), 'h2')), ['h2']);
  assert.equal(fs.readFileSync(path.join(folder, 'app.py'), 'utf8'), 'one\nTWO\nthree\nfour\nfive\n');
  assert.deepEqual(plain(log.pending()), []);
  const listed = await call(registry, 'changes_list', {}, CLAUDE);
  assert.deepEqual(listed.structuredContent.history.map((h) => [h.action, h.path, h.client]),
    [['kept', 'app.py', 'claude-code'], ['undone', 'app.py', 'claude-code']]);
});

test('file_write over a CRLF file, undone: byte for byte; a created file is deleted by Undo All', async () => {
  const { folder, log, registry } = setup();
  fs.writeFileSync(path.join(folder, 'win.txt'), 'a\r\nb\r\nc');
  assert.equal((await call(registry, 'file_write', { path: 'win.txt', content: 'a\r\nB\r\nc\r\n' })).isError, false);
  assert.equal((await call(registry, 'file_create', { path: 'made/new.py', content: 'x = 1\n' })).isError, false);
  const items = plain(log.pending());
  assert.deepEqual(items.map((i) => [path.basename(i.path), i.created === true]), [['win.txt', false], ['new.py', true]]);
  const result = plain(await log.undo_all());
  assert.deepEqual(result, { undone: 2, conflicts: [] });  // 'b' and 'c' changed side by side: one hunk
  assert.equal(fs.readFileSync(path.join(folder, 'win.txt'), 'utf8'), 'a\r\nb\r\nc');
  assert.equal(fs.existsSync(path.join(folder, 'made', 'new.py')), false);
});

test("a user's edit inside the hunk is a conflict; elsewhere, the undo follows it", async () => {
  const { folder, log, registry } = setup();
  await call(registry, 'file_write', { path: 'app.py', content: 'ONE\ntwo\nthree\nfour\nFIVE\n' });
  fs.writeFileSync(path.join(folder, 'app.py'), 'mine\n\nONE!\ntwo\nthree\nfour\nFIVE\n');
  const file = path.join(folder, 'app.py');
  let refused = null;
  try { await log.undo(file, 'h1'); } catch (error) { refused = error; }
  assert.match(mods().js_errors.error_message(refused), /^You edited 1 of these changes since the agent made them/);
  assert.deepEqual(plain(refused.hunk_ids), ['h1']);
  assert.deepEqual(plain(await log.undo(file, 'h2')), ['h2']);
  assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n\nONE!\ntwo\nthree\nfour\nfive\n');
});

test('pending changes survive a reload; the file is written atomically with mode 0600', async () => {
  const { folder, context, log, registry } = setup();
  await call(registry, 'editor_edit_file', { path: 'app.py', edits: [{ old_text: 'three', new_text: '3' }] }, CLAUDE);
  const before = plain(log.pending());
  context.disposeAll();  // deactivate: saved at once
  const stored = path.join(context.storageUri.fsPath, 'changes.json');
  assert.equal(fs.statSync(stored).mode & 0o777, 0o600);
  assert.equal(fs.existsSync(stored + '.tmp'), false);
  const again = windowServices(context);
  contexts.push(context);
  assert.deepEqual(plain(again.changes.pending()), before);
  await again.changes.undo(path.join(folder, 'app.py'));
  assert.equal(fs.readFileSync(path.join(folder, 'app.py'), 'utf8'), 'one\ntwo\nthree\nfour\nfive\n');
});

test('a corrupt store is moved aside and reported once', () => {
  vscode.__reset();
  const context = vscode.__makeContext();
  contexts.push(context);
  fs.mkdirSync(context.storageUri.fsPath, { recursive: true });
  fs.writeFileSync(path.join(context.storageUri.fsPath, 'changes.json'), '{"format": 1, "files": "nope"}');
  const services = windowServices(context);
  assert.deepEqual(plain(services.changes.pending()), []);
  const warnings = vscode.__state.messages.filter((m) => m[0] === 'warning' && /change log/.test(m[1]));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0][1], /could not be read \("files" is not a list\).*started an empty log/);
  const moved = fs.readdirSync(context.storageUri.fsPath).filter((name) => name.startsWith('changes.corrupt-'));
  assert.equal(moved.length, 1);
});

test("an edit of another client's pending hunk is refused until that client reads the file", async () => {
  const { folder, registry } = setup();
  await call(registry, 'editor_edit_file', { path: 'app.py', edits: [{ old_text: 'two', new_text: 'TWO' }] }, PANEL);
  const refused = await call(registry, 'editor_edit_file', { path: 'app.py', edits: [{ old_text: 'TWO', new_text: '2' }] }, CLAUDE);
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /^Refused: lines 2-2 of this file hold a change by Hermes panel/);
  assert.equal((await call(registry, 'file_read', { path: 'app.py' }, CLAUDE)).isError, false);
  const allowed = await call(registry, 'editor_edit_file', { path: 'app.py', edits: [{ old_text: 'TWO', new_text: '2' }] }, CLAUDE);
  assert.equal(allowed.isError, false, allowed.content[0].text);
  assert.equal(fs.readFileSync(path.join(folder, 'app.py'), 'utf8'), 'one\n2\nthree\nfour\nfive\n');
});

test('a file outside the workspace is never recorded', () => {
  const { log } = setup();
  const outside = path.join(os.tmpdir(), 'hermes-outside-' + process.pid + '.txt');
  fs.writeFileSync(outside, 'secret\n');
  assert.equal(log.record(outside, 'secret\n', 'changed\n', args(PANEL)), null);
  assert.deepEqual(plain(log.pending()), []);
  assert.equal(JSON.stringify(plain(log.to_data())).includes('secret'), false);
  fs.unlinkSync(outside);
});

test('a move recorded by an ACP-style writer is undone as a whole on disk', async () => {
  const { folder, log, registry } = setup();
  const [from, to] = [path.join(folder, 'app.py'), path.join(folder, 'moved.py')];
  const text = fs.readFileSync(from, 'utf8');
  fs.renameSync(from, to);
  log.record_rename(from, 'file://' + to, text, text, args({ client: 'Hermes Agent (ACP)', session: 's1', turn: '3' }));
  const listed = (await call(registry, 'changes_list', { include_lines: false })).structuredContent.pending;
  assert.deepEqual(listed.map((i) => [i.path, i.renamed_from || null, i.renamed_to || null, i.client, i.turn]),
    [['app.py', null, 'moved.py', 'Hermes Agent (ACP)', '3'], ['moved.py', 'app.py', null, 'Hermes Agent (ACP)', '3']]);
  assert.equal(plain(await log.undo_all(args({ client: 'Hermes Agent (ACP)' }))).conflicts.length, 0);
  assert.equal(fs.readFileSync(from, 'utf8'), text);
  assert.equal(fs.existsSync(to), false);
});

test("a folder's deletion records each text file; Undo All brings them back", async () => {
  const { folder, log, registry } = setup();
  fs.mkdirSync(path.join(folder, 'pkg', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'pkg', 'a.py'), 'a = 1\n');
  fs.writeFileSync(path.join(folder, 'pkg', 'sub', 'b.txt'), 'b\r\n');
  assert.equal((await call(registry, 'file_delete', { path: 'pkg', recursive: true }, CLAUDE)).isError, false);
  assert.equal(fs.existsSync(path.join(folder, 'pkg')), false);
  assert.deepEqual(plain(log.pending()).map((i) => [path.relative(folder, i.path), i.deleted]).sort(),
    [['pkg/a.py', true], ['pkg/sub/b.txt', true]]);
  assert.deepEqual(plain(await log.undo_all()), { undone: 2, conflicts: [] });
  assert.equal(fs.readFileSync(path.join(folder, 'pkg', 'sub', 'b.txt'), 'utf8'), 'b\r\n');
  assert.equal(fs.readFileSync(path.join(folder, 'pkg', 'a.py'), 'utf8'), 'a = 1\n');
});
