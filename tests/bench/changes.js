// inv bench, section "changes": what the change log costs, on the transpiled modules (build/testing.js) with
// tests/node/fake_vscode.js.
//   node --expose-gc tests/bench/changes.js  → one JSON line
// 1. A tracked write: editor_edit_file (one line replaced) and file_write (the whole file) on files of 1, 10 and
//    100 kB, through the registry of a window with the change log (the write checked, diffed into hunks and
//    recorded; the log saved a moment later) and of one without it, in turns (RUNS rounds of each, medians).
//    The fake VS Code applies an edit in microseconds where a real one takes milliseconds (a round trip to the
//    renderer and a save), so the ratio here is an upper bound of what a user's write pays.
// 2. Memory of 1,000 pending hunks: 100 files of 200 lines (~5 kB), 10 hunks each, recorded; the JS heap after a
//    full GC, against the same texts held without the log (the floor: the log must keep before and after).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing } = require('../node/harness');

const t = testing();
const args = (value) => t.js_json.parse_json(JSON.stringify(value));
const RUNS = 41;
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

function lines(count, tag) {
  let text = '';
  for (let i = 0; i < count; i++) text += `    value_${i} = compute(${i}, "${tag}")  # line ${i}\n`;
  return text;
}

async function call(registry, name, value, author) {
  const toolCall = t.core_tools.ToolCall();
  toolCall.author = author;
  const result = await registry.call(name, args(value), toolCall);
  if (result.isError) throw new Error(name + ': ' + result.content[0].text);
}

async function writes() {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-changes-bench-')));
  vscode.__openFolders([folder]);
  vscode.__setSetting('hermes.tools.confirm', 'never');
  const context = vscode.__makeContext();
  const services = t.host_services.register_services(context);
  const tracked = t.tools_catalog.build_registry(null, services);
  const s = services;  // the same window's services without the change log (positional: Transcrypt's calling convention)
  const plain = t.tools_catalog.build_registry(null, t.core_tools.Services(s._terminals, s._debugging, s._reviews,
    s.language, s.tabs, s.configuration, null, s.git, s.paths, s.commands, s.tasks, s.files, s.documents,
    s.search));
  const author = args({ client: 'bench', session: null, turn: null });
  const results = {};
  for (const kb of [1, 10, 100, 1024]) {  // issue 34: 1 kB, 100 kB and 1 MB
    const count = Math.round(kb * 1024 / 48);
    for (const [label, registry] of [['tracked', tracked], ['plain', plain]]) {
      fs.writeFileSync(path.join(folder, `${label}-${kb}.py`), lines(count, 'a'));
    }
    const middle = `    value_${Math.floor(count / 2)} = compute(${Math.floor(count / 2)}, "a")  # line ${Math.floor(count / 2)}`;
    const times = { edit: { tracked: [], plain: [] }, write: { tracked: [], plain: [] } };
    const texts = [lines(count, 'a'), lines(count, 'b')];
    for (let round = 0; round < RUNS + 2; round++) {
      for (const [label, registry] of [['tracked', tracked], ['plain', plain]]) {
        const file = `${label}-${kb}.py`;
        const [from, to] = round % 2 ? [middle + '  # edited', middle] : [middle, middle + '  # edited'];
        let started = process.hrtime.bigint();
        await call(registry, 'editor_edit_file', { path: file, edits: [{ old_text: from, new_text: to }] }, author);
        const edit = Number(process.hrtime.bigint() - started) / 1e6;
        started = process.hrtime.bigint();
        await call(registry, 'file_write', { path: `w-${file}`, content: texts[round % 2] }, author);
        const write = Number(process.hrtime.bigint() - started) / 1e6;
        if (round >= 2) {  // two warm-up rounds
          times.edit[label].push(edit);
          times.write[label].push(write);
        }
      }
    }
    results[kb] = {
      edit: { tracked: median(times.edit.tracked), plain: median(times.edit.plain) },
      write: { tracked: median(times.write.tracked), plain: median(times.write.plain) },
    };
  }
  context.disposeAll();
  return results;
}

function memory() {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-changes-mem-')));
  vscode.__openFolders([folder]);
  const author = args({ client: 'bench', session: null, turn: null });
  const fresh = (text) => JSON.parse(JSON.stringify(text));  // a flat string of its own
  const makeFiles = () => {
    const files = [];
    for (let f = 0; f < 100; f++) {
      const before = lines(200, 'f' + f);
      const after = before.split('\n');
      for (let h = 0; h < 10; h++) after[h * 20 + 5] = after[h * 20 + 5] + '  # changed by the agent';
      files.push([path.join(folder, `f${f}.py`), fresh(before), fresh(after.join('\n'))]);
    }
    return files;
  };
  global.gc();
  let start = process.memoryUsage().heapUsed;
  let held = makeFiles();  // the floor: the same texts, held in a plain array
  global.gc();
  const floor = process.memoryUsage().heapUsed - start;
  const chars = held.reduce((n, f) => n + f[1].length + f[2].length, 0);
  held = null;
  global.gc();
  start = process.memoryUsage().heapUsed;
  const log = t.host_changes_log.ChangeLog(null, null, null, null, null, (p) => true, null);
  for (const [file, before, after] of makeFiles()) log.record(file, before, after, author);
  global.gc();
  const used = process.memoryUsage().heapUsed - start;
  return { hunks: log.summary(null).hunks, files: log.paths().length, heap_bytes: used, texts_bytes: floor, chars };
}

(async () => {
  const result = { writes: await writes(), memory: memory() };
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(1); });
