// A window's conversation store writing, turn after turn, in a process of its own so a test can SIGKILL it
// (tests/node/store_faults.test.js). The bundle's own store (build/testing.js) over the fake vscode.
//   node tests/node/store_writer.js <storage folder> <turns> [pause-at: write | rename | behind | none]
// Prints "acked N" once turn N is written (the store writes behind its changes, SAVE_QUIET_MS after the last one:
// host/chat/conversation_store.py). With `pause-at`, the write of the last turn stops half way through the
// temporary file (`write`) or just before the rename (`rename`), or the last turn is changed and its write never
// gets to run (`behind`: the extension host dies right after a turn), prints "paused N", and waits there forever:
// the test kills it at that exact point.
'use strict';
const fs = require('fs');
const { vscode, testing, storeWritten } = require('./harness');

const [folder, turns, pauseAt] = [process.argv[2], Number(process.argv[3]), process.argv[4] || 'none'];
const t = testing();
const say = (line) => fs.writeSync(1, line + '\n');  // synchronous: the line is out before a pause begins
const forever = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);  // blocks this thread
let turn = 0;
if (pauseAt === 'write') {
  const write = fs.writeFileSync;
  fs.writeFileSync = function (target, text, ...rest) {
    if (typeof target !== 'number' || turn < turns) return write.call(fs, target, text, ...rest);
    fs.writeSync(target, text.slice(0, Math.floor(text.length / 2)));  // half of the temporary file
    say(`paused ${turn}`);
    return forever();
  };
} else if (pauseAt === 'rename') {
  const rename = fs.renameSync;
  fs.renameSync = function (...args) {
    if (turn < turns) return rename.apply(fs, args);
    say(`paused ${turn}`);
    return forever();
  };
}
const context = vscode.__makeContext();
context.storageUri = vscode.Uri.file(folder);
const log = { warn: (m) => say('warn ' + m), info: () => {}, error: (m) => say('error ' + m) };
const store = t.host_chat_conversation_store.register_conversation_store(context, log);
const message = (text) => t.js_json.parse_json(JSON.stringify({ role: 'user', text }));
(async () => {
  for (turn = 1; turn <= turns; turn++) {
    const conversation = store.create();
    conversation.add(message(`turn ${turn} ` + 'x'.repeat(100000)));  // big enough that a write takes a while
    store.put(conversation);
    if (pauseAt === 'behind' && turn === turns) {
      say(`paused ${turn}`);
      forever();
    }
    await storeWritten();
    say(`acked ${turn}`);
  }
})();
