// Runs the real extension bundle (dist/extension.js) under node with the fake `vscode`, so tests can
// talk to its MCP server over real HTTP: the same code that runs in VS Code's extension host.
//   HOME=<tmp> node tests/node/serve_mcp.js '<settings JSON>' [workspace folder...]
// Prints one JSON line {"port", "url", "token"} once listening; SIGTERM deactivates and exits.
'use strict';
const { vscode, extension, activateAndServe } = require('./harness');

async function main() {
  const settings = JSON.parse(process.argv[2] || '{}');
  Object.assign(vscode.__state.settings, settings);
  vscode.__openFolders(process.argv.slice(3));
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await activateAndServe(ext, context);
  const service = api.mcp;
  if (process.env.HERMES_TEST_TOOLS) addTestTools(service.registry);
  const stop = async () => {
    await ext.deactivate();
    context.disposeAll();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // `inv bench` (tests/bench/run.py): the floor its MCP numbers are compared with, in this same process.
  const minimalUrl = process.env.HERMES_BENCH_MINIMAL
    ? await require('../bench/minimal_endpoint').serveMinimal(service.registry, service.token) : undefined;
  // Only now announce readiness: the signal handlers above must exist before a test can send SIGTERM.
  process.stdout.write(JSON.stringify({ port: service.port, url: service.url, token: service.token,
    error: service.error, minimal_url: minimalUrl }) + '\n');
  // tests may change settings at run time: {"set": {key: value}}, {"setWorkspace": …}, {"answer": "Allow"}, {"dialogs": true}
  process.stdin.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const command = JSON.parse(line);
      for (const [key, value] of Object.entries(command.set || {})) vscode.__setSetting(key, value);
      for (const [key, value] of Object.entries(command.setWorkspace || {})) {  // null: remove
        if (value === null) delete vscode.__state.workspaceSettings[key]; else vscode.__state.workspaceSettings[key] = value;
      }
      if ('trusted' in command) vscode.__state.isTrusted = command.trusted;  // Restricted Mode when false
      if ('answer' in command) vscode.__state.warningAnswer = command.answer || undefined;  // the dialogs' answer
      if (command.dialogs) {  // what the window asked so far (and forget it)
        process.stdout.write(JSON.stringify({ dialogs: vscode.__state.messages.filter((m) => m[0] === 'warning') }) + '\n');
        vscode.__state.messages = [];
      }
      if (command.addTool) addNamedTool(service.registry, command.addTool);
      if (command.gc) {  // `inv bench` soak rounds (node --expose-gc): live memory after a full collection
        if (global.gc) global.gc();
        const { rss, heapUsed } = process.memoryUsage();
        const young = require('v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
        process.stdout.write(JSON.stringify({ rss, heapUsed, newSpace: young ? young.space_size : 0 }) + '\n');
      }
    }
  });
}

// Test-only tools (HERMES_TEST_TOOLS=1) for transport behaviour no product tool shows on demand:
// progress notifications streamed before the result, cancellation reaching a running handler, and
// the conformance suite's fixtures.
const testState = { cancelled: [] };
function addTestTools(registry) {
  const { testing } = require('./harness');
  const { Tool } = testing().core_tools;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  registry.add(Tool('test_progress', 'Counts to `steps`, reporting progress; stops early when cancelled.',
    { type: 'object', properties: { steps: { type: 'integer' }, delay_ms: { type: 'integer' } }, required: ['steps'] },
    async (args, call) => {
      for (let step = 1; step <= args.steps; step++) {
        if (call.cancelled) { testState.cancelled.push(step); return `cancelled at ${step}`; }
        call.progress(step, args.steps, `step ${step}`);
        call.log('info', `did step ${step}`);
        await sleep(args.delay_ms || 20);
      }
      return `done ${args.steps}`;
    }));
  addConformanceTools(registry, Tool);
  registry.add(Tool('test_cancelled_calls', 'Steps at which test_progress calls noticed cancellation.',
    { type: 'object', properties: {} }, async () => ({ cancelled: testState.cancelled })));
}

// The fixture tools the official conformance suite's 2026-07-28 scenarios call by name (as the SDKs'
// "everything" servers offer them): each exercises core behaviour no product tool shows on demand.
function addConformanceTools(registry, Tool) {
  const empty = { type: 'object', properties: {} };
  const needsSampling = Tool('test_missing_capability', 'Needs the client\'s sampling capability.', empty,
    async () => 'the client declared sampling');
  needsSampling.client_capabilities = { sampling: {} };
  registry.add(needsSampling);
  registry.add(Tool('test_logging_tool', 'Logs three lines (sent only when the request sets a log level).', empty,
    async (args, call) => {
      for (const level of ['debug', 'info', 'warning']) call.log(level, `a ${level} line`);
      return 'logged';
    }));
  registry.add(Tool('test_streaming_elicitation', 'Reports progress, then answers.', empty,
    async (args, call) => { call.progress(1, 2, 'half way'); return 'answered'; }));
  let dynamic = null;
  registry.add(Tool('test_trigger_tool_change', 'Adds or removes the tool test_dynamic_tool.', empty, async () => {
    if (dynamic) { dynamic(); dynamic = null; return 'removed test_dynamic_tool'; }
    dynamic = registry.add(Tool('test_dynamic_tool', 'Comes and goes.', empty, async () => 'here'));
    return 'added test_dynamic_tool';
  }));
  registry.add(Tool('test_mirrored_header', 'Echoes `region`, which clients mirror into Mcp-Param-Region.',
    { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
    async (args) => `region ${args.region}`));
}

function addNamedTool(registry, name) {
  const { Tool } = require('./harness').testing().core_tools;
  registry.add(Tool(name, 'Added at run time by a test.', { type: 'object', properties: {} }, async () => 'ok'));
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
