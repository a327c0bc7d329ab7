// The editor resources on the bundle: a file outside the workspace shows neither its text nor its path
// (an outside path alone tells a remote model about the user's home folder and other projects).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing } = require('./harness');

const position = (line, character) => ({ line, character });
const selection = (line, from, to) => ({ start: position(line, from), end: position(line, to), active: position(line, to),
  isEmpty: from === to });

function editorOf(file, text) {
  const only = selection(0, 0, 6);
  return { document: { uri: vscode.Uri.file(file), languageId: 'plaintext', isDirty: false, lineCount: 1,
    getText: () => text }, selections: [only], selection: only, visibleRanges: [] };
}

test('active editor, selection, tabs and problems of a file outside the workspace withhold its path', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-privacy-')));
  const workspace = path.join(base, 'project');
  const outside = path.join(base, 'other-project', 'secret-plans.txt');
  fs.mkdirSync(workspace);
  fs.mkdirSync(path.dirname(outside));
  fs.writeFileSync(outside, 'secret\n');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# hi\n');
  vscode.__openFolders([workspace]);
  const state = testing().host_editor_state;
  const withheld = 'The file is outside the workspace: its path and text are withheld.';

  vscode.__state.activeTextEditor = editorOf(outside, 'secret');
  const active = JSON.parse(testing().js_json.dump_json(state.active_editor()));
  assert.deepEqual([active.path, active.uri, active.insideWorkspace, active.withheld], [null, null, false, withheld]);
  const chosen = JSON.parse(testing().js_json.dump_json(state.selection()));
  assert.deepEqual([chosen.path, chosen.text, chosen.withheld], [null, '', withheld]);

  vscode.__state.tabGroups = [{ viewColumn: 1, isActive: true, tabs: [
    { label: 'README.md', input: { uri: vscode.Uri.file(path.join(workspace, 'README.md')) }, isActive: false },
    { label: 'secret-plans.txt', input: { uri: vscode.Uri.file(outside) }, isActive: true }] }];
  const tabs = JSON.parse(testing().js_json.dump_json(state.tabs())).groups[0].tabs;
  assert.deepEqual(tabs.map((tab) => [tab.label, tab.path, tab.uri === null]),
    [['README.md', 'README.md', false], ['a file outside the workspace', null, true]]);

  const problem = { range: { start: position(0, 0), end: position(0, 1) }, severity: 0, message: 'broken' };
  vscode.__state.diagnostics = [[vscode.Uri.file(outside), [problem]], [vscode.Uri.file(path.join(workspace, 'README.md')), [problem]]];
  const problems = JSON.parse(testing().js_json.dump_json(state.diagnostics()));
  assert.deepEqual(problems.files.map((file) => file.path), ['README.md']);
  assert.equal(problems.withheld, '1 problems in files outside the workspace (their paths are withheld)');

  for (const value of [active, chosen, tabs, problems]) {
    const text = JSON.stringify(value);
    assert.ok(!text.includes('other-project') && !text.includes('secret'), text);
  }
  fs.rmSync(base, { recursive: true, force: true });
});
