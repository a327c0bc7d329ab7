// Hermes chat sessions in the real bundle (dist/extension.js) under node, with the fake `vscode.chat` of
// fake_chat.js, which has the chatSessionsProvider proposal (a controller, a content provider) and one without it:
// a new session answers through a tiny streaming LLM server with a tool call, is listed with its title
// and status, survives a reload (a second activation reads the store file), and opens with its history.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('http');

const { vscode, extension, chat, token, recorder, listed } = require('./fake_chat');  // the fake vscode.chat, shared

// A streaming LLM: the first reply of a turn calls workspace_get_folders, the next one answers.
function llmServer(seen) {
  return http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'tiny:1b', object: 'model' }] }));
        return;
      }
      const request = JSON.parse(body);
      seen.push(request);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const last = request.messages[request.messages.length - 1];
      const chunk = (delta, finish = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (last.role === 'user') {
        res.write(chunk({ tool_calls: [{ index: 0, id: 'call_' + seen.length, type: 'function', function: { name: 'workspace_get_folders', arguments: '{}' } }] }));
        res.end(chunk({}, 'tool_calls') + 'data: [DONE]\n\n');
      } else {
        res.end(chunk({ content: 'No folders are open.' }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
      }
    });
  });
}

async function activate(context) {
  const ext = extension();
  await ext.activate(context);
  return async () => { await ext.deactivate(); context.disposeAll(); };
}

test('a new session answers with a tool call, is listed, survives a reload and opens with its history', async () => {
  const seen = [];
  const server = llmServer(seen);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  vscode.__state.settings['hermes.llm.endpoint'] = `http://127.0.0.1:${server.address().port}/v1`;
  vscode.__state.settings['hermes.llm.model'] = 'tiny:1b';
  vscode.__state.settings['hermes.agent.backend'] = 'builtin';  // the built-in loop, even where Hermes Agent is installed
  chat.proposal = true;
  const context = vscode.__makeContext();
  let stop = await activate(context);
  try {
    assert.ok(chat.participants.has('hermes') && chat.participants.has('hermes.agent'));
    const controller = chat.controllers.get('hermes');
    const item = await controller.newChatSessionItemHandler({ request: { prompt: 'Which folders are open?' } }, token);
    assert.equal(item.label, 'Which folders are open?');
    const stream = recorder();
    const session = { chatSessionItem: { resource: item.resource }, isUntitled: false };
    const result = await chat.content.get('hermes').participant.handler(
      { prompt: 'Which folders are open?', references: [], toolReferences: [] }, { history: [], chatSessionContext: session }, stream, token);
    assert.equal(result.metadata.hermes.stopped, 'done');
    assert.deepEqual(stream.parts, [['progress', 'Get workspace folders…'], ['markdown', 'No folders are open.']]);
    const [shown] = await listed(controller, (items) => items.length === 1 && items[0].status === 1);  // Completed
    assert.equal(shown.label, 'Which folders are open?');
    assert.equal(shown.description, 'tiny:1b');  // the time is the list's own (timing)
    assert.match(shown.tooltip, /^Which folders are open\?\ntiny:1b\n\S/);
    assert.equal(shown.resource.toString(), item.resource.toString());

    // Reload: a new activation reads the same store.
    await stop();
    stop = await activate(context);
    const reloaded = chat.controllers.get('hermes');
    assert.deepEqual(reloaded.items.all().map((i) => i.label), ['Which folders are open?']);
    const content = await chat.content.get('hermes').provider.provideChatSessionContent(item.resource, token);
    assert.equal(content.title, 'Which folders are open?');
    assert.deepEqual(content.history.map((turn) => turn.constructor.name), ['ChatRequestTurn', 'ChatResponseTurn2']);
    assert.equal(content.history[0].prompt, 'Which folders are open?');
    assert.deepEqual(content.history[1].response.map((p) => [p.constructor.name, p.value.value || p.value]),
      [['ChatResponseProgressPart', 'Get workspace folders…'], ['ChatResponseMarkdownPart', 'No folders are open.']]);

    // A follow-up continues it: the model sees the first turn, tool call and result included.
    await chat.content.get('hermes').participant.handler(
      { prompt: 'And now?', references: [], toolReferences: [] }, { history: [], chatSessionContext: session }, recorder(), token);
    const followUp = seen[seen.length - 2].messages.filter((m) => m.role !== 'system').map((m) => m.role);
    assert.deepEqual(followUp, ['user', 'assistant', 'tool', 'assistant', 'user']);
  } finally {
    await stop();
    server.close();
  }
});

test('without the proposal: activation succeeds, @hermes is there, the log says once how to turn sessions on', async () => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  chat.proposal = false;
  const context = vscode.__makeContext();
  const stop = await activate(context);
  try {
    assert.ok(chat.participants.has('hermes.agent'));
    assert.ok(!chat.participants.has('hermes'));
    const lines = vscode.__state.channels.flatMap((channel) => channel.lines || []);
    const hints = lines.filter((line) => line.includes('enable-proposed-api'));
    assert.equal(hints.length, 1);
    assert.match(hints[0], /Preferences: Configure Runtime Arguments/);
  } finally {
    await stop();
  }
});
