// The embedded agent's pure core (hermes.core.llm_wire, tool_text, context_budget, agent_loop) and the
// LLM client's helpers on the transpiled modules: the cases where Transcrypt's JS differs from CPython
// (string search, list concatenation, JSON formatting, `undefined`). The whole loop against a real
// HTTP server runs in tests/integration/test_llm_loop.py.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { testing } = require('./harness');

const t = () => testing();
const json = (value) => t().js_json.parse_json(JSON.stringify(value));
const plain = (value) => JSON.parse(t().js_json.dump_json(value));
const chunk = (delta, finish = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });

test('tool blocks: fenced calls, lists, json tags, unterminated, errors', () => {
  const { parse_tool_blocks } = t().core_tool_text;
  const text = 'First.\n```tool\n{"name": "a", "arguments": {"x": 1}}\n```\nThen:\n```tool_call\n' +
    '[{"name": "b", "parameters": {"y": 2}}]\n```\n```python\nprint(1)\n```\n```json\n{"name": "d", "arguments": {},}\n```';
  const parsed = plain(parse_tool_blocks(text));
  assert.deepEqual(parsed.calls, [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: { y: 2 } }, { name: 'd', arguments: {} }]);
  assert.deepEqual(parsed.errors, []);
  assert.ok(parsed.text.includes('print(1)') && !parsed.text.includes('"name"'));
  assert.deepEqual(plain(parse_tool_blocks('```tool\n{"name": "a", "arguments": {}}')).calls, [{ name: 'a', arguments: {} }]);
  const broken = plain(parse_tool_blocks('```tool\n{"name": "a", "arguments": {"x": 1}\n```'));
  assert.equal(broken.calls.length, 0);
  assert.match(broken.errors[0], /not valid JSON/);
  assert.equal(plain(parse_tool_blocks('text ``` inline')).calls.length, 0);
});

test('the stream filter hides ```tool blocks whatever the chunk size', () => {
  const { ToolBlockFilter } = t().core_tool_text;
  const reply = 'Sure.\n```tool\n{"name": "a", "arguments": {}}\n```\nCode:\n```py\nx = 1\n```\nDone `x`.';
  for (const size of [1, 2, 3, 7, 1000]) {
    const filter = ToolBlockFilter();
    let shown = '';
    for (let i = 0; i < reply.length; i += size) shown += filter.feed(reply.slice(i, i + size));
    shown += filter.finish();
    assert.equal(shown, 'Sure.\nCode:\n```py\nx = 1\n```\nDone `x`.', `size ${size}`);
  }
});

test('accumulator: calls by index in pieces, missing index, object arguments, generated ids', () => {
  const { StreamAccumulator } = t().core_llm_wire;
  const acc = StreamAccumulator();
  acc.feed_data(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'x', arguments: '{"k"' } }] }));
  acc.feed_data(chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'y', arguments: '{}' } }] }));
  acc.feed_data(chunk({ tool_calls: [{ index: 0, function: { arguments: ': 1}' } }] }));
  acc.feed_data(chunk({ tool_calls: [{ id: 'c', function: { name: 'z', arguments: { q: true } } }] }));
  acc.feed_data(chunk({ tool_calls: [{ index: 3, function: { name: 'w' } }] }, 'tool_calls'));
  assert.equal(acc.feed_data(chunk({ content: 'hi' })), 'hi');
  acc.feed_data('[DONE]');
  const turn = plain(acc.turn());
  assert.deepEqual(turn.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]),
    [['a', 'x', '{"k": 1}'], ['b', 'y', '{}'], ['c', 'z', '{"q":true}'], ['hermes_call_3', 'w', '']]);
  assert.equal(turn.finish_reason, 'tool_calls');
  assert.equal(turn.content, 'hi');
  assert.equal(acc.done, true);
});

test('context budget: trims old tool results, drops oldest turns, keeps the latest turn and the system prompt', () => {
  const { fit_messages } = t().core_context_budget;
  const turn = (n) => [{ role: 'user', content: `question ${n}` },
    { role: 'assistant', content: '', tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 't', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: `c${n}`, content: 'r'.repeat(8000) }, { role: 'assistant', content: `answer ${n}` }];
  const history = json([...turn(1), ...turn(2), ...turn(3)]);
  const system = json({ role: 'system', content: 'S'.repeat(400) });
  let fitted = plain(fit_messages(system, history, 2700, 8));
  assert.equal(fitted.trimmed, 2);
  assert.equal(fitted.dropped, 0);
  assert.equal(fitted.messages.length, 13);
  assert.match(fitted.messages[3].content, /\[truncated to fit the model's context: \d+ more characters\]/);
  fitted = plain(fit_messages(system, history, 2450, 8));
  assert.equal(fitted.dropped, 4);
  assert.equal(fitted.messages[1].content, 'question 2');
  fitted = plain(fit_messages(system, history, 10, 8));
  assert.deepEqual(fitted.messages.slice(1), plain(history).slice(8));
});

test('text-mode rendering of a native history', () => {
  const { render_history } = t().core_loop_requests;
  const history = json([{ role: 'user', content: 'go' },
    { role: 'assistant', content: 'Let me see.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: '{"text": "x"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'x', hermes_tool: 'echo', hermes_is_error: false }]);
  const text = plain(render_history(history, 'text'));
  assert.deepEqual(text.map((m) => m.role), ['user', 'assistant', 'user']);
  assert.equal(text[1].content, 'Let me see.\n\n```tool\n{"name":"echo","arguments":{"text":"x"}}\n```');
  assert.match(text[2].content, /^Tool results:\n\n```tool_result name=echo id=c1 status=ok\nx\n```/);
  assert.deepEqual(plain(render_history(history, 'native'))[2], { role: 'tool', tool_call_id: 'c1', content: 'x' });
});

test('client helpers: Retry-After, seconds, endpoints, messages', () => {
  const c = t().net_llm_client;
  assert.equal(c.retry_delay_ms('2', null, 0, 500), 2000);
  assert.equal(c.retry_delay_ms(null, '150', 0, 500), 150);
  assert.equal(c.retry_delay_ms(null, null, 10, 500), 8000);
  assert.equal(c.retry_delay_ms('Wed, 21 Oct 2015 07:28:05 GMT', null, 0, 500, 1445412480000), 5000);
  assert.deepEqual([800, 2000, 60000, 1500].map(t().net_llm_stream.seconds_text), ['0.8', '2', '60', '1.5']);
  assert.equal(t().core_llm_wire.normalize_endpoint('http://h:1/v1/chat/completions'), 'http://h:1/v1');
  assert.equal(c.unreachable_message('http://127.0.0.1:11434/v1'),
    "Can't reach the LLM at http://127.0.0.1:11434/v1 — is Ollama running (`ollama serve`)?");
  const info = plain(c.ollama_model_info(json({ capabilities: ['completion'], model_info: { 'llama.context_length': 131072 },
    parameters: 'num_ctx 8192\nstop "x"' })));
  assert.deepEqual(info, { context_length: 8192, model_context_length: 131072, supports_tools: false });
});

test('cancellation wins a race against a promise that never settles', async () => {
  const { Cancellation, CANCELLED } = t().core_cancellation;
  const cancellation = Cancellation();
  setTimeout(() => cancellation.cancel('stop'), 20);
  const result = await cancellation.race(new Promise(() => {}));
  assert.equal(result, CANCELLED);
  assert.equal(cancellation.reason, 'stop');
});

test('compact tool definitions (small contexts): first sentence, no parameter descriptions', () => {
  const { core_tools, core_llm_wire, js_json: js } = require('./harness').testing();
  const schema = js.parse_json(JSON.stringify({ type: 'object', properties: {
    path: { type: 'string', description: 'Where.' },
    edits: { type: 'array', items: { type: 'object', properties: { old: { type: 'string', description: 'Old.' } } } } } }));
  const tool = core_tools.Tool('file_x', 'Does x. Then more words.', schema, async () => 'ok');
  const compact = core_llm_wire.openai_tool(tool, true);
  assert.equal(compact.function.description, 'Does x.');
  assert.equal(JSON.stringify(compact.function.parameters),
    '{"type":"object","properties":{"path":{"type":"string"},"edits":{"type":"array","items":{"type":"object","properties":{"old":{"type":"string"}}}}}}');
  assert.equal(core_llm_wire.openai_tool(tool).function.description, 'Does x. Then more words.');
});
