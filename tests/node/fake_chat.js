// A fake `vscode.chat` with the chatSessionsProvider proposal (controller, content provider, participants) and the
// chat response parts Hermes renders, over the harness's fake vscode: for the chat session tests and inv bench.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, until } = require('./harness');

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

class ChatToolInvocationPart { constructor(toolName, toolCallId) { Object.assign(this, { toolName, toolCallId }); } }
vscode.ChatToolInvocationPart = ChatToolInvocationPart;
// VS Code 1.139's subagent part: invocations naming its toolCallId as subAgentInvocationId are grouped under it.
class ChatSubagentToolInvocationData { constructor(description, agentName, prompt, result) { Object.assign(this, { kind: 'subagent', description, agentName, prompt, result }); } }
vscode.ChatSubagentToolInvocationData = ChatSubagentToolInvocationData;
// VS Code 1.139's question carousel (chatParticipantAdditions): the constructor's shape and the enum.
class ChatQuestion { constructor(id, type, title, options) { Object.assign(this, { id, type, title }, options || {}); } }
vscode.ChatQuestion = ChatQuestion;
vscode.ChatQuestionType = { Text: 1, SingleSelect: 2, MultiSelect: 3 };

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
// `answers`: what the user answers each question carousel with, in order (an answers object, or undefined: skipped);
// without it the stream has no questionCarousel (a VS Code without it: permission questions are modal dialogs).
function recorder(answers) {
  const parts = [];
  const stream = {
    parts,
    markdown: (t) => parts.push(['markdown', typeof t === 'string' ? t : t.value]),
    progress: (t) => parts.push(['progress', t]),
    reference: (u) => parts.push(['reference', u.fsPath]),
    button: (b) => parts.push(['button', b]),
    thinkingProgress: (t) => parts.push(['thinking', t.text]),
    push: (p) => parts.push(['tool', { ...p, invocationMessage: p.invocationMessage && p.invocationMessage.value }]),
  };
  if (answers) {
    stream.questionCarousel = async (questions, allowSkip) => {
      parts.push(['question', { questions: questions.map((q) => ({ ...q, message: q.message && q.message.value })), allowSkip }]);
      return answers.shift();
    };
  }
  return stream;
}


// A Hermes chat session on the bundle: activate with `settings` (and fake-vscode `state`) in the workspace
// `folders` (none: no folder open), open a new session.
async function openSession(settings, state = {}, folders = []) {
  vscode.__reset();
  if (folders.length > 0) vscode.__openFolders(folders);
  Object.assign(vscode.__state, state);  // e.g. warningAnswer: the button the user clicks in a modal
  vscode.__state.settings['hermes.mcp.port'] = 0;
  Object.assign(vscode.__state.settings, settings);
  chat.proposal = true;
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await ext.activate(context);
  const controller = chat.controllers.get('hermes');
  const item = await controller.newChatSessionItemHandler({ request: { prompt: 'session' } }, token);
  const handler = chat.content.get('hermes').participant.handler;
  const ask = async (text, target, command, references = []) => handler({ prompt: text, command, references, toolReferences: [] },
    { history: [], chatSessionContext: { chatSessionItem: { resource: item.resource }, isUntitled: false } }, target, token);
  return { ask, api, controller, stop: async () => { await ext.deactivate(); context.disposeAll(); } };
}

// The sessions list as VS Code has it once `condition(items)` holds: the list is sent once a burst of changes pauses
// (ui/chat/sessions.py LIST_QUIET_MS), not with each.
async function listed(controller, condition) {
  await until(() => condition(controller.items.all()));
  return controller.items.all();
}

module.exports = { vscode, extension, chat, token, recorder, openSession, listed };
