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
  state.opened = [];  // vscode.open's files (fsPath)
  state.mcpProviders = new Map();
  state.channels = [];
  state.statusItems = [];
  state.commands = new Map();
  state.messages = [];
  state.settings = {};
  state.workspaceSettings = {};
  state.warningAnswer = undefined;
  state.webviewViews = new Map();
  state.external = [];  // every address env.openExternal was asked to open (the user's browser would get it)
}
reset();

const window = {
  createOutputChannel(name, options) {
    // As in VS Code: debug lines below the channel's logLevel (Info) are dropped, and the lines go to a
    // file rather than staying in the extension host: only the last 5,000 are kept here, so `inv bench`'s
    // soak of thousands of requests measures the extension's memory, not this fake's.
    const channel = { name, options, lines: [], disposed: false, logLevel: 3,
      add(line) { this.lines.push(line); if (this.lines.length > 5000) this.lines.splice(0, 1000); },
      info(m) { this.add(`[info] ${m}`); }, warn(m) { this.add(`[warning] ${m}`); },
      error(m) { this.add(`[error] ${m}`); }, debug(m) { if (this.logLevel <= 2) this.add(`[debug] ${m}`); },
      appendLine(m) { this.add(m); }, show() {}, dispose() { this.disposed = true; } };
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
  // Nobody answers a dialog unless a test set state.warningAnswer (e.g. 'Allow').
  showWarningMessage(text, ...items) { state.messages.push(['warning', text, items]); return Promise.resolve(state.warningAnswer); },
  showErrorMessage(text, ...items) { state.messages.push(['error', text, items]); return Promise.resolve(undefined); },
  showInputBox(options) { state.inputBoxes = [...(state.inputBoxes || []), options]; return Promise.resolve(state.inputBoxAnswer); },
  showQuickPick(items) { state.quickPicks = items; return Promise.resolve(state.quickPickAnswer ? state.quickPickAnswer(items) : undefined); },
  get tabGroups() { return { all: state.tabGroups }; },
  setStatusBarMessage(text) { state.messages.push(['status', text, []]); return new Disposable(); },
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
    return { get: (key, fallback) => { const v = state.settings[`${section}.${key}`]; return v === undefined ? fallback : v; },
      update: (key, value, target) => { state.settings[`${section}.${key}`] = value; state.settingTargets = { ...(state.settingTargets || {}), [`${section}.${key}`]: target }; return Promise.resolve(); } };
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
  openExternal(uri) { state.external.push(uri.toString()); return Promise.resolve(true); },
};

const lm = {
  registerMcpServerDefinitionProvider(id, provider) {
    state.mcpProviders.set(id, provider);
    return new Disposable(() => state.mcpProviders.delete(id));
  },
};

function makeContext() {
  const subscriptions = [];
  const fs = require('fs'), os = require('os'), path = require('path');
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-storage-'));
  return {
    subscriptions,
    extension: { id: 'hermes-agent.hermes-agent', packageJSON: { version: '0.1.0' } },
    secrets: { values: new Map(), get(k) { return Promise.resolve(this.values.get(k)); }, store(k, v) { this.values.set(k, v); return Promise.resolve(); }, delete(k) { this.values.delete(k); return Promise.resolve(); } },
    workspaceState: { values: new Map(), get(k, d) { return this.values.has(k) ? this.values.get(k) : d; }, update(k, v) { this.values.set(k, v); return Promise.resolve(); }, keys() { return [...this.values.keys()]; } },
    globalState: { values: new Map(), get(k, d) { return this.values.has(k) ? this.values.get(k) : d; }, update(k, v) { this.values.set(k, v); return Promise.resolve(); }, keys() { return [...this.values.keys()]; } },
    extensionUri: Uri.file(require('path').resolve(__dirname, '..', '..')),
    globalStorageUri: Uri.file(storage),
    storageUri: Uri.file(path.join(storage, 'workspace')),  // undefined in a window without a folder
    // What the extension puts into its terminals' environment (the doors of terminal CLIs)
    environmentVariableCollection: {
      values: new Map(), persistent: true, description: undefined,
      replace(name, value) { this.values.set(name, value); }, delete(name) { this.values.delete(name); },
      get(name) { return this.values.has(name) ? { value: this.values.get(name), type: 1 } : undefined; },
      clear() { this.values.clear(); },
    },
    disposeAll() { for (const d of subscriptions.reverse()) d.dispose(); subscriptions.length = 0; },
  };
}

module.exports = {
  Disposable, EventEmitter, Uri, ThemeColor, McpHttpServerDefinition, StatusBarAlignment: { Left: 1, Right: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  window, commands, workspace, env, lm, version: '1.139.1',
  __state: state, __reset: reset, __makeContext: makeContext, __openFolders: openFolders, __setSetting: setSetting,
};

// ==================================================================================================
// Terminals, debugging and language features (the terminal/debug/git/lsp tools). An appended section:
// it adds to the objects above and wraps __reset. A terminal's "shell" answers from
// `__state.shellCommands[command] = [chunks, exitCode]`.
{
  const exported = module.exports;
  const tick = (fn) => setImmediate(fn);

  class Position { constructor(line, character) { this.line = line; this.character = character; } }
  class Range {
    constructor(a, b, c, d) {
      if (typeof a === 'number') { this.start = new Position(a, b); this.end = new Position(c, d); } else { this.start = a; this.end = b; }
    }
  }
  class Location { constructor(uri, place) { this.uri = uri; this.range = place instanceof Position ? new Range(place, place) : place; } }
  class SourceBreakpoint {
    constructor(location, enabled, condition) { this.location = location; this.enabled = enabled !== false; if (typeof condition === 'string') this.condition = condition; }
  }

  class ShellExecution {
    constructor(command) { this.commandLine = { value: command, isTrusted: true }; this.chunks = []; this.ended = false; this.waiters = []; }
    write(chunk) { this.chunks.push(chunk); this.wake(); }
    end() { this.ended = true; this.wake(); }
    wake() { const waiters = this.waiters; this.waiters = []; waiters.forEach((w) => w()); }
    read() {
      const self = this;
      return (async function* () {
        let index = 0;
        for (;;) {
          while (index < self.chunks.length) yield self.chunks[index++];
          if (self.ended) return;
          await new Promise((resolve) => self.waiters.push(resolve));
        }
      })();
    }
  }

  function makeTerminal(options) {
    const terminal = {
      name: options.name || 'bash', creationOptions: options, shellIntegration: undefined, exitStatus: undefined, sent: [],
      show() { state.activeTerminal = terminal; }, hide() {},
      sendText(text, addNewLine = true) { terminal.sent.push([text, addNewLine]); },
      dispose() {
        if (terminal.exitStatus) return;
        terminal.exitStatus = { code: undefined, reason: 3 };
        state.terminals = state.terminals.filter((t) => t !== terminal);
        tick(() => state.terminalEvents.close.fire(terminal));
      },
    };
    const integration = {
      cwd: undefined,
      executeCommand(command) {
        const execution = new ShellExecution(command);
        const [chunks, exitCode] = state.shellCommands[command] || [[`bash: ${command}: command not found\r\n`], 127];
        tick(() => {
          state.terminalEvents.start.fire({ terminal, execution, shellIntegration: integration });
          chunks.forEach((chunk) => execution.write(chunk));
          tick(() => { execution.end(); state.terminalEvents.end.fire({ terminal, execution, exitCode, shellIntegration: integration }); });
        });
        return execution;
      },
    };
    tick(() => {
      state.terminalEvents.open.fire(terminal);
      terminal.shellIntegration = integration;
      state.terminalEvents.integration.fire({ terminal, shellIntegration: integration });
    });
    return terminal;
  }

  function makeSession(name, type, handlers, parentSession) {
    const session = {
      id: `session-${++state.sessionCount}`, name, type, parentSession, configuration: { name, type }, trackers: [], requests: [],
      async customRequest(command, args) {
        session.requests.push([command, args]);
        session.trackers.forEach((t) => t.onWillReceiveMessage && t.onWillReceiveMessage({ type: 'request', command, arguments: args }));
        if (!handlers[command]) throw new Error(`Unrecognized request '${command}'`);
        return handlers[command](args);
      },
      __send(event, body) { session.trackers.forEach((t) => t.onDidSendMessage && t.onDidSendMessage({ seq: 1, type: 'event', event, body })); },
    };
    return session;
  }

  function resetToolSuite() {
    state.terminals = [];
    state.activeTerminal = undefined;
    state.shellCommands = {};
    state.terminalEvents = { open: new EventEmitter(), close: new EventEmitter(), integration: new EventEmitter(),
      start: new EventEmitter(), end: new EventEmitter() };
    state.breakpoints = [];
    state.trackerFactories = [];
    state.sessionCount = 0;
    state.debugEvents = { start: new EventEmitter(), end: new EventEmitter() };
    state.activeDebugSession = undefined;
  }

  Object.assign(window, {
    createTerminal(options) { const terminal = makeTerminal(options || {}); state.terminals.push(terminal); state.activeTerminal = state.activeTerminal || terminal; return terminal; },
    onDidOpenTerminal: (l) => state.terminalEvents.open.event(l),
    onDidCloseTerminal: (l) => state.terminalEvents.close.event(l),
    onDidChangeTerminalShellIntegration: (l) => state.terminalEvents.integration.event(l),
    onDidStartTerminalShellExecution: (l) => state.terminalEvents.start.event(l),
    onDidEndTerminalShellExecution: (l) => state.terminalEvents.end.event(l),
  });
  Object.defineProperty(window, 'terminals', { get: () => state.terminals });
  Object.defineProperty(window, 'activeTerminal', { get: () => state.activeTerminal });

  const debug = {
    get breakpoints() { return state.breakpoints; },
    get activeDebugSession() { return state.activeDebugSession; },
    addBreakpoints(items) { state.breakpoints = state.breakpoints.concat(items); },
    removeBreakpoints(items) { state.breakpoints = state.breakpoints.filter((b) => !items.includes(b)); },
    registerDebugAdapterTrackerFactory(type, factory) {
      const entry = [type, factory];
      state.trackerFactories.push(entry);
      return new Disposable(() => { state.trackerFactories = state.trackerFactories.filter((e) => e !== entry); });
    },
    onDidStartDebugSession: (l) => state.debugEvents.start.event(l),
    onDidTerminateDebugSession: (l) => state.debugEvents.end.event(l),
    startDebugging() { return Promise.resolve(false); },
    stopDebugging() { return Promise.resolve(); },
    // Test helper: a session starts, as a debug adapter would run it.
    __start(name, type, handlers, parent) {
      const session = makeSession(name, type, handlers, parent);
      for (const [, factory] of state.trackerFactories) {
        const tracker = factory.createDebugAdapterTracker(session);
        if (tracker) session.trackers.push(tracker);
      }
      state.activeDebugSession = session;
      state.debugEvents.start.fire(session);
      return session;
    },
  };

  if (!workspace.openTextDocument) {
    workspace.openTextDocument = async (uri) => {
      const fsPath = typeof uri === 'string' ? uri : uri.fsPath;
      let text = require('fs').readFileSync(fsPath, 'utf8');
      const lines = () => text.split('\n');
      return { uri: Uri.file(fsPath), get lineCount() { return lines().length; }, lineAt: (n) => ({ text: lines()[n], lineNumber: n }),
        getText: () => text, save: async () => { require('fs').writeFileSync(fsPath, text); return true; } };
    };
  }

  const baseReset = exported.__reset;
  exported.__reset = () => { baseReset(); resetToolSuite(); };
  resetToolSuite();
  Object.assign(exported, { Position, Range, Location, SourceBreakpoint, debug });
}

// ==================================================================================================
// Documents, files, search and settings (the editor/file/workspace/command tools). An appended section:
// workspace.fs works on the real disk; documents hold their text until saved; `__state.trash` says
// whether the file system has a trash (code-server's has not).
{
  const exported = module.exports;
  const fs = require('fs');
  const nodePath = require('path');
  const { Position, Range } = exported;

  class FileSystemError extends Error { constructor(message, code) { super(message); this.code = code; } }
  const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 };

  function typeOf(p) {
    let kind = fs.lstatSync(p).isSymbolicLink() ? FileType.SymbolicLink : 0;
    if (fs.existsSync(p)) kind |= fs.statSync(p).isDirectory() ? FileType.Directory : FileType.File;
    return kind;
  }
  const missing = (uri) => new FileSystemError(`Unable to resolve nonexistent file '${uri.fsPath}'`, 'FileNotFound');
  const exists = (p) => { try { fs.lstatSync(p); return true; } catch { return false; } };

  class TextDocument {
    constructor(uri, text) { this.uri = uri; this.fileName = uri.fsPath; this.isDirty = false; this.version = 1; this.languageId = nodePath.extname(uri.fsPath).slice(1) || 'plaintext'; this.text = text; }
    get starts() { const s = [0]; for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') s.push(i + 1); return s; }
    get lineCount() { return this.starts.length; }
    lineText(line) { const s = this.starts; const end = line + 1 < s.length ? s[line + 1] - 1 : this.text.length; return this.text.slice(s[line], end).replace(/\r$/, ''); }
    lineAt(line) { const n = typeof line === 'number' ? line : line.line; return { text: this.lineText(n), lineNumber: n }; }
    offsetAt(pos) { const s = this.starts; const line = Math.min(Math.max(pos.line, 0), s.length - 1); return s[line] + Math.min(pos.character, this.lineText(line).length); }
    positionAt(offset) { const s = this.starts; let line = 0; while (line + 1 < s.length && s[line + 1] <= offset) line++; return new Position(line, offset - s[line]); }
    getText(range) { return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text; }
    apply(edits) {
      const spans = edits.map((e) => [this.offsetAt(e.range.start), this.offsetAt(e.range.end), e.newText]).sort((a, b) => b[0] - a[0]);
      for (const [start, end, text] of spans) this.text = this.text.slice(0, start) + text + this.text.slice(end);
      this.isDirty = true; this.version++;
    }
    async save() { fs.writeFileSync(this.uri.fsPath, this.text); this.isDirty = false; return true; }
  }

  function loadDocument(uri) {
    const fsPath = typeof uri === 'string' ? uri : uri.fsPath;
    const open = state.textDocuments.find((d) => d.uri.fsPath === fsPath);
    if (open) return open;
    if (!fs.existsSync(fsPath)) throw new FileSystemError(`cannot open ${fsPath}`, 'FileNotFound');
    const document = new TextDocument(exported.Uri.file(fsPath), fs.readFileSync(fsPath, 'utf8'));
    state.textDocuments.push(document);
    return document;
  }
  function reload(fsPath) {
    for (const d of state.textDocuments) if (d.uri.fsPath === fsPath && !d.isDirty) d.text = fs.readFileSync(fsPath, 'utf8');
  }

  class WorkspaceEdit {
    constructor() { this.operations = []; }
    replace(uri, range, newText) { this.operations.push(['text', uri, { range, newText }]); }
    insert(uri, position, newText) { this.replace(uri, new Range(position, position), newText); }
    createFile(uri, options) { this.operations.push(['create', uri, options || {}]); }
    deleteFile(uri, options) { this.operations.push(['delete', uri, options || {}]); }
    entries() { return this.operations.filter((o) => o[0] === 'text').map((o) => [o[1], [o[2]]]); }
  }

  async function applyEdit(edit) {
    const texts = new Map();
    for (const [kind, uri, detail] of edit.operations) {
      if (kind === 'text') {
        if (!texts.has(uri.fsPath)) texts.set(uri.fsPath, []);
        texts.get(uri.fsPath).push(detail);
      } else if (kind === 'create') {
        if (exists(uri.fsPath) && !detail.overwrite) { if (detail.ignoreIfExists) continue; return false; }
        fs.mkdirSync(nodePath.dirname(uri.fsPath), { recursive: true });
        fs.writeFileSync(uri.fsPath, detail.contents || new Uint8Array());
        reload(uri.fsPath);
      } else if (kind === 'delete') {
        if (!exists(uri.fsPath)) { if (detail.ignoreIfNotExists) continue; return false; }
        fs.rmSync(uri.fsPath, { recursive: true, force: true });
      }
    }
    for (const [fsPath, edits] of texts) loadDocument(fsPath).apply(edits);
    state.appliedEdits.push(edit);
    return true;
  }

  const fileSystem = {
    async stat(uri) {
      if (!exists(uri.fsPath)) throw missing(uri);
      const info = fs.existsSync(uri.fsPath) ? fs.statSync(uri.fsPath) : fs.lstatSync(uri.fsPath);
      return { type: typeOf(uri.fsPath), size: info.size, mtime: info.mtimeMs, ctime: info.ctimeMs };
    },
    async readFile(uri) { if (!fs.existsSync(uri.fsPath)) throw missing(uri); return new Uint8Array(fs.readFileSync(uri.fsPath)); },
    async writeFile(uri, content) { fs.writeFileSync(uri.fsPath, content); reload(uri.fsPath); },
    async createDirectory(uri) { fs.mkdirSync(uri.fsPath, { recursive: true }); },
    async readDirectory(uri) {
      if (!fs.existsSync(uri.fsPath)) throw missing(uri);
      return fs.readdirSync(uri.fsPath).sort().map((name) => [name, typeOf(nodePath.join(uri.fsPath, name))]);
    },
    async delete(uri, options = {}) {
      if (!exists(uri.fsPath)) throw missing(uri);
      if (options.useTrash && !state.trash) throw new FileSystemError(`Unable to delete file '${uri.fsPath}' via trash because provider does not support it.`, 'Unknown');
      if (options.useTrash) state.trashed.push(uri.fsPath);
      fs.rmSync(uri.fsPath, { recursive: !!options.recursive });
    },
  };

  function configuration(section) {
    const full = (key) => (section ? `${section}.${key}` : key);
    return {
      // A workspace value (a repository's .vscode/settings.json) wins over the user's, as in VS Code.
      get: (key, fallback) => { const w = state.workspaceSettings[full(key)]; const v = w === undefined ? state.settings[full(key)] : w; return v === undefined ? fallback : v; },
      inspect: (key) => (state.settings[full(key)] === undefined && state.workspaceSettings[full(key)] === undefined ? undefined
        : { key: full(key), defaultValue: undefined, globalValue: state.settings[full(key)], workspaceValue: state.workspaceSettings[full(key)] }),
      update: (key, value, target) => {
        if (value === undefined) delete state.settings[full(key)]; else state.settings[full(key)] = value;
        state.settingTargets = { ...(state.settingTargets || {}), [full(key)]: target };
        return Promise.resolve();
      },
    };
  }

  function resetDocuments() {
    state.textDocuments = [];
    state.appliedEdits = [];
    state.trash = true;
    state.trashed = [];
    state.appRoot = undefined;
    state.contentProviders = new Map();
  }

  const { workspace, env, window, Disposable, EventEmitter } = exported;
  const tabsChanged = new EventEmitter();
  Object.defineProperty(window, 'tabGroups', { configurable: true, get: () => ({
    all: state.tabGroups, activeTabGroup: state.tabGroups[0], onDidChangeTabs: tabsChanged.event,
    async close(tabs) {
      const closing = Array.isArray(tabs) ? tabs : [tabs];
      for (const group of state.tabGroups) group.tabs = group.tabs.filter((tab) => !closing.includes(tab));
      tabsChanged.fire({ opened: [], closed: closing, changed: [] });
      return true;
    },
  }) });
  workspace.registerTextDocumentContentProvider = (scheme, provider) => {
    state.contentProviders.set(scheme, provider);
    return new Disposable(() => state.contentProviders.delete(scheme));
  };
  Object.defineProperty(workspace, 'textDocuments', { get: () => state.textDocuments, configurable: true });
  Object.defineProperty(workspace, 'isTrusted', { get: () => state.isTrusted !== false, configurable: true });
  workspace.openTextDocument = async (uri) => loadDocument(uri);
  workspace.applyEdit = applyEdit;
  workspace.fs = fileSystem;
  workspace.getConfiguration = (section) => configuration(section);
  Object.defineProperty(env, 'appRoot', { get: () => state.appRoot, configurable: true });

  const baseReset = exported.__reset;
  exported.__reset = () => { baseReset(); resetDocuments(); };
  resetDocuments();
  Object.assign(exported, { FileSystemError, FileType, WorkspaceEdit, ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    __TextDocument: TextDocument });
}

// ==================================================================================================
// Editor events (the MCP resources' change notifications). `__editorEvents.<name>.fire(...)` is the
// user acting in the editor; `__state.activeTextEditor` / `visibleTextEditors` / `diagnostics` are what
// VS Code reports.
{
  const exported = module.exports;
  const { window, workspace, EventEmitter } = exported;
  const events = {
    active: new EventEmitter(), selection: new EventEmitter(), visibleRanges: new EventEmitter(),
    documentChanged: new EventEmitter(), documentSaved: new EventEmitter(), folders: new EventEmitter(),
    tabGroups: new EventEmitter(), diagnostics: new EventEmitter(),
  };
  function resetEditorState() {
    state.activeTextEditor = undefined;
    state.visibleTextEditors = [];
    state.diagnostics = [];
    for (const name of Object.keys(events)) events[name].dispose();
  }
  window.onDidChangeActiveTextEditor = (l) => events.active.event(l);
  window.onDidChangeTextEditorSelection = (l) => events.selection.event(l);
  window.onDidChangeTextEditorVisibleRanges = (l) => events.visibleRanges.event(l);
  Object.defineProperty(window, 'activeTextEditor', { get: () => state.activeTextEditor, configurable: true });
  Object.defineProperty(window, 'visibleTextEditors', { get: () => state.visibleTextEditors, configurable: true });
  const tabGroups = Object.getOwnPropertyDescriptor(window, 'tabGroups').get;
  Object.defineProperty(window, 'tabGroups', { configurable: true,
    get: () => Object.assign(tabGroups(), { onDidChangeTabGroups: (l) => events.tabGroups.event(l) }) });
  workspace.onDidChangeTextDocument = (l) => events.documentChanged.event(l);
  workspace.onDidSaveTextDocument = (l) => events.documentSaved.event(l);
  workspace.onDidChangeWorkspaceFolders = (l) => events.folders.event(l);
  exported.languages = Object.assign(exported.languages || {}, {
    onDidChangeDiagnostics: (l) => events.diagnostics.event(l),
    getDiagnostics: () => state.diagnostics,
  });
  const baseReset = exported.__reset;
  exported.__reset = () => { baseReset(); resetEditorState(); };
  resetEditorState();
  exported.__editorEvents = events;
}

// ==================================================================================================
// Reviewing agents' changes (ui/changes/review.py, ui/changes/view.py, ui/changes/diff.py): decorations an
// editor was given (`editor.decorations.get(type)`), CodeLens providers (`__state.codeLensProviders`), tree views
// (`__state.treeViews.get(id)`), `vscode.changes` / `vscode.diff` calls (`__state.diffs`), context keys.
{
  const exported = module.exports;
  const { window, workspace, commands, EventEmitter, Disposable } = exported;
  const visibleChanged = new EventEmitter();
  class ThemeIcon { constructor(id) { this.id = id; } }
  class MarkdownString { constructor(value) { this.value = value || ''; } }
  class CodeLens { constructor(range, command) { this.range = range; this.command = command; } }
  class Selection { constructor(anchor, active) { this.anchor = anchor; this.active = active; this.start = anchor; this.end = active; } }
  class TreeItem {
    constructor(labelOrUri, collapsibleState) {
      if (typeof labelOrUri === 'string') this.label = labelOrUri; else this.resourceUri = labelOrUri;
      this.collapsibleState = collapsibleState;
    }
  }
  function resetReview() {
    state.codeLensProviders = [];
    state.treeViews = new Map();
    state.decorationTypes = [];
    state.diffs = [];
    state.contextKeys = {};
    visibleChanged.dispose();
  }
  window.createTextEditorDecorationType = (options) => {
    const type = { options, disposed: false, dispose() { this.disposed = true; } };
    state.decorationTypes.push(type);
    return type;
  };
  window.createTreeView = (id, options) => {
    let badge;
    const view = { id, options, message: undefined, dispose() { state.treeViews.delete(id); },
      get badge() { return badge; },
      // as VS Code 1.139's isViewBadge: undefined clears the badge, null throws
      set badge(value) { if (value !== undefined && typeof value.value !== 'number') throw new TypeError(`Cannot read properties of ${value} (reading 'value')`); badge = value; } };
    state.treeViews.set(id, view);
    return view;
  };
  window.onDidChangeVisibleTextEditors = (l) => visibleChanged.event(l);
  exported.languages = Object.assign(exported.languages || {}, {
    registerCodeLensProvider(selector, provider) {
      const entry = { selector, provider };
      state.codeLensProviders.push(entry);
      return new Disposable(() => { state.codeLensProviders = state.codeLensProviders.filter((e) => e !== entry); });
    },
  });
  const execute = commands.executeCommand;
  commands.executeCommand = async (id, ...args) => {
    if (id === 'setContext') { state.contextKeys[args[0]] = args[1]; return undefined; }
    if (id === 'vscode.open') { state.opened.push(args[0].fsPath); return undefined; }
    if (id === 'vscode.changes' || (id === 'vscode.diff' && !state.commands.has(id))) { state.diffs.push([id, ...args]); return undefined; }
    return execute(id, ...args);
  };
  if (!exported.Uri.from) {
    exported.Uri.from = ({ scheme, path, query }) => {
      const uri = new exported.Uri(scheme, path);
      uri.query = query || '';
      uri.href = `${scheme}:${path}` + (query ? `?${query}` : '');
      return uri;
    };
  }
  if (!exported.ProgressLocation) exported.ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
  if (!window.withProgress) {
    // a notification's task: run at once; its token never cancelled (nobody clicks Cancel in the fake)
    window.withProgress = (options, task) => Promise.resolve(task({ report() {} },
      { isCancellationRequested: false, onCancellationRequested: () => new Disposable() }));
  }
  if (!exported.ThemeIcon) exported.ThemeIcon = ThemeIcon;
  if (!exported.MarkdownString) exported.MarkdownString = MarkdownString;
  if (!exported.Selection) exported.Selection = Selection;
  Object.assign(exported, { CodeLens, TreeItem, TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    OverviewRulerLane: { Left: 1, Center: 2, Right: 4, Full: 7 },
    TextEditorRevealType: exported.TextEditorRevealType || { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 } });
  const baseReset = exported.__reset;
  exported.__reset = () => { baseReset(); resetReview(); };
  resetReview();
  exported.__visibleEditorsChanged = visibleChanged;
}

// ==================================================================================================
// The file watcher (host/changes/disk_changes.py): `__fileChanged(path, kind)` is the disk changing under every live
// watcher (kind: create | change | delete); `__state.fileWatchers` lists the live ones.
{
  const exported = module.exports;
  const { workspace, EventEmitter, Uri } = exported;
  function resetWatchers() { state.fileWatchers = []; }
  workspace.createFileSystemWatcher = (pattern) => {
    const emitters = { create: new EventEmitter(), change: new EventEmitter(), delete: new EventEmitter() };
    const watcher = {
      pattern, emitters,
      onDidCreate: emitters.create.event, onDidChange: emitters.change.event, onDidDelete: emitters.delete.event,
      dispose() { state.fileWatchers = state.fileWatchers.filter((w) => w !== watcher); },
    };
    state.fileWatchers.push(watcher);
    return watcher;
  };
  const baseReset = exported.__reset;
  exported.__reset = () => { baseReset(); resetWatchers(); };
  resetWatchers();
  exported.__fileChanged = (fsPath, kind) => {
    for (const watcher of state.fileWatchers.slice()) watcher.emitters[kind].fire(Uri.file(fsPath));
  };
}
