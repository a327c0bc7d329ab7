// The SSE parser (hermes.core.sse_parser) as transpiled: the same sample stream split at every point,
// one UTF-16 unit at a time (astral characters split in half), and the JS-only hazards (undefined input,
// loose ==, string indexing) that CPython cannot show.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { testing } = require('./harness');

const parserModule = () => {
  const module = testing().core_sse_parser;
  if (!module) throw new Error('build/testing.js has no hermes.core.sse_parser: it is transpiled with the CLI entry, '
    + 'py_src/hermes/mcp_server_cli.py (inv build)');
  return module;
};
const plain = (value) => JSON.parse(JSON.stringify(value));
const ev = (data, event = 'message', id = null) => ({ event, data, id });

function parseAll(chunks) {
  const parser = parserModule().SseParser();
  const events = [];
  for (const chunk of chunks) events.push(...parser.feed(chunk));
  return { events: plain(events), parser };
}

const SAMPLE =
  '\ufeff: keep-alive comment\r\n' +
  'retry: 3000\n' +
  'event: endpoint\r\n' +
  'data: /messages?sessionId=abc\r\r' +
  'id: 1\n' +
  'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n' +
  'data:first line\r' +
  'data:  second line (one space kept)\r' +
  'data\r\n' +
  '\r' +
  'event: notice\n' +
  'id\n' +
  'data: after an empty id\n' +
  'unknown: field is ignored\n' +
  '\n' +
  'event: no-data-is-not-dispatched\n' +
  '\n' +
  'data: ünïcödé ✓ 🚀\n\n' +
  'data: unterminated';

const SAMPLE_EVENTS = [
  ev('/messages?sessionId=abc', 'endpoint'),
  ev('{"jsonrpc":"2.0","id":1,"result":{}}', 'message', '1'),
  ev('first line\n second line (one space kept)\n', 'message', '1'),
  ev('after an empty id', 'notice', ''),
  ev('ünïcödé ✓ 🚀', 'message', ''),
];

test('the sample stream in one chunk', () => {
  const { events, parser } = parseAll([SAMPLE]);
  assert.deepEqual(events, SAMPLE_EVENTS);
  assert.equal(parser.retry_ms, 3000);
  assert.deepEqual(plain(parser.pending()), ev('unterminated', 'message', ''));
  assert.deepEqual(plain(parser.finish()), []);
  assert.equal(parser.pending(), null);
});

test('the sample stream split once at every point (CR|LF splits included)', () => {
  for (let split = 0; split <= SAMPLE.length; split++) {
    const { events } = parseAll([SAMPLE.slice(0, split), SAMPLE.slice(split)]);
    assert.deepEqual(events, SAMPLE_EVENTS, `split at ${split}`);
  }
});

test('the sample stream split at every pair of points', () => {
  for (let first = 0; first <= SAMPLE.length; first += 2) {
    for (let second = first; second <= SAMPLE.length; second += 3) {
      const { events } = parseAll([SAMPLE.slice(0, first), SAMPLE.slice(first, second), SAMPLE.slice(second)]);
      assert.deepEqual(events, SAMPLE_EVENTS, `split at ${first}, ${second}`);
    }
  }
});

test('one UTF-16 unit at a time, even through a surrogate pair', () => {
  const { events, parser } = parseAll(SAMPLE.split(''));
  assert.deepEqual(events, SAMPLE_EVENTS);
  assert.deepEqual(plain(parser.pending()), ev('unterminated', 'message', ''));
});

test('a lone CR ends a line at once; the LF that follows in the next chunk is not another line', () => {
  const parser = parserModule().SseParser();
  assert.deepEqual(plain(parser.feed('data: b\r')), []);
  assert.deepEqual(plain(parser.feed('\r')), [ev('b')]);
  assert.deepEqual(plain(parser.feed('\n')), []);
  assert.deepEqual(plain(parser.feed('data: c\r\n\r\n')), [ev('c')]);
});

test('undefined, null and empty chunks are harmless', () => {
  const parser = parserModule().SseParser();
  assert.deepEqual(plain(parser.feed(undefined)), []);
  assert.deepEqual(plain(parser.feed(null)), []);
  assert.deepEqual(plain(parser.feed('')), []);
  assert.deepEqual(plain(parser.feed('data: 0\n\n')), [ev('0')]);  // '0' is not falsy data
});

test('retry must be all digits; ids with NUL are ignored; ids carry over', () => {
  const { events, parser } = parseAll(['retry: 1e3\nretry: 20\nid: 7\ndata: a\n\nid: 8\u00009\ndata: b\n\n']);
  assert.deepEqual(events, [ev('a', 'message', '7'), ev('b', 'message', '7')]);
  assert.equal(parser.retry_ms, 20);
  assert.equal(parser.last_event_id, '7');
});

test('a large stream of MCP messages in random chunks', () => {
  let seed = 1234;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const messages = [];
  let text = '';
  const breaks = ['\n', '\r\n', '\r'];
  for (let n = 0; n < 300; n++) {
    const message = JSON.stringify({ jsonrpc: '2.0', id: n, result: { text: 'x'.repeat(random(300)) } });
    messages.push(message);
    const nl = breaks[random(3)];
    text += `event: message${nl}id: ${n}${nl}data: ${message}${nl}${nl}`;
  }
  const chunks = [];
  for (let position = 0; position < text.length;) {
    const size = 1 + random(97);
    chunks.push(text.slice(position, position + size));
    position += size;
  }
  const { events } = parseAll(chunks);
  assert.deepEqual(events.map((e) => e.data), messages);
  assert.equal(events[events.length - 1].id, '299');
});
