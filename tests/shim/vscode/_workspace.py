"""vscode.workspace: folders, settings (with defaults, inspect() and update() per target), documents, fs."""
from vscode._documents import _apply_workspace_edit, _load_document
from vscode._events import Disposable, EventEmitter, add_event, resolved
from vscode._files import _FileSystem, find_files
from vscode._types import ConfigurationTarget, JsObject, JsObjectDict, WorkspaceFolder


class Configuration:
    def __init__(self, store, section):
        self._store, self._section = store, section

    def _key(self, key):
        return f'{self._section}.{key}' if self._section else key

    def get(self, key, default=None):
        return self._store.get(self._key(key), default)

    js_get = get  # what `config.js_get(...)` in py_src compiles to `.get(...)` for

    def has(self, key):
        return self._key(key) in self._store

    def update(self, key, value, target=None):
        self._store[self._key(key)] = value
        return resolved(None)

    js_update = update  # `.update` would be renamed to `.py_update` by Transcrypt


class ConfigurationChangeEvent:
    def __init__(self, changed_keys):
        self._changed = changed_keys

    def affectsConfiguration(self, section, scope=None):
        return any(key == section or key.startswith(section + '.') for key in self._changed)


class _InspectableConfiguration(Configuration):
    """getConfiguration() with defaults, sections, inspect() and update() per target."""

    def __init__(self, workspace, section=None):
        super().__init__(workspace.settings, section)
        self._workspace = workspace

    def get(self, key, default=None):
        full = self._key(key)
        if full in self._store:
            return self._store[full]
        if full in self._workspace.setting_defaults:
            return self._workspace.setting_defaults[full]
        section = {}
        for name, value in list(self._workspace.setting_defaults.items()) + list(self._store.items()):
            if name.startswith(full + '.'):
                section[name[len(full) + 1:]] = value
        return section if section else default

    js_get = get

    def inspect(self, key):
        full = self._key(key)
        if full not in self._store and full not in self._workspace.setting_defaults:
            return None
        targets = self._workspace.settings_by_target

        def at(target):
            return targets.get(target, {}).get(full)
        # A value a test put straight into workspace.settings (no target) counts as the user's own.
        targeted = any(full in level for level in targets.values())
        user_value = at(ConfigurationTarget.Global) if targeted else self._store.get(full)
        return JsObjectDict(key=full, defaultValue=self._workspace.setting_defaults.get(full),
                            globalValue=user_value, workspaceValue=at(ConfigurationTarget.Workspace),
                            workspaceFolderValue=at(ConfigurationTarget.WorkspaceFolder))

    def update(self, key, value, target=None):
        full = self._key(key)
        known = self._workspace.known_settings
        if known is not None and full not in known:
            raise Exception(f'Unable to write to Workspace Settings because {full} is not a registered configuration.')
        level = self._workspace.settings_by_target.setdefault(target or ConfigurationTarget.Global, {})
        if value is None:
            level.pop(full, None)
            self._workspace.settings.pop(full, None)
            self._workspace._config_changed.fire(ConfigurationChangeEvent([full]))
        else:
            level[full] = value
            self._workspace.set_setting(full, value)
        self._workspace.config_updates.append((full, value, target))
        return resolved(None)

    js_update = update


class _FileSystemWatcher(JsObject):
    def __init__(self, workspace, pattern):
        self.pattern, self._workspace = pattern, workspace
        self._create, self._change, self._delete = EventEmitter(), EventEmitter(), EventEmitter()
        self.onDidCreate, self.onDidChange, self.onDidDelete = self._create.event, self._change.event, self._delete.event

    def dispose(self):
        if self in self._workspace.file_watchers:
            self._workspace.file_watchers.remove(self)


class _Workspace(JsObject):
    def __init__(self):
        self.settings = {}
        self.workspaceFolders = None
        self.workspaceFile = None  # a multi-root workspace's .code-workspace file
        self.name = None
        self.isTrusted = True
        self._config_changed = EventEmitter()
        self.onDidChangeConfiguration = self._config_changed.event
        self.setting_defaults = {}
        self.settings_by_target = {}
        self.known_settings = None  # a set: update() refuses other keys, as VS Code does for unknown ones
        self.config_updates = []
        # documents, edits, files
        self.textDocuments = []
        self.applied_edits = []
        self.apply_edit_answer = True
        self.save_answer = True
        self.fs = _FileSystem()
        self.find_files_calls = []
        self.content_providers = {}
        self.file_watchers = []
        add_event(self, '_document_changed', 'onDidChangeTextDocument')
        add_event(self, '_document_saved', 'onDidSaveTextDocument')
        add_event(self, '_folders_changed', 'onDidChangeWorkspaceFolders')

    def getConfiguration(self, section=None, scope=None):
        return _InspectableConfiguration(self, section)

    def openTextDocument(self, uri):
        return resolved(_load_document(uri))

    def applyEdit(self, edit, metadata=None):
        return _apply_workspace_edit(edit, metadata)

    def findFiles(self, include, exclude=None, max_results=None, token=None):
        return find_files(self, include, exclude, max_results)

    def createFileSystemWatcher(self, pattern, *ignore):
        watcher = _FileSystemWatcher(self, pattern)
        self.file_watchers.append(watcher)
        return watcher

    def file_changed(self, uri, kind='change'):
        """Test helper: the disk changed under a watcher (kind: create | change | delete)."""
        for watcher in list(self.file_watchers):
            getattr(watcher, '_' + kind).fire(uri)

    def registerTextDocumentContentProvider(self, scheme, provider):
        self.content_providers[scheme] = provider
        return Disposable(lambda: self.content_providers.pop(scheme, None))

    def open_folders(self, paths):
        """Test helper: open folders as the user would."""
        self.workspaceFolders = [WorkspaceFolder(path, index) for index, path in enumerate(paths)]
        self.name = ', '.join(folder.name for folder in self.workspaceFolders)

    def set_setting(self, key, value):
        """Test helper: change a setting the way the user would, firing the change event."""
        self.settings[key] = value
        self._config_changed.fire(ConfigurationChangeEvent([key]))
