// The agent's slash commands in the panel's input: typing "/" at the start of the message opens a list of the
// commands the conversation's ACP agent offers (the host posts them: {type: 'commands'}), filtered as the name is
// typed. Arrow keys move, Enter or Tab puts "/name " into the input, Escape closes the list, a click picks. Nothing
// runs here: the message is sent as typed, and the agent runs "/name input" itself (that is how ACP runs commands).
//
// The input stays the focus (a combobox: aria-expanded, aria-controls, aria-activedescendant); the list is a
// listbox whose options say the command and what it does.

/** @typedef {import('./protocol').AgentCommand} AgentCommand */

const MAX_SHOWN = 50;

/**
 * The name being typed, when the message is "/" plus a name and nothing after it yet; else null.
 * @param {string} text
 * @returns {string | null}
 */
export function typedCommand(text) {
  const match = /^\/([^\s/]*)$/.exec(text);
  return match ? match[1] : null;
}

/**
 * The commands that fit what was typed after "/": names that start with it first, then names that contain it
 * (case-insensitive), each group in the agent's order.
 * @param {AgentCommand[]} commands
 * @param {string} typed
 * @returns {AgentCommand[]}
 */
export function matchingCommands(commands, typed) {
  const wanted = typed.toLowerCase();
  const starting = commands.filter((command) => command.name.toLowerCase().startsWith(wanted));
  const containing = commands.filter((command) => !command.name.toLowerCase().startsWith(wanted) && command.name.toLowerCase().includes(wanted));
  return starting.concat(containing).slice(0, MAX_SHOWN);
}

export class CommandMenu {
  /**
   * @param {HTMLTextAreaElement} input the message box
   * @param {(tag: string, attrs?: object, children?: Node[]) => HTMLElement} el the panel's element helper
   * @param {() => void} changed called after a pick changed the input's text
   */
  constructor(input, el, changed) {
    this.input = input;
    this.el = el;
    this.changed = changed;
    /** @type {AgentCommand[]} */
    this.commands = [];
    /** @type {AgentCommand[]} */
    this.shown = [];
    this.active = 0;
    this.dismissed = null; // the text the user closed the list at (Escape): it stays closed until the text changes
    this.list = el('div', { id: 'command-list', class: 'command-list', role: 'listbox', 'aria-label': 'Agent commands' });
    this.list.hidden = true;
    this.list.addEventListener('mousedown', (event) => event.preventDefault()); // the input keeps the focus
    this.list.addEventListener('click', (event) => {
      const row = event.target instanceof Element ? event.target.closest('[data-index]') : null;
      if (row) this.pick(Number(row.getAttribute('data-index')));
    });
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'command-list');
    input.setAttribute('aria-expanded', 'false');
  }

  get open() {
    return !this.list.hidden;
  }

  /** @param {AgentCommand[]} commands the agent's whole list (replaces the one before) */
  setCommands(commands) {
    this.commands = Array.isArray(commands) ? commands.filter((command) => command && typeof command.name === 'string') : [];
    this.update();
  }

  /** Shows, filters or closes the list for the input's text. */
  update() {
    const text = this.input.value;
    if (this.dismissed !== null && this.dismissed !== text) this.dismissed = null;
    const typed = typedCommand(text);
    const shown = typed === null || this.dismissed !== null || this.input.disabled ? [] : matchingCommands(this.commands, typed);
    if (shown.length === 0) {
      this.close(false);
      return;
    }
    const activeName = this.open && this.shown[this.active] ? this.shown[this.active].name : null;
    this.shown = shown;
    const kept = shown.findIndex((command) => command.name === activeName);
    this.active = kept >= 0 ? kept : 0;
    this.render();
  }

  render() {
    const el = this.el;
    this.list.replaceChildren(...this.shown.map((command, index) => {
      const row = el('div', {
        id: `command-${index}`, class: 'command-row', role: 'option', 'data-index': String(index),
        'aria-selected': index === this.active ? 'true' : 'false',
        title: command.description || `/${command.name}`,
      }, [
        el('span', { class: 'command-name', text: `/${command.name}` }),
        command.hint ? el('span', { class: 'command-hint', text: command.hint }) : null,
        command.description ? el('span', { class: 'command-description', text: command.description }) : null,
      ]);
      if (index === this.active) row.classList.add('active');
      return row;
    }));
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-activedescendant', `command-${this.active}`);
    const activeRow = this.list.children[this.active];
    if (activeRow && typeof activeRow.scrollIntoView === 'function') activeRow.scrollIntoView({ block: 'nearest' });
  }

  /** @param {boolean} dismissed the user closed it (Escape): it stays closed until the text changes */
  close(dismissed) {
    if (dismissed) this.dismissed = this.input.value;
    this.list.hidden = true;
    this.list.replaceChildren();
    this.shown = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  /** @param {number} index */
  pick(index) {
    const command = this.shown[index];
    if (!command) return;
    this.input.value = `/${command.name} `;
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.close(false);
    this.input.focus();
    this.changed();
  }

  /**
   * The input's keydown while the list is open: true when the key was the list's (the caller does nothing more).
   * @param {KeyboardEvent} event
   */
  handleKey(event) {
    if (!this.open || event.isComposing) return false;
    const count = this.shown.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
      this.render();
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      this.pick(this.active);
    } else if (event.key === 'Escape') {
      this.close(true);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }
}
