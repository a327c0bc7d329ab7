// The Hermes side panel (webview). It shows what the extension host sends and asks the host to act;
// it never runs anything the model wrote. The messages both ways are declared once, in
// py_src/hermes/contracts/panel.py; protocol.d.ts is generated from it and `inv typecheck` checks this file
// against it (tsc --checkJs): every postMessage, and one handler per kind the host posts. Messages to the host
// are validated again there (py_src/hermes/ui/panel/protocol.py).
import { StreamingMarkdown, renderMarkdown } from './render.js';
import { CommandMenu } from './commands.js';
import { draftState, restoredDraft, storedDraft } from './draft.js';

const vscode = acquireVsCodeApi();
const savedState = vscode.getState(); // the draft in it: shown at load, taken back at the first state if stale
const RESULT_PREVIEW = 2000;

const state = {
  running: false,
  messages: [], // persisted transcript, as the host sent it
  current: null, // the assistant message being streamed: {element, body, text, tools}
  model: '',
  endpoint: '',
  models: [],
  modelsError: '',
  banner: null,
  frame: 0,
  receivedState: false,
  turnChanges: {}, // turn id → {files: [{path, label, added, removed}], added, removed}: pending changes by turn
  backends: null, // {choices: [{id, label, detail, available}], current, locked, usage}: who answers (null: only the built-in loop)
  commands: [], // the slash commands of the conversation's ACP agent: [{name, description, hint}] ("/" lists them)
  options: /** @type {import('./protocol').OptionPicker[]} */ ([]), // the agent's options as pickers
  attachments: /** @type {{name: string, mimeType: string, data: string}[]} */ ([]), // images for the next message
};

// ----------------------------------------------------------------------------------------- DOM

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('aria-') || key.startsWith('data-') || key === 'role' || key === 'for' || key === 'tabindex') node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

function icon(name, extra = '') {
  return el('span', { class: `codicon codicon-${name}${extra ? ' ' + extra : ''}`, 'aria-hidden': 'true' });
}

function iconButton(id, iconName, label, extraClass = '') {
  return el('button', { id, type: 'button', class: `icon-button ${extraClass}`.trim(), title: label, 'aria-label': label }, [icon(iconName)]);
}

const modelSelect = el('select', { id: 'model-select', class: 'model-select', 'aria-label': 'Model' });
const refreshButton = iconButton('refresh-models', 'refresh', 'Refresh the model list');
const newChatButton = iconButton('new-chat', 'add', 'New chat');
const settingsButton = iconButton('open-settings', 'settings-gear', 'Hermes LLM settings');
const backendSelect = el('select', { id: 'backend-select', class: 'model-select backend-select', 'aria-label': 'Agent' });
const backendLabel = el('label', { class: 'model-label', for: 'backend-select', text: 'Agent' });
const modelLabel = el('label', { class: 'model-label', for: 'model-select', text: 'Model' });
const usageLine = el('span', { id: 'usage', class: 'usage', 'aria-live': 'polite' });
backendSelect.hidden = true;
backendLabel.hidden = true;
usageLine.hidden = true;
const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Chat actions' }, [
  backendLabel, backendSelect, modelLabel, modelSelect, refreshButton, usageLine,
  el('span', { class: 'spacer' }), newChatButton, settingsButton,
]);
const banners = el('div', { id: 'banners', class: 'banners', role: 'alert', 'aria-live': 'assertive' });
const transcript = el('div', { id: 'transcript', class: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
const emptyState = el('div', { id: 'empty-state', class: 'empty-state' });
const input = el('textarea', {
  id: 'prompt', class: 'prompt', rows: 1, placeholder: 'Ask Hermes… (Enter to send, Shift+Enter for a new line)',
  'aria-label': 'Message to Hermes',
});
const sendButton = el('button', { id: 'send', type: 'button', class: 'primary-button', title: 'Send (Enter)', 'aria-label': 'Send' }, [icon('send')]);
const stopButton = el('button', { id: 'stop', type: 'button', class: 'primary-button stop', title: 'Stop (Escape)', 'aria-label': 'Stop' }, [icon('debug-stop')]);
const statusLine = el('div', { id: 'status', class: 'status', 'aria-live': 'polite' });
// Images pasted, dropped or picked for the next message (an ACP agent's: the host sends those it reads)
const attachButton = iconButton('attach-image', 'file-media', 'Attach an image (or paste one)');
const imagePicker = el('input', { id: 'image-picker', type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp', multiple: true, hidden: true });
const attachmentList = el('div', { id: 'attachments', class: 'attachments', role: 'list', 'aria-label': 'Attached images' });
attachmentList.hidden = true;
attachButton.hidden = true;
const commandMenu = new CommandMenu(input, el, () => { autoSize(); saveDraft(); });
const composer = el('div', { class: 'composer' }, [
  commandMenu.list,
  attachmentList,
  el('div', { class: 'prompt-row' }, [attachButton, imagePicker, input, sendButton, stopButton]),
  statusLine,
]);

// The agent's options (mode, model, its config options): a select each, a checkbox for a yes/no one
const optionBar = el('div', { id: 'agent-options', class: 'agent-options', role: 'group', 'aria-label': 'Agent options' });
optionBar.hidden = true;

document.getElementById('app').replaceChildren(toolbar, optionBar, banners, transcript, composer);
transcript.appendChild(emptyState);

// ----------------------------------------------------------------------------------------- rendering

// The chosen backend when it is an ACP agent (Hermes Agent or one of hermes.acp.agents), else null.
function currentAgent() {
  const backends = state.backends;
  if (!backends || backends.current === 'builtin') return null;
  return backends.choices.find((choice) => choice.id === backends.current) || null;
}

function usageText(usage) {
  if (!usage || !(usage.size > 0)) return '';
  const context = `${Math.round((usage.used * 100) / usage.size)}% of context`;
  return usage.cost ? `${context} · ${usage.cost}` : context;
}

function renderBackends() {
  const backends = state.backends;
  const shown = Boolean(backends && Array.isArray(backends.choices));
  backendSelect.hidden = !shown;
  backendLabel.hidden = !shown;
  if (shown) {
    backendSelect.replaceChildren(...backends.choices.map((choice) => {
      const option = el('option', { value: choice.id, text: choice.available ? choice.label : `${choice.label} (${choice.id === 'hermes' ? 'not available' : 'unavailable'})`, title: choice.detail });
      option.selected = choice.id === backends.current;
      return option;
    }));
    backendSelect.disabled = Boolean(backends.locked) || state.running;
    const chosen = backends.choices.find((choice) => choice.id === backends.current);
    backendSelect.title = backends.locked
      ? `This conversation is answered by ${chosen ? chosen.label : backends.current}. New chat to choose another.`
      : (chosen ? chosen.detail : '');
  }
  const agent = currentAgent();
  for (const part of [modelLabel, modelSelect, refreshButton]) part.hidden = Boolean(agent);
  attachButton.hidden = !agent; // images go to ACP agents (the host sends them to one that reads them)
  const usage = agent && backends ? usageText(backends.usage) : '';
  usageLine.hidden = !usage;
  usageLine.textContent = usage;
  usageLine.title = usage; // (its line ends in an ellipsis in a very narrow sidebar)
  usageLine.title = usage ? `${agent.label} has used ${usage}` : '';
  const commands = agent && state.commands.length > 0 ? ', / for commands' : '';
  input.placeholder = agent ? `Ask ${agent.label}… (Enter to send, Shift+Enter for a new line${commands})` : 'Ask Hermes… (Enter to send, Shift+Enter for a new line)';
}

/** @param {import('./protocol').OptionPicker[]} options */
function renderOptions(options) {
  optionBar.hidden = options.length === 0;
  optionBar.replaceChildren(...options.map((option) => {
    const id = `option-${option.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    if (option.kind === 'boolean') {
      const box = el('input', { id, type: 'checkbox', class: 'option-check', 'data-option': option.id });
      box.checked = option.value === 'true';
      box.disabled = state.running;
      return el('label', { class: 'option-toggle', for: id, title: option.name }, [box, el('span', { text: option.name })]);
    }
    const select = el('select', { id, class: 'model-select option-select', 'data-option': option.id, 'aria-label': option.name, title: option.name });
    select.replaceChildren(...option.items.map((item) => {
      const choice = el('option', { value: item.id, text: item.name });
      choice.selected = item.id === option.value;
      return choice;
    }));
    select.disabled = state.running;
    return el('span', { class: 'option-picker' }, [el('label', { class: 'model-label', for: id, text: option.name }), select]);
  }));
}

optionBar.addEventListener('change', (event) => {
  const target = event.target;
  if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement) || !target.dataset.option) return;
  const value = target instanceof HTMLInputElement ? (target.checked ? 'true' : 'false') : target.value;
  vscode.postMessage({ type: 'setOption', option: target.dataset.option, value });
});

function renderEmptyState() {
  const visible = state.messages.length === 0 && !state.current;
  emptyState.hidden = !visible;
  if (!visible) return;
  const children = [
    el('div', { class: 'empty-icon' }, [icon('hubot')]),
    el('h2', { text: 'Hermes Agent' }),
    el('p', { text: 'Ask about your code, or ask Hermes to do something in this window: open files, search, run commands. Type below and press Enter.' }),
  ];
  const agent = currentAgent();
  if (agent) {
    children.push(el('p', { class: 'muted', text: `${agent.label}: ${agent.detail}` }));
  } else if (state.modelsError) {
    children.push(el('div', { class: 'empty-warning' }, [
      el('p', { text: state.modelsError }),
      el('p', { text: 'Using Ollama? Start it with:' }),
      el('pre', { class: 'hint' }, [el('code', { text: 'ollama serve\nollama pull qwen2.5:7b' })]),
      el('p', { text: 'Another server? Set its URL in the settings (hermes.llm.endpoint).' }),
    ]));
  } else if (state.endpoint) {
    children.push(el('p', { class: 'muted', text: `LLM: ${state.model || '(no model)'} at ${state.endpoint}` }));
  }
  emptyState.replaceChildren(...children);
}

function messageElement(role) {
  const label = role === 'user' ? 'You' : 'Hermes';
  const body = el('div', { class: 'message-body' });
  const element = el('div', { class: `message ${role}`, role: 'article', 'aria-label': `${label} said` }, [
    el('div', { class: 'message-author' }, [icon(role === 'user' ? 'account' : 'hubot'), el('span', { text: label })]),
    body,
  ]);
  return { element, body };
}

function addUserMessage(message) {
  const { element, body } = messageElement('user');
  body.appendChild(el('div', { class: 'user-text', text: message.text }));
  if (typeof message.turn === 'string') {
    element.dataset.turn = message.turn;
    const restore = el('button', { class: 'icon-button restore-turn', title: 'Restore to before this turn…',
      'aria-label': 'Restore to before this turn', 'data-action': 'restore-turn', 'data-turn': message.turn }, [icon('discard')]);
    element.querySelector('.message-author').appendChild(restore);
  }
  transcript.appendChild(element);
}

// Pending changes of each turn, under the turn's reply: its files with +/−, Keep / Undo for the turn, a diff.
function renderTurnChanges() {
  for (const old of transcript.querySelectorAll('.turn-changes')) old.remove();
  for (const prompt of transcript.querySelectorAll('.message.user[data-turn]')) {
    const changes = state.turnChanges[prompt.dataset.turn];
    if (!changes || !Array.isArray(changes.files) || changes.files.length === 0) continue;
    let reply = prompt.nextElementSibling;
    if (!reply || !reply.classList.contains('assistant')) reply = prompt;
    const turn = prompt.dataset.turn;
    const count = (added, removed) => [el('span', { class: 'added', text: `+${added}` }), el('span', { class: 'removed', text: `−${removed}` })];
    const rows = changes.files.map((file) => el('li', {}, [
      el('a', { class: 'changed-file', href: '#', title: file.path, 'data-action': 'show-turn', 'data-turn': turn, text: file.label }),
      ...count(file.added, file.removed)]));
    reply.querySelector('.message-body').appendChild(el('div', { class: 'turn-changes', role: 'group', 'aria-label': 'Files this turn changed' }, [
      el('div', { class: 'turn-changes-header' }, [
        icon('diff'),
        el('span', { text: `${changes.files.length} ${changes.files.length === 1 ? 'file' : 'files'} changed` }),
        ...count(changes.added, changes.removed),
        el('span', { class: 'spacer' }),
        el('button', { class: 'text-button', 'data-action': 'keep-turn', 'data-turn': turn, text: 'Keep' }),
        el('button', { class: 'text-button', 'data-action': 'undo-turn', 'data-turn': turn, text: 'Undo' }),
      ]),
      el('ul', {}, rows),
    ]));
  }
}

function toolCard(part) {
  const status = el('span', { class: 'tool-status' });
  const args = JSON.stringify(part.arguments === undefined ? {} : part.arguments);
  const card = el('div', { class: 'tool-card', 'data-tool-id': part.id || '' }, [
    el('div', { class: 'tool-header' }, [
      status,
      icon('tools'),
      el('span', { class: 'tool-name', text: part.name || 'tool' }),
      el('code', { class: 'tool-args', text: args.length > 300 ? args.slice(0, 300) + '…' : args, title: args }),
    ]),
    el('div', { class: 'tool-note' }),
  ]);
  card.dataset.toolId = part.id || '';
  updateToolCard(card, part);
  return card;
}

function updateToolCard(card, part) {
  const status = card.querySelector('.tool-status');
  const note = card.querySelector('.tool-note');
  card.dataset.status = part.status;
  const icons = { running: 'loading codicon-modifier-spin', waiting: 'shield', ok: 'pass', error: 'error', cancelled: 'circle-slash' };
  const labels = { running: 'Running', waiting: 'Waiting for your confirmation', ok: 'Done', error: 'Failed', cancelled: 'Cancelled' };
  status.replaceChildren(icon(icons[part.status] || 'circle-outline'));
  status.setAttribute('aria-label', labels[part.status] || part.status);
  status.title = labels[part.status] || part.status;
  note.replaceChildren();
  if (part.status === 'waiting') {
    note.textContent = 'Waiting for your confirmation…';
  } else if (part.status === 'ok' || part.status === 'error') {
    const text = part.result || '';
    const shown = text.length > RESULT_PREVIEW ? text.slice(0, RESULT_PREVIEW) + `\n… (${text.length - RESULT_PREVIEW} more characters)` : text;
    const details = el('details', { class: 'tool-result' }, [
      el('summary', { text: part.status === 'ok' ? 'Result' : 'Error' }),
      el('pre', {}, [el('code', { text: shown || '(empty)' })]),
    ]);
    if (part.status === 'error') details.open = true;
    note.appendChild(details);
  } else if (part.status === 'cancelled') {
    note.textContent = 'Cancelled';
  }
}

// ------------------------------------------------------------------ an ACP agent's turn: tools, diffs, plan, thoughts

const KIND_ICONS = { read: 'eye', edit: 'edit', delete: 'trash', move: 'arrow-right', search: 'search', execute: 'terminal', think: 'lightbulb', fetch: 'globe', switch_mode: 'settings', other: 'tools' };
const PLAN_ICONS = { completed: 'pass-filled', in_progress: 'circle-large-filled', pending: 'circle-large-outline' };
const PLAN_LABELS = { completed: 'done', in_progress: 'in progress', pending: 'to do' };

function baseName(path) {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut >= 0 ? path.slice(cut + 1) : path;
}

// A proposed change as lines: {added, removed, created, hunks: [{line, removed, added}], more, tooLarge}.
function diffBlock(label, preview) {
  const rows = [];
  if (preview.tooLarge) rows.push(el('div', { class: 'diff-note', text: 'Too large to show here: open the diff.' }));
  for (const hunk of preview.hunks || []) {
    rows.push(el('div', { class: 'diff-hunk', text: `line ${hunk.line}` }));
    for (const line of hunk.removed) rows.push(el('div', { class: 'diff-line removed', text: `- ${line}` }));
    for (const line of hunk.added) rows.push(el('div', { class: 'diff-line added', text: `+ ${line}` }));
  }
  if (preview.more > 0) rows.push(el('div', { class: 'diff-note', text: `… ${preview.more} more ${preview.more === 1 ? 'change' : 'changes'}` }));
  return el('div', { class: 'diff-block', role: 'group', 'aria-label': `Changes to ${label}` }, [
    el('div', { class: 'diff-header' }, [
      icon(preview.created ? 'new-file' : 'diff'),
      el('span', { class: 'diff-path', text: label, title: label }),
      el('span', { class: 'added', text: `+${preview.added}` }),
      el('span', { class: 'removed', text: `−${preview.removed}` }),
    ]),
    el('div', { class: 'diff-lines' }, rows),
  ]);
}

function agentToolCard(tool) {
  const card = el('div', { class: 'tool-card agent-tool', 'data-tool-id': tool.id || '' }, [
    el('div', { class: 'tool-header' }, [
      el('span', { class: 'tool-status' }),
      el('span', { class: 'tool-kind' }),
      el('span', { class: 'tool-name' }),
      el('code', { class: 'tool-args' }),
    ]),
    el('div', { class: 'tool-files' }),
    el('div', { class: 'tool-diffs' }),
    el('div', { class: 'tool-question' }),
    el('div', { class: 'tool-note' }),
  ]);
  card.dataset.toolId = tool.id || '';
  if (String(tool.id).startsWith('permission-') || String(tool.id).startsWith('question-')) card.classList.add('permission-card');
  updateAgentToolCard(card, tool);
  return card;
}

function updateAgentToolCard(card, tool) {
  card.querySelector('.tool-kind').replaceChildren(icon(KIND_ICONS[tool.kind] || 'tools'));
  card.querySelector('.tool-name').textContent = tool.title || 'tool';
  const args = card.querySelector('.tool-args');
  const input = tool.input && tool.input !== '{}' ? tool.input : ''; // no arguments: nothing to show
  args.textContent = input.length > 300 ? input.slice(0, 300) + '…' : input;
  args.title = input;
  args.hidden = !input;
  const files = card.querySelector('.tool-files');
  files.replaceChildren(...(tool.paths || []).map((path) => el('span', { class: 'tool-file', title: path }, [icon('file'), el('span', { text: baseName(path) })])));
  const diffs = card.querySelector('.tool-diffs');
  diffs.replaceChildren(...(tool.diffs || []).map((diff) => diffBlock(diff.path, diff.preview)));
  updateToolCard(card, { status: tool.status, result: tool.output });
  if (tool.status !== 'waiting') {
    card.querySelector('.tool-question').replaceChildren();
    card.classList.remove('asking');
  }
  if (card.classList.contains('permission-card') && tool.status !== 'waiting' && tool.status !== 'running') {
    // The answer (the option's label), or why nobody's answer counted: no details to open
    const note = card.querySelector('.tool-note');
    note.replaceChildren(el('span', { class: 'permission-answer', text: tool.output || (tool.status === 'cancelled' ? 'Cancelled' : '') }));
  }
}

function storedAgentTool(part) {
  const input = typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments === undefined ? {} : part.arguments);
  return { id: part.id, title: part.name, kind: part.toolKind || 'other', status: part.status, input: input === '{}' ? '' : input, output: part.result || '', paths: part.paths || [], diffs: [], parent: part.parent || null, subagent: String(part.id).startsWith('hermes-subagent:') };
}

// Where a new card goes: nested under the card of its parent tool call (a Hermes subagent under the call that
// delegated it, or under its parent subagent), else at the end of the message.
function placeAgentToolCard(tools, body, card, tool) {
  const parent = tool.parent ? tools.get(tool.parent) : null;
  if (tool.subagent) card.classList.add('subagent-card');
  if (!parent) {
    body.appendChild(card);
    return;
  }
  let children = parent.querySelector(':scope > .tool-children');
  if (!children) {
    children = el('div', { class: 'tool-children', role: 'group', 'aria-label': 'Subagents' });
    parent.appendChild(children);
  }
  children.appendChild(card);
}

// The permission question, in the card of the waiting tool: every option the agent offers, and its diffs.
function showQuestion(message) {
  if (!state.current) return;
  let card = state.current.tools.get(message.id);
  if (!card) {
    card = agentToolCard({ id: message.id, title: message.title, kind: 'other', status: 'waiting', input: '', output: '', paths: [], diffs: [] });
    state.current.tools.set(message.id, card);
    state.current.body.appendChild(card);
  }
  const agent = currentAgent();
  const children = [el('div', { class: 'question-title' }, [icon('shield'), el('span', { text: `${agent ? agent.label : 'The agent'} asks: ${message.title}` })])];
  if (message.command) {
    children.push(el('pre', { class: 'question-command' }, [el('code', { text: message.command })]));
  } else if (message.detail && !(message.diffs || []).length) {
    children.push(el('div', { class: 'question-detail', text: message.detail }));
  }
  for (const diff of message.diffs || []) children.push(diffBlock(diff.shown, diff.preview));
  const buttons = (message.choices || []).map((choice) => el('button', {
    type: 'button', class: choice.allow ? 'answer-button allow' : 'answer-button',
    'data-action': 'permission', 'data-id': message.id, 'data-option': choice.id, text: choice.label, title: choice.kind,
  }));
  if ((message.diffs || []).length) {
    buttons.push(el('button', { type: 'button', class: 'answer-button open-diff', 'data-action': 'permission-diff', 'data-id': message.id, text: 'Open Diff' }));
  }
  children.push(el('div', { class: 'question-actions' }, buttons));
  card.querySelector('.tool-question').replaceChildren(...children);
  card.classList.add('asking');
  scrollToEnd(true);
}

// An agent's form question (ACP elicitation), in the card of its waiting part. Every text in it is the agent's: set
// as textContent only (never HTML, never a link). The host checks the answers against the form before sending them,
// and posts the card again with the reasons while they are wrong.
/** @param {import('./protocol').ElicitationField} field @param {string} value @param {string} inputId */
function formInput(field, value, inputId) {
  if (field.kind === 'unsupported') {
    return el('div', { class: 'form-note', text: `Hermes cannot answer a field of type "${field.type}".` });
  }
  if (field.options) {
    const select = el('select', { id: inputId, class: 'form-input', 'data-name': field.name });
    select.appendChild(el('option', { value: '', text: field.required ? 'Choose…' : '(no answer)' }));
    for (const option of field.options) select.appendChild(el('option', { value: option.value, text: option.label }));
    select.value = value;
    return select;
  }
  const input = el('input', { id: inputId, type: 'text', class: 'form-input', 'data-name': field.name, value });
  if (field.kind === 'number' || field.kind === 'integer') input.inputMode = field.kind === 'integer' ? 'numeric' : 'decimal';
  if (field.format === 'email') input.inputMode = 'email';
  if (field.format) input.placeholder = { email: 'name@example.com', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDTHH:MM' }[field.format] || '';
  return input;
}

/** @param {import('./protocol').ElicitationPost} message */
function showForm(message) {
  if (!state.current) return;
  let card = state.current.tools.get(message.id);
  if (!card) {
    card = agentToolCard({ id: message.id, title: message.title, kind: 'other', status: 'waiting', input: '', output: '', paths: [], diffs: [] });
    state.current.tools.set(message.id, card);
    state.current.body.appendChild(card);
  }
  const children = [el('div', { class: 'question-title' }, [icon('comment-discussion'), el('span', { text: `${message.agent} asks:` })])];
  if (message.message) children.push(el('div', { class: 'question-detail form-message', text: message.message }));
  if (message.title) children.push(el('div', { class: 'form-title', text: message.title }));
  const rows = message.fields.map((field, index) => {
    const inputId = `${message.id}-field-${index}`;
    const value = Object.prototype.hasOwnProperty.call(message.values, field.name) ? message.values[field.name] : '';
    return el('div', { class: 'form-field' }, [
      el('label', { class: 'form-label', for: inputId, text: field.label + (field.required ? ' *' : '') }),
      field.description ? el('div', { class: 'form-description', text: field.description }) : null,
      formInput(field, value, inputId),
    ]);
  });
  children.push(el('div', { class: 'elicitation-form', 'data-id': message.id }, rows));
  if (message.problems.length) {
    children.push(el('ul', { class: 'form-problems', role: 'alert' }, message.problems.map((problem) => el('li', { text: problem }))));
  }
  children.push(el('div', { class: 'question-actions' }, [
    el('button', { type: 'button', class: 'answer-button allow', 'data-action': 'form-accept', 'data-id': message.id, text: 'Submit' }),
    el('button', { type: 'button', class: 'answer-button', 'data-action': 'form-decline', 'data-id': message.id, text: 'Decline' }),
    el('button', { type: 'button', class: 'answer-button', 'data-action': 'form-cancel', 'data-id': message.id, text: 'Cancel' }),
  ]));
  card.querySelector('.tool-question').replaceChildren(...children);
  card.classList.add('asking');
  scrollToEnd(true);
}

/** @param {HTMLElement} target */
function answerForm(target) {
  const card = target.closest('.tool-question');
  /** @type {{ [name: string]: string }} */
  const values = {};
  if (card) {
    for (const input of card.querySelectorAll('.form-input')) {
      const field = /** @type {HTMLInputElement | HTMLSelectElement} */ (input);
      if (field.dataset.name !== undefined) values[field.dataset.name] = field.value;
    }
  }
  const actions = { 'form-accept': 'accept', 'form-decline': 'decline', 'form-cancel': 'cancel' };
  const action = actions[/** @type {'form-accept' | 'form-decline' | 'form-cancel'} */ (target.dataset.action)];
  vscode.postMessage({ type: 'elicitationAnswer', id: target.dataset.id || '', action, values: action === 'accept' ? JSON.stringify(values) : '{}' });
}

function planElement(entries) {
  const done = entries.filter((entry) => entry.status === 'completed').length;
  return el('div', { class: 'plan', role: 'group', 'aria-label': 'Plan' }, [
    el('div', { class: 'plan-header' }, [icon('checklist'), el('span', { text: 'Plan' }), el('span', { class: 'plan-count', text: `${done}/${entries.length}` })]),
    el('ul', {}, entries.map((entry) => el('li', { class: `plan-entry ${entry.status}`, 'aria-label': `${entry.title} (${PLAN_LABELS[entry.status] || entry.status})` }, [
      icon(PLAN_ICONS[entry.status] || 'circle-large-outline'), el('span', { text: entry.title }),
    ]))),
  ]);
}

function thoughtElement(text) {
  const body = el('div', { class: 'thought-text', text });
  const details = el('details', { class: 'thought' }, [el('summary', {}, [icon('lightbulb'), el('span', { text: 'Thinking' })]), body]);
  return { details, body };
}

function noticeElement(text) {
  const holder = el('div', { class: 'markdown' });
  holder.appendChild(renderMarkdown(text));
  return el('div', { class: 'message-notice', role: 'note' }, [icon('info'), holder]);
}

// What an ACP agent's turn used and cost, under its reply ("This turn: 1,234 tokens (…) · $0.25").
/** @param {import('./protocol').TurnUsage} usage */
function turnUsageElement(usage) {
  return el('div', { class: 'turn-usage', role: 'note', 'aria-label': 'What this turn used' }, [icon('pulse'), el('span', { text: String(usage.text || '') })]);
}

function addAssistantMessage(message, live) {
  const { element, body } = messageElement('assistant');
  const entry = { element, body, text: null, tools: new Map(), thought: null, plan: null };
  transcript.appendChild(element);
  for (const part of message.parts || []) {
    if (part.kind === 'text') {
      const holder = el('div', { class: 'markdown' });
      holder.appendChild(renderMarkdown(part.text || ''));
      body.appendChild(holder);
    } else if (part.kind === 'tool') {
      if (Array.isArray(part.paths)) {
        const tool = storedAgentTool(part);
        const card = agentToolCard(tool);
        entry.tools.set(part.id, card);
        placeAgentToolCard(entry.tools, body, card, tool);
      } else {
        const card = toolCard(part);
        entry.tools.set(part.id, card);
        body.appendChild(card);
      }
    } else if (part.kind === 'thought') {
      body.appendChild(thoughtElement(part.text || '').details);
    } else if (part.kind === 'plan' && Array.isArray(part.entries)) {
      entry.plan = planElement(part.entries);
      body.appendChild(entry.plan);
    }
  }
  if (message.error) body.appendChild(el('div', { class: 'message-error', text: message.error }));
  if (message.status === 'stopped') body.appendChild(el('div', { class: 'message-note', text: 'Stopped.' }));
  if (message.usage) body.appendChild(turnUsageElement(message.usage));
  if (live) {
    element.classList.add('streaming');
    element.setAttribute('aria-busy', 'true'); // screen readers read the reply once, not token by token
    const thinking = el('div', { class: 'thinking' }, [icon('loading', 'codicon-modifier-spin'), el('span', { text: 'Thinking…' })]);
    body.appendChild(thinking);
    entry.thinking = thinking;
  }
  return entry;
}

function renderTranscript() {
  state.current = null;
  transcript.replaceChildren(emptyState);
  for (const message of state.messages) {
    if (message.role === 'user') addUserMessage(message);
    else addAssistantMessage(message, false);
  }
  renderTurnChanges();
  renderEmptyState();
  scrollToEnd(true);
}

function scrollToEnd(force) {
  const nearEnd = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 80;
  if (force || nearEnd) transcript.scrollTop = transcript.scrollHeight;
}

// Streaming text: deltas are appended at once and rendered at most once per animation frame.
function currentText() {
  const current = state.current;
  if (!current.text) {
    if (current.thinking) { current.thinking.remove(); current.thinking = null; }
    const holder = el('div', { class: 'markdown' });
    current.body.appendChild(holder);
    current.text = new StreamingMarkdown(holder);
  }
  return current.text;
}

function scheduleRender() {
  if (state.frame) return;
  const run = () => {
    if (!state.frame) return;
    state.frame = 0;
    if (state.current && state.current.text) {
      const stick = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 80;
      state.current.text.flush();
      if (stick) transcript.scrollTop = transcript.scrollHeight;
    }
  };
  state.frame = requestAnimationFrame(run);
  setTimeout(run, 100); // hidden webviews get no animation frames
}

function endTextPart() {
  if (state.current && state.current.text) {
    state.current.text.finish();
    state.current.text = null;
  }
}

// ----------------------------------------------------------------------------------------- banners

function showBanner(message, options = {}) {
  const actions = [];
  if (options.retry) {
    actions.push(el('button', { type: 'button', class: 'secondary-button', 'data-action': 'retry', text: 'Retry' }));
  }
  if (options.settings) {
    actions.push(el('button', { type: 'button', class: 'secondary-button', 'data-action': 'settings', text: 'Open Settings' }));
  }
  if (options.apiKey) {
    actions.push(el('button', { type: 'button', class: 'secondary-button', 'data-action': 'api-key', text: 'Set API Key' }));
  }
  if (options.setup) { // an agent that needs a sign-in (Hermes without a model provider: `hermes acp --setup`)
    actions.push(el('button', { type: 'button', class: 'secondary-button', 'data-action': 'setup', text: options.setup }));
  }
  const dismiss = iconButton('', 'close', 'Dismiss');
  dismiss.removeAttribute('id');
  dismiss.dataset.action = 'dismiss';
  const banner = el('div', { class: `banner ${options.level || 'error'}` }, [
    icon(options.level === 'warning' ? 'warning' : 'error'),
    el('div', { class: 'banner-text', text: message }),
    el('div', { class: 'banner-actions' }, actions),
    dismiss,
  ]);
  banners.replaceChildren(banner);
}

function clearBanner() {
  banners.replaceChildren();
}

// ----------------------------------------------------------------------------------------- controls

function setRunning(running) {
  state.running = running;
  input.disabled = running;
  sendButton.hidden = running;
  stopButton.hidden = !running;
  document.body.classList.toggle('running', running);
  const agent = currentAgent();
  statusLine.textContent = running ? `${agent ? agent.label : 'Hermes'} is working… (Escape to stop)` : '';
  backendSelect.disabled = running || !state.backends || Boolean(state.backends.locked);
  renderOptions(state.options); // (not changed while a turn runs: the choice applies to the next)
  if (!running) focusPrompt();
}

// The prompt takes the keyboard only while this view has it: a view that loads (a window reload restores it,
// late on a busy machine) or ends a turn while the user is elsewhere must not pull their typing, or close the
// command palette they just opened. VS Code focusing the view (Open Chat Panel, a click) puts the caret there.
function focusPrompt() {
  if (document.hasFocus() && !input.disabled) input.focus();
}

window.addEventListener('focus', () => {
  if (!document.activeElement || document.activeElement === document.body) focusPrompt();
});

function autoSize() {
  input.style.height = 'auto';
  input.style.height = Math.min(input.scrollHeight, 200) + 'px';
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

function renderAttachments() {
  attachmentList.hidden = state.attachments.length === 0;
  attachmentList.replaceChildren(...state.attachments.map((image, index) => el('div', { class: 'attachment', role: 'listitem' }, [
    icon('file-media'),
    el('span', { class: 'attachment-name', text: image.name, title: image.name }),
    el('button', { type: 'button', class: 'icon-button', title: `Remove ${image.name}`, 'aria-label': `Remove ${image.name}`, 'data-action': 'remove-image', 'data-index': String(index) }, [icon('close')]),
  ])));
}

/** @param {File[]} files */
function attachImages(files) {
  for (const file of files) {
    if (!IMAGE_TYPES.includes(file.type)) { showBanner(`${file.name || 'That file'} is not a PNG, JPEG, GIF or WebP image.`, {}); continue; }
    if (file.size > MAX_IMAGE_BYTES) { showBanner(`${file.name || 'The image'} is larger than 5 MB.`, {}); continue; }
    if (state.attachments.length >= MAX_IMAGES) { showBanner(`At most ${MAX_IMAGES} images go with one message.`, {}); break; }
    const image = { name: file.name || 'pasted image', mimeType: file.type, data: '' };
    state.attachments.push(image);
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result || '');
      image.data = url.slice(url.indexOf(',') + 1); // the base64 after "data:image/png;base64,"
      renderAttachments();
    };
    reader.readAsDataURL(file);
  }
  renderAttachments();
}

function send() {
  const text = input.value;
  if (state.running || !text.trim()) return;
  const images = state.attachments.filter((image) => image.data);
  if (images.length > 0) {
    vscode.postMessage({ type: 'sendImages', text, images: JSON.stringify(images.map(({ mimeType, data, name }) => ({ mimeType, data, name }))) });
  } else {
    vscode.postMessage({ type: 'send', text });
  }
  state.attachments = [];
  renderAttachments();
  input.value = '';
  autoSize();
  saveDraft();
  commandMenu.update();
}

function stop() {
  if (state.running) vscode.postMessage({ type: 'stop' });
}

function saveDraft() {
  vscode.setState(draftState(input.value, state.messages));
}

input.addEventListener('keydown', (event) => {
  if (commandMenu.handleKey(event)) return; // the command list's keys: move, pick, close
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
input.addEventListener('input', () => { autoSize(); saveDraft(); commandMenu.update(); });
input.addEventListener('blur', () => commandMenu.close(false));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && state.running) {
    event.preventDefault();
    stop();
  }
});
sendButton.addEventListener('click', send);
attachButton.addEventListener('click', () => imagePicker.click());
imagePicker.addEventListener('change', () => { attachImages(Array.from(imagePicker.files || [])); imagePicker.value = ''; });
input.addEventListener('paste', (event) => {
  const files = Array.from((event.clipboardData && event.clipboardData.files) || []).filter((file) => file.type.startsWith('image/'));
  if (files.length === 0 || !currentAgent()) return;
  event.preventDefault();
  attachImages(files);
});
attachmentList.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-action="remove-image"]') : null;
  if (!(button instanceof HTMLElement)) return;
  state.attachments.splice(Number(button.dataset.index), 1);
  renderAttachments();
});
stopButton.addEventListener('click', stop);
newChatButton.addEventListener('click', () => vscode.postMessage({ type: 'newChat' }));
settingsButton.addEventListener('click', () => vscode.postMessage({ type: 'openSettings' }));
refreshButton.addEventListener('click', () => vscode.postMessage({ type: 'refreshModels' }));
backendSelect.addEventListener('change', () => {
  if (backendSelect.value) vscode.postMessage({ type: 'selectBackend', backend: backendSelect.value });
});
modelSelect.addEventListener('change', () => {
  if (modelSelect.value) vscode.postMessage({ type: 'selectModel', model: modelSelect.value });
});

// One listener for buttons inside rendered content (code blocks, banners).
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? /** @type {HTMLElement | null} */ (event.target.closest('[data-action]')) : null;
  if (!target) return;
  const action = target.dataset.action;
  if (action === 'copy' || action === 'insert') {
    const block = target.closest('.code-block');
    const code = block ? block.querySelector('pre code') : null;
    if (!code) return;
    vscode.postMessage({ type: action === 'copy' ? 'copyCode' : 'insertCode', code: code.textContent });
    if (action === 'copy') flashButton(target, 'check');
  } else if (action === 'retry') {
    clearBanner();
    vscode.postMessage({ type: 'retry' });
  } else if (action === 'settings') {
    vscode.postMessage({ type: 'openSettings' });
  } else if (action === 'api-key') {
    vscode.postMessage({ type: 'setApiKey' });
  } else if (action === 'setup') {
    vscode.postMessage({ type: 'setupAgent' });
  } else if (action === 'permission') {
    for (const button of target.parentElement.querySelectorAll('button')) button.disabled = true; // answered once
    vscode.postMessage({ type: 'permissionAnswer', id: target.dataset.id, option: target.dataset.option });
  } else if (action === 'form-accept' || action === 'form-decline' || action === 'form-cancel') {
    answerForm(target);
  } else if (action === 'permission-diff') {
    vscode.postMessage({ type: 'openPermissionDiff', id: target.dataset.id });
  } else if (action === 'dismiss') {
    clearBanner();
  } else if (action === 'restore-turn' || action === 'keep-turn' || action === 'undo-turn' || action === 'show-turn') {
    event.preventDefault();
    /** @type {{ [action: string]: import('./protocol').TurnMessage['type'] }} */
    const types = { 'restore-turn': 'restoreTurn', 'keep-turn': 'keepTurn', 'undo-turn': 'undoTurn', 'show-turn': 'showTurnChanges' };
    vscode.postMessage({ type: types[action], turn: target.dataset.turn });
  }
});

function flashButton(button, iconName) {
  const original = button.firstChild;
  button.replaceChildren(icon(iconName));
  setTimeout(() => button.replaceChildren(original), 1200);
}

function renderModels() {
  const names = state.models.slice();
  if (state.model && !names.includes(state.model)) names.unshift(state.model);
  modelSelect.replaceChildren(...names.map((name) => {
    const option = el('option', { value: name, text: name });
    option.selected = name === state.model;
    return option;
  }));
  modelSelect.title = state.modelsError ? state.modelsError : `Model at ${state.endpoint}`;
  modelSelect.disabled = names.length === 0;
}

// ----------------------------------------------------------------------------------------- host messages

/** @type {import('./protocol').Handlers} */
const handlers = {
  state(message) {
    const firstState = !state.receivedState;
    state.receivedState = true;
    state.messages = Array.isArray(message.messages) ? message.messages : [];
    const shown = storedDraft(savedState);
    if (firstState && shown && input.value === shown && !restoredDraft(savedState, state.messages)) {
      input.value = ''; // a draft of a conversation that has moved on (sent since): not the user's any more
      autoSize();
    }
    saveDraft(); // the draft now belongs to this conversation (a new chat, a restored one)
    state.model = message.model || '';
    state.endpoint = message.endpoint || '';
    renderTranscript();
    renderModels();
    setRunning(Boolean(message.running));
    // A reply still running (the view was re-created): show what it has so far, then keep streaming.
    if (message.running) state.current = addAssistantMessage(message.current || { parts: [] }, true);
  },
  userMessage(message) {
    clearBanner();
    state.messages.push(message.message);
    addUserMessage(message.message);
    saveDraft();
    renderEmptyState();
    scrollToEnd(true);
  },
  turnStarted() {
    clearBanner();
    state.current = addAssistantMessage({ parts: [] }, true);
    renderEmptyState();
    setRunning(true);
    scrollToEnd(true);
  },
  textDelta(message) {
    if (!state.current) return;
    state.current.thought = null; // the next thought is a block of its own
    currentText().append(message.text);
    scheduleRender();
  },
  toolStarted(message) {
    if (!state.current) return;
    endTextPart();
    if (state.current.thinking) { state.current.thinking.remove(); state.current.thinking = null; }
    const card = toolCard({ id: message.id, name: message.name, arguments: message.arguments, status: 'running' });
    state.current.tools.set(message.id, card);
    state.current.body.appendChild(card);
    scrollToEnd(false);
  },
  thoughtDelta(message) {
    if (!state.current) return;
    const current = state.current;
    endTextPart();
    if (current.thinking) { current.thinking.remove(); current.thinking = null; }
    if (!current.thought) {
      current.thought = thoughtElement('');
      current.body.appendChild(current.thought.details);
    }
    current.thought.body.textContent += message.text;
    scrollToEnd(false);
  },
  agentTool(message) {
    if (!state.current || !message.tool) return;
    const current = state.current;
    const tool = message.tool;
    let card = current.tools.get(tool.id);
    if (card) {
      updateAgentToolCard(card, tool);
    } else {
      endTextPart();
      current.thought = null;
      if (current.thinking) { current.thinking.remove(); current.thinking = null; }
      card = agentToolCard(tool);
      current.tools.set(tool.id, card);
      placeAgentToolCard(current.tools, current.body, card, tool);
    }
    scrollToEnd(false);
  },
  plan(message) {
    if (!state.current || !Array.isArray(message.entries)) return;
    const current = state.current;
    const plan = planElement(message.entries);
    if (current.plan && current.plan.isConnected) {
      current.plan.replaceWith(plan); // the same list, live: where it first appeared
    } else {
      endTextPart();
      current.thought = null;
      if (current.thinking) { current.thinking.remove(); current.thinking = null; }
      current.body.appendChild(plan);
    }
    current.plan = plan;
    scrollToEnd(false);
  },
  usage(message) {
    if (!state.backends) return;
    state.backends.usage = { used: message.used, size: message.size, cost: message.cost };
    renderBackends();
  },
  notice(message) {
    if (!state.current || typeof message.text !== 'string') return;
    endTextPart();
    state.current.thought = null;
    state.current.body.appendChild(noticeElement(message.text));
    scrollToEnd(false);
  },
  permission(message) {
    showQuestion(message);
  },
  elicitation(message) {
    showForm(message);
  },
  options(message) {
    state.options = Array.isArray(message.options) ? message.options : [];
    renderOptions(state.options);
  },
  commands(message) {
    state.commands = Array.isArray(message.commands) ? message.commands : [];
    commandMenu.setCommands(state.commands);
    renderBackends();
  },
  backends(message) {
    state.backends = Array.isArray(message.choices) ? message : null;
    renderBackends();
    setRunning(state.running);
    renderEmptyState();
  },
  toolWaiting(message) {
    const card = state.current && state.current.tools.get(message.id);
    if (card) updateToolCard(card, { status: 'waiting' });
  },
  toolRunning(message) {  // the user allowed the call: back to the spinner until its result
    const card = state.current && state.current.tools.get(message.id);
    if (card) updateToolCard(card, { status: 'running' });
  },
  toolResult(message) {
    const card = state.current && state.current.tools.get(message.id);
    if (card) updateToolCard(card, { status: message.isError ? 'error' : 'ok', result: message.result });
    scrollToEnd(false);
  },
  turnEnded(message) {
    endTextPart();
    if (state.current) {
      const current = state.current;
      current.element.classList.remove('streaming');
      current.element.removeAttribute('aria-busy');
      if (current.thinking) current.thinking.remove();
      for (const card of current.tools.values()) {
        if (card.dataset.status === 'running' || card.dataset.status === 'waiting') updateToolCard(card, { status: 'cancelled' });
        const question = card.querySelector('.tool-question');
        if (question) question.replaceChildren();
        card.classList.remove('asking');
      }
      if (message.status === 'stopped') current.body.appendChild(el('div', { class: 'message-note', text: 'Stopped.' }));
      if (message.message && message.message.usage) current.body.appendChild(turnUsageElement(message.message.usage));
      if (message.message) state.messages.push(message.message);
    }
    state.current = null;
    renderTurnChanges();
    setRunning(false);
    renderEmptyState();
  },
  error(message) {
    showBanner(message.message, { retry: message.retry, settings: message.settings, apiKey: message.apiKey, setup: typeof message.setup === 'string' ? message.setup : null });
  },
  changes(message) {
    state.turnChanges = message.turns && typeof message.turns === 'object' ? message.turns : {};
    renderTurnChanges();
  },
  models(message) {
    state.models = Array.isArray(message.models) ? message.models : [];
    state.model = message.current || state.model;
    state.endpoint = message.endpoint || state.endpoint;
    state.modelsError = message.error || '';
    renderModels();
    renderEmptyState();
  },
};

window.addEventListener('message', (event) => {
  const message = event.data;
  if (!message || typeof message.type !== 'string' || !Object.prototype.hasOwnProperty.call(handlers, message.type)) return;
  handlers[message.type](message);
});

input.value = storedDraft(savedState);
setRunning(false);
renderEmptyState();
autoSize();
vscode.postMessage({ type: 'ready' });
