// toolchain/parity/replay.js itself: a vector whose recorded CPython outcome differs from the bundle's
// fails the run and is printed as `module.function(args): CPython → X, bundle → Y`.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const replay = path.join(__dirname, '..', '..', 'toolchain', 'parity', 'replay.js');

function run(vectors, traces = {}) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-parity-')), 'vectors.json');
  fs.writeFileSync(file, JSON.stringify({
    functions: { 'hermes.core.values:json_type': 'sync', 'hermes.core.strip_chars:lstrip_chars': 'sync' },
    skipped: {}, not_replayed: {}, equivalent: {}, adapted: {}, vectors,
    classes: { 'hermes.core.sse_parser:SseParser': ['feed'] }, poisoned: {}, traces,
  }));
  return spawnSync(process.execPath, ['-r', path.join(__dirname, 'harness.js'), replay, file], { encoding: 'utf8' });
}

test('replay passes when the bundle agrees with the recorded outcomes', () => {
  const result = run({
    'hermes.core.values:json_type': [{ args: [[1, 2]], kwargs: {}, returns: 'array' }],
    'hermes.core.strip_chars:lstrip_chars': [{ args: ['  \tx', ' '], kwargs: {}, returns: '\tx' }],
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /parity: 2 functions, 2 vectors replayed .* core\/ coverage 2\/2 functions \(100%\).* 0 differences/);
});

test('replay fails and names the call when the outcomes differ', () => {
  const result = run({
    'hermes.core.values:json_type': [
      { args: [{ a: 1 }], kwargs: {}, returns: 'list' },
      { args: ['x'], kwargs: {}, raises: { type: 'ValueError', message: 'no' } },
    ],
  });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /✗ core\.values\.json_type\(\{"a":1\}\): CPython → "list", bundle → "object"/);
  assert.match(result.stdout, /✗ core\.values\.json_type\("x"\): CPython → raises ValueError\("no"\), bundle → "string"/);
  assert.match(result.stdout, /2 differences/);
});

test('an object trace replays its calls in order and compares the state they leave', () => {
  const feed = (text, events) => ({ method: 'feed', args: [text], kwargs: {}, returns: events });
  const result = run({}, {
    'hermes.core.sse_parser:SseParser': [{
      class: 'hermes.core.sse_parser:SseParser', args: [[], {}],
      calls: [feed('retry: 7\ndata: a', []), feed('\n\n', [{ event: 'message', data: 'a', id: null }])],
      state: { retry_ms: 8 },
    }],
  });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /✗ core\.sse_parser\.SseParser\(\) after 2 calls, \.retry_ms: CPython → 8, bundle → 7/);
  assert.match(result.stdout, /1 classes, 1 object traces \(2 method calls\)/);
});
