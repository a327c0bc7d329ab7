// The prompt's unsent text (the draft) kept in the webview's state, so that it survives the view being hidden or
// reloaded. A draft belongs to the conversation as it was when typed: it is stored with the number of the user's
// messages then; shown when the page loads, it is taken back when the conversation the host then sends has another
// number (and the user has not touched it meanwhile). Why: VS Code persists a
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
 * The draft stored, whatever its conversation: '' when there is none. Shown at once when the page loads (the user
 * may go on typing before the host answers), taken back by `restoredDraft` if the conversation has moved on.
 * @param {unknown} saved what `getState()` returned
 */
export function storedDraft(saved) {
  if (!saved || typeof saved !== 'object') return '';
  const { draft } = /** @type {{draft?: unknown}} */ (saved);
  return typeof draft === 'string' ? draft : '';
}

/**
 * The draft to keep in the prompt once the host has sent the conversation: '' when nothing was stored or the
 * conversation is not the one it was typed in. A state stored before drafts carried their conversation is kept.
 * @param {unknown} saved what `getState()` returned
 * @param {unknown[]} messages
 */
export function restoredDraft(saved, messages) {
  const draft = storedDraft(saved);
  const { userMessages: typedAt } = /** @type {{userMessages?: unknown}} */ (draft ? saved : {});
  if (typeof typedAt === 'number' && typedAt !== userMessages(messages)) return '';
  return draft;
}
