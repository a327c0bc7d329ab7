// The change log when the extension host is killed (SIGKILL) in the middle of writing it (docs/RELIABILITY.md),
// on the transpiled bundle: half way through a journal line, half way through the snapshot's temporary file, just
// before the snapshot's rename, and at moments nobody chose. Every change whose record() had returned (a tool's
// result sent, the views told) is there after the restart; nothing half-written is ever loaded, and the next
// window starts without a warning (no corrupt file, the dead writer's temporary file removed).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { testing } = require('./harness');

const WRITER = path.join(__dirname, 'change_log_writer.js');

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
      if (signal !== 'SIGKILL') reject(new Error(`the writer ended by itself (${code}): ${lines.join('\n')}\n${stderr}`));
      else resolve({ acked, lines });
    });
  });
}

function loadAgain(folder) {
  const reports = [];
  const t = testing();
  const store = t.host_changes_store.ChangeStore(path.join(folder, 'changes.json'), (m) => reports.push(m));
  const log = t.host_changes_log.ChangeLog(null, store, null, null, null, () => true, null);
  const paths = JSON.parse(t.js_json.dump_json(log.paths()));
  const shared = log.entry('/ws/shared.txt');
  return { paths, shared: shared ? shared.text.split('\n')[0] : null, reports };
}

const fresh = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-change-faults-'));
const files = (count) => Array.from({ length: count }, (_, i) => `/ws/f${i + 1}.txt`);

for (const pauseAt of ['journal', 'snapshot', 'rename']) {
  test(`killed ${{ journal: 'half way through a journal line', snapshot: 'half way through writing the snapshot',
    rename: 'just before renaming the snapshot' }[pauseAt]}: every acknowledged change is there, nothing half-written`, async () => {
    const folder = fresh();
    const { acked, lines } = await runAndKill(folder, 6, pauseAt, (line) => line.startsWith('paused '));
    assert.deepEqual(lines.slice(-1), ['paused 6']);
    assert.equal(acked, pauseAt === 'journal' ? 5 : 6);  // the snapshot's turn was acknowledged before it began
    if (pauseAt !== 'journal') {
      assert.equal(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp')).length, 1, 'the cut snapshot');
    }
    const { paths, shared, reports } = loadAgain(folder);
    assert.deepEqual(reports, []);
    assert.deepEqual(paths.filter((p) => p !== '/ws/shared.txt'), files(acked));
    assert.equal(shared, `shared ${acked}`);
    assert.deepEqual(fs.readdirSync(folder).filter((name) => name.endsWith('.tmp')), [], 'the next window removes it');
    JSON.parse(fs.readFileSync(path.join(folder, 'changes.json'), 'utf8'));  // whole, and the journal taken in
    assert.equal(fs.existsSync(path.join(folder, 'changes.journal')), false);
    assert.deepEqual(loadAgain(folder).paths, paths, 'and the same again on the start after');
  });
}

test('killed at moments nobody chose: what was acknowledged is always there, and the log always loads', async () => {
  for (let round = 0; round < 12; round++) {
    const folder = fresh();
    const after = 2 + (round % 5) * 3;  // kill right after an acknowledgement, while the next turn or a snapshot runs
    const { acked } = await runAndKill(folder, 200, 'none', (line) => line === `acked ${after}`);
    assert.ok(acked >= after);
    const { paths, shared, reports } = loadAgain(folder);
    assert.deepEqual(reports, []);
    const created = paths.filter((p) => p !== '/ws/shared.txt');
    assert.deepEqual(created.slice(0, acked), files(acked), `round ${round}: the ${acked} acknowledged turns`);
    assert.ok(created.length <= acked + 1, 'at most the turn in flight on top');
    assert.ok([`shared ${acked}`, `shared ${acked + 1}`].includes(shared), shared);
  }
});
