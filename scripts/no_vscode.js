// Stands in for `vscode` in dist/mcp-server.js, which runs outside VS Code: loading it is fine (the
// seam requires it at import time), using it is a bug that should say so.
'use strict';
module.exports = new Proxy({}, {
  get(target, property) {
    if (property === '__esModule' || property === 'default' || typeof property === 'symbol') return undefined;
    throw new Error(`vscode.${String(property)} is not available outside VS Code (dist/mcp-server.js)`);
  },
});
