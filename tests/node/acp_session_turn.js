// Drives a chat session of the bundle (fake vscode.chat, tests/node/fake_chat.js) whose agent is a real ACP agent,
// and prints what the user would have seen as JSON: used by tests/integration/test_acp_agents.py.
//   node tests/node/acp_session_turn.js '<json: {settings, folders, warningAnswer, prompts: [text…], watchDisk, entries,
//                                               choices: {promptIndex: [{optionId, value}…]}, review}>'
// → {turns: [{parts, result}], asked: [[dialog text, buttons]], log: [output channel lines],
//    changed: [{path, insertions, deletions}] (the session item's changed files), entries: {path: change log entry},
//    optionGroups: [{id, name, items: [id…]}] (the pickers under the input after the turns)}
// `watchDisk`: the fake's file watchers hear the folders' real disk changes (fs.watch), as VS Code's do.
// `choices`: what the user picks under the input (mode, model) before the prompt of that index.
// `review`: [['keep' | 'undo', path]…] done in the change log after the turns, as the editor's Keep / Undo would;
// → `reviewed: {path: its text on disk after that step (null: no file)}`.
'use strict';
const fs = require('fs');
const path = require('path');
const { vscode, chat, recorder, openSession, listed } = require('./fake_chat');
const { testing, watchDisk } = require('./harness');

// The change log's entry for each of `files`, once all are there (a write the watcher reports late is recorded
// then), or what there is after `ms`.
async function entriesOf(changeLog, files, ms) {
  const deadline = Date.now() + ms;
  while (!files.every((file) => changeLog.entry(file)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Object.fromEntries(files.map((file) => [file, JSON.parse(JSON.stringify(changeLog.entry(file) || null))]));
}

// The session items once they show the change log's pending changes (the list goes to VS Code once a burst of
// changes pauses: ui/chat/sessions.py LIST_QUIET_MS), what core/changes/view.py session_changes says they should.
async function settledItems(controller, changeLog) {
  const sessionChanges = testing().core_changes_view.session_changes;
  const shown = (item) => JSON.stringify((item.changes || []).map((file) => [file.uri.fsPath, file.insertions, file.deletions]));
  const due = (item) => JSON.stringify(changeLog ? sessionChanges(changeLog.pending(), item.resource.path.slice(1))
    .map((change) => [change.path, change.added, change.removed]) : []);
  return listed(controller, (items) => items.length > 0 && items.every((item) => shown(item) === due(item)));
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const session = await openSession(plan.settings, { warningAnswer: plan.warningAnswer }, plan.folders || []);
  const unwatch = plan.watchDisk ? watchDisk(plan.folders) : () => {};
  const out = { turns: [] };
  try {
    for (const [index, prompt] of plan.prompts.entries()) {
      const choices = (plan.choices || {})[index];
      if (choices) {
        const [item] = await listed(session.controller, (items) => items.length > 0);
        chat.content.get('hermes').provider.provideHandleOptionsChange(item.resource, choices, {});
      }
      const stream = recorder();
      const result = await session.ask(prompt, stream);
      out.turns.push({ parts: JSON.parse(JSON.stringify(stream.parts)), result: JSON.parse(JSON.stringify(result || {})) });
    }
    const { optionGroups } = await chat.content.get('hermes').provider.provideChatSessionProviderOptions({});
    out.optionGroups = (optionGroups || []).map((group) => ({ id: group.id, name: group.name,
      items: group.items.map((item) => item.id) }));
    const changeLog = session.api.mcp.registry.services.change_log_or_none;
    out.entries = await entriesOf(changeLog, plan.entries || [], 30000);
    out.reviewed = {};
    for (const [action, file] of plan.review || []) {
      if (action === 'keep') changeLog.keep(file);
      else await changeLog.undo(file);
      out.reviewed[file] = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    }
    out.changed = (await settledItems(session.controller, changeLog)).flatMap((item) => (item.changes || []).map((file) => (
      { path: file.uri.fsPath, insertions: file.insertions, deletions: file.deletions })));
  } finally {
    unwatch();
    out.asked = vscode.__state.messages.filter((m) => m[0] === 'warning').map((m) => [m[1], m[2]]);
    await session.stop();
    out.log = vscode.__state.channels.flatMap((channel) => channel.lines);
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
