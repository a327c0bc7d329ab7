// inv bench, section "spans": what a span of disk changes (host/changes/disk_changes.py) costs at its start, on the
// transpiled modules (build/testing.js) with tests/node/fake_vscode.js, in generated workspaces of 1,000 and 10,000
// small files (100 a folder, as tests/bench/run.py generate_workspace):
// 1. a start that walks the workspace (a span without the window's index: `terminal_run` before session 13's end)
//    against one from the window's index, walked already (only what the watcher reported is stated): medians;
// 2. the index's first walk: all at once (a start that finds it unwalked) against the warm-up in the background
//    (VERIFY_SLICE entries a tick): the longest the event loop is held;
// 3. memory: the JS heap after a full GC with one index walked, and with two (the ACP sessions and the doors each
//    had their own before).
//   node --expose-gc tests/bench/spans.js <folder of ws-1000, ws-10000>  → one JSON line
'use strict';
const fs = require('fs');
const path = require('path');
const { vscode, testing } = require('../node/harness');

const t = testing();
const args = (value) => t.js_json.parse_json(JSON.stringify(value));
const RUNS = 21;
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const noTimers = { after: () => null, cancel: () => {} };
const loopTimers = { after: (callback, delay) => setTimeout(callback, delay), cancel: (handle) => clearTimeout(handle) };

function spanCost(folder, index) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const span = t.host_changes_disk_changes.DiskChangeSpan(null, null, noTimers, null, index);
    times.push(ms(start));
    span.stop();
  }
  return median(times);
}

async function warmUp(folder) {
  const index = t.host_changes_workspace_index.WorkspaceIndex(null, loopTimers);
  let last = process.hrtime.bigint(), longest = 0, running = true;
  const tick = () => { const at = process.hrtime.bigint(); longest = Math.max(longest, Number(at - last) / 1e6); last = at; if (running) setImmediate(tick); };
  setImmediate(tick);
  const start = process.hrtime.bigint();
  await index.ready(args([folder]));
  const total = ms(start);
  running = false;
  longest = Math.max(longest, ms(last));  // the last slice, when the walk's end came before the next tick
  index.dispose();
  return { longest_ms: longest, total_ms: total };
}

function heap() {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
}

async function main() {
  const out = {};
  for (const name of process.argv.slice(2)) {
    const folder = fs.realpathSync(name);
    vscode.__reset();
    vscode.__openFolders([folder]);
    const walked = spanCost(folder, null);
    const index = t.host_changes_workspace_index.WorkspaceIndex(null, noTimers);
    let start = process.hrtime.bigint();
    t.host_changes_disk_changes.DiskChangeSpan(null, null, noTimers, null, index).stop();
    const firstAtOnce = ms(start);
    const indexed = spanCost(folder, index);
    index.dispose();
    const warm = await warmUp(folder);
    const base = heap();
    const one = t.host_changes_workspace_index.WorkspaceIndex(null, noTimers);
    one.begin(args([folder])).close();
    const oneBytes = heap() - base;
    const two = t.host_changes_workspace_index.WorkspaceIndex(null, noTimers);
    two.begin(args([folder])).close();
    const twoBytes = heap() - base;
    one.dispose();
    two.dispose();
    out[path.basename(folder)] = { walked_ms: walked, indexed_ms: indexed, first_at_once_ms: firstAtOnce,
      warm_longest_ms: warm.longest_ms, warm_total_ms: warm.total_ms, one_index_bytes: oneBytes,
      two_indexes_bytes: twoBytes };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
