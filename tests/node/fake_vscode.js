// A small fake of the `vscode` module for running dist/extension.js under plain node.
// It records what the extension did so tests can assert on it; `reset()` starts a fresh world.
'use strict';

class Disposable {
  constructor(onDispose) { this.onDispose = onDispose; this.disposed = false; }
  dispose() { if (!this.disposed) { this.disposed = true; if (this.onDispose) this.onDispose(); } }
}

class EventEmitter {
  constructor() { this.listeners = []; this.event = (listener) => { this.listeners.push(listener); return new Disposable(() => { this.listeners = this.listeners.filter((l) => l !== listener); }); }; }
  fire(data) { for (const listener of [...this.listeners]) listener(data); }
  dispose() { this.listeners = []; }
}

const state = {};

class Uri {
  constructor(scheme, fsPath) { this.scheme = scheme; this.fsPath = fsPath; this.path = fsPath; }
  static file(fsPath) { return new Uri('file', fsPath); }
  static joinPath(base, ...segments) { return new Uri(base.scheme, require('path').posix.join(base.fsPath, ...segments)); }
  static parse(value) { const u = new URL(value); const uri = new Uri(u.protocol.replace(':', ''), u.pathname); uri.href = value; return uri; }
  toString() { return this.href || `${this.scheme}://${this.fsPath}`; }
}

class ThemeColor { constructor(id) { this.id = id; } }

class McpHttpServerDefinition {
  constructor(label, uri, headers, version) { this.label = label; this.uri = uri; this.headers = headers; this.version = version; }
}

const configChanged = new EventEmitter();

function reset() {
  state.workspaceFolders = undefined;
  state.tabGroups = [];
  state.clipboard = '';
  state.quickPickAnswer = undefined;
  state.mcpProviders = new Map();
  state.channels = [];
  state.statusItems = [];
  state.commands = new Map();
  state.messages = [];
  state.settings = {};
  state.webviewViews = new Map();
}
reset();

const window = {
  createOutputChannel(name, options) {
    const channel = { name, options, lines: [], disposed: false,
      info(m) { this.lines.push(`[info] ${m}`); }, warn(m) { this.lines.push(`[warning] ${m}`); },
      error(m) { this.lines.push(`[error] ${m}`); }, debug(m) { this.lines.push(`[debug] ${m}`); },
      appendLine(m) { this.lines.push(m); }, show() {}, dispose() { this.disposed = true; } };
    state.channels.push(channel);
    return channel;
  },
  createStatusBarItem(id, alignment, priority) {
    const item = { id, alignment, priority, text: '', visible: false, disposed: false,
      show() { this.visible = true; }, hide() { this.visible = false; },
      dispose() { this.disposed = true; this.visible = false; } };
    state.statusItems.push(item);
    return item;
  },
  showInformationMessage(text, ...items) { state.messages.push(['info', text, items]); return Promise.resolve(undefined); },
  showWarningMessage(text, ...items) { state.messages.push(['warning', text, items]); return Promise.resolve(undefined); },
  showErrorMessage(text, ...items) { state.messages.push(['error', text, items]); return Promise.resolve(undefined); },
  showQuickPick(items) { state.quickPicks = items; return Promise.resolve(state.quickPickAnswer ? state.quickPickAnswer(items) : undefined); },
  get tabGroups() { return { all: state.tabGroups }; },
  registerWebviewViewProvider(id, provider, options) {
    if (state.webviewViews.has(id)) throw new Error(`a webview view provider for '${id}' is already registered`);
    state.webviewViews.set(id, { provider, options });
    return new Disposable(() => state.webviewViews.delete(id));
  },
};

const commands = {
  registerCommand(id, handler) {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, handler);
    return new Disposable(() => state.commands.delete(id));
  },
  async executeCommand(id, ...args) {
    if (!state.commands.has(id)) throw new Error(`command '${id}' not found`);
    return state.commands.get(id)(...args);
  },
};

const workspace = {
  get workspaceFolders() { return state.workspaceFolders; },
  get name() { return state.workspaceFolders ? state.workspaceFolders.map((f) => f.name).join(', ') : undefined; },
  getConfiguration(section) {
    return { get: (key, fallback) => { const v = state.settings[`${section}.${key}`]; return v === undefined ? fallback : v; } };
  },
  onDidChangeConfiguration: configChanged.event,
};

// Test helpers: open folders, change a setting the way the user would (firing the change event).
function openFolders(paths) {
  state.workspaceFolders = paths.map((p, index) => ({ uri: Uri.file(p), name: require('path').basename(p), index }));
}
function setSetting(key, value) {
  state.settings[key] = value;
  configChanged.fire({ affectsConfiguration: (section) => key === section || key.startsWith(section + '.') });
}

const env = {
  appName: 'Visual Studio Code (fake)',
  clipboard: { writeText(text) { state.clipboard = text; return Promise.resolve(); }, readText() { return Promise.resolve(state.clipboard); } },
};

const lm = {
  registerMcpServerDefinitionProvider(id, provider) {
    state.mcpProviders.set(id, provider);
    return new Disposable(() => state.mcpProviders.delete(id));
  },
};

function makeContext() {
  const subscriptions = [];
  return {
    subscriptions,
    extension: { id: 'hermes-agent.hermes-agent', packageJSON: { version: '0.1.0' } },
    secrets: { values: new Map(), get(k) { return Promise.resolve(this.values.get(k)); }, store(k, v) { this.values.set(k, v); return Promise.resolve(); } },
    workspaceState: { values: new Map(), get(k, d) { return this.values.has(k) ? this.values.get(k) : d; }, update(k, v) { this.values.set(k, v); return Promise.resolve(); }, keys() { return [...this.values.keys()]; } },
    extensionUri: Uri.file(require('path').resolve(__dirname, '..', '..')),
    disposeAll() { for (const d of subscriptions.reverse()) d.dispose(); subscriptions.length = 0; },
  };
}

module.exports = {
  Disposable, EventEmitter, Uri, ThemeColor, McpHttpServerDefinition, StatusBarAlignment: { Left: 1, Right: 2 },
  window, commands, workspace, env, lm, version: '1.139.1',
  __state: state, __reset: reset, __makeContext: makeContext, __openFolders: openFolders, __setSetting: setSetting,
};
