// The editor, file, workspace and command tools on the transpiled modules (build/testing.js) with
// tests/node/fake_vscode.js: the parts where Transcrypt could differ from CPython — Uint8Array ⇄ text,
// the streamed ripgrep child process and its JSON lines, settings as raw JS objects (files.exclude),
// regexes built from globs, renamed attributes (`type`, `replace`, `update`, `from`), `undefined`.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { vscode, testing, windowServices } = require('./harness');

const APP_ROOT = path.join(os.homedir(), '.cache/hermes-dev/code-server-4.139.1/node_modules/code-server/lib/vscode');
const mods = () => testing();
const args = (value) => mods().js_json.parse_json(JSON.stringify(value));
const plain = (value) => JSON.parse(mods().js_json.dump_json(value));

let context;

// The window's Disk (host/disk.py): Disk(node_fs, small_trees); each setup builds the services with its own.
const disk = (nodeFs = true, smallTrees = true) => mods().host_disk.Disk(nodeFs, smallTrees);

function setup(chosen) {
  vscode.__reset();
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-files-')));
  fs.mkdirSync(path.join(folder, 'src'));
  fs.writeFileSync(path.join(folder, 'src', 'app.ts'), 'const a: number = 1;\nconst b = a + 1;\nexport { a, b };\n');
  fs.writeFileSync(path.join(folder, 'README.md'), '# Project\n\nHello world\n');
  vscode.__openFolders([folder]);
  context = vscode.__makeContext();
  const windowDisk = chosen || disk();
  const services = windowServices(context, windowDisk);  // what activate() builds
  return { folder, disk: windowDisk, registry: mods().tools_catalog.build_registry(null, services) };
}

test.afterEach(() => context && context.disposeAll());

async function call(registry, name, value) {
  return plain(await registry.call(name, args(value || {}), mods().core_tools.ToolCall()));
}
const text = (result) => result.content[0].text;

test('file_read decodes bytes, windows lines and refuses binaries and escapes', async () => {
  const { folder, registry } = setup();
  const read = await call(registry, 'file_read', { path: 'src/app.ts', start_line: 2 });
  assert.equal(read.isError, false);
  assert.equal(text(read), 'src/app.ts (lines 2-3 of 3)\nconst b = a + 1;\nexport { a, b };');
  fs.writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
  assert.match(text(await call(registry, 'file_read', { path: 'blob.bin' })), /looks like a binary file \(4 bytes\)/);
  fs.writeFileSync(path.join(folder, 'utf8.txt'), 'héllo wörld ✓\n');
  assert.equal(text(await call(registry, 'file_read', { path: 'utf8.txt' })), 'utf8.txt (lines 1-1 of 1)\nhéllo wörld ✓');
  fs.symlinkSync(os.tmpdir(), path.join(folder, 'out'));
  for (const escape of ['../../etc/passwd', '/etc/passwd', 'out/anything.txt']) {
    const refused = await call(registry, 'file_read', { path: escape });
    assert.equal(refused.isError, true, escape);
    assert.match(text(refused), /is outside the workspace/);
  }
});

test("file_read takes Gemini CLI's dependent call: wait_for_previous is left out, a known argument that is wrong keeps its error", async () => {
  const { folder, registry } = setup();
  fs.writeFileSync(path.join(folder, 'notes.md'), 'remember the milk\n');
  const toolCall = mods().core_tools.ToolCall();
  const result = plain(await registry.call('file_read', args({ path: 'notes.md', wait_for_previous: true }), toolCall));
  assert.deepEqual(result, { content: [{ type: 'text', text: 'notes.md (lines 1-1 of 1)\nremember the milk' }], isError: false });
  assert.deepEqual([...toolCall.ignored], ['wait_for_previous']);
  assert.deepEqual(await call(registry, 'file_read', { path: 5, wait_for_previous: true }), { isError: true, content: [{ type: 'text',
    text: "Invalid arguments for tool 'file_read':\narguments.path: expected string, got number\n" +
      "arguments: unexpected property 'wait_for_previous' (allowed: path, start_line, end_line)" }] });
  assert.deepEqual(await call(registry, 'file_read', { path: 'notes.md', start_line: 'one' }), { isError: true, content: [{ type: 'text',
    text: "Invalid arguments for tool 'file_read':\narguments.start_line: expected integer, got string" }] });
});

test('file_write, file_create and file_delete go through WorkspaceEdit and the trash rules', async () => {
  const { folder, registry } = setup();
  assert.equal(text(await call(registry, 'file_create', { path: 'docs/a.md', content: 'ünïcode ✓\n' })), 'Created docs/a.md.');
  assert.equal(fs.readFileSync(path.join(folder, 'docs', 'a.md'), 'utf8'), 'ünïcode ✓\n');
  assert.match(text(await call(registry, 'file_create', { path: 'docs/a.md' })), /already exists/);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, 'README.md')));
  assert.match(text(await call(registry, 'file_write', { path: 'README.md', content: 'new\n' })), /^Replaced the content of README.md/);
  assert.equal(document.getText(), 'new\n');
  assert.equal(fs.readFileSync(path.join(folder, 'README.md'), 'utf8'), 'new\n');
  vscode.__state.trash = false;  // code-server: no trash, so an undoable WorkspaceEdit deletion
  assert.match(text(await call(registry, 'file_delete', { path: 'docs', recursive: true })), /Edit > Undo/);
  assert.equal(fs.existsSync(path.join(folder, 'docs')), false);
  vscode.__state.trash = true;
  assert.equal(text(await call(registry, 'file_delete', { path: 'README.md' })), 'Moved README.md to the trash.');
  assert.deepEqual(vscode.__state.trashed, [path.join(folder, 'README.md')]);
});

test('editor_edit_file plans against the document text and applies undoable edits', async () => {
  const { folder, registry } = setup();
  const result = await call(registry, 'editor_edit_file', { path: 'src/app.ts', edits: [
    { old_text: 'const b = a + 1;', new_text: 'const b = a + 2;' },
    { start_line: 4, end_line: 3, new_text: '// end' }] });
  assert.equal(result.isError, false, text(result));
  assert.equal(fs.readFileSync(path.join(folder, 'src', 'app.ts'), 'utf8'),
    'const a: number = 1;\nconst b = a + 2;\nexport { a, b };\n// end\n');
  const twice = await call(registry, 'editor_edit_file', { path: 'src/app.ts', edits: [{ old_text: 'const', new_text: 'let' }] });
  assert.match(text(twice), /old_text occurs 2 times in src\/app.ts \(at lines 1, 2\)/);
  assert.equal(vscode.__state.appliedEdits.length, 1);
});

test('file_list_directory reads files.exclude as a raw JS object and matches globs by regex', async () => {
  const { folder, registry } = setup();
  fs.mkdirSync(path.join(folder, '.git'));
  fs.writeFileSync(path.join(folder, 'src', 'app.js'), '');
  fs.writeFileSync(path.join(folder, 'src', 'x.pyc'), '');
  vscode.__state.settings['files.exclude'] = { '**/.git': true, '**/*.pyc': true, '**/*.js': { when: '$(basename).ts' } };
  assert.equal(text(await call(registry, 'file_list_directory', {})),
    './ (depth 2, 3 entries; folders end with /)\n  src/\n    app.ts\n  README.md\n[3 entries hidden by the files.exclude setting]');
});

test('file_search_content streams ripgrep --json through child_process', { skip: !fs.existsSync(APP_ROOT) && 'no code-server' }, async () => {
  const { folder, registry } = setup();
  vscode.__state.appRoot = APP_ROOT;
  fs.writeFileSync(path.join(folder, 'many.txt'), Array.from({ length: 300 }, (_, i) => `needle ${i}`).join('\n') + '\n');
  const found = await call(registry, 'file_search_content', { query: 'const \\w = a', regex: true, context_lines: 1 });
  assert.equal(text(found), '1 match in 1 file for regex "const \\w = a" (line: match, line- context):\n' +
    'src/app.ts\n  1- const a: number = 1;\n  2: const b = a + 1;\n  3- export { a, b };');
  const capped = await call(registry, 'file_search_content', { query: 'needle', max_results: 10 });
  assert.match(text(capped), /^10 matches in 1 file/);
  assert.match(text(capped), /\[truncated: stopped at max_results=10 matches/);
  const bad = await call(registry, 'file_search_content', { query: '(', regex: true });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /ripgrep could not run this search/);
  const climbing = await call(registry, 'file_search_content', { query: 'x', include: ['src/**', '../**'] });
  assert.match(text(climbing), /reaches outside the workspace/);
});

test('settings and commands: root configuration, undefined for removal, {$uri} arguments', async () => {
  const { folder, registry } = setup();
  const set = await call(registry, 'workspace_set_config', { key: 'editor.tabSize', value: 3 });
  assert.equal(set.isError, false, text(set));
  assert.equal(vscode.__state.settings['editor.tabSize'], 3);
  assert.equal(vscode.__state.settingTargets['editor.tabSize'], 2, 'a folder is open: the workspace target');
  assert.equal((await call(registry, 'workspace_get_config', { key: 'editor.tabSize' })).structuredContent.value, 3);
  await call(registry, 'workspace_set_config', { key: 'editor.tabSize', value: null });
  assert.equal('editor.tabSize' in vscode.__state.settings, false, 'null removes the setting (passed as undefined)');
  let received;
  vscode.commands.registerCommand('demo.open', (uri, options) => { received = [uri, options]; return { opened: uri.fsPath }; });
  const ran = await call(registry, 'command_execute', { command: 'demo.open', args: [{ $uri: 'src/app.ts' }, { preview: true }] });
  assert.equal(text(ran), `The command ran and returned:\n{\n  "opened": "${path.join(folder, 'src', 'app.ts')}"\n}`);
  assert.equal(received[0].fsPath, path.join(folder, 'src', 'app.ts'));
  assert.equal(received[1].preview, true);
});

test('command_execute copies object arguments without "__proto__": the command sees no inherited values', async () => {
  const { registry } = setup();
  let received;
  vscode.commands.registerCommand('demo.take', (value) => { received = value; return null; });
  const parsed = mods().js_json.parse_json('{"command": "demo.take", "args": [{"x": 1, "__proto__": {"path": "/etc/passwd"}}]}');
  const ran = plain(await registry.call('command_execute', parsed, mods().core_tools.ToolCall()));
  assert.equal(ran.isError, false, text(ran));
  assert.equal(received.path, undefined);
  assert.deepEqual(Object.keys(received), ['x']);
});

test('editor_get_content reads a file that is not open in an editor from disk', async () => {
  // `(await read_text(path))['text']` compiled to `await read_text(path)['text']` and failed here.
  const { registry } = setup();
  const result = await call(registry, 'editor_get_content', { path: 'README.md' });
  assert.equal(result.isError, false, text(result));
  assert.match(text(result), /\(not open in an editor\)/);
  assert.match(text(result), /Hello world/);
});

// host/disk.py: file: URIs are read with Node's fs, other schemes through workspace.fs. Both must give
// the tools the same answers: the same shapes, FileType bits, symlink flags and errors.
test('Node fs and workspace.fs report the same stats, listings and bytes (symlinks included)', async () => {
  const { folder } = setup();
  fs.symlinkSync(path.join(folder, 'README.md'), path.join(folder, 'link.md'));
  fs.symlinkSync(path.join(folder, 'src'), path.join(folder, 'linkdir'));
  fs.symlinkSync(path.join(folder, 'gone'), path.join(folder, 'dangling'));
  const disk = mods().host_disk;
  const uri = (name) => vscode.Uri.file(path.join(folder, name));
  const both = async (method, name) => Promise.all([disk.NODE_FILE_SYSTEM, vscode.workspace.fs].map(async (system) => {
    try { return await system[method](uri(name)); } catch (error) { return /ENOENT|FileNotFound/.test(String(error.message) + error.code) ? 'missing' : error; }
  }));
  const [nodeList, vscodeList] = await both('readDirectory', '.');
  assert.deepEqual(nodeList.sort(), vscodeList.sort());
  assert.deepEqual(new Map(nodeList), new Map([['src', 2], ['README.md', 1], ['link.md', 65], ['linkdir', 66], ['dangling', 64]]));
  for (const name of ['README.md', 'src', 'link.md', 'linkdir', 'dangling', 'nothing-here']) {
    const [fromNode, fromVscode] = await both('stat', name);
    const shape = (info) => (info === 'missing' ? info : { type: info.type, size: info.size });
    assert.deepEqual(shape(fromNode), shape(fromVscode), name);
  }
  const [nodeBytes, vscodeBytes] = await both('readFile', 'README.md');
  assert.deepEqual(Buffer.from(nodeBytes), Buffer.from(vscodeBytes));
});

// (findFiles' side of the same cases runs under CPython: tests/unit/tools/test_editor_file_tools.py)
test('file_search lists local folders through ripgrep with files.exclude, search.exclude and .gitignore', { skip: !fs.existsSync(APP_ROOT) && 'no code-server' }, async () => {
  const { folder, registry } = setup();
  vscode.__state.appRoot = APP_ROOT;
  for (const relative of ['build/out.ts', 'src/build/keep.ts', 'gen/x.ts', 'src/gen/y.ts', 'src/lib/deep.ts', 'ignored/z.ts']) {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), '');
  }
  fs.writeFileSync(path.join(folder, '.gitignore'), 'ignored/\n');
  vscode.__state.settings['files.exclude'] = { build: true };
  vscode.__state.settings['search.exclude'] = { '**/gen': true };
  assert.equal(text(await call(registry, 'file_search', { pattern: '**/*.ts' })),
    '3 files match "**/*.ts":\nsrc/app.ts\nsrc/build/keep.ts\nsrc/lib/deep.ts');
  assert.equal(text(await call(registry, 'file_search', { pattern: 'lib/*.{ts,js}', path: 'src' })),
    '1 file match "lib/*.{ts,js}" under src:\nsrc/lib/deep.ts');
});

test('file_search answers the same from ripgrep and from the in-process walk of a small tree', { skip: !fs.existsSync(APP_ROOT) && 'no code-server' }, async () => {
  const { folder, registry, disk: windowDisk } = setup();
  vscode.__state.appRoot = APP_ROOT;
  for (const relative of ['dist/bundle.ts', 'src/lib/deep.ts', 'src/gen/x.ts', 'logs/a.log', 'logs/keep.log', '.cfg/h.ts',
    'build/out.ts', 'src/build/in.ts', 'src/.gitignore', 'cache.pyc', 'src/x.ts']) {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), relative.endsWith('.gitignore') ? '!x.ts\n' : '');
  }
  fs.writeFileSync(path.join(folder, '.gitignore'), 'dist/\n*.log\n!keep.log\nx.ts\n*.py[co]\nlogs/**\n!logs/keep.log\n');
  vscode.__state.settings['files.exclude'] = { build: true, '**/.git': true };
  vscode.__state.settings['search.exclude'] = { '**/gen': true };
  const walked = mods().host_small_tree.list_small_tree(folder, '.', ['build', '**/.git', '**/gen']);
  assert.ok(Array.isArray(walked), 'the walk answers for this tree');
  const queries = [{ pattern: '**/*.ts' }, { pattern: '**/*' }, { pattern: '*.ts', path: 'src' }, { pattern: '**/*.log', path: 'logs' },
    { pattern: '**', path: 'dist' }, { pattern: '**/*', max_results: 3 }];
  const answers = {};
  for (const walk of [true, false]) {  // the window's choice: small trees listed in process, or every tree by ripgrep
    windowDisk.small_trees = walk;  // (this test's own Disk, which its services hold)
    answers[walk] = [];
    for (const query of queries) answers[walk].push(text(await call(registry, 'file_search', query)));
  }
  assert.deepEqual(answers[true], answers[false]);
  assert.equal(answers[true][0], '5 files match "**/*.ts":\n.cfg/h.ts\nsrc/app.ts\nsrc/build/in.ts\nsrc/lib/deep.ts\nsrc/x.ts');
});

for (const backend of ['Node fs', 'workspace.fs']) {

  test(`the reading tools answer the same through ${backend}`, async () => {
    const { folder, registry } = setup(disk(backend === 'Node fs'));
    {
      fs.symlinkSync(path.join(folder, 'src'), path.join(folder, 'alias'));
      fs.writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
      assert.equal(text(await call(registry, 'file_read', { path: 'src/app.ts', start_line: 2 })),
        'src/app.ts (lines 2-3 of 3)\nconst b = a + 1;\nexport { a, b };');
      assert.match(text(await call(registry, 'file_read', { path: 'blob.bin' })), /looks like a binary file \(4 bytes\)/);
      assert.equal(text(await call(registry, 'file_read', { path: 'nope.txt' })),
        '"nope.txt" does not exist. Use file_list_directory or file_search to find the right path.');
      assert.match(text(await call(registry, 'file_read', { path: 'src' })), /is a folder, not a file/);
      assert.equal(text(await call(registry, 'file_list_directory', {})),
        './ (depth 2, 5 entries; folders end with /)\n  alias/ (symlink)\n  src/\n    app.ts\n  blob.bin\n  README.md');
      assert.equal(text(await call(registry, 'editor_get_content', { path: 'README.md' })),
        'README.md (lines 1-3 of 3) (not open in an editor)\n# Project\n\nHello world');
    }
  });
}

test('a listing longer than a sort slice comes back in the order one whole sort gives (host/search.py sorted_first)', async () => {
  const { sorted_first: sortedFirst, SORT_SLICE: slice } = testing().host_search;
  const paths = Array.from({ length: 2 * slice + 123 }, (_, i) => `pkg${(i * 7919) % 97}/${'-/_.aZé'[i % 7]}mod${(i * 31) % 1000}.ts`);
  const whole = [...paths].sort();
  for (const count of [1, slice, slice + 1, 5001, paths.length, paths.length + 10]) {
    assert.deepEqual(Array.from(await sortedFirst([...paths], count)), whole.slice(0, count));
  }
});
