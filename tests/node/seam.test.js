// The seam's JS-only behaviour, on the transpiled module (build/testing.js). Each test here would
// fail if a rule from docs/TRANSCRYPT.md were dropped (strict banner, JsError, undefined handling).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { testing, kwargs } = require('./harness');

// The seam's modules (hermes/js/objects, errors, json) as one namespace.
const seam = () => ({ ...testing().js_objects, ...testing().js_errors, ...testing().js_json });

test('keyword arguments reach the callee (needs the "use strict" banner)', () => {
  assert.equal(seam().dump_json({ a: 1 }, kwargs({ indent: 2 })), '{\n  "a": 1\n}');
  assert.equal(seam().dump_json({ a: 1 }), '{"a":1}');
  assert.equal(seam().dump_json({ t: 'é ✓ \u202e' }), '{"t":"é ✓ \u202e"}');  // as test_seam.py expects
});

test('undefined counts as None and becomes null in JSON', () => {
  assert.equal(seam().or_none(undefined), null);
  assert.equal(seam().dump_json({ a: undefined, b: [undefined] }), '{"a":null,"b":[null]}');
});

test('a JS SyntaxError from JSON.parse is caught and raised as a Python ValueError', () => {
  assert.throws(() => seam().parse_json('{"a": '), (error) => {
    assert.equal(error.__class__.__name__, 'ValueError');
    assert.match(String(error.__str__()), /JSON/);
    return true;
  });
});

test('parsed objects are dicts: .get works on them in transpiled code', () => {
  const parsed = seam().parse_json('{"outer": {"inner": 5}, "list": [{"x": 1}]}');
  assert.equal(parsed.py_get('outer').py_get('inner'), 5);
  assert.equal(parsed.py_get('missing', 'fallback'), 'fallback');
  assert.equal(parsed.py_get('list')[0].py_get('x'), 1);
});

test('dict() copies a plain object onto the shared dict prototype; keys the copy cannot own keep the old way', () => {
  const { dict } = testing().runtime;
  const plain = { a: 1, list: [2] };
  const copy = dict(plain);
  assert.notEqual(copy, plain);  // a copy, as Python's dict(x)
  assert.deepEqual([copy.py_keys(), copy.py_get('a'), JSON.stringify(copy)], [['a', 'list'], 1, '{"a":1,"list":[2]}']);
  assert.equal(Object.getPrototypeOf(plain), Object.prototype);  // the original is left as it was
  // '__proto__' from JSON is an own key: kept as data, the prototype stays the dict's
  const hostile = dict(JSON.parse('{"a": 1, "__proto__": {"polluted": true}, "py_keys": "x"}'));
  assert.deepEqual(Object.keys(hostile), ['a', '__proto__', 'py_keys']);
  assert.equal(hostile.polluted, undefined);
  assert.equal(hostile.py_get('a'), 1);
  assert.equal(dict(JSON.parse('{"constructor": 5}')).constructor, 5);
});

test('error_message reads JS Errors, Python exceptions and thrown strings', () => {
  assert.equal(seam().error_message(new TypeError('bad type')), 'bad type');
  assert.equal(seam().error_message('just text'), 'just text');
  assert.equal(seam().error_message(undefined), 'unknown error');
  assert.throws(() => seam().parse_json('nope'), (error) => {
    assert.match(seam().error_message(error), /JSON|Unexpected token/);
    return true;
  });
});

test('to_js_callback turns Python exceptions into real JS Errors, sync and async', async () => {
  const failing = seam().to_js_callback(() => seam().parse_json('{'));
  assert.throws(failing, (error) => error instanceof Error && /JSON|Unexpected/.test(error.message));
  const passthrough = seam().to_js_callback((x) => x * 2);
  assert.equal(passthrough(21), 42);
  const rejecting = seam().to_js_callback(async () => seam().parse_json('{'));
  await assert.rejects(rejecting(), (error) => error instanceof Error);
});

test('new() constructs JS classes with arguments', () => {
  const date = seam().py_new ? seam().py_new(Date, 0) : seam()['new'](Date, 0);
  assert.equal(date.getTime(), 0);
});

test("local_time_text writes what Date's toLocaleString writes (one formatter, made once), in other time zones too", () => {
  const { local_time_text } = testing().js_clock;
  const times = [0, 1.7e12, 1764974400000, 1782000000123, Date.UTC(2026, 11, 31, 23, 59, 59)];
  for (const ms of times) assert.equal(local_time_text(ms), new Date(ms).toLocaleString());
  const { execFileSync } = require('child_process');
  const script = `const c = require(${JSON.stringify(require.resolve('./harness'))}).testing().js_clock;` +
    `process.stdout.write(JSON.stringify(${JSON.stringify(times)}.map((ms) => [c.local_time_text(ms), new Date(ms).toLocaleString()])))`;
  for (const [TZ, LANG] of [['Asia/Kolkata', 'de_DE.UTF-8'], ['America/St_Johns', 'C']]) {
    const pairs = JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ, LANG } }));
    for (const [ours, theirs] of pairs) assert.equal(ours, theirs);
  }
});
