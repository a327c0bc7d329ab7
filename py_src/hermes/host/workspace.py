"""Workspace facts from VS Code, as plain dicts the tools can return."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.objects import is_none


def workspace_folders():
    folders = vscode.workspace.workspaceFolders
    if is_none(folders):
        return []
    return [{'name': folder['name'], 'path': folder.uri.fsPath, 'uri': folder.uri.toString(),
             'index': folder.index} for folder in folders]


def workspace_name():
    name = vscode.workspace['name']
    return None if is_none(name) else name
