"""MCP resources: the editor's live state as read-only resources, with change notifications.

Three parts, none of which touches VS Code (the host implements the `provider` and feeds the hub):
- the catalog of URIs (`STATIC_RESOURCES`, `TEMPLATES`, `parse_uri`) and how each is read
  (`ResourceCatalog`, over a provider with `active_editor()`, `selection()`, `tabs()`,
  `diagnostics()`, `async workspace()`, `changes()`, `terminals()`, `terminal_output(id)`, `async read_file(path)`);
- `ResourceHub`, the one event source for change notifications: the host calls `changed(key)` and
  `list_changed()`; subscribers get at most one call per resource per `UPDATE_INTERVAL_MS` (the
  last change of a burst always comes through), as `callback(key)`; `hub.sent_at(key)` is when the latest one
  was let through. Any protocol revision can use it:
  `hub.subscribe(key, callback)` and `hub.on_list_changed(callback)` return disposables;
  `resource_key(uri)` gives the key of a URI (`None` for URIs that are not ours);
- `McpResources`, the feature for the 2025 revisions (`resources/list`, `templates/list`, `read`,
  `subscribe`, `unsubscribe`; `notifications/resources/updated` and `list_changed`); without a
  session it serves list and read only (2026-07-28, where `subscriptions/listen` follows
  `ListenEvents`, the hub as that revision's event source).
"""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.method_table import Handler
from hermes.core.mcp.protocol import McpSession
from hermes.core.throttle import Clock
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.text import decode_uri_component
from hermes.core.values import json_type, get_key, copyable_keys
from hermes.core.tools import ToolError
from hermes.core.jsonrpc import INVALID_PARAMS
from hermes.core.mcp.protocol import ProtocolError
from hermes.core.method_table import MethodTable
from hermes.core.throttle import KeyedThrottle

RESOURCE_NOT_FOUND = -32002  # the MCP spec's code for an unknown resource
UPDATE_INTERVAL_MS = 200
SENT_AT_META = 'hermes/sentAt'  # the `_meta` key of an update's time (see McpResources._updated)

ACTIVE_EDITOR = 'hermes://editor/active'
SELECTION = 'hermes://editor/selection'
TABS = 'hermes://editor/tabs'
DIAGNOSTICS = 'hermes://diagnostics'
WORKSPACE = 'hermes://workspace'
CHANGES = 'hermes://changes'
TERMINAL_PREFIX = 'hermes://terminal/'
FILE_PREFIX = 'file:///'
FILE_TEMPLATE = 'file:///{+path}'
TERMINAL_TEMPLATE = 'hermes://terminal/{id}'
JSON_TYPE = 'application/json'
TEXT_TYPE = 'text/plain'

STATIC_RESOURCES = [
    {'uri': ACTIVE_EDITOR, 'name': 'editor-active', 'title': 'Active editor', 'mimeType': JSON_TYPE,
     'description': 'The active editor: path, language, unsaved changes (dirty), cursor, selections and the '
                    'visible lines. null when no text editor is open.'},
    {'uri': SELECTION, 'name': 'editor-selection', 'title': 'Selected text', 'mimeType': TEXT_TYPE,
     'description': 'The text selected in the active editor (several selections joined by newlines); the '
                    'path and range are in the contents\' _meta.'},
    {'uri': TABS, 'name': 'editor-tabs', 'title': 'Open tabs', 'mimeType': JSON_TYPE,
     'description': 'The open editor tabs by editor group: label, path, active, dirty, pinned, preview.'},
    {'uri': DIAGNOSTICS, 'name': 'diagnostics', 'title': 'Problems', 'mimeType': JSON_TYPE,
     'description': 'The problems VS Code reports, by file; files with errors first, then by path.'},
    {'uri': WORKSPACE, 'name': 'workspace', 'title': 'Workspace', 'mimeType': JSON_TYPE,
     'description': 'The workspace folders, each with its git branch and a summary of its git status.'},
    {'uri': CHANGES, 'name': 'changes', 'title': 'Pending changes', 'mimeType': JSON_TYPE,
     'description': "The changes agents made through Hermes that the user has not kept or undone yet, by file and "
                    "author (client, session, turn) with their hunks, and what the user kept or undid."},
]
TEMPLATES = [
    {'uriTemplate': FILE_TEMPLATE, 'name': 'file', 'title': 'Workspace file',
     'description': 'A text file inside the workspace, as on disk (binary files and files over 32 MB are '
                    'refused, as by the file_read tool).'},
    {'uriTemplate': TERMINAL_TEMPLATE, 'name': 'terminal', 'title': 'Terminal output', 'mimeType': TEXT_TYPE,
     'description': 'The last commands and output of a terminal (ids from resources/list), ANSI codes '
                    'stripped.'},
]


def parse_uri(uri: 'Json') -> 'Optional[JsonObject]':
    """{'kind': 'active'|'selection'|'tabs'|'diagnostics'|'workspace'|'changes'|'terminal'|'file', 'id'|'path'}
    for a URI this server serves, else None."""
    if json_type(uri) != 'string':
        return None
    fixed = {ACTIVE_EDITOR: 'active', SELECTION: 'selection', TABS: 'tabs', DIAGNOSTICS: 'diagnostics',
             WORKSPACE: 'workspace', CHANGES: 'changes'}
    for known in [ACTIVE_EDITOR, SELECTION, TABS, DIAGNOSTICS, WORKSPACE, CHANGES]:
        if uri == known:
            return {'kind': fixed[known]}  # transcrypt-ok[untrusted-key]: `known` is one of our constants
    if uri.startswith(TERMINAL_PREFIX):
        rest = uri[len(TERMINAL_PREFIX):]
        if rest != '' and rest.isdigit() and len(rest) < 10:
            return {'kind': 'terminal', 'id': int(rest)}
        return None
    if uri.startswith(FILE_PREFIX):
        rest = uri[len(FILE_PREFIX):]
        if rest == '' or rest.find('?') != -1 or rest.find('#') != -1:
            return None
        try:
            path = decode_uri_component(rest)
        except JsError:
            return None  # a malformed %-escape
        if len(path) > 1 and path[1] == ':':
            return {'kind': 'file', 'path': path}  # file:///c:/x on Windows
        return {'kind': 'file', 'path': '/' + path}
    return None


def resource_key(uri: 'Json') -> 'Optional[str]':
    """The hub key of a URI: the URI itself, except files, keyed by their decoded path (clients and
    VS Code escape paths differently). None for URIs that are not ours."""
    parsed = parse_uri(uri)
    if parsed is None:
        return None
    return file_key(parsed['path']) if parsed['kind'] == 'file' else uri


def file_key(path: str) -> str:
    return 'file:' + path


def terminal_uri(terminal_id: 'Json') -> str:
    return TERMINAL_PREFIX + str(terminal_id)


class Disposable:
    def __init__(self, on_dispose: 'Optional[Callable[[], None]]') -> None:
        self._on_dispose = on_dispose

    def dispose(self) -> None:
        if self._on_dispose is not None:
            on_dispose = self._on_dispose
            self._on_dispose = None
            on_dispose()


class ResourceHub:
    """Change events for every resource, throttled once for all subscribers."""

    def __init__(self, interval_ms: float = UPDATE_INTERVAL_MS, clock: 'Optional[Clock]' = None) -> None:
        self._subscribers = {}  # type: Dict[str, List[Callable[[str], None]]]  # 'k:' + key → [callback]
        self._list_listeners = []  # type: List[Callable[[], None]]
        self._throttle = KeyedThrottle(interval_ms, self._deliver, clock)
        self._sent_at = {}  # type: Dict[str, float]  # 'k:' + key → when its latest change was let through

    def subscribe(self, key: str, callback: 'Callable[[str], None]') -> 'Disposable':
        slot = 'k:' + key
        if not (slot in self._subscribers):
            self._subscribers[slot] = []
        self._subscribers[slot].append(callback)

        def remove() -> None:
            if not (slot in self._subscribers):
                return  # the hub was disposed first (the window closing)
            remaining = [item for item in self._subscribers[slot] if item is not callback]
            if len(remaining) == 0:
                del self._subscribers[slot]
                self._throttle.forget(key)
            else:
                self._subscribers[slot] = remaining
        return Disposable(remove)

    def on_list_changed(self, callback: 'Callable[[], None]') -> 'Disposable':
        self._list_listeners.append(callback)

        def remove() -> None:
            self._list_listeners = [item for item in self._list_listeners if item is not callback]
        return Disposable(remove)

    def watched(self, key: str) -> bool:
        """Whether anyone listens to `key` (the host skips work for resources nobody watches)."""
        return ('k:' + key) in self._subscribers

    def changed(self, key: str) -> None:
        if ('k:' + key) in self._subscribers:
            self._throttle.poke(key)

    def list_changed(self) -> None:
        for callback in list(self._list_listeners):
            callback()

    def dispose(self) -> None:
        self._throttle.dispose()
        self._subscribers = {}
        self._sent_at = {}
        self._list_listeners = []

    def sent_at(self, key: str) -> 'Optional[float]':
        """When the throttle last let `key`'s change through (its clock: ms since the epoch), or None."""
        slot = 'k:' + key
        return self._sent_at[slot] if slot in self._sent_at else None

    def _deliver(self, key: str, at: float) -> None:
        slot = 'k:' + key
        if not (slot in self._subscribers):
            return
        self._sent_at[slot] = at
        for callback in list(self._subscribers[slot]):
            callback(key)


class ResourceCatalog:
    """What resources exist and what reading one returns, over the host's provider."""

    def __init__(self, provider: 'Any') -> None:
        self.provider = provider

    def list(self) -> 'List[JsonObject]':
        resources = [dict(resource) for resource in STATIC_RESOURCES]
        for terminal in self.provider.terminals():
            resources.append({'uri': terminal_uri(terminal['id']), 'name': 'terminal-' + str(terminal['id']),
                              'title': 'Terminal ' + str(terminal['id']) + ': ' + terminal['name'],
                              'description': 'The last commands and output of terminal "' + terminal['name'] + '".',
                              'mimeType': TEXT_TYPE})
        return resources

    def templates(self) -> 'List[JsonObject]':
        return [dict(template) for template in TEMPLATES]

    def check(self, uri: 'Json') -> 'JsonObject':
        """The parsed URI, or the ProtocolError a subscribe or read of it gets."""
        parsed = parse_uri(uri)
        if parsed is None:
            raise ProtocolError(RESOURCE_NOT_FOUND, 'Resource not found: ' + str(uri) + ' (see resources/list '
                                'and resources/templates/list)', {'uri': uri})
        if parsed['kind'] == 'file':
            try:
                self.provider.confine(parsed['path'])
            except ToolError as error:
                raise ProtocolError(INVALID_PARAMS, error_message(error), {"uri": uri})
        return parsed

    async def read(self, uri: 'Json') -> 'List[JsonObject]':
        parsed = self.check(uri)
        kind = parsed['kind']
        provider = self.provider
        if kind == 'selection':
            return [_selection_contents(uri, provider.selection())]
        if kind == 'terminal':
            output = provider.terminal_output(parsed['id'])
            if output is None:
                raise ProtocolError(RESOURCE_NOT_FOUND, 'Resource not found: ' + uri + ' (no terminal ' +
                                    str(parsed['id']) + ' is open; see resources/list)', {'uri': uri})
            return [{'uri': uri, 'mimeType': TEXT_TYPE, 'text': output}]
        if kind == 'file':
            try:
                content = await provider.read_file(parsed['path'])
            except ToolError as error:
                raise ProtocolError(INVALID_PARAMS, error_message(error), {"uri": uri})
            return [{'uri': uri, 'mimeType': mime_type(parsed['path']), 'text': content['text']}]
        if kind == 'active':
            value = provider.active_editor()
        elif kind == 'tabs':
            value = provider.tabs()
        elif kind == 'diagnostics':
            value = provider.diagnostics()
        elif kind == 'changes':
            value = provider.changes()
        else:
            value = await provider.workspace()
        return [{'uri': uri, 'mimeType': JSON_TYPE, 'text': dump_json(value, 2)}]


def _selection_contents(uri: str, selection: 'Json') -> 'JsonObject':
    if selection is None:
        return {'uri': uri, 'mimeType': TEXT_TYPE, 'text': '', '_meta': {'path': None}}
    meta = {}  # type: JsonObject
    for key in copyable_keys(selection):
        if key != 'text':
            meta[key] = selection[key]
    return {'uri': uri, 'mimeType': TEXT_TYPE, 'text': selection['text'], '_meta': meta}


MIME_TYPES = {
    'py': 'text/x-python', 'js': 'text/javascript', 'mjs': 'text/javascript', 'ts': 'text/x-typescript',
    'json': 'application/json', 'md': 'text/markdown', 'html': 'text/html', 'css': 'text/css',
    'xml': 'application/xml', 'yaml': 'application/yaml', 'yml': 'application/yaml', 'sh': 'text/x-shellscript',
}


def mime_type(path: str) -> str:
    """A text MIME type for a file name (text/plain when the extension says nothing more)."""
    slash = max(path.rfind('/'), path.rfind('\\'))
    name = path[slash + 1:]
    dot = name.rfind('.')
    if dot <= 0:
        return TEXT_TYPE
    extension = name[dot + 1:].lower()
    return MIME_TYPES[extension] if extension in MIME_TYPES else TEXT_TYPE


class McpResources:
    """The resources feature of one session (2025 revisions): list, read, subscribe."""

    def __init__(self, session: 'Optional[McpSession]', catalog: 'ResourceCatalog', hub: 'ResourceHub') -> None:
        # Any: None (2026-07-28) never subscribes, so only a session's own `_updated`/`_list_changed` notify
        self.session = session  # type: Any
        self.catalog = catalog
        self.hub = hub
        self._subscriptions = {}  # type: Dict[str, Dict[str, Any]]  # 'k:' + key → {'uri', 'disposable'}
        self._list_listener = None if session is None else hub.on_list_changed(self._list_changed)
        self._methods = MethodTable({'resources/list': self._list, 'resources/templates/list': self._templates,
                                     'resources/read': self._read})
        if session is not None:  # subscriptions need a session to notify (2026-07-28 has subscriptions/listen)
            self._methods.add('resources/subscribe', self._subscribe)
            self._methods.add('resources/unsubscribe', self._unsubscribe)

    def capabilities(self) -> 'JsonObject':
        return {'resources': {'subscribe': True, 'listChanged': True}}

    def handler(self, method: str) -> 'Optional[Handler]':
        return self._methods.get(method)

    async def _list(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        return {'resources': self.catalog.list()}

    async def _templates(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        return {'resourceTemplates': self.catalog.templates()}

    async def _read(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        return {'contents': await self.catalog.read(_uri_param(params, 'resources/read'))}

    async def _subscribe(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        uri = _uri_param(params, 'resources/subscribe')
        self.catalog.check(uri)
        key = resource_key(uri)  # type: Any  # not None: check() passed, the URI is ours
        slot = 'k:' + key
        if slot in self._subscriptions:
            self._subscriptions[slot]['disposable'].dispose()
        self._subscriptions[slot] = {'uri': uri, 'disposable': self.hub.subscribe(key, self._updated)}
        return {}

    async def _unsubscribe(self, request_id: 'Json', params: 'Json') -> 'JsonObject':
        uri = _uri_param(params, 'resources/unsubscribe')
        key = resource_key(uri)
        slot = 'k:' + (uri if key is None else key)
        if slot in self._subscriptions:
            self._subscriptions[slot]['disposable'].dispose()
            del self._subscriptions[slot]
        return {}

    def _updated(self, key: str) -> None:
        slot = 'k:' + key
        at = self.hub.sent_at(key)
        if slot in self._subscriptions:
            # SENT_AT_META: when the throttle let the update through (ms since the epoch, the server's clock);
            # a client can tell the throttle's promise (UPDATE_INTERVAL_MS apart) from how late it heard.
            self.session.notify('notifications/resources/updated',
                                {'uri': self._subscriptions[slot]['uri'], '_meta': {SENT_AT_META: at}})

    def _list_changed(self) -> None:
        self.session.notify('notifications/resources/list_changed')

    def close(self) -> None:
        for slot in list(self._subscriptions.keys()):
            self._subscriptions[slot]['disposable'].dispose()
        self._subscriptions = {}
        if self._list_listener is not None:
            self._list_listener.dispose()


class ListenEvents:
    """The hub as an event source of 2026-07-28's `subscriptions/listen` (core/mcp/stateless.py):
    `on_list_changed(kind, callback)` and `on_resource_updated(uri, callback)` return an unsubscribe
    function, or None for events this source does not have (other kinds, URIs it does not serve or
    refuses, such as files outside the workspace). Callbacks get no arguments."""

    def __init__(self, catalog: 'ResourceCatalog', hub: 'ResourceHub') -> None:
        self.catalog = catalog
        self.hub = hub

    def on_list_changed(self, kind: str, callback: 'Callable[[], None]') -> 'Optional[Callable[[], None]]':
        if kind != 'resources':
            return None
        return self.hub.on_list_changed(lambda: callback()).dispose

    def on_resource_updated(self, uri: 'Json', callback: 'Callable[[], None]') -> 'Optional[Callable[[], None]]':
        try:
            self.catalog.check(uri)
        except ProtocolError:
            return None
        # not None: check() passed, the URI is ours
        return self.hub.subscribe(resource_key(uri), lambda key: callback()).dispose  # type: ignore[arg-type]


def _uri_param(params: 'Json', method: str) -> str:
    uri = get_key(params, 'uri')
    if json_type(uri) != 'string':
        raise ProtocolError(INVALID_PARAMS, method + ': params.uri must be a string, such as "' + SELECTION + '"')
    return uri
