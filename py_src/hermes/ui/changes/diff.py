"""Agents' changes in VS Code's diff editors: the text before a set of pending changes as a read-only document
(scheme `hermes-before`: the change log's text before those hunks, core/changes/view.py `before_text`),
one file's diff (`vscode.diff`) or many in VS Code's multi-file diff editor (`vscode.changes`)."""
# __pragma__('tconv')
from hermes.js.errors import JsError, to_js_callback
from hermes.js.json import dump_json, parse_json
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.values import is_object
from hermes.core.changes.view import matches, before_text, base_name, filter_label
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.log import ChangeLog
if TYPE_CHECKING:
    from vscode import ExtensionContext, Uri
# __pragma__('noskip')

SCHEME = 'hermes-before'
EMPTY_QUERY = 'empty'


def before_uri(path: str, change_filter: 'Optional[JsonObject]') -> 'Uri':
    """The before-text of `path` with the pending hunks in `change_filter` (None: all) undone."""
    query = dump_json({'filter': change_filter})
    return vscode.Uri.js_from({'scheme': SCHEME, 'path': vscode.Uri.file(path).path, 'query': query})


def after_uri(path: str, deleted: 'List[str]') -> 'Uri':
    """The right side: the file, or an empty document where an agent deleted it."""
    if path in deleted:
        return vscode.Uri.js_from({'scheme': SCHEME, 'path': vscode.Uri.file(path).path, 'query': EMPTY_QUERY})
    return vscode.Uri.file(path)


def filter_of(uri: 'Uri') -> 'Optional[JsonObject]':
    try:
        data = parse_json(uri.query)
    except ValueError:
        return None
    change_filter = data['filter'] if is_object(data) and 'filter' in data else None
    return change_filter if is_object(change_filter) else None


class BeforeTexts:
    """The `hermes-before` documents; they change when the change log does."""

    def __init__(self, changes: 'ChangeLog') -> None:
        self.changes = changes
        self.changed = new(vscode.EventEmitter)  # type: Any
        self.open_uris = []  # type: List[str]

    async def provide(self, uri: 'Uri', token: Any = None) -> str:
        path = vscode.Uri.file(uri.path).fsPath
        if uri.query == EMPTY_QUERY:  # the right side of a deleted file
            return ''
        entry = self.changes.entry(path)
        if entry is None:  # nothing pending (any more): the file as it is
            return await current_text(path)
        return before_text(entry, filter_of(uri))

    def refresh(self, *ignored: Any) -> None:
        for uri in vscode.workspace.textDocuments:
            if uri.uri.scheme == SCHEME:
                self.changed.fire(uri.uri)


def _flag(entry: 'JsonObject', key: str) -> bool:
    return key in entry and entry[key] is True


async def current_text(path: str) -> str:
    """The file as the editor has it (unsaved edits included), or as on disk; '' when it is gone."""
    try:
        document = await vscode.workspace.openTextDocument(vscode.Uri.file(path))
        return document.getText()
    except JsError:
        return ''


async def open_changes(changes: 'ChangeLog', change_filter: 'Optional[JsonObject]',
                       title: 'Optional[str]' = None) -> int:
    """Show the pending changes in `change_filter` (None: all): one file in a diff editor, several in the
    multi-file diff editor. Returns how many files were shown."""
    paths = []  # type: List[str]
    deleted = []  # type: List[str]
    for entry in changes.pending():
        if matches(entry, change_filter) and not (entry['path'] in paths):
            paths.append(entry['path'])
        if _flag(entry, 'deleted'):
            deleted.append(entry['path'])
    if len(paths) == 0:
        vscode.window.showInformationMessage('Hermes: no pending changes by ' + filter_label(change_filter) + '.')
        return 0
    heading = title if title is not None else 'Changes by ' + filter_label(change_filter)
    if len(paths) == 1:
        path = paths[0]
        await vscode.commands.executeCommand('vscode.diff', before_uri(path, change_filter),
                                             after_uri(path, deleted), base_name(path) + ' (' + heading + ')')
        return 1
    resources = [[vscode.Uri.file(path), before_uri(path, change_filter), after_uri(path, deleted)] for path in paths]
    await vscode.commands.executeCommand('vscode.changes', heading, resources)
    return len(paths)


def register_before_texts(context: 'ExtensionContext', changes: 'ChangeLog') -> 'BeforeTexts':
    texts = BeforeTexts(changes)
    context.subscriptions.push(texts.changed)
    provider = {'provideTextDocumentContent': to_js_callback(texts.provide), 'onDidChange': texts.changed.event}
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider))
    context.subscriptions.push(changes.on_change(texts.refresh))
    return texts
