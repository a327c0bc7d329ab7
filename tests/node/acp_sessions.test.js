// Hermes chat sessions answered by an ACP agent, in the real bundle (dist/extension.js) under node with a fake
// `vscode.chat`: the scripted agent tests/acp_agent/agent.py (configured in hermes.acp.agents, or as Hermes Agent
// through hermes.acp.hermesPath) streams a turn that is rendered natively (Markdown, thinking, tool invocations that
// end, the plan as a to-do list), a permission request asked in a modal and answered exactly, a Hermes without a
// provider gives the setup message and button, and without any Hermes the built-in loop says once how to get it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension } = require('./harness');

class MarkdownString { constructor(value) { this.value = value; } }
class ChatResponseMarkdownPart { constructor(value) { this.value = value; } }
class ChatResponseProgressPart { constructor(value) { this.value = value; } }
class ChatResponseReferencePart { constructor(value) { this.value = value; } }
class ChatRequestTurn { constructor(prompt, command, references, participant) { Object.assign(this, { prompt, command, references, participant }); } }
class ChatResponseTurn2 { constructor(response, result, participant) { Object.assign(this, { response, result, participant }); } }
class ThemeIcon { constructor(id) { this.id = id; } }
class ChatSessionChangedFile { constructor(uri, originalUri, modifiedUri, insertions, deletions) { Object.assign(this, { uri, originalUri, modifiedUri, insertions, deletions }); } }
Object.assign(vscode, { MarkdownString, ChatResponseMarkdownPart, ChatResponseProgressPart, ChatResponseReferencePart,
  ChatRequestTurn, ChatRequestTurn2: ChatRequestTurn, ChatResponseTurn: ChatResponseTurn2, ChatResponseTurn2, ThemeIcon,
  ChatSessionChangedFile });
if (!vscode.Uri.from) vscode.Uri.from = ({ scheme, path: p }) => { const uri = new vscode.Uri(scheme, p); uri.href = `${scheme}:${p}`; return uri; };
if (!vscode.Uri.joinPath) vscode.Uri.joinPath = (base, ...parts) => vscode.Uri.file(path.join(base.fsPath, ...parts));

const chat = { participants: new Map(), controllers: new Map(), content: new Map(), proposal: true, lines: [] };
function proposed() {
  if (!chat.proposal) throw new Error("Extension 'hermes-agent.hermes-agent' CANNOT use API proposal: chatSessionsProvider.");
}
vscode.chat = {
  createChatParticipant(id, handler) {
    const participant = { id, handler, dispose() { chat.participants.delete(id); } };
    chat.participants.set(id, participant);
    return participant;
  },
  createChatSessionItemController(type, refreshHandler) {
    proposed();
    const items = new Map();
    const state = new vscode.EventEmitter();
    const controller = {
      id: type, refreshHandler, newChatSessionItemHandler: undefined, onDidChangeChatSessionItemState: state.event,
      items: {
        replace(list) { items.clear(); for (const item of list) items.set(item.resource.toString(), item); },
        add(item) { items.set(item.resource.toString(), item); },
        get(resource) { return items.get(resource.toString()); },
        get size() { return items.size; },
        all: () => [...items.values()],
      },
      createChatSessionItem(resource, label) { return { resource, label }; },
      dispose() { chat.controllers.delete(type); },
    };
    chat.controllers.set(type, controller);
    return controller;
  },
  registerChatSessionContentProvider(scheme, provider, participant) {
    proposed();
    chat.content.set(scheme, { provider, participant });
    return new vscode.Disposable(() => chat.content.delete(scheme));
  },
};
Object.assign(vscode.lm, { registerTool: () => new vscode.Disposable(), registerLanguageModelChatProvider: () => new vscode.Disposable() });

const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
class ChatToolInvocationPart { constructor(toolName, toolCallId) { Object.assign(this, { toolName, toolCallId }); } }
vscode.ChatToolInvocationPart = ChatToolInvocationPart;

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
function recorder() {
  const parts = [];
  return {
    parts,
    markdown: (t) => parts.push(['markdown', typeof t === 'string' ? t : t.value]),
    progress: (t) => parts.push(['progress', t]),
    reference: (u) => parts.push(['reference', u.fsPath]),
    button: (b) => parts.push(['button', b]),
    thinkingProgress: (t) => parts.push(['thinking', t.text]),
    push: (p) => parts.push(['tool', { ...p, invocationMessage: p.invocationMessage && p.invocationMessage.value }]),
  };
}

async function session(settings, prompt, state = {}) {
  vscode.__reset();
  Object.assign(vscode.__state, state);  // e.g. warningAnswer: the button the user clicks in a modal
  vscode.__state.settings['hermes.mcp.port'] = 0;
  Object.assign(vscode.__state.settings, settings);
  chat.proposal = true;
  const context = vscode.__makeContext();
  const ext = extension();
  await ext.activate(context);
  const controller = chat.controllers.get('hermes');
  const item = await controller.newChatSessionItemHandler({ request: { prompt } }, token);
  const stream = recorder();
  const handler = chat.content.get('hermes').participant.handler;
  const ask = async (text, target = stream) => handler({ prompt: text, references: [], toolReferences: [] },
    { history: [], chatSessionContext: { chatSessionItem: { resource: item.resource }, isUntitled: false } }, target, token);
  const result = await ask(prompt);
  return { stream, result, ask, stop: async () => { await ext.deactivate(); context.disposeAll(); } };
}

const SCRIPTED = { 'hermes.agent.backend': 'Scripted',
  'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT] }] };

test('an ACP turn is rendered natively: text, thinking, tool invocations that end, the plan as a to-do list', async () => {
  const run = await session(SCRIPTED, 'hello there');
  try {
    const kinds = run.stream.parts.map(([kind]) => kind);
    assert.equal(run.result.metadata.hermes.stopReason, 'end_turn');
    assert.deepEqual(run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, text]) => text).join(''),
      'Hello, you said: hello there');
    assert.deepEqual(run.stream.parts.find(([kind]) => kind === 'thinking'), ['thinking', 'thinking']);
    const tools = run.stream.parts.filter(([kind, part]) => kind === 'tool' && part.toolCallId === 'call-1').map(([, part]) => part);
    assert.deepEqual(tools.map((part) => [part.invocationMessage, part.isComplete, part.enablePartialUpdate]),
      [['Reading notes.md', false, true], ['Reading notes.md', true, true]]);
    const [plan] = run.stream.parts.filter(([kind, part]) => kind === 'tool' && part.toolSpecificData.todoList).map(([, p]) => p);
    assert.deepEqual(plan.toolSpecificData.todoList, [{ id: '1', title: 'read', status: 3 }, { id: '2', title: 'answer', status: 2 }]);
    assert.ok(kinds.indexOf('thinking') < kinds.lastIndexOf('markdown'));
  } finally {
    await run.stop();
  }
});

test('a permission request is a modal with every option; the choice goes back to the agent exactly', async () => {
  const run = await session(SCRIPTED, 'permission', { warningAnswer: 'Deny' });
  try {
    const [level, text, items] = vscode.__state.messages.find(([, message]) => message.startsWith('Scripted asks'));
    assert.equal(text, 'Scripted asks: Edit notes.md');
    assert.deepEqual(items.slice(1), ['Allow once', 'Deny', 'Show Changes']);
    assert.equal(items[0].modal, true);
    const said = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /permission: \{"optionId": "deny", "outcome": "selected"\}/);
    assert.equal(level, 'warning');
  } finally {
    await run.stop();
  }
});

test('Hermes without a provider: a readable message and the setup button, not a JSON-RPC dump', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bin-'));
  const program = path.join(folder, 'hermes-acp');
  fs.writeFileSync(program, `#!/bin/sh\nexec ${PYTHON} ${AGENT} no_provider\n`, { mode: 0o755 });
  const run = await session({ 'hermes.acp.hermesPath': program }, 'hi');
  try {
    const said = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /^Hermes Agent has no model provider configured yet/);
    assert.doesNotMatch(said, /-32603/);
    assert.deepEqual(run.stream.parts.filter(([kind]) => kind === 'button'),
      [['button', { command: 'hermes.acp.setup', title: 'Set up Hermes Agent' }]]);
  } finally {
    await run.stop();
  }
});

test('without Hermes Agent the built-in loop answers and the session says once how to get it', async () => {
  const saved = process.env.PATH;
  process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-path-'));  // no hermes anywhere
  try {
    const run = await session({ 'hermes.llm.endpoint': 'http://127.0.0.1:9/v1' }, 'hi');
    try {
      const first = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
      assert.match(first, /pip install 'hermes-agent\[acp\]'/);
      const again = recorder();
      await run.ask('again', again);
      assert.doesNotMatch(again.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join(''), /pip install/);
    } finally {
      await run.stop();
    }
  } finally {
    process.env.PATH = saved;
  }
});
