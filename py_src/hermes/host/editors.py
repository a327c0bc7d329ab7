"""Editor tabs: described as plain dicts, found by the file they show, opened and closed. The tools reach them
as `call.services.tabs` (`EditorTabs`, built by host/services.py)."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.host.documents import show_document
from hermes.host.confinement import shows, OUTSIDE
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import Tab, Uri
# __pragma__('noskip')


def tab_resource(tab: 'Tab') -> 'Optional[Uri]':
    """The file a tab shows (text, diff's modified side, notebook, custom editor), or None."""
    tab_input = tab.input
    if tab_input is None:
        return None
    if tab_input.uri is not None:
        return tab_input.uri
    if tab_input.modified is not None:
        return tab_input.modified
    return None


def open_tabs() -> 'List[JsonObject]':
    tabs = []  # type: List[JsonObject]
    for group in vscode.window.tabGroups.all:
        for tab in group.tabs:
            uri = tab_resource(tab)
            inside = uri is None or shows(uri)  # an outside tab: neither its name nor its place (confinement.py)
            tabs.append({
                'label': tab.label if inside else OUTSIDE,
                'path': None if uri is None or not inside else uri.fsPath,
                'uri': None if uri is None or not inside else uri.toString(),
                'group': group.viewColumn,
                'active': tab.isActive and group.isActive,
                'dirty': tab.isDirty,
                'pinned': tab.isPinned,
                'preview': tab.isPreview,
            })
    return tabs


def tabs_showing(path: str) -> 'List[Tab]':
    """The editor tabs (in every group) that show the file at `path`, diff views of it included."""
    found = []  # type: List[Tab]
    for group in vscode.window.tabGroups.all:
        for tab in group.tabs:
            uri = tab_resource(tab)
            if uri is not None and uri.scheme == 'file' and uri.fsPath == path:
                found.append(tab)
    return found


class EditorTabs:
    """The window's editor tabs as the tools see them (`call.services.tabs`), so a test can hand a tool a fake."""

    def described(self) -> 'List[JsonObject]':
        """Every open tab as a dict (`open_tabs`)."""
        return open_tabs()

    def showing(self, path: str) -> 'List[Tab]':
        """The tabs that show the file at `path` (absolute), in every group, diff views included."""
        return tabs_showing(path)

    async def open_in_background(self, path: str, shown: str) -> None:
        """Open the file in a tab without taking the focus (language services check only open files)."""
        await show_document(path, shown, None, None, None, None, False, True)

    async def close(self, tabs: 'List[Tab]') -> None:
        """Close `tabs` (from `showing`)."""
        await vscode.window.tabGroups.close(tabs)
