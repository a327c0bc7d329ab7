"""The ExtensionContext VS Code hands to activate(): subscriptions, secrets, mementos, storage."""
import os
import tempfile
from types import SimpleNamespace

from vscode._events import EventEmitter, resolved
from vscode._types import Uri


class SecretStorage:
    def __init__(self):
        self.values = {}
        self._changed = EventEmitter()
        self.onDidChange = self._changed.event

    def get(self, key):
        return resolved(self.values.get(key))

    js_get = get

    def store(self, key, value):
        self.values[key] = value
        self._changed.fire(SimpleNamespace(key=key))  # a SecretStorageChangeEvent: an object with `key`
        return resolved(None)

    def delete(self, key):
        self.values.pop(key, None)
        self._changed.fire(SimpleNamespace(key=key))
        return resolved(None)


class Memento:
    def __init__(self):
        self.values = {}

    def get(self, key, default=None):
        return self.values.get(key, default)

    js_get = get

    def update(self, key, value):
        self.values[key] = value
        return resolved(None)

    js_update = update

    def keys(self):
        return list(self.values)


class EnvironmentVariableCollection:
    """What an extension puts into its terminals' environment (`replace` and `delete` as JS names them)."""

    def __init__(self):
        self.values = {}
        self.persistent = True
        self.description = None

    def js_replace(self, name, value):
        self.values[name] = value

    def get(self, name):
        return {'value': self.values[name], 'type': 1} if name in self.values else None

    def __getitem__(self, name):  # `collection['delete'](name)`: `delete` is a JS keyword
        if name == 'delete':
            return lambda key: self.values.pop(key, None)
        raise KeyError(name)


class Subscriptions(list):
    def push(self, *items):
        self.extend(items)
        return len(self)


class ExtensionContext:
    """What VS Code hands to activate(); `dispose_all()` does what VS Code does on deactivate."""

    def __init__(self, version='0.1.0', storage_dir=None):
        storage_dir = storage_dir or tempfile.mkdtemp(prefix='hermes-test-storage-')
        self.subscriptions = Subscriptions()
        self.secrets = SecretStorage()
        self.globalState = Memento()
        self.workspaceState = Memento()
        self.globalStorageUri = Uri.file(storage_dir)
        self.storageUri = Uri.file(os.path.join(storage_dir, 'workspace'))  # None without a folder
        self.extensionUri = Uri.file(os.getcwd())
        self.extension = type('Extension', (), {})()
        self.extension.packageJSON = {'version': version, 'name': 'hermes-agent'}
        self.extension.id = 'hermes-agent.hermes-agent'
        self.environmentVariableCollection = EnvironmentVariableCollection()

    def dispose_all(self):
        for disposable in reversed(self.subscriptions):
            disposable.dispose()
        self.subscriptions.clear()
