// The embedded agent inside the real bundle (dist/extension.js) under node: the hermes.setApiKey command,
// and one run of the extension's LLM service against a tiny streaming OpenAI-compatible server.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
const { vscode, extension, activateAndServe, partLoaded: loaded } = require('./harness');

test.beforeEach(() => {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
});

async function activate() {
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  return { context, ext, api, stop: async () => { await ext.deactivate(); context.disposeAll(); } };
}

// The built-in loop's client and loop are parts loaded on first use (dist/part-*.js); this file's first test sees them
// load (the bundle stays in require.cache for the tests after it).

test('hermes.setApiKey stores the key in SecretStorage, an empty answer removes it', async () => {
  const { context, api, stop } = await activate();
  try {
    assert.ok(!loaded('net.llm_client') && !loaded('core.agent_loop'), 'activation loads neither the client nor the loop');
    vscode.__state.inputBoxAnswer = '  sk-node  ';
    assert.equal(await vscode.commands.executeCommand('hermes.setApiKey'), true);
    assert.equal(context.secrets.values.get('hermes.llm.apiKey'), 'sk-node');
    assert.equal(vscode.__state.inputBoxes[0].password, true);
    assert.equal((await api.llm.client()).api_key, 'sk-node');
    assert.ok(loaded('net.llm_client') && !loaded('core.agent_loop'), 'the client loads with its first use, the loop not');
    vscode.__state.inputBoxAnswer = undefined; // dismissed
    assert.equal(await vscode.commands.executeCommand('hermes.setApiKey'), false);
    assert.equal(context.secrets.values.get('hermes.llm.apiKey'), 'sk-node');
    vscode.__state.inputBoxAnswer = '';
    assert.equal(await vscode.commands.executeCommand('hermes.setApiKey'), true);
    assert.equal(context.secrets.values.has('hermes.llm.apiKey'), false);
    assert.equal((await api.llm.client()).api_key, null);
  } finally {
    await stop();
  }
});

test('the LLM service streams a reply from the configured endpoint with the key and extra headers', async () => {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      if (req.method === 'GET') {  // the client asks /models for the context size before chatting
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'tiny:1b', object: 'model' }] }));
        return;
      }
      seen.push({ url: req.url, headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      for (const piece of ['Hel', 'lo', ' from node']) {
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
      }
      res.end('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${server.address().port}/v1`;
  vscode.__state.settings['hermes.llm.endpoint'] = endpoint;
  vscode.__state.settings['hermes.llm.model'] = 'tiny:1b';
  vscode.__state.settings['hermes.llm.extraHeaders'] = { 'X-Team': 'hermes' };
  const { api, stop } = await activate();
  try {
    await vscode.commands.executeCommand('hermes.setApiKey', 'sk-run');
    const texts = [];
    const history = [{ role: 'user', content: 'Hi' }];
    const outcome = await api.llm.run(history, { on_text: (text) => texts.push(text) });
    assert.equal(outcome.stopped, 'done');
    assert.ok(loaded('core.agent_loop'), 'the loop loaded with the first run');
    assert.equal(texts.join(''), 'Hello from node');
    assert.equal(history.length, 2);
    assert.equal(seen[0].url, '/v1/chat/completions');
    assert.equal(seen[0].headers.authorization, 'Bearer sk-run');
    assert.equal(seen[0].headers['x-team'], 'hermes');
    assert.equal(seen[0].body.model, 'tiny:1b');
    assert.equal(seen[0].body.stream, true);
    assert.ok(seen[0].body.tools.length > 0, 'the extension registry\'s tools are offered');
  } finally {
    await stop();
    server.close();
  }
});
