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

const { vscode, chat, token, recorder, openSession, listed } = require('./fake_chat');
const { until, partLoaded } = require('./harness');

const AGENT = path.resolve(__dirname, '..', 'acp_agent', 'agent.py');
const PYTHON = process.env.PYTHON || 'python3';
const NPX = require('child_process').execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();

async function session(settings, prompt, state = {}, answers = undefined) {
  const opened = await openSession(settings, state);
  const stream = recorder(answers);
  const result = await opened.ask(prompt, stream);
  return { stream, result, ask: opened.ask, stop: opened.stop };
}

const COMMANDS_HINT = 'Scripted commands: `/help`, `/model`, `/tools` — type one as your message.';
const SCRIPTED = { 'hermes.agent.backend': 'Scripted',
  'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT] }] };

// The ACP agents behind the sessions and their client side are parts loaded on first use (dist/part-ui.acp.session.js,
// part-host.acp.client_side.js): this first test sees them load (the bundle stays in require.cache for the tests after it).
const acpPartLoaded = () => partLoaded('ui.acp.session') && partLoaded('host.acp.client_side');
const acpPartsLoaded = () => partLoaded('ui.acp.session') || partLoaded('host.acp.client_side');

test('activation does not load the ACP agents\' code: the first turn of a session does, and the agent answers', async () => {
  const opened = await openSession(SCRIPTED);
  try {
    assert.ok(!acpPartsLoaded(), 'neither the sessions\' part nor the client side\'s is loaded by activation');
    const stream = recorder();
    await opened.ask('hello', stream);
    assert.ok(acpPartLoaded(), 'both loaded by the first turn');
    assert.match(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join(''), /you said: hello/);
  } finally {
    await opened.stop();
  }
});

test('an image and a file attached in the chat reach an agent that reads them as image and resource blocks; one that does not gets a link and a note', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-attach-'));
  fs.writeFileSync(path.join(folder, 'a.txt'), 'hello\n');
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const references = () => [{ id: 'img', value: { mimeType: 'image/png', data: async () => png } },
    { id: 'file', value: vscode.Uri.file(path.join(folder, 'a.txt')) }];
  for (const [args, said] of [
    [[AGENT, '--rich'], 'blocks: text(6 chars) image(image/png, 16 base64 chars) resource(a.txt, "hello\\n")'],
    [[AGENT], 'blocks: text(6 chars) resource_link(a.txt)\n\n> Scripted does not read images: the image was not sent.\n\n']]) {
    const opened = await openSession({ 'hermes.agent.backend': 'Scripted',
      'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args }] });
    try {
      const stream = recorder();
      await opened.ask('blocks', stream, undefined, references());
      assert.equal(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('').split('\n\nScripted commands')[0], said);
    } finally {
      await opened.stop();
    }
  }
});

test('an ACP turn is rendered natively: text, thinking, tool invocations that end, the plan as a to-do list', async () => {
  const run = await session(SCRIPTED, 'hello there');
  try {
    const kinds = run.stream.parts.map(([kind]) => kind);
    assert.equal(run.result.metadata.hermes.stopReason, 'end_turn');
    // the answer, the line under it with what the turn cost (the agent's usage_update), then once (the agent's
    // commands came after session/new) the line that says its slash commands
    assert.deepEqual(run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, text]) => text),
      ['Hello', ', you said: hello there', '\n\n*This turn: $0.01*', `\n\n${COMMANDS_HINT}`]);
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

test("Hermes Agent's subagents: grouped under the call that delegated them (VS Code's subagent part), a grandchild marked, a stale or malformed snapshot changing nothing", async () => {
  const run = await session(SCRIPTED, 'subagents');
  try {
    const pushed = run.stream.parts.filter(([kind]) => kind === 'tool').map(([, part]) => part);
    const firstChild = pushed.findIndex((part) => part.toolCallId.startsWith('hermes-subagent:'));
    assert.equal(pushed[firstChild - 1].toolCallId, 'tc-delegate1');
    assert.equal(pushed[firstChild - 1].toolSpecificData.kind, 'subagent');
    assert.equal(pushed[firstChild - 1].toolSpecificData.description, 'delegate batch (2 tasks)');
    const last = new Map(pushed.map((part) => [part.toolCallId, part]));
    assert.deepEqual([...last.values()].map((part) => [part.toolCallId, part.invocationMessage, part.subAgentInvocationId, part.isComplete, part.isError]), [
      ['tc-delegate1', 'delegate batch (2 tasks)', undefined, true, false],
      ['hermes-subagent:sa-1', 'Review docs', 'tc-delegate1', true, false],
      ['hermes-subagent:sa-2', 'Check tests', 'tc-delegate1', true, true],
      ['hermes-subagent:sa-1.1', '↳ Summarize notes', 'tc-delegate1', true, false],
      ['hermes-subagent:bad id', 'tool', undefined, true, false]]);
    assert.deepEqual(last.get('hermes-subagent:sa-1').toolSpecificData,
      { input: 'Tools: read_file ×2, search_files', output: 'The docs are current.' });
  } finally {
    await run.stop();
  }
});

test('the agent\'s slash commands: said once at the end of a response, again when they change; a typed command reaches the agent as the prompt\'s text', async () => {
  const run = await session(SCRIPTED, '/model  scripted-b');
  const said = (stream) => stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t);
  try {
    // the scripted agent answers a command it knows as "ran /NAME with <the rest, exactly>"
    assert.deepEqual(said(run.stream), ['ran /model with " scripted-b"', `\n\n${COMMANDS_HINT}`]);
    const again = recorder();
    await run.ask('/nope', again);
    assert.deepEqual(said(again), ['no such command: /nope with ""']); // said once, not every turn
    const changed = recorder();
    await run.ask('more_commands', changed);
    assert.deepEqual(said(changed), ['commands changed',
      '\n\nScripted commands: `/help`, `/model`, `/tools`, `/compact` — type one as your message.']);
    const after = recorder();
    await run.ask('/compact', after);
    assert.deepEqual(said(after), ['ran /compact with ""']);
  } finally {
    await run.stop();
  }
});

test('a permission request is a question in the chat with every option; the choice goes back to the agent exactly', async () => {
  const run = await session(SCRIPTED, 'permission', {}, [{ permission: { selectedValue: 'allow_once' } }]);
  try {
    const [question] = run.stream.parts.filter(([kind]) => kind === 'question').map(([, q]) => q);
    assert.equal(question.allowSkip, true);
    assert.deepEqual(question.questions.map((q) => [q.id, q.type, q.title, q.message, q.allowFreeformInput]),
      [['permission', 2, 'Scripted asks: Edit notes.md', 'Scripted asks: Edit notes.md\n\nChanges `notes.md`', false]]);
    assert.equal(question.questions[0].defaultValue, 'deny');
    assert.deepEqual(question.questions[0].options, [{ id: 'allow_once', label: 'Allow once', value: 'allow_once' },
      { id: 'deny', label: 'Deny', value: 'deny' }]);
    const [[, button]] = run.stream.parts.filter(([kind]) => kind === 'button');
    assert.equal(button.command, 'hermes.acp.showDiffs');
    assert.equal(vscode.__state.messages.filter(([, message]) => message.startsWith('Scripted asks')).length, 0);
    const said = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /permission: \{"optionId": "allow_once", "outcome": "selected"\}/);
  } finally {
    await run.stop();
  }
});

test('a skipped question is answered deny, with a note in the chat', async () => {
  const run = await session(SCRIPTED, 'permission', {}, [undefined]);
  try {
    const said = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /Not answered: denied\./);
    assert.match(said, /permission: \{"optionId": "deny", "outcome": "selected"\}/);
  } finally {
    await run.stop();
  }
});

test('without a question carousel a permission request is a modal with every option; the choice goes back exactly', async () => {
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
      [['button', { command: 'hermes.acp.signIn', title: 'Set up Hermes Agent', arguments: ['Hermes Agent'] }]]);
  } finally {
    await run.stop();
  }
});

test('a multi-root window: the first folder is the session\'s cwd, the others its additional directories', async () => {
  const first = fs.mkdtempSync(path.join(os.tmpdir(), 'root-a-'));
  const second = fs.mkdtempSync(path.join(os.tmpdir(), 'root-b-'));
  const opened = await openSession(SCRIPTED, {}, [first, second]);
  try {
    const stream = recorder();
    await opened.ask('roots', stream);
    assert.equal(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('').split('\n\n')[0],
      `cwd=${first} additional=${JSON.stringify([second])}`);
  } finally {
    await opened.stop();
  }
});

test('deleting a conversation closes and deletes its session through the agent (which offers both)', async () => {
  const opened = await openSession(SCRIPTED);
  try {
    await opened.ask('hello', recorder());
    const [item] = await listed(opened.controller, (items) => items.length === 1);
    assert.equal(await vscode.commands.executeCommand('hermes.deleteConversation', item), true);
    const stream = recorder();
    await opened.ask('forgotten', stream);  // (the deleted conversation's resource: a fresh conversation, sess-2)
    assert.match(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join(''),
      /closed=sess-1 deleted=sess-1/);
  } finally {
    await opened.stop();
  }
});

test('Fork Conversation: a new session item with the history, answered in the session the agent forked (session/fork); a session the agent never had is a clear error', async () => {
  const opened = await openSession(SCRIPTED);
  try {
    await opened.ask('hello', recorder());
    const [item] = await listed(opened.controller, (items) => items.length === 1);
    const forkId = await vscode.commands.executeCommand('hermes.forkConversation', item);
    const items = await listed(opened.controller, (all) => all.length === 2);
    const forked = items.find((each) => each.resource.path === '/' + forkId);
    assert.equal(forked.label, 'Fork of session');  // (the session's first title)
    const stream = recorder();
    await chat.content.get('hermes').participant.handler({ prompt: 'forked', references: [], toolReferences: [] },
      { history: [], chatSessionContext: { chatSessionItem: { resource: forked.resource }, isUntitled: false } }, stream, token);
    assert.equal(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t)[0], 'sess-2 forked from sess-1');
    // the agent's own sessions join the list (session/list); this process never had them: the fork is refused
    await opened.controller.refreshHandler(token);
    const ghost = (await listed(opened.controller, (all) => all.length > 2)).find((each) => each.label === 'Session 1.0');
    assert.equal(await vscode.commands.executeCommand('hermes.forkConversation', ghost), null);
    assert.ok(vscode.__state.messages.some(([, text]) => text === 'Hermes: Scripted could not fork the session old-1-0 ' +
      '(does it still have it?) — Scripted: Resource not found: session old-1-0 (-32002)'));
  } finally {
    await opened.stop();
  }
});

test('an agent that needs a sign-in: the button names it, the sign-in is authenticate, and the next turn answers', async () => {
  const run = await session({ 'hermes.agent.backend': 'Scripted',
    'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT, 'auth_agent'] }] }, 'hello');
  try {
    const said = run.stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /^Scripted needs you to sign in\. Use the button below/);
    const [button] = run.stream.parts.filter(([kind]) => kind === 'button').map(([, b]) => b);
    assert.deepEqual(button, { command: 'hermes.acp.signIn', title: 'Sign in to Scripted', arguments: ['Scripted'] });
    assert.equal(await vscode.commands.executeCommand(button.command, ...button.arguments), true);
    assert.ok(vscode.__state.messages.some(([, text]) => text === 'Hermes: signed in to Scripted.'));
    const stream = recorder();
    await run.ask('hello again', stream);
    assert.match(stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join(''), /you said: hello again/);
  } finally {
    await run.stop();
  }
});

test('a continued session whose Hermes lost its provider: the setup message and button, not "refused"', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bin-'));
  const program = path.join(folder, 'hermes-acp');
  const modeFile = path.join(folder, 'mode');
  fs.writeFileSync(modeFile, 'normal');
  fs.writeFileSync(program, `#!/bin/sh\nexec ${PYTHON} ${AGENT} "$(cat ${modeFile})"\n`, { mode: 0o755 });
  const run = await session({ 'hermes.acp.hermesPath': program }, 'hello first');
  try {
    fs.writeFileSync(modeFile, 'no_provider');  // the next Hermes process has no provider
    await run.ask('exit_mid_turn', recorder());  // this one ends: the next turn starts the no-provider one
    const stream = recorder();
    await run.ask('hello again', stream);
    const said = stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /^Hermes Agent has no model provider configured yet/);
    assert.doesNotMatch(said, /refused/);
    assert.deepEqual(stream.parts.filter(([kind]) => kind === 'button'),
      [['button', { command: 'hermes.acp.signIn', title: 'Set up Hermes Agent', arguments: ['Hermes Agent'] }]]);
  } finally {
    await run.stop();
  }
});

test('the agent\'s modes and models are the session\'s pickers; a choice reaches the agent and is kept', async () => {
  const run = await session(SCRIPTED, 'options');
  try {
    const said = (stream) => stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.equal(said(run.stream), `mode=default model=scripted-a\n\n${COMMANDS_HINT}`);
    const { provider } = chat.content.get('hermes');
    const { optionGroups } = await provider.provideChatSessionProviderOptions({});
    assert.deepEqual(optionGroups.map((group) => [group.id, group.name, group.items.map((item) => item.id)]),
      [['mode', 'Mode', ['default', 'accept_edits']], ['model', 'Model', ['scripted-a', 'scripted-b']]]);
    assert.deepEqual(optionGroups[1].items[1], { id: 'scripted-b', name: 'Scripted B', description: 'the other one' });
    assert.equal(optionGroups[0].items[0].default, true);
    const [conversation] = await listed(chat.controllers.get('hermes'), (items) => items.length === 1);
    provider.provideHandleOptionsChange(conversation.resource, [{ optionId: 'mode', value: 'accept_edits' },
      { optionId: 'model', value: { id: 'scripted-b', name: 'Scripted B' } }], {});
    const content = await provider.provideChatSessionContent(conversation.resource, {});
    assert.deepEqual({ ...content.options }, { mode: 'accept_edits', model: 'scripted-b' });
    const again = recorder();
    await run.ask('options', again);
    assert.equal(said(again), 'mode=accept_edits model=scripted-b');
  } finally {
    await run.stop();
  }
});

test('an agent\'s config options are the session\'s pickers (the model one replacing the deprecated picker); a choice and the agent\'s own change are kept', async () => {
  const run = await session({ 'hermes.agent.backend': 'Scripted',
    'hermes.acp.agents': [{ name: 'Scripted', command: PYTHON, args: [AGENT, 'config'] }] }, 'options');
  try {
    const said = (stream) => stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said(run.stream), /^mode=default model=scripted-a config model=scripted-a thought_level=medium auto_approve=false/);
    const { provider } = chat.content.get('hermes');
    const { optionGroups } = await provider.provideChatSessionProviderOptions({});
    assert.deepEqual(optionGroups.map((group) => [group.id, group.name, group.items.map((item) => item.id)]),
      [['mode', 'Mode', ['default', 'accept_edits']], ['config:model', 'Model', ['scripted-a', 'scripted-b']],
        ['config:thought_level', 'Thinking', ['low', 'medium', 'high']],
        ['config:auto_approve', 'Approve edits by itself', ['true', 'false']]]);
    const [conversation] = await listed(chat.controllers.get('hermes'), (items) => items.length === 1);
    await provider.provideHandleOptionsChange(conversation.resource, [{ optionId: 'config:thought_level', value: 'low' },
      { optionId: 'config:auto_approve', value: { id: 'true', name: 'On' } }], {});
    const content = await provider.provideChatSessionContent(conversation.resource, {});
    assert.equal(content.options['config:thought_level'], 'low');
    assert.equal(content.options['config:auto_approve'], 'true');
    const again = recorder();
    await run.ask('options', again);
    assert.equal(said(again), 'mode=default model=scripted-a config model=scripted-a thought_level=low auto_approve=true');
    // the agent changes an option itself (config_option_update): the session shows it
    await run.ask('think_hard', recorder());
    const after = await provider.provideChatSessionContent(conversation.resource, {});
    assert.equal(after.options['config:thought_level'], 'high');
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

test('/explain in a session whose agent has no such command sends the task; the agent\'s own /help goes as typed', async () => {
  const run = await session(SCRIPTED, 'hello there');
  try {
    const said = async (text, command) => {
      const stream = recorder();
      await run.ask(text, stream, command);
      return stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    };
    assert.equal(await said('this loop', 'explain'), 'unknown command: Explain');  // the task's first word
    assert.match(await said('me', 'help'), /ran \/help with "me"/);
    assert.match(await said('x', 'constructor'), /no such command: \/constructor with "x"/);  // no task looked up
  } finally {
    await run.stop();
  }
});

test('an agent named without a path is found outside the workspace and runs outside it, whatever PATH and npx say', async () => {
  // The repository brings a program of the agent's name at its root (reached through an empty PATH element: the
  // working directory) and in node_modules/.bin (npx prefers it there); the user's own is in a folder of their PATH.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-launch-'));
  const workspace = path.join(root, 'repo');
  const userBin = path.join(root, 'user-bin');
  const marker = path.join(root, 'started.jsonl');
  const hostile = path.join(root, 'hostile-ran');
  const write = (file, text) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text, { mode: 0o755 }); };
  write(path.join(workspace, 'scripted-acp'), `#!/bin/sh\necho root >> ${hostile}\n`);
  write(path.join(workspace, 'node_modules', '.bin', 'hostile-agent'), `#!/bin/sh\necho npx >> ${hostile}\n`);
  fs.writeFileSync(path.join(workspace, 'package.json'), '{"name": "repo"}');
  // the user's agent asks npx for a package only the repository has, then runs the scripted agent
  write(path.join(userBin, 'scripted-acp'),
    `#!/bin/sh\n${NPX} --offline --no hostile-agent >/dev/null 2>&1\nexec ${PYTHON} ${AGENT}\n`);
  const savedPath = process.env.PATH;
  process.env.PATH = `:${userBin}:${savedPath}`;
  let opened;
  try {
    opened = await openSession({ 'hermes.agent.backend': 'Scripted', 'hermes.acp.agents': [
      { name: 'Scripted', command: 'scripted-acp', env: { ACP_AGENT_MARKER: marker } }] }, {}, [workspace]);
    await opened.ask('shell pwd > where.txt', recorder());
  } finally {
    process.env.PATH = savedPath;
  }
  try {
    assert.equal(fs.readFileSync(path.join(workspace, 'where.txt'), 'utf8').trim(), workspace); // the session's cwd
    assert.ok(!fs.existsSync(hostile), 'the repository\'s program ran: ' + (fs.existsSync(hostile) && fs.readFileSync(hostile, 'utf8')));
    const [started] = fs.readFileSync(marker, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(!started.cwd.startsWith(workspace), 'the agent process started in ' + started.cwd);
    assert.ok(started.path.split(':').every((entry) => entry.startsWith('/') && !entry.startsWith(workspace)), started.path);
  } finally {
    await opened.stop();
  }
});

test("Hermes Agent's background work: a process it left running is a line in the turn; its notification afterwards offers the next prompt, put into the chat input only when the user asks", async () => {
  const opened = [];
  const run = await openSession(SCRIPTED);
  vscode.__state.commands.set('workbench.action.chat.open', (options) => { opened.push(options); });
  const shown = vscode.window.showInformationMessage;
  vscode.window.showInformationMessage = (text, ...items) => {
    vscode.__state.messages.push(['info', text, items]);
    return Promise.resolve(text.startsWith('Hermes Agent: ') ? items[0] : undefined);
  };
  try {
    const stream = recorder();
    await run.ask('background', stream);
    const said = stream.parts.filter(([kind]) => kind === 'markdown').map(([, t]) => t).join('');
    assert.match(said, /> Running in the background: `sleep 1`/);
    await until(() => opened.length === 1);
    const offered = vscode.__state.messages.filter(([, text]) => text.startsWith('Hermes Agent: '));
    assert.deepEqual(offered, [['info', 'Hermes Agent: Background process proc_1 finished', ['Ask Hermes Agent']]]);
    assert.deepEqual(opened, [{ query: '[Background process proc_1 exited with code 0]', isPartialQuery: true }]);
    const channel = vscode.__state.channels.flatMap((c) => c.lines).join('\n');
    assert.match(channel, /Hermes Agent in the background: ended sleep 1/);  // the exit between turns: logged
  } finally {
    vscode.window.showInformationMessage = shown;
    await run.stop();
  }
});
