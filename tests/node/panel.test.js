// The side panel's host side, transpiled (build/testing.js): the webview message validator on the same
// cases as tests/unit/panel/test_panel_protocol.py, messages as a webview really sends them (plain objects,
// including keys like "__class__" that transpiled dicts carry hidden), and the controller's flow.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { testing, vscode, storeWritten } = require('./harness');

const cases = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'panel_protocol_cases.json'), 'utf8'));
const protocol = () => testing().ui_panel_protocol;
const message = (error) => testing().js_errors.error_message(error);

for (const { name, message: raw } of cases.valid) {
  test(`accepted: ${name}`, () => {
    const parsed = protocol().parse_webview_message(structuredClone(raw));
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), raw);
  });
}

for (const { name, message: raw, reason } of cases.invalid) {
  test(`rejected: ${name}`, () => {
    assert.throws(() => protocol().parse_webview_message(structuredClone(raw)), (error) => {
      assert.equal(error.__class__.__name__, 'ProtocolError');
      assert.ok(message(error).includes(reason), `${message(error)} should contain ${reason}`);
      return true;
    });
  });
}

test('rejected: undefined, a function, keys hidden on transpiled dicts, inherited keys', () => {
  const reject = (raw, reason) => assert.throws(() => protocol().parse_webview_message(raw),
    (error) => { assert.ok(message(error).includes(reason), message(error)); return true; });
  reject(undefined, 'expected an object, got null');
  reject(() => 1, 'expected an object, got function');
  reject({ type: 'stop', __class__: 'x' }, 'unexpected field "__class__"');
  reject({ type: 'py_get' }, 'unknown message type "py_get"');
  reject(Object.create({ type: 'ready' }), 'missing "type"');
  reject({ type: 'send', text: new String('hi') }, '"send.text" must be a string, got object');
  reject({ type: 'send', text: 'x'.repeat(100001) }, 'too long');
});

test('the controller runs a turn through a sink and refuses bad messages (transpiled)', async () => {
  const { ui_panel_controller: panel } = testing();
  const posted = [];
  const saved = [];
  const warnings = [];
  const host = {
    post: (m) => posted.push(JSON.parse(JSON.stringify(m))),
    save: (conversation) => saved.push(JSON.parse(JSON.stringify(conversation.to_data()))),
    model: () => 'm', endpoint: () => 'http://e/v1',
    list_models: async () => ['m', 'n'],
    insert_code: async () => {}, copy_code: async () => {}, open_settings: async () => {},
    set_api_key: async () => {}, select_model: async () => {},
  };
  const log = { warn: (m) => warnings.push(m), info: () => {}, error: () => {} };
  const runTurn = async (history, text, sink, cancel) => {
    sink.on_text('Hello ');
    sink.on_tool_call({ id: 'c1', name: 'workspace_get_folders', arguments: {} });
    sink.on_tool_confirmation({ id: 'c1' }, 'waiting');
    sink.on_tool_result({ id: 'c1' }, { content: [{ type: 'text', text: '{"folders": []}' }], isError: false });
    sink.on_text('world');
    history.push({ role: 'user', content: text }, { role: 'tool', tool_call_id: 'c1', content: 'z'.repeat(9000) });
    return { history };
  };
  const controller = new panel.PanelController(host, log, runTurn, { messages: [{ role: 'user', text: 'old' }], history: [] });
  assert.equal(await controller.handle({ type: 'send', text: 'hi' }), true);
  assert.deepEqual(posted.map((m) => m.type),
    ['userMessage', 'turnStarted', 'textDelta', 'toolStarted', 'toolWaiting', 'toolResult', 'textDelta', 'turnEnded']);
  const ended = posted[posted.length - 1];
  assert.equal(ended.status, 'done');
  assert.deepEqual(ended.message.parts.map((p) => p.kind), ['text', 'tool', 'text']);
  assert.equal(ended.message.parts[1].status, 'ok');
  assert.deepEqual(saved[saved.length - 1].messages.map((m) => m.role), ['user', 'user', 'assistant']);
  const history = saved[saved.length - 1].history;
  assert.deepEqual(history[0], { role: 'user', content: 'hi' });
  assert.equal(history[1].tool_call_id, 'c1');
  assert.match(history[1].content, /^z{8000}\n\[truncated: 1000 more characters\]$/);
  assert.equal(await controller.handle({ type: 'insertCode', code: 5 }), false);
  assert.equal(await controller.handle({ type: '__class__' }), false);
  assert.deepEqual(warnings, [
    'Panel: ignored a message from the webview: "insertCode.code" must be a string, got integer',
    'Panel: ignored a message from the webview: unknown message type "__class__"',
  ]);
});

test('a turn that returns no history appends the exchange to the stored history as a list (transpiled)', async () => {
  // `history + added` was string concatenation in JS: the stored history became "[object Object],…".
  const { ui_panel_controller: panel } = testing();
  const saved = [];
  const host = { post: () => {}, save: (conversation) => saved.push(JSON.parse(JSON.stringify(conversation.to_data()))), model: () => 'm', endpoint: () => 'http://e/v1' };
  const log = { warn: () => {}, info: () => {}, error: () => {} };
  const runTurn = async (history, text, sink) => {
    sink.on_text('Hi there');
    return null;
  };
  const earlier = [{ role: 'user', content: 'before' }, { role: 'assistant', content: 'ok' }];
  const controller = new panel.PanelController(host, log, runTurn, { messages: [], history: earlier });
  assert.equal(await controller.handle({ type: 'send', text: 'hello' }), true);
  assert.deepEqual(saved[saved.length - 1].history, [
    ...earlier, { role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hi there' }]);
});

test('stored data read back from the store file (plain objects) is restored', () => {
  const restored = testing().core_chat_conversations.Conversation.restore(JSON.parse(JSON.stringify({
    messages: [{ role: 'user', text: 'a' }, { role: 'assistant', status: 'running', parts: [{ kind: 'text', text: 'b' }, { kind: 'x' }] },
      { role: '__class__' }],
    history: [{ role: 'user', content: 'a' }, 7],
  })));
  const data = JSON.parse(JSON.stringify(restored.to_data()));
  assert.deepEqual({ messages: data.messages, history: data.history }, {
    messages: [{ role: 'user', text: 'a' }, { role: 'assistant', status: 'stopped', error: null, parts: [{ kind: 'text', text: 'b' }] }],
    history: [{ role: 'user', content: 'a' }],
  });
  assert.equal(data.title, 'a');
});

test('the harness fake vscode is untouched by the panel module', () => {
  assert.equal(typeof vscode.window.createOutputChannel, 'function');
});

test('the view provider, transpiled: page, messages, the conversation store, insert at cursor, model setting', async () => {
  const { ui_panel_view: panel } = testing();
  vscode.__reset();
  const context = vscode.__makeContext();
  const warnings = [];
  const log = { warn: (m) => warnings.push(m), info: () => {}, error: (m, e) => warnings.push(m + ': ' + (e && e.message)) };
  const runTurn = async (history, text, sink) => { sink.on_text('echo ' + text); return null; };
  const store = testing().host_chat_conversation_store.register_conversation_store(context, log);
  panel.register_panel(context, log, runTurn, async () => ['a', 'b'], store);
  const { provider, options } = vscode.__state.webviewViews.get('hermes.panel');
  assert.deepEqual(options, { webviewOptions: { retainContextWhenHidden: true } });
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
  provider.resolveWebviewView(view, {}, {});
  assert.match(view.webview.html, /content="default-src 'none'; style-src vscode-resource:; font-src vscode-resource:; img-src vscode-resource: data:; script-src 'nonce-[A-Za-z0-9+/=]{24}';"/);
  assert.match(view.webview.html, /<script nonce="[A-Za-z0-9+/=]{24}" src="vscode-resource:[^"]+\/dist\/webview\/panel\.js"><\/script>/);
  assert.equal(view.webview.options.enableScripts, true);
  await receive({ type: 'ready' });
  await receive({ type: 'send', text: 'hi' });
  assert.deepEqual(posted.map((m) => m.type), ['state', 'models', 'userMessage', 'turnStarted', 'textDelta', 'turnEnded']);
  await storeWritten();  // (written behind the turn)
  const stored = JSON.parse(require('fs').readFileSync(path.join(context.storageUri.fsPath, 'conversations.json'), 'utf8'));
  assert.equal(stored.panel, stored.conversations[0].id);
  assert.deepEqual(stored.conversations[0].messages.map((m) => m.role), ['user', 'assistant']);
  const edits = [];
  vscode.__state.activeTextEditor = {
    selections: ['sel-1', 'sel-2'],
    edit: async (callback) => { callback({ replace: (where, text) => edits.push([where, text]) }); return true; },
  };
  await receive({ type: 'insertCode', code: 'x = 1' });
  vscode.__state.activeTextEditor = undefined;
  assert.deepEqual(edits, [['sel-1', 'x = 1'], ['sel-2', 'x = 1']]);
  await receive({ type: 'selectModel', model: 'b' });
  assert.equal(vscode.__state.settings['hermes.llm.model'], 'b');
  assert.equal(vscode.__state.settingTargets['hermes.llm.model'], 1);
  await receive({ type: 'copyCode', code: 'ls' });
  assert.equal(vscode.__state.clipboard, 'ls');
  assert.deepEqual(warnings, []);
  context.disposeAll();
  assert.equal(vscode.__state.webviewViews.size, 0);
});
