// The side panel's draft (media/panel/draft.js, the webview's own module) under node: a draft stored with the
// conversation it was typed in comes back only into that conversation. Why it matters: VS Code can persist a
// webview's state from before the last send, and the sent text must not come back as a draft after a reload.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const SOURCE = fs.readFileSync(path.resolve(__dirname, '..', '..', 'media', 'panel', 'draft.js'), 'utf8');
const MODULE = 'data:text/javascript,' + encodeURIComponent(SOURCE);
const user = (text) => ({ role: 'user', text });
const reply = (text) => ({ role: 'assistant', parts: [{ kind: 'text', text }] });

test('a draft comes back into the conversation it was typed in', async () => {
  const { draftState, restoredDraft } = await import(MODULE);
  const conversation = [user('Hi'), reply('Hello.')];
  const saved = draftState('half a thought', conversation);
  assert.deepEqual(saved, { draft: 'half a thought', userMessages: 1 });
  assert.equal(restoredDraft(saved, conversation), 'half a thought');
  assert.equal(restoredDraft(saved, conversation.concat([reply('More.')])), 'half a thought'); // replies do not count
});

test('a draft stored before it was sent does not come back once the conversation holds the sent message', async () => {
  const { draftState, restoredDraft } = await import(MODULE);
  const before = [user('Hi'), reply('Hello.')];
  const stale = draftState('Are you there?', before); // what a workbench save caught between typing and Enter
  assert.equal(restoredDraft(stale, before.concat([user('Are you there?'), reply('Yes.')])), '');
  assert.equal(restoredDraft(stale, []), ''); // a new chat since
});

test('nothing stored, or something that is not a draft, restores nothing; an older state keeps its draft', async () => {
  const { restoredDraft, storedDraft } = await import(MODULE);
  for (const saved of [undefined, null, 'text', 42, {}, { draft: 7 }, { draft: ['x'] }]) {
    assert.equal(restoredDraft(saved, []), '');
    assert.equal(storedDraft(saved), '');
  }
  assert.equal(storedDraft({ draft: 'stale or not', userMessages: 3 }), 'stale or not'); // shown at load either way
  assert.equal(restoredDraft({ draft: 'from before drafts knew their conversation' }, [user('a')]),
    'from before drafts knew their conversation');
  assert.equal(restoredDraft({ draft: 'x', userMessages: 0 }, [null, 3, user('a')]), ''); // odd entries are not messages
});
