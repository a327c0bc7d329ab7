// The floor for `inv bench`'s ACP section: a minimal ACP client (newline-delimited JSON-RPC over the agent's stdio, what
// the official SDK's example client does, without a UI): spawn, initialize, session/new, then prompts. It serves
// fs/read_text_file and fs/write_text_file, allows every permission request, and reports each agent_message_chunk.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

function minimalClient({ command, args = [], env = process.env, cwd, mcpServers = [] }) {
  let child = null, ready = null;
  const pending = new Map();
  let nextId = 0, buffered = '', onUpdate = () => {};
  const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  const request = (method, params) => new Promise((resolve, reject) => {
    pending.set(++nextId, { resolve, reject });
    send({ id: nextId, method, params });
  });
  const serve = { // what the agent may ask of a client
    'fs/read_text_file': (p) => ({ content: fs.readFileSync(path.resolve(cwd, p.path), 'utf8') }),
    'fs/write_text_file': (p) => { fs.writeFileSync(path.resolve(cwd, p.path), p.content); return null; },
    'session/request_permission': (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0].optionId } }),
  };
  const onData = (data) => {
    const lines = (buffered + data.toString('utf8')).split('\n');
    buffered = lines.pop();
    for (const line of lines.filter((text) => text.trim())) {
      const message = JSON.parse(line);
      if (message.method === 'session/update') onUpdate(message.params.update);
      else if (message.method && message.id !== undefined) {
        try { send({ id: message.id, result: serve[message.method](message.params) }); } catch (error) {
          send({ id: message.id, error: { code: -32603, message: String(error) } });
        }
      } else if (pending.has(message.id)) {
        const { resolve, reject } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) reject(new Error(JSON.stringify(message.error))); else resolve(message.result);
      }
    }
  };
  const start = () => {  // on the first prompt, so that the first turn counts the agent's start
    child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.on('data', onData);
    return request('initialize', { protocolVersion: 1, clientInfo: { name: 'minimal', version: '1' },
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } })
      .then(() => request('session/new', { cwd, mcpServers }));
  };
  return {
    // → {stopReason}; `onChunk(text)` for each agent_message_chunk of this turn
    prompt: async (text, onChunk) => {
      const { sessionId } = await (ready = ready || start());
      onUpdate = (update) => { if (update.sessionUpdate === 'agent_message_chunk') onChunk(update.content.text); };
      return request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    },
    stop: () => { if (child) { child.stdin.end(); child.kill(); } },
  };
}

module.exports = { minimalClient };
