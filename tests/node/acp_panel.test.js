// The side panel answered by an ACP agent, in the real bundle (dist/extension.js) under node: the whole extension
// activated on the fake vscode, the panel's webview view resolved with a fake webview, and the scripted agent
// tests/acp_agent/agent.py (in hermes.acp.agents, or as Hermes Agent through hermes.acp.hermesPath) answering over
// real stdio. What the webview is posted for a turn (text, thinking, tool calls that end, the plan, usage), a
// permission card answered exactly, Stop → session/cancel, the conversation continued in a chat session in the same
// agent session (one store), and a Hermes without a provider: the banner with the setup button, which runs its
// terminal sign-in method (`hermes acp --setup`) as a terminal's process and asks again once it exits with 0.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { vscode, extension, chat, token, recorder, listed } = require('./fake_chat');
const { until, partLoaded, storeWritten } = require('./harness');

const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
const SCRIPTED_COMMANDS = [{ name: 'help', description: 'Help', hint: '' },
  { name: 'model', description: 'Show or switch the model', hint: 'model name' },
  { name: 'tools', description: 'List the tools', hint: '' }];
const SCRIPTED = { 'hermes.agent.backend': 'Scripted',
  'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT] }] };

// The panel's controller is a part loaded on first use (dist/part-ui.panel.controller.js): the first panel opened in
// this file sees it load when its view resolves (the bundle stays in require.cache for the tests after it).
const controllerLoaded = () => partLoaded('ui.panel.controller');
let firstPanel = true;

async function openPanel(settings) {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  Object.assign(vscode.__state.settings, settings);
  chat.proposal = true;
  const context = vscode.__makeContext();
  const ext = extension();
  await ext.activate(context);
  const { provider } = vscode.__state.webviewViews.get('hermes.panel');
  const posted = [];
  let receive;
  const view = {
    webview: {
      cspSource: 'vscode-resource:', options: null, html: '',
      asWebviewUri: (uri) => ({ toString: () => 'vscode-resource:' + uri.fsPath }),
      postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); return Promise.resolve(true); },
      onDidReceiveMessage: (listener) => { receive = listener; return new vscode.Disposable(); },
    },
    onDidDispose: () => new vscode.Disposable(),
  };
  if (firstPanel) assert.ok(!controllerLoaded(), 'activation does not load the panel\'s controller');
  firstPanel = false;
  provider.resolveWebviewView(view, {}, {});
  assert.ok(controllerLoaded(), 'the view resolving loads it');
  await receive({ type: 'ready' });
  const of = (type) => posted.filter((m) => m.type === type);
  const stop = async () => { await ext.deactivate(); context.disposeAll(); };
  return { posted, of, send: (m) => receive(m), stop, context };
}

async function storedConversations(context) {
  await storeWritten();
  return JSON.parse(fs.readFileSync(path.join(context.storageUri.fsPath, 'conversations.json'), 'utf8')).conversations;
}

test('the panel offers the agents and shows the scripted agent\'s turn: text, thinking, tool calls that end, plan, usage', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    const [backends] = panel.of('backends');
    assert.deepEqual(backends.choices.map((c) => c.id), ['builtin', 'hermes', 'Scripted']);
    assert.equal(backends.current, 'Scripted'); // hermes.agent.backend, as a session reads it
    assert.equal(backends.locked, false);
    await panel.send({ type: 'send', text: 'hello there' });
    assert.equal(panel.of('textDelta').map((m) => m.text).join(''), 'Hello, you said: hello there');
    assert.deepEqual(panel.of('thoughtDelta').map((m) => m.text), ['thinking']);
    const calls = panel.of('agentTool').map((m) => m.tool).filter((t) => t.id === 'call-1');
    assert.deepEqual(calls.map((t) => [t.title, t.kind, t.status, t.complete]),
      [['Reading notes.md', 'read', 'running', false], ['Reading notes.md', 'read', 'ok', true]]);
    assert.ok(calls[0].paths[0].endsWith('/notes.md'));
    assert.deepEqual(panel.of('plan').map((m) => m.entries),
      [[{ title: 'read', status: 'completed' }, { title: 'answer', status: 'in_progress' }]]);
    assert.deepEqual(panel.of('usage').map((m) => [m.used, m.size, m.cost]), [[10, 1000, '$0.01']]);
    assert.equal(panel.of('turnEnded')[0].status, 'done');
    assert.equal(panel.of('backends').at(-1).locked, true);
    const [stored] = await storedConversations(panel.context);
    // (with the mode and model the agent reported: the chat session's pickers show them)
    // (and the slash commands it sent after session/new: "/" in the panel's input lists them)
    assert.deepEqual(stored.acp, { agent: 'Scripted', sessionId: 'sess-1', mode: 'default', model: 'scripted-a',
      commands: SCRIPTED_COMMANDS, cost: { amount: 0.0123, currency: 'USD' } });
    // what the turn cost, under it (the agent sent no tokens in its answer)
    assert.deepEqual(panel.of('turnEnded')[0].message.usage, { tokens: null, cost: { amount: 0.0123, currency: 'USD' },
      text: 'This turn: $0.01' });
    assert.deepEqual(panel.of('commands').at(-1).commands, SCRIPTED_COMMANDS);
    // one store: the chat sessions list it, and a follow-up there continues the same agent session
    const controller = chat.controllers.get('hermes');
    const inList = (items) => items.find((i) => i.resource.path === '/' + stored.id);
    const item = inList(await listed(controller, inList));  // (else the test runner's timeout)
    const stream = recorder();
    await chat.content.get('hermes').participant.handler({ prompt: 'hello again', references: [], toolReferences: [] },
      { history: [], chatSessionContext: { chatSessionItem: { resource: item.resource }, isUntitled: false } }, stream, token);
    // the chat was not told the commands yet (the panel lists them on "/"): its first answer ends with them, once
    assert.equal(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join(''),
      'Hello, you said: hello again\n\n*This turn: $0.00*' +  // (the session's cost did not grow)
      '\n\nScripted commands: `/help`, `/model`, `/tools` — type one as your message.');
    const [after] = await storedConversations(panel.context);
    assert.equal(after.acp.sessionId, 'sess-1'); // not a new session (the agent would have said sess-2)
    assert.deepEqual(after.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  } finally {
    await panel.stop();
  }
});

test("Hermes Agent's subagents reach the panel as cards nested under the call that delegated them, and stay nested in the store", async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    await panel.send({ type: 'send', text: 'subagents' });
    const last = new Map(panel.of('agentTool').map((m) => [m.tool.id, m.tool]));
    assert.deepEqual([...last.values()].map((t) => [t.id, t.parent, t.subagent, t.status]), [
      ['tc-delegate1', null, false, 'ok'],
      ['hermes-subagent:sa-1', 'tc-delegate1', true, 'ok'],
      ['hermes-subagent:sa-2', 'tc-delegate1', true, 'error'],
      ['hermes-subagent:sa-1.1', 'hermes-subagent:sa-1', true, 'ok'],
      ['hermes-subagent:bad id', null, false, 'ok']]);
    assert.deepEqual([last.get('hermes-subagent:sa-2').input, last.get('hermes-subagent:sa-2').output],
      ['Tools: terminal', 'Ran the tests: 2 failures.']);
    const [stored] = await storedConversations(panel.context);
    assert.deepEqual(stored.messages[1].parts.filter((p) => p.kind === 'tool').map((p) => p.parent),
      [undefined, 'tc-delegate1', 'tc-delegate1', 'hermes-subagent:sa-1', undefined]);
  } finally {
    await panel.stop();
  }
});

test('each turn in the panel says what it used and cost: the answer\'s tokens, what the session\'s cost grew by', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    await panel.send({ type: 'send', text: 'costly' });
    await panel.send({ type: 'send', text: 'costly' });
    await panel.send({ type: 'send', text: 'costly EUR' });  // another currency: no turn cost, nothing summed
    assert.deepEqual(panel.of('turnEnded').map((m) => m.message.usage.text), [
      'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking) · $0.25',
      'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking) · $0.25',
      'This turn: 1,234 tokens (1,000 in, 200 out, 34 thinking)']);
    assert.deepEqual(panel.of('usage').map((m) => m.cost), ['$0.25', '$0.50', '€0.25']);  // the header: the session's
    const [stored] = await storedConversations(panel.context);
    assert.deepEqual(stored.acp.cost, { amount: 0.25, currency: 'EUR' });
    assert.deepEqual(stored.messages[3].usage.tokens, { total: 1234, input: 1000, output: 200, thought: 34 });
  } finally {
    await panel.stop();
  }
});

test('images attached in the panel reach an agent that reads images; what is no image is said, not sent', async () => {
  const panel = await openPanel({ 'hermes.agent.backend': 'Scripted',
    'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT, '--rich'] }] });
  try {
    const images = JSON.stringify([{ mimeType: 'image/png', data: 'iVBORw0KGgoBAgM=', name: 'shot.png' },
      { mimeType: 'image/png', data: 'not base64 <b>', name: 'bad.png' }]);
    await panel.send({ type: 'sendImages', text: 'blocks', images });
    assert.equal(panel.of('textDelta').map((m) => m.text).join(''), 'blocks: text(6 chars) image(image/png, 16 base64 chars)');
    assert.deepEqual(panel.of('notice').map((m) => m.text), ['bad.png: not sent (a PNG, JPEG, GIF or WebP image of at most 5 MB is).']);
  } finally {
    await panel.stop();
  }
});

test('the agent\'s config options are pickers in the panel: a choice reaches the agent, a change of its own moves them', async () => {
  const panel = await openPanel({ 'hermes.agent.backend': 'Scripted',
    'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT, 'config'] }] });
  try {
    await panel.send({ type: 'send', text: 'hello' });
    const shown = () => panel.of('options').at(-1).options.map((o) => [o.id, o.kind, o.value]);
    // (its modes too: no config option of category mode replaces the deprecated picker)
    assert.deepEqual(shown(), [['mode', 'select', 'default'], ['config:model', 'select', 'scripted-a'],
      ['config:thought_level', 'select', 'medium'], ['config:auto_approve', 'boolean', 'false']]);
    await panel.send({ type: 'setOption', option: 'config:auto_approve', value: 'true' });
    await panel.send({ type: 'setOption', option: 'config:model', value: 'scripted-b' });
    await panel.send({ type: 'send', text: 'options' });
    assert.match(panel.of('textDelta').map((m) => m.text).join(''), /config model=scripted-b thought_level=medium auto_approve=true/);
    await panel.send({ type: 'send', text: 'think_hard' });  // config_option_update: the agent changed it itself
    assert.deepEqual(shown(), [['mode', 'select', 'default'], ['config:model', 'select', 'scripted-b'],
      ['config:thought_level', 'select', 'high'], ['config:auto_approve', 'boolean', 'true']]);
  } finally {
    await panel.stop();
  }
});

test('a permission request is a card in the panel with every option; the answer goes back exactly', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    const turn = panel.send({ type: 'send', text: 'permission' });
    await until(() => panel.of('permission').length > 0);
    const [card] = panel.of('permission');
    assert.deepEqual(card.choices.map((c) => [c.id, c.label, c.allow]), [['allow_once', 'Allow once', true], ['deny', 'Deny', false]]);
    assert.equal(card.title, 'Edit notes.md');
    assert.deepEqual(card.diffs.map((d) => [d.shown, d.preview.hunks]), [['notes.md', [{ line: 1, removed: ['a'], added: ['b'] }]]]);
    const waiting = panel.of('agentTool').map((m) => m.tool).filter((t) => t.id === card.id);
    assert.equal(waiting.at(-1).status, 'waiting');
    await panel.send({ type: 'permissionAnswer', id: card.id, option: 'deny' });
    await turn;
    assert.match(panel.of('textDelta').map((m) => m.text).join(''), /permission: \{"optionId": "deny", "outcome": "selected"\}/);
    const answered = panel.of('agentTool').map((m) => m.tool).filter((t) => t.id === card.id).at(-1);
    assert.deepEqual([answered.status, answered.output], ['error', 'Deny']);
  } finally {
    await panel.stop();
  }
});

test('Stop in the panel sends session/cancel and the agent ends the turn cancelled', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    const turn = panel.send({ type: 'send', text: 'wait_cancel' });
    await until(() => panel.of('textDelta').length > 0);
    await panel.send({ type: 'stop' });
    await turn;
    assert.deepEqual(panel.of('textDelta').map((m) => m.text), ['working', 'stopping']); // the agent saw session/cancel
    assert.equal(panel.of('turnEnded')[0].status, 'stopped');
  } finally {
    await panel.stop();
  }
});

test('Hermes without a provider in the panel: a readable banner and the setup button, which runs hermes acp --setup and asks again', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bin-'));
  const program = path.join(folder, 'hermes');
  fs.writeFileSync(program, `#!/bin/sh\nexec ${PYTHON} ${AGENT} no_provider\n`, { mode: 0o755 });
  const panel = await openPanel({ 'hermes.acp.hermesPath': program });
  try {
    assert.equal(panel.of('backends')[0].current, 'hermes');
    await panel.send({ type: 'send', text: 'hi' });
    const [error] = panel.of('error'); // (not the built-in loop's model list: no LLM here, and none needed)
    assert.match(error.message, /^Hermes Agent has no model provider configured yet/);
    assert.doesNotMatch(error.message, /-32603/);
    assert.equal(error.setup, 'Set up Hermes Agent');
    const setup = panel.send({ type: 'setupAgent' });
    await until(() => vscode.__state.terminals.some((t) => t.name === 'Sign in: Hermes Agent'));
    const terminal = vscode.__state.terminals.find((t) => t.name === 'Sign in: Hermes Agent');
    const options = terminal.creationOptions;  // the program itself, no shell: nothing of the args is interpreted
    assert.deepEqual([options.shellPath, options.shellArgs], [program, ['acp', '--setup']]);
    assert.deepEqual(terminal.sent, []);
    terminal.exitStatus = { code: 0, reason: 4 };  // the user chose a provider: the setup exits 0
    vscode.__state.terminalEvents.close.fire(terminal);
    await setup;
    // signed in: the turn ran again (this scripted Hermes still has no provider, so it says so again)
    await until(() => panel.of('error').length === 2);
  } finally {
    await panel.stop();
  }
});

test('without Hermes Agent the panel offers it as not available; chosen anyway, it says once how to get it', async () => {
  const saved = process.env.PATH;
  process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-path-'));  // no hermes anywhere
  try {
    const panel = await openPanel({ 'hermes.llm.endpoint': 'http://127.0.0.1:9/v1' });
    try {
      const [backends] = panel.of('backends');
      const hermes = backends.choices.find((c) => c.id === 'hermes');
      assert.deepEqual([hermes.available, hermes.detail], [false, "Not installed: pip install 'hermes-agent[acp]'"]);
      assert.equal(backends.current, 'builtin'); // auto without Hermes: the built-in loop, as in a session
      await panel.send({ type: 'selectBackend', backend: 'hermes' });
      assert.equal(panel.of('backends').at(-1).current, 'hermes');
      await panel.send({ type: 'send', text: 'hi' });
      await panel.send({ type: 'send', text: 'again' });
      const notices = panel.of('notice').map((m) => m.text);
      assert.equal(notices.length, 1); // once per conversation
      assert.match(notices[0], /^This session runs Hermes' built-in tool loop .*pip install 'hermes-agent\[acp\]'/);
      assert.equal(panel.of('turnStarted').length, 2); // the built-in loop answered (here: no LLM, an error banner)
    } finally {
      await panel.stop();
    }
  } finally {
    process.env.PATH = saved;
  }
});

test('the agent hears with its next prompt which of its changes the user undid, once', async () => {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-undo-note-')));
  const notes = path.join(folder, 'notes.md');
  fs.writeFileSync(notes, 'one\n');
  const panel = await openPanel({ ...SCRIPTED, 'hermes.tools.confirm': 'never' });
  vscode.__openFolders([folder]);
  // as VS Code does (the window's index of the workspace, warmed when the panel made the ACP sessions, read the
  // folders already: what the window remembers of them is forgotten on this event)
  vscode.__editorEvents.folders.fire({ added: [folder], removed: [] });
  try {
    const said = () => panel.of('textDelta').map((m) => m.text).join('');
    await panel.send({ type: 'send', text: `write ${notes} two` });
    assert.equal(fs.readFileSync(notes, 'utf8'), 'two', said());
    await panel.send({ type: 'send', text: 'hello first' });
    assert.doesNotMatch(said(), /editor note/); // nothing undone yet: no note
    await vscode.commands.executeCommand('hermes.changes.undoFile', notes);
    assert.equal(fs.readFileSync(notes, 'utf8'), 'one\n');
    await panel.send({ type: 'send', text: 'hello second' });
    assert.match(said(), new RegExp('editor note: \\[Note from the editor\\] Since your previous turn the user undid ' +
      'some of your changes: ' + notes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + ' \\(1 change\\)\\. Those files are as ' +
      'the user left them'));
    const before = said().length;
    await panel.send({ type: 'send', text: 'hello third' });
    assert.doesNotMatch(said().slice(before), /editor note/); // told once
  } finally {
    await panel.stop();
  }
});

test('an agent\'s form question is a card in the panel, checked before anything is sent; the answer goes back exactly', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    const turn = panel.send({ type: 'send', text: 'elicit_form' });
    await until(() => panel.of('elicitation').length > 0);
    const [card] = panel.of('elicitation');
    assert.equal(card.message, 'How should I approach this refactoring?');
    assert.deepEqual(card.fields.map((f) => [f.name, f.kind, f.label, f.required]), [
      ['strategy', 'choice', 'Strategy', true], ['count', 'integer', 'Files at most', true],
      ['dry_run', 'boolean', 'Dry run first', false], ['note', 'string', 'Note', false],
      ['email', 'string', 'Email for the report', false]]);
    assert.deepEqual(card.values, { strategy: '', count: '3', dry_run: 'true', note: '', email: '' });
    await panel.send({ type: 'elicitationAnswer', id: card.id, action: 'accept',
      values: JSON.stringify({ strategy: 'balanced', count: '12', email: 'nobody' }) });
    const again = panel.of('elicitation').at(-1);
    assert.deepEqual(again.problems, ['Files at most: must be at most 10', 'Email for the report: must be an email address']);
    await panel.send({ type: 'elicitationAnswer', id: card.id, action: 'accept',
      values: JSON.stringify({ strategy: 'balanced', count: '4', dry_run: 'false', note: '', email: 'me@example.com' }) });
    await turn;
    assert.equal(panel.of('textDelta').map((m) => m.text).join(''),
      'elicit: {"action": "accept", "content": {"count": 4, "dry_run": false, "email": "me@example.com", "strategy": "balanced"}}');
    const answered = panel.of('agentTool').map((m) => m.tool).filter((t) => t.id === card.id).at(-1);
    assert.deepEqual([answered.status, answered.output], ['ok', 'Answered.']);
  } finally {
    await panel.stop();
  }
});

test('hostile field labels reach the panel bounded and without control or bidi characters; decline goes back', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    const turn = panel.send({ type: 'send', text: 'elicit_hostile' });
    await until(() => panel.of('elicitation').length > 0);
    const [card] = panel.of('elicitation');
    const [field] = card.fields;
    assert.equal(field.label.length, 200);
    assert.ok(field.label.startsWith('Pick [here](command:workbench.action.reload) <img src=x onerror=alert(1)> gnp.exe [2J y'));
    assert.doesNotMatch(card.message + field.label + field.description, /[\u0000-\u001f\u200b\u202a-\u202e]/);
    assert.equal(field.description, '<b>bold</b> [link](https://evil.example) zero-width');
    assert.deepEqual(field.options.map((o) => o.label), ['[ok](command:workbench.action.quit)', '<script>alert(1)</script>']);
    await panel.send({ type: 'elicitationAnswer', id: card.id, action: 'decline', values: '{}' });
    await turn;
    assert.equal(panel.of('textDelta').map((m) => m.text).join(''), 'elicit: {"action": "decline"}');
  } finally {
    await panel.stop();
  }
});

test('a URL question opens the address only after the modal naming its host; a dismissed one cancels', async () => {
  const panel = await openPanel(SCRIPTED);
  try {
    vscode.__state.warningAnswer = 'Open login.example.com';
    await panel.send({ type: 'send', text: 'elicit_url' });
    const [level, title, items] = vscode.__state.messages.at(-1);
    assert.deepEqual([level, title], ['warning', 'Scripted asks you to open a web page on login.example.com']);
    assert.deepEqual(items, [{ modal: true, detail: 'Please sign in to continue.\n\nHost: login.example.com\n\n' +
      'Address: https://login.example.com/connect?e=url-1' }, 'Open login.example.com', 'Decline']);
    assert.deepEqual(vscode.__state.external, ['https://login.example.com/connect?e=url-1']);
    vscode.__state.warningAnswer = undefined; // Escape
    await panel.send({ type: 'send', text: 'elicit_url https://login.example.com/again' });
    assert.deepEqual(vscode.__state.external, ['https://login.example.com/connect?e=url-1']); // not opened
    assert.equal(panel.of('textDelta').map((m) => m.text).join(''), 'elicit: {"action": "accept"}elicit: {"action": "cancel"}');
  } finally {
    await panel.stop();
  }
});
