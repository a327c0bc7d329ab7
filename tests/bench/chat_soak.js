// `inv bench`, chat soak: 1,000 chat turns through the transpiled LLM client and agent loop
// (build/testing.js) against the scripted LLM server over real HTTP and SSE, each turn a tool call and
// an answer. Memory after a full GC once per round of turns: RSS, the JS heap in use, memory outside the
// heap (external, array buffers) and the capacity of V8's young generation (new space), which the GC
// empties but keeps: V8 grows it with the allocation rate (32 → 64 → 128 MB over this soak), and RSS
// follows it although nothing is retained. tests/bench/run.py therefore runs this with the young
// generation fixed at its start size (--max-semi-space-size=16) and prints its capacity per round.
//   node --expose-gc [--max-semi-space-size=16] tests/bench/chat_soak.js <endpoint> <turns> <rounds>
//     → one JSON line
'use strict';
const v8 = require('v8');
const { testing } = require('../node/harness');

async function main() {
  const [endpoint, turns, rounds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const t = testing();
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));
  const { Tool, ToolRegistry } = t.core_tools;
  const registry = ToolRegistry();
  registry.add(Tool('echo', 'Echo the text back.', json({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    async (args) => args.text));
  const client = t.net_llm_client.LlmClient(endpoint, null, null, json({ retry_base_ms: 50, max_retries: 2 }));
  const loop = t.core_agent_loop.AgentLoop(client, registry, json({ model: 'qwen2.5:7b', tool_calling: 'native', max_iterations: 4 }));
  const sink = { on_iteration() {}, on_text() {}, on_tool_call() {}, on_tool_result() {}, on_notice() {}, on_error() {}, on_done() {} };
  const memory = [];
  let failed = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < turns / rounds; turn++) {
      const history = [json({ role: 'user', content: 'Echo something' })];
      await loop.run(history, sink, t.core_cancellation.Cancellation());
      if (history.length < 4) failed++;  // user, assistant tool call, tool result, final answer
    }
    global.gc();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    memory.push({ rss, heapUsed, external, arrayBuffers, newSpace: newSpace ? newSpace.space_size : 0 });
  }
  process.stdout.write(JSON.stringify({ memory, failed, ms_per_turn: (performance.now() - started) / turns }) + '\n');
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
