// One agent run of the TRANSPILED LLM client and loop (build/testing.js) against an endpoint, with a
// registry of simple test tools (the same as tests/llm_server/runner.py builds under CPython).
//   node tests/node/llm_turn.js <endpoint> '<run JSON>'
// Prints every loop event as one JSON line, then {"event": "finished", history, elapsed_ms, cancel_to_done_ms}.
'use strict';
const { testing, kwargs } = require('./harness');

const TEST_CLIENT_OPTIONS = { retry_base_ms: 50, max_retries: 2, connect_timeout_ms: 60000, idle_timeout_ms: 60000 };  // generous: a busy machine is slow, not broken
const OBJECT = { type: 'object', properties: {} };

function makeRegistry(t) {
  const { Tool, ToolRegistry, ToolError } = t.core_tools;
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));
  // The confirmation gate, as a test: destructive tools are declined. (`tool.name` is `py_name` in JS.)
  const approver = { approve: async (tool) => (tool.destructive ? `The user declined to run ${tool.py_name}.` : null) };
  const registry = ToolRegistry(approver);
  const add = (name, description, schema, handler, options) =>
    registry.add(Tool(name, description, json(schema), handler, ...(options ? [kwargs(options)] : [])));
  add('echo', 'Echo the text back.', { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async (args) => args.text);
  add('add', 'Add two integers.', { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'] }, async (args) => json({ sum: args.a + args.b }));
  // Ignores cancel on purpose: the loop must not wait for it.
  add('wait', 'Wait a long time.', OBJECT, () => new Promise((resolve) => setTimeout(() => resolve('waited'), 20000).unref()));
  add('fail', 'Always fails.', OBJECT, async () => { throw ToolError('It failed on purpose.'); });
  add('dangerous', 'Delete a file.', { type: 'object', properties: { path: { type: 'string' } } },
    async (args) => 'deleted ' + args.path, { read_only: false, destructive: true });
  return registry;
}

const EVENT_COUNTS = { texts: 'text', tool_calls: 'tool_call' };
const PROGRESS_PATH = '/_scripted/progress';  // tests/llm_server/server.py

function cancelDue(condition, events, progress) {
  return Object.entries(condition).every(([key, wanted]) => (key in EVENT_COUNTS
    ? events.filter((e) => e.event === EVENT_COUNTS[key]).length >= wanted
    : progress !== undefined && progress[key] >= wanted));
}

const resultText = (result) => result.content.map((item) => item.text || '').join('\n');

async function main() {
  const endpoint = process.argv[2];
  const run = JSON.parse(process.argv[3]);
  const t = testing();
  const { AgentLoop } = t.core_agent_loop;
  const { Cancellation } = t.core_cancellation;
  const { LlmClient } = t.net_llm_client;
  const json = (value) => t.js_json.parse_json(JSON.stringify(value));

  const client = LlmClient(endpoint, run.api_key || null, run.extra_headers ? json(run.extra_headers) : null,
    json({ ...TEST_CLIENT_OPTIONS, ...(run.client || {}) }));
  const loop = AgentLoop(client, makeRegistry(t), json({
    model: run.model || 'qwen2.5:7b', tool_calling: run.tool_calling || 'auto', max_iterations: run.max_iterations || 10,
  }));
  const events = [];
  let afterEvent = () => {};
  const emit = (event) => { events.push(event); process.stdout.write(JSON.stringify(event) + '\n'); afterEvent(); };
  // A plain JS object as the sink: front ends may hand the loop either this or a sink class (contracts/events.py EventSink); an event the object lacks is skipped.
  const sink = {
    on_iteration: (number) => emit({ event: 'iteration', number }),
    on_text: (text) => emit({ event: 'text', text }),
    on_tool_call: (call) => emit({ event: 'tool_call', id: call.id, name: call.name, arguments: call.arguments }),
    on_tool_result: (call, result) => emit({ event: 'tool_result', id: call.id, isError: result.isError, text: resultText(result) }),
    on_notice: (message) => emit({ event: 'notice', message }),
    on_error: (error) => emit({ event: 'error', message: error.message, kind: error.kind }),
    on_done: (outcome) => emit({ event: 'done', outcome: JSON.parse(t.js_json.dump_json(outcome)) }),
  };
  const history = [json({ role: 'user', content: run.prompt })];
  const cancellation = Cancellation();
  let cancelledAt = null;
  const cancel = () => {
    if (cancelledAt === null) { cancelledAt = performance.now(); cancellation.cancel('test'); }
  };
  // `cancel_when`: the same conditions as tests/llm_server/runner.py (the loop's events or the server's progress).
  const condition = run.cancel_when;
  let watcher = null;
  if (condition) {
    // After the event is handled (a macrotask later): the cancel lands inside what the event announced.
    afterEvent = () => { if (cancelDue(condition, events)) setTimeout(cancel, 0); };
    if (Object.keys(condition).some((key) => !(key in EVENT_COUNTS))) {
      const progressUrl = new URL(PROGRESS_PATH, endpoint).href;
      const watch = async () => {
        const progress = await (await fetch(progressUrl)).json();
        if (cancelDue(condition, events, progress)) cancel(); else watcher = setTimeout(watch, 10);
      };
      watcher = setTimeout(watch, 0);
    }
  }
  const started = performance.now();
  await loop.run(history, sink, cancellation);
  const ended = performance.now();
  clearTimeout(watcher);
  emit({ event: 'finished', history: JSON.parse(t.js_json.dump_json(history)), elapsed_ms: ended - started,
    cancel_to_done_ms: cancelledAt === null ? null : ended - cancelledAt });
  process.exit(0);
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
