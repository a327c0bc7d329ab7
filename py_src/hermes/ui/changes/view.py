"""The "Changes" view (in the Hermes Agent container) and the status bar's count: agents' pending changes by
who made them (an MCP client, or a Hermes conversation) → turn → file, each with +/− counts. A file opens its
diff; a group or turn has Keep All, Undo All and "Open Changes" (VS Code's multi-file diff editor) inline,
and so does the view's title bar for everything. The tree is core/changes/view.py `change_tree`."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.json import dump_json
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.changes.view import change_tree, changed_files, counts_text, status_text, status_tooltip
from hermes.ui.changes.diff import before_uri

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional
from hermes.contracts.json import JsonObject
from hermes.host.changes.log import ChangeLog
if TYPE_CHECKING:
    from vscode import ExtensionContext, TreeItem, TreeView
js_undefined = None  # in the bundle, Transcrypt turns this name into JS `undefined`
# __pragma__('noskip')

VIEW_ID = 'hermes.changes'
FOCUS_COMMAND = VIEW_ID + '.focus'  # VS Code makes it for every view
OPEN_FILE_DIFF_COMMAND = 'vscode.diff'
NOT_COLLAPSIBLE = 0  # vscode.TreeItemCollapsibleState.None: `None` is a keyword in Python


class ChangesTree:
    """The TreeDataProvider. Elements: {'kind': 'group' | 'turn' | 'file', 'node': the change_tree node}.
    `session_title(id)` names a Hermes conversation, `turn_title(id, turn)` one of its turns (its prompt)."""

    def __init__(self, changes: 'ChangeLog', session_title: 'Optional[Callable[[str], Optional[str]]]' = None,
                 turn_title: 'Optional[Callable[[str, str], Optional[str]]]' = None) -> None:
        self.changes = changes
        self.session_title = session_title
        self.turn_title = turn_title
        self.changed = new(vscode.EventEmitter)  # type: Any
        self.groups = []  # type: List[JsonObject]
        self.shown = None  # type: Optional[str]  # the groups VS Code last drew (JSON text)

    def refresh(self, *ignored: Any) -> None:
        """VS Code is told the tree changed only when it did (it then asks for every element again)."""
        groups = change_tree(self.changes.pending(), self.session_title, self.turn_title)
        text = dump_json(groups)
        if text == self.shown:
            return
        self.groups = groups
        self.shown = text
        self.changed.fire(None)

    def getChildren(self, element: 'Optional[JsonObject]' = None) -> 'List[JsonObject]':
        if element is None:
            return [{'kind': 'group', 'node': group} for group in self.groups]
        if element['kind'] == 'group':
            return [{'kind': 'turn', 'node': turn} for turn in element['node']['turns']]
        if element['kind'] == 'turn':
            return [{'kind': 'file', 'node': item} for item in element['node']['files']]
        return []

    def getTreeItem(self, element: 'JsonObject') -> 'TreeItem':
        node = element['node']
        kind = element['kind']
        if kind == 'file':
            item = new(vscode.TreeItem, vscode.Uri.file(node['path']), NOT_COLLAPSIBLE)
            item.label = node['label']
            item.description = counts_text(node['added'], node['removed']) + \
                (' · created' if node['created'] else (' · deleted' if node['deleted'] else ''))
            item.tooltip = node['path']
            item.contextValue = 'hermes.change.file'
            item.command = {'command': OPEN_FILE_DIFF_COMMAND, 'title': 'Open Changes',
                            'arguments': [before_uri(node['path'], node['filter']), vscode.Uri.file(node['path']),
                                          node['label'] + ' (' + node['filter']['client'] + ')']}
            return item
        state = vscode.TreeItemCollapsibleState.Expanded
        item = new(vscode.TreeItem, node['label'], state)
        if kind == 'group':
            item.description = counts_text(node['added'], node['removed']) + ' · ' + str(node['files']) + \
                (' file' if node['files'] == 1 else ' files')
            item.iconPath = new(vscode.ThemeIcon, 'hubot' if node['filter']['session'] is not None else 'plug')
            item.contextValue = 'hermes.change.group'
        else:
            item.description = counts_text(node['added'], node['removed'])
            item.iconPath = new(vscode.ThemeIcon, 'history')
            item.contextValue = 'hermes.change.turn'
        item.tooltip = node['label']
        return item


class ChangesStatus:
    """The status bar item: how many files have pending changes; hidden when none."""

    def __init__(self, changes: 'ChangeLog') -> None:
        self.changes = changes
        self.item = vscode.window.createStatusBarItem('hermes.changes', vscode.StatusBarAlignment.Left, 50)
        self.item['name'] = 'Hermes: Changes to Review'  # `.name` would be renamed by Transcrypt
        self.item.command = FOCUS_COMMAND
        self.shown = -1  # the count the item shows (-1: not set yet)

    def refresh(self, *ignored: Any) -> None:
        count = len(changed_files(self.changes.pending()))
        if count == self.shown:  # each change of the item is redrawn by the workbench
            return
        self.shown = count
        text = status_text(count)
        if text is None:
            self.item.hide()
            return
        self.item.text = text
        self.item.tooltip = status_tooltip(count)
        self.item.show()

    def dispose(self) -> None:
        self.item.dispose()


def register_changes_view(context: 'ExtensionContext', changes: 'ChangeLog',
                          session_title: 'Optional[Callable[[str], Optional[str]]]' = None,
                          turn_title: 'Optional[Callable[[str, str], Optional[str]]]' = None) -> 'JsonObject':
    tree = ChangesTree(changes, session_title, turn_title)
    status = ChangesStatus(changes)
    context.subscriptions.push(status)
    context.subscriptions.push(tree.changed)
    provider = {'getChildren': to_js_callback(tree.getChildren), 'getTreeItem': to_js_callback(tree.getTreeItem),
                'onDidChangeTreeData': tree.changed.event}
    view = vscode.window.createTreeView(VIEW_ID, {'treeDataProvider': provider,  # type: TreeView[JsonObject]
                                                  'showCollapseAll': True})
    context.subscriptions.push(view)

    badge = {'count': -1}

    def refresh(*ignored: Any) -> None:
        tree.refresh()
        status.refresh()
        count = len(changed_files(changes.pending()))
        if count == badge['count']:
            return
        badge['count'] = count
        # no badge is `undefined`: VS Code's badge setter reads `.value` of a null and activation fails
        view.badge = js_undefined if count == 0 else {'value': count, 'tooltip': status_tooltip(count)}
    context.subscriptions.push(changes.on_change(refresh))
    refresh()
    return {'tree': tree, 'status': status, 'view': view, 'refresh': refresh}
