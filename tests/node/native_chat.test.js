// The native-chat modules TRANSPILED (build/testing.js, dist/extension.js) under node: the message
// conversions both ways on class instances like VS Code's, the generated contributions equal to what
// package.json declares, and the real bundle registering its tools, participant and language model with
// a fake `vscode` that has the chat APIs (added here, on top of tests/node/fake_vscode.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, testing, activateAndServe } = require('./harness');

// ------------------------------------------------------------------ VS Code's classes and chat APIs
class LanguageModelTextPart { constructor(value) { this.value = value; } }
class LanguageModelToolCallPart { constructor(callId, name, input) { this.callId = callId; this.name = name; this.input = input; } }
class LanguageModelToolResultPart { constructor(callId, content) { this.callId = callId; this.content = content; } }
class LanguageModelToolResult { constructor(content) { this.content = content; } }
class LanguageModelDataPart { constructor(data, mimeType) { this.data = data; this.mimeType = mimeType; } }
class LanguageModelChatMessage {
  constructor(role, content, name) { this.role = role; this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content; this.name = name; }
  static User(content, name) { return new LanguageModelChatMessage(1, content, name); }
  static Assistant(content, name) { return new LanguageModelChatMessage(2, content, name); }
}
class MarkdownString { constructor(value) { this.value = value; } }

const chatState = { tools: new Map(), participants: new Map(), providers: new Map() };
Object.assign(vscode, {
  LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart, LanguageModelToolResult,
  LanguageModelDataPart, LanguageModelChatMessage, MarkdownString,
});
if (!vscode.MarkdownString) vscode.MarkdownString = MarkdownString;
vscode.chat = {
  createChatParticipant(id, handler) {
    const participant = { id, handler, dispose() { chatState.participants.delete(id); } };
    chatState.participants.set(id, participant);
    return participant;
  },
};
Object.assign(vscode.lm, {
  registerTool(name, tool) {
    chatState.tools.set(name, tool);
    return new vscode.Disposable(() => chatState.tools.delete(name));
  },
  registerLanguageModelChatProvider(vendor, provider) {
    chatState.providers.set(vendor, provider);
    return new vscode.Disposable(() => chatState.providers.delete(vendor));
  },
});
if (!vscode.Uri.joinPath) vscode.Uri.joinPath = (base, ...parts) => vscode.Uri.file(path.join(base.fsPath, ...parts));

const { User, Assistant } = LanguageModelChatMessage;
const t = testing();
const plain = (value) => JSON.parse(t.js_json.dump_json(value));

// ------------------------------------------------------------------ conversions
const conversation = () => [
  User('What is in app.py?'),
  Assistant([new LanguageModelTextPart('Let me look.'), new LanguageModelToolCallPart('call_1', 'hermes_file_read', { path: 'app.py' })]),
  User([new LanguageModelToolResultPart('call_1', [new LanguageModelTextPart('print("hi")'),
    new LanguageModelDataPart(new TextEncoder().encode('{"lines":1}'), 'application/json')])]),
  Assistant('It prints hi.'),
  User([new LanguageModelTextPart('Thanks. '), new LanguageModelTextPart('And tests?')], 'alice'),
];
const OPENAI = [
  { role: 'user', content: 'What is in app.py?' },
  { role: 'assistant', content: 'Let me look.', tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'hermes_file_read', arguments: '{"path":"app.py"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'print("hi")\n{"lines":1}' },
  { role: 'assistant', content: 'It prints hi.' },
  { role: 'user', content: 'Thanks. And tests?', name: 'alice' },
];

test('VS Code messages (class instances, tool calls, results, data parts) become OpenAI messages', () => {
  assert.deepEqual(plain(t.core_chat_messages.to_openai(conversation())), OPENAI);
});

test('OpenAI messages become VS Code messages through the real classes, and back exactly', () => {
  const messages = t.core_chat_messages.from_openai(t.js_json.parse_json(JSON.stringify(OPENAI)), t.host_chat_host.VsCodeParts());
  assert.deepEqual(messages.map((m) => m.role), [1, 2, 1, 2, 1]);
  assert.ok(messages[1].content[1] instanceof LanguageModelToolCallPart);
  assert.deepEqual({ ...messages[1].content[1].input }, { path: 'app.py' });
  assert.ok(messages[2].content[0] instanceof LanguageModelToolResultPart);
  assert.equal(messages[4].name, 'alice');
  assert.deepEqual(plain(t.core_chat_messages.to_openai(messages)), OPENAI);
});

test('a result whose call is gone becomes user text; bad tool arguments become {} with an error', () => {
  assert.deepEqual(plain(t.core_chat_messages.to_openai([User([new LanguageModelToolResultPart('gone', [new LanguageModelTextPart('42')])])])),
    [{ role: 'user', content: 'Result of tool call gone:\n42' }]);
  const calls = t.js_json.parse_json(JSON.stringify([
    { id: 'a', type: 'function', function: { name: 'ok', arguments: '{"x": 1}' } },
    { id: 'b', type: 'function', function: { name: 'bad', arguments: '{"x": ' } }]));
  const converted = t.core_chat_messages.tool_call_parts(calls, t.host_chat_host.VsCodeParts());
  assert.deepEqual(converted.parts.map((p) => [p.callId, p.name, { ...p.input }]), [['a', 'ok', { x: 1 }], ['b', 'bad', {}]]);
  assert.equal(converted.errors.length, 1);
});

test('progress words and token estimates match CPython', () => {
  const describe = t.core_lm_tools.describe_call;
  assert.equal(describe('file_read', t.js_json.parse_json('{"path": "src/app.ts"}')), 'Reading src/app.ts…');
  assert.equal(describe('git_command', t.js_json.parse_json('{"args": ["log", "-3"]}')), 'Running `git log -3`…');
  assert.equal(t.core_chat_messages.estimate_request_tokens('abcdefgh'), 2);
  assert.ok(t.core_chat_messages.estimate_request_tokens(User('x'.repeat(400))) >= 100);
});

test('the transpiled registry generates exactly the contributions package.json declares', () => {
  const declared = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).contributes;
  const registry = t.tools_catalog.build_registry();
  assert.deepEqual(plain(t.core_lm_tools.contributions(registry.list())), declared.languageModelTools);
  assert.deepEqual(plain(t.core_chat_prompts.participant_contribution()), declared.chatParticipants);
  assert.deepEqual(plain(t.core_chat_prompts.provider_contribution()), declared.languageModelChatProviders);
});

// ------------------------------------------------------------------ the bundle
test('activation registers every tool, the participant and the language model; all go on deactivate', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__state.settings['hermes.llm.endpoint'] = 'http://127.0.0.1:9/v1';
  const context = vscode.__makeContext();
  context.extensionUri = vscode.Uri.file(path.join(__dirname, '..', '..'));
  const ext = extension();
  await activateAndServe(ext, context);
  try {
    const declared = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).contributes;
    assert.deepEqual([...chatState.tools.keys()].sort(), declared.languageModelTools.map((tool) => tool.name).sort());
    assert.ok(chatState.participants.has('hermes.agent'));
    assert.ok(chatState.providers.has('hermes'));

    // A tool through VS Code's API shape: prepareInvocation, then invoke.
    const tool = chatState.tools.get('hermes_workspace_get_folders');
    const prepared = tool.prepareInvocation({ input: {} }, undefined);
    assert.equal(prepared.invocationMessage, 'Get workspace folders…');
    assert.equal(prepared.confirmationMessages, undefined);
    const result = await tool.invoke({ input: {} }, { onCancellationRequested: () => ({ dispose() {} }) });
    assert.ok(result instanceof LanguageModelToolResult);
    assert.match(result.content[0].value, /"folders": \[\]/);
    const destructive = chatState.tools.get('hermes_file_write').prepareInvocation({ input: { path: 'a.txt', content: 'x' } });
    assert.equal(destructive.confirmationMessages.title, 'Run "Write file"?');
    assert.ok(destructive.confirmationMessages.message instanceof MarkdownString);
    assert.match(destructive.confirmationMessages.message.value, /"path": "a.txt"/);

    // /help from the participant: no LLM involved.
    const written = [];
    const stream = { markdown: (text) => written.push(text), progress() {}, reference() {} };
    const answer = await chatState.participants.get('hermes.agent').handler(
      { prompt: '', command: 'help', references: [], toolReferences: [] }, { history: [] }, stream,
      { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    assert.match(written.join(''), /`file_read` — /);
    assert.equal(answer.metadata.hermes.command, 'help');

    // The language model with nothing listening at the endpoint: the configured model is still offered.
    const provider = chatState.providers.get('hermes');
    const models = await provider.provideLanguageModelChatInformation({ silent: true }, undefined);
    assert.deepEqual(models.map((m) => m.id), ['qwen2.5:7b']);
    assert.equal(models[0].capabilities.toolCalling, true);
    assert.equal(models[0].capabilities.imageInput, true);  // VS Code lets a Hermes session's image in only then
    assert.equal(provider.provideTokenCount(models[0], 'abcdefgh', undefined), 2);
  } finally {
    await ext.deactivate();
    context.disposeAll();
  }
  assert.equal(chatState.tools.size, 0);
  assert.equal(chatState.participants.size, 0);
  assert.equal(chatState.providers.size, 0);
});
