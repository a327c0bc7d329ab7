// Reviewing agents' changes on the transpiled modules (build/testing.js) with tests/node/fake_vscode.js: a tool's
// write recorded by the real change log, then what the editor, the Changes view and the status bar show, and Keep /
// Undo / Undo All through the commands — the parts where Transcrypt could differ from CPython (dicts as tree
// elements handed back by VS Code, lists of lines, `in` on dicts, keyword-free calls into VS Code objects).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing, until, windowServices } = require('./harness');

const mods = () => testing();
const args = (value) => mods().js_json.parse_json(JSON.stringify(value));
let context;

function setup() {
  vscode.__reset();
  vscode.__state.settings['hermes.tools.confirm'] = 'never';
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-review-')));
  fs.writeFileSync(path.join(folder, 'a.py'), 'one\ntwo\nthree\nfour\n');
  fs.writeFileSync(path.join(folder, 'b.py'), 'alpha\nbeta\n');
  vscode.__openFolders([folder]);
  context = vscode.__makeContext();
  const services = windowServices(context);
  const registry = mods().tools_catalog.build_registry(null, services);
  const store = mods().core_chat_conversations.ConversationStore(() => 'conv-1', () => 1000);
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const ui = mods().ui_changes_register.register_change_ui(context, log, services.changes, store);
  return { folder, registry, changes: services.changes, ui };
}

test.afterEach(() => context && context.disposeAll());

async function write(registry, client, file, content) {
  const call = mods().core_tools.ToolCall();
  call.author = args({ client });
  const result = await registry.call('file_write', args({ path: file, content }), call);
  assert.equal(result.isError, false, JSON.stringify(result));
}

function editorOn(document) {
  const editor = { document, decorations: new Map(), selection: new vscode.Selection({ line: 0, character: 0 }, { line: 0, character: 0 }),
    setDecorations(type, items) { this.decorations.set(type, items); }, revealRange() {} };
  vscode.__state.visibleTextEditors = [editor];
  vscode.__state.activeTextEditor = editor;
  vscode.__visibleEditorsChanged.fire([editor]);
  return editor;
}

function tree() {
  const provider = vscode.__state.treeViews.get('hermes.changes').options.treeDataProvider;
  const walk = (element) => provider.getChildren(element).map((child) => {
    const item = provider.getTreeItem(child);
    return [item.label, item.description, walk(child)];
  });
  return walk(undefined);
}

// The window's log tells its listeners of a burst of changes once the changes pause (host/changes/log.py
// ANNOUNCE_QUIET_MS): after the tools' results. Waits for the condition, not for a time.
test('the views hear of a burst of writes once, after the tools returned, with every file of it', async () => {
  const { folder, registry, changes } = setup();
  const heard = [];
  changes.on_change((paths) => heard.push([...paths]));
  const status = vscode.__state.statusItems.find((item) => item.id === 'hermes.changes');
  await write(registry, 'Claude Code', 'a.py', 'one\nTWO\nthree\nfour\n');
  await write(registry, 'Claude Code', 'b.py', 'alpha\n');
  await write(registry, 'Claude Code', 'a.py', 'one\nTWO\nthree\nFOUR\n');
  assert.deepEqual(heard, [], 'nothing heard while the writes ran');
  assert.equal(status.visible, false);
  assert.equal(fs.readFileSync(path.join(folder, 'a.py'), 'utf8'), 'one\nTWO\nthree\nFOUR\n');
  await until(() => heard.length > 0);
  assert.deepEqual(heard, [[path.join(folder, 'a.py'), path.join(folder, 'b.py')]], 'once, each file once');
  assert.equal(status.text, '$(diff) 2 files to review', 'the latest state');
  assert.deepEqual(tree(), [['Claude Code', '+2 \u22123 \u00b7 2 files', [['Edits', '+2 \u22123', [
    ['a.py', '+2 \u22122', []], ['b.py', '+0 \u22121', []]]]]]]);

  // What VS Code is told next: only what changed. The same two files with the same counts: no status, badge or
  // tree push (each is workbench work an agent's next write waits behind); a file written and kept before the
  // views heard: nothing at all.
  const pushes = [];
  const [show, hide] = [status.show, status.hide];
  status.show = function () { pushes.push('status'); return show.call(this); };
  status.hide = function () { pushes.push('status'); return hide.call(this); };
  const provider = vscode.__state.treeViews.get('hermes.changes').options.treeDataProvider;
  provider.onDidChangeTreeData(() => pushes.push('tree'));
  const badge = vscode.__state.treeViews.get('hermes.changes').badge;
  await write(registry, 'Claude Code', 'a.py', 'one\nTWo\nthree\nFOUR\n');
  await write(registry, 'Claude Code', 'c.py', 'new\n');
  await vscode.commands.executeCommand('hermes.changes.keepFile', path.join(folder, 'c.py'));
  changes.announce_now();
  assert.equal(heard.length, 2);
  assert.deepEqual(pushes, []);
  assert.equal(vscode.__state.treeViews.get('hermes.changes').badge, badge);
  assert.equal(status.text, '$(diff) 2 files to review');
});

test('a recorded write is marked in the editor, listed in the view, and kept or undone hunk by hunk', async () => {
  const { folder, registry, changes } = setup();
  const a = path.join(folder, 'a.py');
  await write(registry, 'Claude Code', 'a.py', 'one\nTWO\nthree\nfour\nfive\n');
  await write(registry, 'Claude Code', 'b.py', 'alpha\n');
  const status = vscode.__state.statusItems.find((item) => item.id === 'hermes.changes');
  changes.announce_now();
  assert.equal(status.visible, true);
  assert.equal(status.text, '$(diff) 2 files to review');
  assert.deepEqual(tree(), [['Claude Code', '+2 \u22122 \u00b7 2 files', [['Edits', '+2 \u22122', [
    ['a.py', '+2 \u22121', []], ['b.py', '+0 \u22121', []]]]]]]);

  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(a));
  const editor = editorOn(document);
  const [added, removed] = vscode.__state.decorationTypes;
  assert.deepEqual(editor.decorations.get(added).map((item) => [item.range.start.line, item.range.end.line]), [[1, 1], [4, 4]]);
  assert.deepEqual(editor.decorations.get(removed).map((item) => item.renderOptions.after.contentText), ['\u2212 two']);
  const lenses = vscode.__state.codeLensProviders[0].provider.provideCodeLenses(document);
  assert.deepEqual(lenses.map((lens) => lens.command.title), ['$(check) Keep', '$(discard) Undo', 'Claude Code \u00b7 +1 \u22121',
    '$(check) Keep', '$(discard) Undo', 'Claude Code \u00b7 +1 \u22120']);
  assert.equal(vscode.__state.contextKeys['hermes.changes.inEditor'], true);

  // Keep the first hunk, Undo the second, from the lenses' own arguments.
  await vscode.commands.executeCommand(lenses[0].command.command, ...lenses[0].command.arguments);
  await vscode.commands.executeCommand(lenses[4].command.command, ...lenses[4].command.arguments);
  changes.announce_now();
  assert.equal(fs.readFileSync(a, 'utf8'), 'one\nTWO\nthree\nfour\n');
  assert.deepEqual(editor.decorations.get(added), []);
  assert.equal(status.text, '$(diff) 1 file to review');

  // Undo All for the client, from its tree element (VS Code hands the element back as the argument).
  const provider = vscode.__state.treeViews.get('hermes.changes').options.treeDataProvider;
  const [group] = provider.getChildren(undefined);
  await vscode.commands.executeCommand('hermes.changes.undoAll', group);
  changes.announce_now();
  assert.equal(fs.readFileSync(path.join(folder, 'b.py'), 'utf8'), 'alpha\nbeta\n');
  assert.equal(status.visible, false);
  assert.deepEqual(tree(), []);
});

test('the multi-file diff gets the text before each file, and a turn filter leaves other turns out', async () => {
  const { folder, registry } = setup();
  const write2 = async (author, file, content) => {
    const call = mods().core_tools.ToolCall();
    call.author = args(author);
    assert.equal((await registry.call('file_write', args({ path: file, content }), call)).isError, false);
  };
  await write2({ client: 'Hermes', session: 'conv-1', turn: 't1' }, 'a.py', 'ONE\ntwo\nthree\nfour\n');
  await write2({ client: 'Hermes', session: 'conv-1', turn: 't2' }, 'a.py', 'ONE\ntwo\nthree\nFOUR\r\n');
  await write2({ client: 'Hermes', session: 'conv-1', turn: 't2' }, 'b.py', 'alpha\nbeta\ngamma\n');
  assert.equal(await vscode.commands.executeCommand('hermes.changes.showDiff'), 2);
  const [[command, title, resources]] = vscode.__state.diffs;
  assert.equal(command, 'vscode.changes');
  assert.equal(title, 'Changes by every agent');
  assert.deepEqual(resources.map((resource) => resource[0].fsPath), [path.join(folder, 'a.py'), path.join(folder, 'b.py')]);
  const provider = vscode.__state.contentProviders.get('hermes-before');
  assert.equal(await provider.provideTextDocumentContent(resources[0][1]), 'one\ntwo\nthree\nfour\n');
  assert.equal(await provider.provideTextDocumentContent(resources[1][1]), 'alpha\nbeta\n');
  const turnTwo = mods().ui_changes_diff.before_uri(path.join(folder, 'a.py'), args({ session: 'conv-1', turn: 't2' }));
  assert.equal(await provider.provideTextDocumentContent(turnTwo), 'ONE\ntwo\nthree\nfour\n', 'turn 1 stays in, turn 2 is undone');
  assert.equal(await vscode.commands.executeCommand('hermes.changes.showDiff', args({ client: 'Hermes', session: 'conv-1', turn: 't1' })), 1);
  assert.equal(vscode.__state.diffs[1][0], 'vscode.diff', 'one file: the plain diff editor');
});

test('changes seen but not under review exactly are said in the view: its message, Show Notes, Dismiss', async () => {
  const { folder, changes } = setup();
  const view = vscode.__state.treeViews.get('hermes.changes');
  assert.equal(view.message, undefined);
  assert.equal(vscode.__state.contextKeys['hermes.changes.hasNotes'], false);
  changes.notes.add('unknown-before', path.join(folder, 'data.bin'), 'Claude Code');
  changes.notes.add('guessed', path.join(folder, 'a.py'), 'Claude Code', 'Gemini CLI');
  assert.equal(view.message, '2 changes not under review exactly: a.py: changed on disk while Claude Code and ' +
    'Gemini CLI were connected; listed as Claude Code\'s (the one active last), which may be wrong; data.bin: ' +
    'changed by Claude Code; its text before is unknown, so it cannot be reviewed or undone here.');
  assert.equal(vscode.__state.contextKeys['hermes.changes.hasNotes'], true);
  vscode.__state.quickPickAnswer = (items) => items[1];
  assert.equal(await vscode.commands.executeCommand('hermes.changes.showNotes'), path.join(folder, 'data.bin'));
  assert.deepEqual(vscode.__state.quickPicks.map((pick) => pick.label), ['a.py', 'data.bin']);
  assert.deepEqual(vscode.__state.opened, [path.join(folder, 'data.bin')]);
  await vscode.commands.executeCommand('hermes.changes.dismissNotes');
  assert.equal(view.message, undefined);
  assert.equal(vscode.__state.contextKeys['hermes.changes.hasNotes'], false);
});
