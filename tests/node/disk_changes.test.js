// Files changed on disk during a span (host/changes/disk_changes.py) on the transpiled modules, with the fake vscode's
// file watcher: the workspace listing (Dirents, `in` on dicts), before-texts from an open editor, a file the
// watcher calls created that existed (not recorded), a new one (recorded as created), late reports, the bound —
// the same cases as tests/unit/changes/test_disk_changes.py, where Transcrypt could differ from CPython.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing } = require('./harness');

const mods = () => testing();
const args = (value) => mods().js_json.parse_json(JSON.stringify(value));
const plain = (value) => JSON.parse(mods().js_json.dump_json(value));
const AGENT = { client: 'e2e-agent', session: 's1', turn: 't1' };

function timers() {
  const pending = [];
  return { pending, after: (callback, ms) => { const handle = [callback, ms]; pending.push(handle); return handle; },
    cancel: (handle) => { const i = pending.indexOf(handle); if (i >= 0) pending.splice(i, 1); },
    fireAll: () => { for (const [callback] of pending.splice(0)) callback(); } };
}

function setup() {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-disk-')));
  vscode.__openFolders([folder]);
  const files = { read: async (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null), write: async () => {} };
  const log = mods().host_changes_log.ChangeLog(files, null, null, null, null, (p) => p.startsWith(folder + '/'), timers());
  return { folder, log, at: (name) => path.join(folder, name) };
}

const summary = (log) => plain(log.pending()).map((item) => [path.basename(item.path), item.client, !!item.created]);

test('an open file is recorded with the text it had, a new file as created, a replaced one not at all', async () => {
  const { log, at } = setup();
  fs.writeFileSync(at('open.py'), 'a = 1\n');
  fs.writeFileSync(at('kept.txt'), 'mine\n');
  fs.mkdirSync(at('sub'));
  fs.writeFileSync(at('sub/deep.txt'), 'deep\n');
  await vscode.workspace.openTextDocument(vscode.Uri.file(at('open.py')));
  const late = timers();
  const span = mods().host_changes_disk_changes.DiskChangeSpan(null, null, late);
  fs.writeFileSync(at('open.py'), 'a = 2\n');
  fs.writeFileSync(at('made.txt'), 'new\n');
  fs.writeFileSync(at('kept.txt'), 'sed -i made this\n');
  fs.writeFileSync(at('sub/deep.txt'), 'replaced\n');
  vscode.__fileChanged(at('open.py'), 'change');
  vscode.__fileChanged(at('made.txt'), 'create');
  vscode.__fileChanged(at('kept.txt'), 'create');  // a new file renamed over the old one
  vscode.__fileChanged(at('sub/deep.txt'), 'create');
  vscode.__fileChanged(at('.git/index'), 'change');
  const paths = span.end(args([]));
  assert.deepEqual(plain(paths), [at('open.py'), at('made.txt'), at('kept.txt'), at('sub/deep.txt')]);
  assert.equal(span.record(log, paths, args(AGENT)), 2);
  assert.deepEqual(summary(log), [['open.py', 'e2e-agent', false], ['made.txt', 'e2e-agent', true]]);
  assert.equal(log.entry(at('open.py')).base, 'a = 1\n');
  assert.deepEqual(late.pending.map((handle) => handle[1]), [mods().host_changes_disk_changes.LATE_EVENTS_MS]);
  fs.writeFileSync(at('late.txt'), 'reported late\n');
  vscode.__fileChanged(at('late.txt'), 'create');
  assert.deepEqual(summary(log).map((item) => item[0]), ['open.py', 'made.txt', 'late.txt']);
  late.fireAll();
  assert.equal(vscode.__state.fileWatchers.length, 0);
});

test('what the writer said comes first; past the bound files are counted, not listed', async () => {
  const { log, at } = setup();
  fs.writeFileSync(at('named.txt'), 'before\n');
  const span = mods().host_changes_disk_changes.DiskChangeSpan(null, null, null);
  span.note(at('named.txt'));
  span.note(at('diffed.txt'), 'from the diff\n', true);
  fs.writeFileSync(at('named.txt'), 'after\n');
  fs.writeFileSync(at('diffed.txt'), 'written\n');
  vscode.__fileChanged(at('named.txt'), 'change');
  for (let i = 0; i < mods().host_changes_disk_changes.MAX_CHANGED + 3; i++) vscode.__fileChanged(at(`bulk-${i}`), 'create');
  const paths = span.end(args([at('diffed.txt')]));
  assert.equal(span.overflow, 4);  // named.txt took one of the places
  assert.equal(vscode.__state.fileWatchers.length, 0, 'no late window without timers');
  assert.equal(span.record(log, args([at('named.txt'), at('diffed.txt')]), args(AGENT)), 2);
  assert.equal(log.entry(at('named.txt')).base, 'before\n');
  assert.equal(log.entry(at('diffed.txt')).base, 'from the diff\n');
  assert.equal(paths.length, mods().host_changes_disk_changes.MAX_CHANGED + 1);
});

test('the window index: walked once, then kept by its watcher; a rename, a folder, a missed event, a delete', async () => {
  // host/changes/workspace_index.py on the bundle: `del` on dicts, keys(), the saved states of an open start
  const { log, at } = setup();
  fs.writeFileSync(at('old.py'), 'x = 1\n');
  fs.writeFileSync(at('conf.ini'), 'a = 1\n');
  const index = mods().host_changes_workspace_index.WorkspaceIndex();
  const late = timers();
  const span = () => mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, index);
  const finish = (s) => { const n = s.record(log, s.end(args([])), args(AGENT)); late.fireAll(); return n; };
  assert.equal(finish(span()), 0);
  fs.renameSync(at('old.py'), at('new.py'));  // between turns, reported
  vscode.__fileChanged(at('old.py'), 'delete');
  vscode.__fileChanged(at('new.py'), 'create');
  fs.mkdirSync(at('pkg'));
  fs.writeFileSync(at('pkg/mod.py'), 'z = 1\n');
  vscode.__fileChanged(at('pkg'), 'create');  // the folder alone
  let current = span();
  assert.equal(index.walks, 1);
  assert.deepEqual(plain(current.before_of(at('old.py'))), { known: true, text: null });
  assert.deepEqual(plain(current.before_of(at('new.py'))), { known: true, text: 'x = 1\n' });
  assert.deepEqual(plain(current.before_of(at('pkg/mod.py'))), { known: true, text: 'z = 1\n' });
  fs.writeFileSync(at('conf.ini'), 'a = 2\n');
  vscode.__state.fileWatchers[1].emitters.change.fire(vscode.Uri.file(at('conf.ini')));  // the index's watcher missed it
  fs.unlinkSync(at('pkg/mod.py'));
  vscode.__fileChanged(at('pkg/mod.py'), 'delete');
  assert.equal(finish(current), 2);
  assert.deepEqual(summary(log), [['conf.ini', 'e2e-agent', false], ['mod.py', 'e2e-agent', false]]);
  current = span();  // the end-of-span check: conf.ini's text is the agent's now
  assert.deepEqual(plain(current.before_of(at('conf.ini'))), { known: true, text: 'a = 2\n' });
  assert.deepEqual(plain(current.before_of(at('pkg/mod.py'))), { known: true, text: null });
  finish(current);
  assert.equal(index.starts.length, 0);
  index.dispose();
  assert.equal(vscode.__state.fileWatchers.length, 0);
});

test('the walk after a span finds what no watcher reported: a change, a new file, a deleted one', async () => {
  const { log, at } = setup();
  fs.mkdirSync(at('sub'));
  fs.writeFileSync(at('sub/c.txt'), 'before\n');
  fs.writeFileSync(at('sub/gone.txt'), 'gone\n');
  const walk = timers();
  const index = mods().host_changes_workspace_index.WorkspaceIndex(null, walk);
  const late = timers();
  let span = mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, index);
  fs.writeFileSync(at('sub/c.txt'), 'changed unseen, longer\n');
  fs.writeFileSync(at('sub/made.txt'), 'made unseen\n');
  fs.unlinkSync(at('sub/gone.txt'));
  span.record(log, span.end(args([])), args(AGENT));
  late.fireAll();  // the span closes: the walk is due
  while (walk.pending.length) walk.fireAll();
  assert.deepEqual(Object.keys(plain(index.dirty)).sort(), ['k:' + at('sub/c.txt'), 'k:' + at('sub/gone.txt'), 'k:' + at('sub/made.txt')]);
  span = mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, index);
  assert.deepEqual(plain(span.before_of(at('sub/c.txt'))), { known: true, text: 'changed unseen, longer\n' });
  assert.deepEqual(plain(span.before_of(at('sub/made.txt'))), { known: true, text: 'made unseen\n' });
  assert.deepEqual(plain(span.before_of(at('sub/gone.txt'))), { known: true, text: null });
  span.end(args([]));
  late.fireAll();
  index.dispose();
  assert.equal(walk.pending.length, 0);
});

test('the warm-up: the first walk a slice a tick, what changes meanwhile taken in, a start that waits or not', async () => {
  // host/changes/workspace_index.py `warm`/`ready` on the bundle: the walk's stack kept between ticks, the promise
  const { at } = setup();
  for (const folder of ['a', 'b', 'c']) {
    fs.mkdirSync(at(folder));
    for (let i = 0; i < 300; i++) fs.writeFileSync(at(`${folder}/f${i}.txt`), `${folder} ${i}\n`);
  }
  const walk = timers();
  const late = timers();
  const index = mods().host_changes_workspace_index.WorkspaceIndex(null, walk);
  index.slice_ms = 0;  // a slice of VERIFY_SLICE entries a tick
  const waiting = index.ready(args([at('').replace(/\/$/, '')]));
  assert.ok(waiting instanceof Promise);
  assert.equal(index.listed_count, 0);
  let settled = false;
  waiting.then(() => { settled = true; });
  walk.fireAll();  // the root and two folders of 300 (VERIFY_SLICE: 500 entries, a folder read whole)
  assert.equal(index.listed_count, 600);
  assert.equal(walk.pending.length, 1);
  const read = index.names['p:' + at('a/f1.txt')] ? 'a' : (index.names['p:' + at('b/f1.txt')] ? 'b' : 'c');
  fs.writeFileSync(at(`${read}/f1.txt`), 'changed after its folder was read\n');
  vscode.__fileChanged(at(`${read}/f1.txt`), 'change');
  fs.writeFileSync(at(`${read}/new.txt`), 'made meanwhile\n');
  vscode.__fileChanged(at(`${read}/new.txt`), 'create');
  walk.fireAll();
  await waiting;
  assert.ok(settled);
  assert.equal(index.listed_count, 900);
  const span = mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, index);
  assert.deepEqual(plain(span.before_of(at(`${read}/f1.txt`))), { known: true, text: 'changed after its folder was read\n' });
  assert.deepEqual(plain(span.before_of(at(`${read}/new.txt`))), { known: true, text: 'made meanwhile\n' });
  assert.equal(index.walks, 1);
  span.end(args([]));
  late.fireAll();
  index.dispose();
  // a start before the warm-up ended finishes it at once
  const again = mods().host_changes_workspace_index.WorkspaceIndex(null, walk);
  again.slice_ms = 0;
  again.warm(args([at('').replace(/\/$/, '')]));
  walk.fireAll();
  const early = mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, again);
  assert.equal(again.listed_count, 901);
  assert.deepEqual(plain(early.before_of(at('c/f299.txt'))), { known: true, text: 'c 299\n' });
  early.end(args([]));
  late.fireAll();
  again.dispose();
  while (walk.pending.length) walk.fireAll();
  assert.equal(vscode.__state.fileWatchers.length, 0);
});

test('one index for the window: an ACP turn and a door\'s watch that overlap both stay exact', async () => {
  const { log, at } = setup();
  fs.writeFileSync(at('shared.txt'), 'before both\n');
  fs.writeFileSync(at('door.txt'), 'before the CLI\n');
  const late = timers();
  const windowIndex = mods().host_changes_window_index.WindowIndex(null,
    () => mods().host_changes_workspace_index.WorkspaceIndex(null, timers()));
  const span = () => mods().host_changes_disk_changes.DiskChangeSpan(null, null, late, null, windowIndex.index());
  const quiet = timers();
  const watch = mods().host_doors_watch.DoorWatch(log, span, quiet, () => 0, null, windowIndex.ready);
  watch.attach(args({ client: 'Claude Code', session: 'claudeCode-1', turn: null }));
  await new Promise((resolve) => setImmediate(resolve));
  while (!watch._span) {  // the door's span waits for the index's walk in the background
    windowIndex.index().timers.fireAll();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const turn = span();
  fs.writeFileSync(at('shared.txt'), 'the agent wrote\n');
  vscode.__fileChanged(at('shared.txt'), 'change');
  assert.equal(turn.record(log, turn.end(args([])), args(AGENT)), 1);
  late.fireAll();
  const second = span();
  assert.equal(second.before_of(at('shared.txt')).text, 'the agent wrote\n');
  assert.equal(watch._span.before_of(at('shared.txt')).text, 'before both\n');
  fs.writeFileSync(at('door.txt'), 'the CLI wrote\n');
  vscode.__fileChanged(at('door.txt'), 'change');
  assert.equal(watch.flush(), 1);
  assert.equal(log.entry(at('door.txt')).base, 'before the CLI\n');
  assert.equal(log.entry(at('shared.txt')).base, 'before both\n');
  assert.equal(windowIndex.index().walks, 1);
  second.end(args([]));
  watch.dispose();
  late.fireAll();
  windowIndex.index().dispose();
  assert.equal(vscode.__state.fileWatchers.length, 0);
});
