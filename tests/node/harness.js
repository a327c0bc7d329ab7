// Loads the built bundles under node with tests/node/fake_vscode.js standing in for `vscode`.
'use strict';
const Module = require('module');
const path = require('path');

const fakeVscode = path.join(__dirname, 'fake_vscode.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? fakeVscode : resolve.call(this, request, ...rest);
};

const root = path.resolve(__dirname, '..', '..');
module.exports = {
  vscode: require(fakeVscode),
  extension: () => require(path.join(root, 'dist', 'extension.js')),
  // activate() returns before the MCP server listens: this waits for both.
  activateAndServe: async (ext, context) => {
    const api = await ext.activate(context);
    await api.mcp.ready;
    return api;
  },
  testing: () => require(path.join(root, 'build', 'testing.js')),
  // The window's services as activate() builds them (host/services.py register_services and the three it is handed).
  windowServices: (context, disk = null) => {
    const mods = require(path.join(root, 'build', 'testing.js'));
    return mods.host_services.register_services(context, mods.host_terminals.register_terminals(context),
      mods.host_doors_diff_review.register_diff_review(context), mods.host_services.register_change_log(context), disk);
  },
  // Whether a part loaded on first use (dist/part-<part>.js, e.g. 'ui.panel.controller'; esbuild.js) was required in
  // this process (the bundle stays in require.cache from one test to the next in a file).
  partLoaded: (part) => Object.keys(require.cache).some((file) => file.endsWith(path.join('dist', `part-${part}.js`))),
  // Waits for `condition()` to hold (the test runner's timeout is the ceiling): for what the bundle does on a
  // timer (the sessions list once a burst pauses, the change log's listeners) and across processes.
  // The conversation store is written behind its changes (host/chat/conversation_store.py): this waits for the
  // write of what changed so far (the store quiet for SAVE_QUIET_MS), before a test reads the file.
  storeWritten: () => new Promise((resolve) => setTimeout(resolve,
    require(path.join(root, 'build', 'testing.js')).host_chat_conversation_store.SAVE_QUIET_MS + 50)),
  until: async (condition) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
  },
  // The fake's file watchers hear the folders' real disk changes (fs.watch), as VS Code's do: returns a stop function.
  watchDisk: (folders) => {
    const fs = require('fs');
    const vscode = require(fakeVscode);
    const watchers = folders.map((folder) => fs.watch(folder, { recursive: true }, (event, name) => {
      if (!name) return;
      const file = path.join(folder, name);
      const kind = !fs.existsSync(file) ? 'delete' : event === 'rename' ? 'create' : 'change';
      for (const watcher of vscode.__state.fileWatchers) watcher.emitters[kind].fire(vscode.Uri.file(file));
    }));
    return () => watchers.forEach((watcher) => watcher.close());
  },
  // Transcrypt's calling convention for keyword arguments, as the transpiled code itself uses it.
  kwargs: (object) => require(path.join(root, 'build', 'testing.js')).runtime.__kwargtrans__(object),
};
