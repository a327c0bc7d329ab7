// inv bench, section "llm": the embedded agent's own costs on the transpiled modules (build/testing.js).
//   node tests/bench/llm.js  → one JSON line
// 1. SSE parsing throughput: a recorded-style stream of N one-token `chat.completion.chunk` events, cut
//    into network-sized pieces at arbitrary offsets, through the LLM client's path (SseParser +
//    StreamAccumulator). Baseline: the floor — splitting the same text on blank lines and JSON.parse of
//    each event in plain JS.
// 2. Loop overhead per iteration, the LLM's own time excluded: AgentLoop with an in-process client that
//    answers at once (a tool call, then the next one...), 40 iterations over a growing history. Baseline:
//    JSON.stringify of the request bodies the loop built (what any client must at least do per request).
'use strict';
const { testing } = require('../node/harness');

const t = testing();
const json = (value) => t.js_json.parse_json(JSON.stringify(value));

function recordedStream(tokens) {
  const words = ['The', ' quick', ' brown', ' fox', ' jumps', ' over', ' the', ' lazy', ' dog', '.', '\n', ' Über', ' 日本'];
  let text = '';
  for (let i = 0; i < tokens; i++) {
    text += 'data: ' + JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000,
      model: 'qwen2.5:7b', system_fingerprint: 'fp_bench',
      choices: [{ index: 0, delta: { content: words[i % words.length] }, logprobs: null, finish_reason: null }] }) + '\n\n';
  }
  text += 'data: ' + JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + '\n\ndata: [DONE]\n\n';
  const pieces = [];
  let at = 0;
  let size = 1;
  while (at < text.length) { // arbitrary boundaries, 64 B .. 4 kB, like TCP reads
    size = (size * 7919 + 13) % 4033 + 64;
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function parseWithClientCode(pieces) {
  const parser = t.core_sse_parser.SseParser();
  const accumulator = t.core_llm_wire.StreamAccumulator();
  for (const piece of pieces) {
    for (const event of parser.feed(piece)) accumulator.feed_data(event.data, event.event);
  }
  return accumulator.content.length;
}

function parseFloor(pieces) {
  let buffer = '';
  let content = '';
  for (const piece of pieces) {
    buffer += piece;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(6, end);
      buffer = buffer.slice(end + 2);
      if (data !== '[DONE]') content += JSON.parse(data).choices[0].delta.content || '';
    }
  }
  return content.length;
}

function best(fn, runs) {
  let bestMs = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    bestMs = Math.min(bestMs, performance.now() - started);
  }
  return bestMs;
}

async function loopOverhead(iterations) {
  const { Tool, ToolRegistry } = t.core_tools;
  const registry = ToolRegistry();
  registry.add(Tool('echo', 'Echo the text back.', json({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    async (args) => args.text));
  for (let i = 0; i < 30; i++) { // a registry the size of the real one
    registry.add(Tool('tool_' + i, 'A tool that does thing number ' + i + ' in the workspace.',
      json({ type: 'object', properties: { path: { type: 'string', description: 'A path.' }, line: { type: 'integer' } } }), async () => 'ok'));
  }
  let calls = 0;
  let serialiseMs = 0;
  const client = {
    stream_chat: async (body, onDelta) => {
      const started = performance.now();
      JSON.stringify(body);
      serialiseMs += performance.now() - started;
      calls += 1;
      onDelta('Working on step ' + calls + '. ');
      return json({ content: 'Working on step ' + calls + '. ', finish_reason: 'tool_calls', usage: null,
        tool_calls: [{ id: 'call_' + calls, type: 'function', function: { name: 'echo', arguments: JSON.stringify({ text: 'result '.repeat(40) + calls }) } }] });
    },
  };
  const loop = t.core_agent_loop.AgentLoop(client, registry, json({ max_iterations: iterations, context_tokens: 1000000 }));
  const sink = { on_text: () => {}, on_tool_call: () => {}, on_tool_result: () => {}, on_iteration: () => {} };
  const history = [json({ role: 'user', content: 'Do many steps.' })];
  const workspace = json({ folders: ['/w'], openTabs: ['a.py', 'b.py'], activeFile: { path: 'a.py', language: 'python' } });
  const started = performance.now();
  await loop.run(history, sink, null, workspace);
  const totalMs = performance.now() - started;
  return { per_iteration_ms: totalMs / calls, serialise_ms: serialiseMs / calls, iterations: calls };
}

async function main() {
  const tokens = 20000;
  const pieces = recordedStream(tokens);
  parseWithClientCode(pieces); parseFloor(pieces); // warm up
  const clientMs = best(() => parseWithClientCode(pieces), 5);
  const floorMs = best(() => parseFloor(pieces), 5);
  await loopOverhead(10); // warm up
  const loop = await loopOverhead(40);
  process.stdout.write(JSON.stringify({
    tokens, bytes: pieces.reduce((n, p) => n + p.length, 0), pieces: pieces.length,
    sse_tokens_per_s: tokens / (clientMs / 1000), floor_tokens_per_s: tokens / (floorMs / 1000),
    loop_ms_per_iteration: loop.per_iteration_ms, loop_serialise_ms: loop.serialise_ms, loop_iterations: loop.iterations,
  }) + '\n');
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
