"""Editors and tabs, described as plain dicts."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.objects import is_none


def tab_resource(tab):
    """The file a tab shows (text, diff's modified side, notebook, custom editor), or None."""
    tab_input = tab.input
    if is_none(tab_input):
        return None
    if not is_none(tab_input.uri):
        return tab_input.uri
    if not is_none(tab_input.modified):
        return tab_input.modified
    return None


def open_tabs():
    tabs = []
    for group in vscode.window.tabGroups.all:
        for tab in group.tabs:
            uri = tab_resource(tab)
            tabs.append({
                'label': tab.label,
                'path': None if is_none(uri) else uri.fsPath,
                'uri': None if is_none(uri) else uri.toString(),
                'group': group.viewColumn,
                'active': tab.isActive and group.isActive,
                'dirty': tab.isDirty,
                'pinned': tab.isPinned,
                'preview': tab.isPreview,
            })
    return tabs
