// Runs the real extension bundle (dist/extension.js) under node with the fake `vscode`, so tests can
// talk to its MCP server over real HTTP: the same code that runs in VS Code's extension host.
//   HOME=<tmp> node tests/node/serve_mcp.js '<settings JSON>' [workspace folder...]
// Prints one JSON line {"port", "url", "token"} once listening; SIGTERM deactivates and exits.
'use strict';
const { vscode, extension } = require('./harness');

async function main() {
  const settings = JSON.parse(process.argv[2] || '{}');
  Object.assign(vscode.__state.settings, settings);
  vscode.__openFolders(process.argv.slice(3));
  const context = vscode.__makeContext();
  const ext = extension();
  const api = await ext.activate(context);
  const service = api.mcp;
  const stop = async () => {
    await ext.deactivate();
    context.disposeAll();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Only now announce readiness: the signal handlers above must exist before a test can send SIGTERM.
  process.stdout.write(JSON.stringify({ port: service.port, url: service.url, token: service.token,
    error: service.error }) + '\n');
  process.stdin.on('data', (chunk) => {  // tests may change settings at run time: {"set": {key: value}}
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const command = JSON.parse(line);
      for (const [key, value] of Object.entries(command.set || {})) vscode.__setSetting(key, value);
    }
  });
}

main().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
