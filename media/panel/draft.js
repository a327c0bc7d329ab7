// The prompt's unsent text (the draft) kept in the webview's state, so that it survives the view being hidden or
// reloaded. A draft belongs to the conversation as it was when typed: it is stored with the number of the user's
// messages then, and given back only if the conversation the host restores has that many. Why: VS Code persists a
// webview's state when it saves the workbench (on blur, every minute, at shutdown), not on each setState, so after
// a window reload the stored state can be older than the last send — the text the user sent would come back as a
// draft. A conversation that has moved on since the draft was stored tells that draft is stale.

/** @param {unknown[]} messages the conversation as the host sent it */
function userMessages(messages) {
  return messages.filter((message) => Boolean(message) && /** @type {{role?: unknown}} */ (message).role === 'user').length;
}

/**
 * What the webview stores for `text` typed in the conversation `messages`.
 * @param {string} text
 * @param {unknown[]} messages
 */
export function draftState(text, messages) {
  return { draft: text, userMessages: userMessages(messages) };
}

/**
 * The draft to put back into the prompt once the host has sent the conversation: '' when nothing was stored or the
 * conversation is not the one it was typed in. A state stored before drafts carried their conversation is kept.
 * @param {unknown} saved what `getState()` returned
 * @param {unknown[]} messages
 */
export function restoredDraft(saved, messages) {
  if (!saved || typeof saved !== 'object') return '';
  const { draft, userMessages: typedAt } = /** @type {{draft?: unknown, userMessages?: unknown}} */ (saved);
  if (typeof draft !== 'string') return '';
  if (typeof typedAt === 'number' && typedAt !== userMessages(messages)) return '';
  return draft;
}
