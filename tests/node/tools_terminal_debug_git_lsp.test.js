// The terminal, debug, git and language tools on the transpiled modules (build/testing.js) with
// tests/node/fake_vscode.js: the parts where Transcrypt could differ from CPython — async iteration of
// a terminal execution, escape-sequence regexes, child processes, DAP replies as raw JS objects, new()
// on VS Code classes, renamed attributes such as `name` and `type`.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { vscode, testing, windowServices } = require('./harness');

const mods = () => testing();
const args = (value) => mods().js_json.parse_json(JSON.stringify(value));
const plain = (value) => JSON.parse(mods().js_json.dump_json(value));
let context;

function setup() {
  vscode.__reset();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-tools-'));
  vscode.__openFolders([folder]);
  context = vscode.__makeContext();
  const services = windowServices(context);  // what activate() builds
  return { folder, registry: mods().tools_catalog.build_registry(null, services) };
}

async function call(registry, name, value) {
  return plain(await registry.call(name, args(value || {}), mods().core_tools.ToolCall()));
}

test.afterEach(() => context && context.disposeAll());

test('terminal_run captures output through execution.read() and strips escape sequences', async () => {
  const { registry } = setup();
  vscode.__state.shellCommands['npm test'] = [['\x1b]633;C\x07\x1b[32mPASS\x1b[0m 3 tests\r\n', '50%\r100%\r\n'], 0];
  const result = await call(registry, 'terminal_run', { command: 'npm test' });
  assert.equal(result.isError, false);
  assert.equal(result.content[0].text, '$ npm test\nPASS 3 tests\n100%\n(exit code 0, terminal 1 "Hermes")');
  assert.equal(result.structuredContent.exitCode, 0);
  assert.equal(vscode.__state.terminals[0].name, 'Hermes', 'createTerminal got {name} (a dict key, not a renamed attribute)');
  const read = await call(registry, 'terminal_read', { terminal: 'Hermes' });
  assert.match(read.content[0].text, /^Terminal 1 "Hermes": the last 1 of 1 captured commands \(oldest first\)\n\n\$ npm test\nPASS 3 tests\n100%\n\(exit code 0, /);
  const listed = await call(registry, 'terminal_list');
  assert.deepEqual(listed.structuredContent.terminals.map((t) => [t.id, t.name, t.shellIntegration, t.executions]), [[1, 'Hermes', true, 1]]);
  const killed = await call(registry, 'terminal_kill', { terminal: 1 });
  assert.equal(killed.content[0].text, 'Closed terminal 1 "Hermes" and ended its shell.');
});

test('strip_ansi gives the same text as under CPython (tests/unit/test_output_text.py)', () => {
  const { strip_ansi } = mods().core_output_text;
  assert.equal(strip_ansi('\x1b]633;C\x07\x1b[1;32mok\x1b[0m done\r\n\x1b]0;user@host: ~\x07second\x1b[K line\r\n\x1b]633;D;0\x1b\\'),
    'ok done\nsecond line\n');
  assert.equal(strip_ansi('\x1b[?2004hprompt$ (x) [y] $HOME\x1b[?2004l'), 'prompt$ (x) [y] $HOME');
  assert.equal(strip_ansi('progress 10%\rprogress 100%\r\nnext\n'), 'progress 100%\nnext\n');
});

test('find_word treats $ and non-ASCII as identifier characters (no regex: Transcrypt mistranslates [..$])', () => {
  const { find_word } = mods().host_language;
  assert.equal(find_word("greet('x');", 'greet'), 0);
  assert.equal(find_word('$greet greet', 'greet'), 7);
  assert.equal(find_word('greeté greet', 'greet'), 7);
});

test('a handler uses the services its registry was built with; one built without them says so', async () => {
  setup();
  const { Services } = mods().core_tools;
  const record = { id: 4, label: () => 'fake', describe: () => ({ id: 4, name: 'fake', active: false, shellIntegration: false,
    running: null, exitCode: null, executions: 0 }) };
  const faked = mods().tools_catalog.build_registry(null, Services({ records: [record] }));
  assert.equal((await call(faked, 'terminal_list')).content[0].text, '4 "fake": shell integration off, 0 captured commands');
  const bare = await call(mods().tools_catalog.build_registry(), 'terminal_list');
  assert.deepEqual([bare.isError, bare.content[0].text],
    [true, 'The terminal service is not available: the Hermes extension is not fully active in this window.']);
});

test('terminal tools give tool errors for unknown terminals and bad arguments', async () => {
  const { registry } = setup();
  const unknown = await call(registry, 'terminal_send', { terminal: 3, text: 'ls' });
  assert.equal(unknown.isError, true);
  assert.equal(unknown.content[0].text, 'No terminal 3. Open terminals: (none). Create one with terminal_create.');
  const bad = await call(registry, 'terminal_run', { command: '' });
  assert.match(bad.content[0].text, /^Invalid arguments for tool 'terminal_run':/);
});

test('git tools run git as a child process and parse -z output', async () => {
  const { folder, registry } = setup();
  const git = (...a) => execFileSync('git', a, { cwd: folder, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Initial');
  fs.writeFileSync(path.join(folder, 'a.txt'), 'two\n');
  fs.writeFileSync(path.join(folder, 'new file.txt'), 'x\n');
  const status = await call(registry, 'git_get_status');
  assert.equal(status.content[0].text, 'On branch main — repository .\nNot staged:\n  modified: a.txt\nUntracked:\n  new file.txt');
  const diff = await call(registry, 'git_diff', { path: 'a.txt' });
  assert.match(diff.content[0].text, /-one\n\+two/);
  const log = await call(registry, 'git_command', { args: ['log', '--format=%s'] });
  assert.equal(log.content[0].text, '$ git log --format=%s  (exit code 0)\nInitial');
  const branches = await call(registry, 'git_get_branches');
  assert.deepEqual(branches.structuredContent.branches.map((b) => [b.name, b.current]), [['main', true]]);
  const tag = await call(registry, 'git_command', { args: ['tag', 'v1'] });  // this registry has no gate: refused
  assert.deepEqual([tag.isError, tag.content[0].text], [true, 'git_command: "git tag v1" needs the user\'s confirmation, '
    + 'but this call came through no confirmation gate (a tool registry built without one), so it is not done.']);
  assert.equal(git('tag'), '');
});

test('lsp_definition builds positions with new() and reads Location objects', async () => {
  const { folder, registry } = setup();
  fs.writeFileSync(path.join(folder, 'greeter.ts'), 'export function greet(name: string) {}\n');
  fs.writeFileSync(path.join(folder, 'main.ts'), "import { greet } from './greeter';\ngreet('x');\n");
  const asked = [];
  vscode.commands.registerCommand('vscode.executeDefinitionProvider', async (uri, position) => {
    asked.push([uri.fsPath, position instanceof vscode.Position, position.line, position.character]);
    return [new vscode.Location(vscode.Uri.file(path.join(folder, 'greeter.ts')), new vscode.Range(0, 16, 0, 21))];
  });
  const result = await call(registry, 'lsp_definition', { path: 'main.ts', symbol: 'greet', line: 2 });
  assert.deepEqual(asked, [[path.join(folder, 'main.ts'), true, 1, 0]]);
  assert.equal(result.content[0].text, 'Definition of the symbol at main.ts:2:1:\n  greeter.ts:1:17  export function greet(name: string) {}');
  const missing = await call(registry, 'lsp_definition', { path: 'main.ts', symbol: '$nope' });
  assert.equal(missing.content[0].text, '"$nope" does not occur in main.ts.');
});

test('debug_start copies an inline configuration without "__proto__": no launch value comes through a prototype', async () => {
  const { registry } = setup();
  let launched;
  const original = vscode.debug.startDebugging;
  vscode.debug.startDebugging = (folder, configuration) => { launched = configuration; return Promise.resolve(false); };
  try {
    // JSON text, as the arguments arrive: JSON.parse makes "__proto__" an own key (a JS literal would not).
    const parsed = mods().js_json.parse_json('{"configuration": {"type": "node", "request": "launch", ' +
      '"__proto__": {"program": "/etc/passwd", "runtimeExecutable": "/bin/sh"}}}');
    const result = plain(await registry.call('debug_start', parsed, mods().core_tools.ToolCall()));
    assert.equal(result.isError, true);  // the fake VS Code starts nothing
  } finally {
    vscode.debug.startDebugging = original;
  }
  assert.equal(launched.program, undefined);
  assert.equal(launched.runtimeExecutable, undefined);
  assert.deepEqual(Object.keys(launched), ['type', 'request', 'name']);
  assert.equal(launched.name, 'Hermes: node');
});

test('debug tools read DAP replies (raw JS objects) of the session that stopped', async () => {
  const { folder, registry } = setup();
  fs.writeFileSync(path.join(folder, 'app.js'), 'let total = 0;\ntotal += 3;\n');
  const handlers = {
    stackTrace: () => ({ stackFrames: [{ id: 7, name: 'main', source: { path: path.join(folder, 'app.js') }, line: 2, column: 1 }], totalFrames: 1 }),
    scopes: () => ({ scopes: [{ name: 'Local', variablesReference: 5, expensive: false }] }),
    variables: () => ({ variables: [{ name: 'total', value: '3', type: 'number', variablesReference: 0 }] }),
    evaluate: (a) => ({ result: a.expression === 'total + 1' ? '4' : '?', type: 'number', variablesReference: 0 }),
  };
  const parent = vscode.debug.__start('Run app', 'pwa-node', {});
  const child = vscode.debug.__start('app.js', 'pwa-node', handlers, parent);
  child.__send('stopped', { reason: 'breakpoint', threadId: 1 });
  const variables = await call(registry, 'debug_get_variables');
  assert.equal(variables.content[0].text, ['Session "app.js" paused (breakpoint), thread 1.', 'Stack (1 of 1 frames):',
    '  #0 main  app.js:2', '', 'Variables of frame #0 (main):', 'Local:', '  total = 3 (number)'].join('\n'));
  assert.equal(variables.structuredContent.session.type, 'pwa-node');
  const evaluated = await call(registry, 'debug_evaluate', { expression: 'total + 1' });
  assert.equal(evaluated.content[0].text, '4  (number)\n— evaluated in frame #0 (main) in "app.js"');
  assert.deepEqual(child.requests.at(-1), ['evaluate', { expression: 'total + 1', context: 'repl', frameId: 7 }]);
  const breakpoints = await call(registry, 'debug_set_breakpoints', { path: 'app.js', lines: [2], condition: 'total > 1' });
  assert.equal(breakpoints.content[0].text, 'Breakpoints in app.js at line 2 if total > 1. They apply to running and future debug sessions.');
  assert.ok(vscode.__state.breakpoints[0] instanceof vscode.SourceBreakpoint);
});
