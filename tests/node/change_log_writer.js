// The change log recording, turn after turn, in a process of its own so a test can SIGKILL it
// (tests/node/change_log_faults.test.js). The bundle's own log and store (build/testing.js) over the fake vscode.
//   node tests/node/change_log_writer.js <storage folder> <turns> [pause-at: journal | snapshot | rename | none]
// A turn records two changes (a file created, a shared file rewritten) and prints "acked N" once record() has
// returned (a tool's result is sent then; the views have heard of it). With `pause-at`, the last turn stops half
// way through its journal line (`journal`), or records, is acknowledged and then stops half way through writing
// the snapshot (`snapshot`) or just before renaming it (`rename`); it prints "paused N" and waits there for the kill.
// Without it, turns follow each other with a few ms between them, and the log's timers are cut to 20 ms at most
// (the snapshot waits for a quiet second in the product: host/changes/journal.py SNAPSHOT_QUIET_MS), so snapshots run among the turns.
'use strict';
const fs = require('fs');
const path = require('path');
const { testing } = require('./harness');

const [folder, turns, pauseAt] = [process.argv[2], Number(process.argv[3]), process.argv[4] || 'none'];
const t = testing();
const say = (line) => fs.writeSync(1, line + '\n');  // synchronous: the line is out before a pause begins
const forever = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);  // blocks this thread
let turn = 0;
let trapped = false;  // the trap springs once, in the last turn
const last = () => turn === turns && !trapped;
if (pauseAt === 'journal') {
  const append = fs.appendFileSync;
  fs.appendFileSync = function (target, text, ...rest) {
    if (!last() || !String(target).endsWith('changes.journal')) return append.call(fs, target, text, ...rest);
    trapped = true;
    append.call(fs, target, text.slice(0, Math.floor(text.length / 2)), ...rest);  // half of the line
    say(`paused ${turn}`);
    return forever();
  };
} else if (pauseAt === 'snapshot') {
  const write = fs.writeFileSync;
  fs.writeFileSync = function (target, text, ...rest) {
    if (typeof target !== 'number' || !last()) return write.call(fs, target, text, ...rest);
    trapped = true;
    fs.writeSync(target, text.slice(0, Math.floor(text.length / 2)));  // half of the temporary file
    say(`paused ${turn}`);
    return forever();
  };
} else if (pauseAt === 'rename') {
  const rename = fs.renameSync;
  fs.renameSync = function (...args) {
    if (!last() || !String(args[1]).endsWith('changes.json')) return rename.apply(fs, args);
    trapped = true;
    say(`paused ${turn}`);
    return forever();
  };
}
const store = t.host_changes_store.ChangeStore(path.join(folder, 'changes.json'), (m) => say('report ' + m));
const timers = { after: (callback, ms) => setTimeout(callback, Math.min(ms, 20)), cancel: (handle) => clearTimeout(handle) };
const log = t.host_changes_log.ChangeLog(null, store, null, null, null, () => true, timers);
const author = t.js_json.parse_json(JSON.stringify({ client: 'writer', session: 's', turn: null }));
const text = (n) => `shared ${n}\n` + 'x'.repeat(50000) + '\n';  // big enough that a write takes a while
(async () => {
  for (turn = 1; turn <= turns; turn++) {
    log.record(`/ws/f${turn}.txt`, null, `file ${turn}\n` + 'y'.repeat(50000) + '\n', author);
    log.record('/ws/shared.txt', turn === 1 ? null : text(turn - 1), text(turn), author);
    say(`acked ${turn}`);
    if (pauseAt === 'snapshot' || pauseAt === 'rename') {
      if (turn === turns) log.flush();
    } else {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  say('done');
})();
