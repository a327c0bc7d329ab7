// The review of a terminal CLI's proposal (host/doors/proposals.py, ui/doors/proposals.py) on the real bundle with the fake
// VS Code: the proposal in the file's editor and the change log as the CLI's, its ends (every hunk decided, Reject,
// the CLI leaving), a path outside the workspace refused. What VS Code itself does (its auto-save, reverting an editor)
// is proved in code-server: tests/clients/test_doors_in_vscode.py.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-home-'));
process.env.CLAUDE_CONFIG_DIR = path.join(process.env.HOME, '.claude');
process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-tmp-'));
process.env.QWEN_HOME = path.join(process.env.HOME, '.qwen');
const { vscode, extension, activateAndServe, until } = require('./harness');

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const PROPOSED = 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n';
const AUTHOR = { client: 'Claude Code', session: 'claudeCode-1', turn: 'proposal-1' };

async function start() {
  vscode.__reset();
  vscode.__state.settings['hermes.mcp.port'] = 0;
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-ws-'));
  vscode.__openFolders([workspace]);
  if (!vscode.window.showTextDocument) {
    vscode.window.showTextDocument = async (document) => {
      const at = new vscode.Position(0, 0);
      const editor = { document, selection: { start: at, end: at, active: at, anchor: at, isEmpty: true }, selections: [] };
      vscode.__state.activeTextEditor = editor;
      return editor;
    };
  }
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  const target = path.join(workspace, 'notes.md');
  fs.writeFileSync(target, BEFORE);
  const doors = api.doors.open();
  return { ext, context, api: { ...api, proposals: doors.proposals }, target, changes: doors.watch.change_log };
}

const documentOf = (file) => vscode.workspace.textDocuments.find((document) => document.uri.fsPath === file);

test('the proposal is in the editor, not on the disk, and the CLI\'s pending change; deciding every hunk answers it', async () => {
  const { ext, context, api, target, changes } = await start();
  const decision = api.proposals.propose(target, PROPOSED, AUTHOR, '✻ [Claude Code] notes.md ⧉', null);
  await until(() => api.proposals.pending().length === 1);
  const document = documentOf(target);
  assert.equal(document.getText(), PROPOSED);
  assert.equal(fs.readFileSync(target, 'utf8'), BEFORE, 'the disk is not written by the review itself');
  const [pending] = changes.pending();
  assert.deepEqual([pending.client, pending.session, pending.turn, pending.hunks.length], ['Claude Code', 'claudeCode-1', 'proposal-1', 2]);
  assert.equal(vscode.__state.contextKeys['hermes.proposalInEditor'], true);
  // keep the first hunk, undo the second: every hunk decided, the proposal ends accepted with what is kept
  changes.keep(target, pending.hunks[0].id);
  await changes.undo(target, pending.hunks[1].id, true);
  const answer = await decision;
  assert.deepEqual({ ...answer }, { outcome: 'accepted', text: 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n' });
  assert.deepEqual(api.proposals.pending(), []);
  await ext.deactivate();
  context.disposeAll();
});

test('Reject, and the CLI going away, put the text before back in the editor and answer no', async () => {
  const { ext, context, api, target, changes } = await start();
  const rejected = api.proposals.propose(target, PROPOSED, AUTHOR, 'tab', null);
  await until(() => api.proposals.pending().length === 1);
  await vscode.commands.executeCommand('hermes.proposal.reject', target);
  assert.deepEqual({ ...(await rejected) }, { outcome: 'rejected' });
  assert.equal(documentOf(target).getText(), BEFORE);
  assert.deepEqual(changes.pending(), []);
  const other = { ...AUTHOR, turn: 'proposal-2' };
  const cancelled = api.proposals.propose(target, PROPOSED, other, 'tab', null);
  await until(() => api.proposals.pending().length === 1);
  assert.equal(api.proposals.cancel_where({ client: 'Claude Code', session: 'claudeCode-1' }, 'cancelled'), 1);
  assert.deepEqual({ ...(await cancelled) }, { outcome: 'cancelled' });
  await until(() => documentOf(target).getText() === BEFORE);
  await ext.deactivate();
  context.disposeAll();
});

test('Accept answers the editor\'s text as it is; undecided hunks stay the CLI\'s', async () => {
  const { ext, context, api, target, changes } = await start();
  const decision = api.proposals.propose(target, PROPOSED, AUTHOR, 'tab', null);
  await until(() => api.proposals.pending().length === 1);
  await vscode.commands.executeCommand('hermes.proposal.accept', target);
  assert.deepEqual({ ...(await decision) }, { outcome: 'accepted', text: PROPOSED });
  assert.equal(changes.pending()[0].hunks.length, 2, 'undecided hunks stay pending as the CLI\'s change');
  await ext.deactivate();
  context.disposeAll();
});

test('a proposal outside the workspace is refused before anything is shown', async () => {
  const { ext, context, api } = await start();
  const outside = path.join(os.tmpdir(), `hermes-outside-${process.pid}.txt`);
  fs.writeFileSync(outside, 'x\n');
  let refusal;
  try {
    await api.proposals.propose(outside, 'y\n', AUTHOR, 'tab', null);
  } catch (error) {
    refusal = error;  // a ToolError (a Transcrypt exception: its text is its first argument)
  }
  assert.match(refusal.__args__[0], /is outside the workspace of this VS Code window/);
  assert.equal(documentOf(outside), undefined);
  await ext.deactivate();
  context.disposeAll();
});

test('several proposals at once, one per file: each ends by itself; a new one for the same file ends the first; the CLI\'s closeDiff ends one', async () => {
  const { ext, context, api, target, changes } = await start();
  const second = path.join(path.dirname(target), 'other.md');
  fs.writeFileSync(second, BEFORE);
  const first = api.proposals.propose(target, PROPOSED, AUTHOR, 'tab 1', null);
  const other = api.proposals.propose(second, PROPOSED, { ...AUTHOR, turn: 'proposal-2' }, 'tab 2', null);
  await until(() => api.proposals.pending().length === 2);
  await vscode.commands.executeCommand('hermes.proposal.accept', second);
  assert.deepEqual({ ...(await other) }, { outcome: 'accepted', text: PROPOSED });
  assert.deepEqual(api.proposals.pending().map((entry) => entry.path), [target], 'the other file is still under review');
  const again = api.proposals.propose(target, 'ONE\n', { ...AUTHOR, turn: 'proposal-3' }, 'tab 3', null);
  assert.deepEqual({ ...(await first) }, { outcome: 'rejected' }, 'a new proposal for the file ends the one before');
  await until(() => api.proposals.pending().length === 1 && documentOf(target).getText() === 'ONE\n');
  // Gemini CLI's closeDiff: the review ends writing nothing, and the CLI hears what the buffer held
  assert.equal(api.proposals.close(target, null, 'rejected'), 'ONE\n');
  assert.deepEqual({ ...(await again) }, { outcome: 'rejected' });
  await until(() => documentOf(target).getText() === BEFORE);
  assert.deepEqual(changes.pending().filter((entry) => entry.path === target), [], 'nothing of it left to review');
  await ext.deactivate();
  context.disposeAll();
});

test('the user closing the file\'s tab rejects its proposal', async () => {
  const { ext, context, api, target } = await start();
  const decision = api.proposals.propose(target, PROPOSED, AUTHOR, 'tab', null);
  await until(() => api.proposals.pending().length === 1);
  await vscode.window.tabGroups.close({ input: { uri: vscode.Uri.file(target) } });
  assert.deepEqual({ ...(await decision) }, { outcome: 'rejected' });
  await until(() => documentOf(target).getText() === BEFORE);
  await ext.deactivate();
  context.disposeAll();
});

test('a new file is reviewed whole in the diff editor: accepted, it becomes the CLI\'s created file once written; a deletion rejected leaves the file', async () => {
  const { ext, context, api, target, changes } = await start();
  const made = path.join(path.dirname(target), 'made.md');
  const created = api.proposals.propose(made, 'new\n', AUTHOR, 'new file', null);
  await until(() => vscode.__state.contextKeys['hermes.diffPending'] === true);
  assert.deepEqual(api.proposals.pending(), [], 'no buffer holds a file that does not exist yet');
  await vscode.commands.executeCommand('hermes.diff.accept');
  assert.deepEqual({ ...(await created) }, { outcome: 'accepted', text: 'new\n' });
  fs.writeFileSync(made, 'new\n');  // the CLI writes what it was answered
  await until(() => changes.pending().some((entry) => entry.path === made), 5000);
  const [entry] = changes.pending().filter((item) => item.path === made);
  assert.deepEqual([entry.client, entry.created], ['Claude Code', true]);
  const deletion = api.proposals.propose(target, null, AUTHOR, 'delete', null);
  await until(() => vscode.__state.contextKeys['hermes.diffPending'] === true);
  await vscode.commands.executeCommand('hermes.diff.reject');
  assert.deepEqual({ ...(await deletion) }, { outcome: 'rejected' });
  assert.equal(fs.readFileSync(target, 'utf8'), BEFORE);
  await ext.deactivate();
  context.disposeAll();
});
