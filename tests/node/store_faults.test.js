// The conversation store when its world fails (docs/RELIABILITY.md), on the transpiled bundle:
// - the extension host killed (SIGKILL) in the middle of a write: half way through the temporary file, just
//   before the rename, and at moments nobody chose: every acknowledged (written) turn is there, nothing is
//   half-written, the next window loads it without a warning and removes the dead writer's temporary file;
// - killed right after a turn, before the write behind it ran: that turn is what is lost, the file holds the turns
//   before it, whole (the durability decided in host/chat/conversation_store.py);
// - the disk full or the folder read-only: one clear error, the conversations go on in memory, the stored file
//   stays as it was, and saving resumes once the folder is writable.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing, storeWritten } = require('./harness');

const WRITER = path.join(__dirname, 'store_writer.js');

function titles(folder) {
  const text = fs.readFileSync(path.join(folder, 'conversations.json'), 'utf8');
  return JSON.parse(text).conversations.map((c) => c.title.split(' ').slice(0, 2).join(' '));  // throws if half-written
}

// Runs the writer; `killWhen(line)` says after which line of its output to SIGKILL it. Resolves with the last
// acknowledged turn and the lines it printed.
function runAndKill(folder, turns, pauseAt, killWhen) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, folder, String(turns), pauseAt], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = [];
    let acked = 0, buffered = '', stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop();
      for (const line of parts) {
        lines.push(line);
        if (line.startsWith('acked ')) acked = Number(line.slice(6));
        if (killWhen(line)) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer ended by itself (${code}): ${stderr}`));
      else resolve({ acked, lines });
    });
  });
}

function freshFolder() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-store-faults-'));
}

function loadAgain(folder) {
  const warnings = [];
  const log = { warn: (m) => warnings.push(m), info: () => {}, error: (m) => warnings.push(m) };
  const store = testing().host_chat_conversation_store.load_store(path.join(folder, 'conversations.json'), log);
  return { store, warnings };
}

for (const pauseAt of ['write', 'rename']) {
  test(`killed ${pauseAt === 'write' ? 'half way through writing' : 'just before renaming'} the temporary file: ` +
       'every acknowledged turn is stored, nothing is half-written', async () => {
    const folder = freshFolder();
    const { acked, lines } = await runAndKill(folder, 6, pauseAt, (line) => line.startsWith('paused '));
    assert.equal(acked, 5);
    assert.deepEqual(lines.slice(-1), ['paused 6']);
    const leftovers = fs.readdirSync(folder).filter((name) => name.endsWith('.tmp'));
    assert.equal(leftovers.length, 1, 'the kill left the temporary file of the cut write');
    assert.deepEqual(titles(folder), ['turn 1', 'turn 2', 'turn 3', 'turn 4', 'turn 5']);  // whole: the five acknowledged
    const { store, warnings } = loadAgain(folder);
    assert.deepEqual(warnings, []);
    assert.equal(store.conversations.length, 5);
    assert.deepEqual(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp')), [], 'the next window removes it');
  });
}

test('killed right after a turn, before its write behind: the turns before it are stored whole, that one is lost', async () => {
  const folder = freshFolder();
  const { acked, lines } = await runAndKill(folder, 4, 'behind', (line) => line.startsWith('paused '));
  assert.equal(acked, 3);
  assert.deepEqual(lines.slice(-1), ['paused 4']);
  assert.deepEqual(titles(folder), ['turn 1', 'turn 2', 'turn 3']);
  const { store, warnings } = loadAgain(folder);
  assert.deepEqual(warnings, []);
  assert.equal(store.conversations.length, 3);
});

test('killed at moments nobody chose: what was acknowledged is always there, and the file always loads', async () => {
  for (let round = 0; round < 12; round++) {
    const folder = freshFolder();
    const after = 1 + (round % 4);  // kill right after the 1st…4th acknowledgement, while the next write runs
    const { acked } = await runAndKill(folder, 40, 'none', (line) => line === `acked ${after}`);
    assert.ok(acked >= after);
    const stored = titles(folder);
    for (let turn = 1; turn <= acked; turn++) assert.ok(stored.includes(`turn ${turn}`), `turn ${turn} of ${acked} acknowledged`);
    assert.ok(stored.length <= acked + 1, 'at most the write in flight on top');
    const { warnings } = loadAgain(folder);
    assert.deepEqual(warnings, []);
  }
});

test('a full disk or a read-only folder: one clear error, work goes on in memory, the stored file is unchanged', async () => {
  const t = testing();
  vscode.__reset();
  const folder = freshFolder();
  const context = vscode.__makeContext();
  context.storageUri = vscode.Uri.file(folder);
  const warnings = [];
  const log = { warn: (m) => warnings.push(m), info: (m) => warnings.push('info ' + m), error: (m) => warnings.push(m) };
  const store = t.host_chat_conversation_store.register_conversation_store(context, log);
  const message = (text) => t.js_json.parse_json(JSON.stringify({ role: 'user', text }));
  // a change, then its write behind it (each change its own write here)
  const say = async (text) => { const c = store.create(); c.add(message(text)); store.put(c); await storeWritten(); return c; };
  await say('saved before');
  const file = path.join(folder, 'conversations.json');
  const open = fs.openSync;
  for (const code of ['ENOSPC', 'EROFS']) {
    const before = fs.readFileSync(file, 'utf8');
    fs.openSync = function (target, ...rest) {  // as the kernel answers: no space left / read-only file system
      if (String(target).startsWith(file)) {
        const error = new Error(`${code}: ${code === 'ENOSPC' ? 'no space left on device' : 'read-only file system'}, open '${target}'`);
        error.code = code;
        throw error;
      }
      return open.call(fs, target, ...rest);
    };
    vscode.__state.messages = [];
    try {
      await say(`lost to ${code} 1`);
      await say(`lost to ${code} 2`);
    } finally {
      fs.openSync = open;
    }
    const errors = vscode.__state.messages.filter((m) => m[0] === 'error');
    assert.equal(warnings.filter((w) => w.startsWith('Conversations: could not save') && w.includes(code)).length, 2, 'two writes failed');
    assert.equal(errors.length, 1, 'told once, not at every write');
    assert.match(errors[0][1], /^Hermes cannot save conversations to .*conversations\.json \(the disk is full or the folder is read-only; see the Hermes log\)\. They are kept for this window; what was saved before is unchanged/);
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'the stored file is untouched');
    assert.deepEqual(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp')), []);
    assert.deepEqual(store.conversations.map((c) => c.title).slice(-2), [`lost to ${code} 1`, `lost to ${code} 2`]);  // kept in memory
    assert.ok(warnings.some((w) => w.includes(code)), warnings.join('\n'));
    await say(`writable after ${code}`);  // saving resumes, with what was kept in memory
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')).conversations.map((c) => c.title);
    assert.deepEqual(stored.slice(-3), [`lost to ${code} 1`, `lost to ${code} 2`, `writable after ${code}`]);
    assert.ok(stored.includes('saved before'));
    assert.ok(warnings.includes('info Conversations: saving to ' + file + ' works again.'));
  }
});
