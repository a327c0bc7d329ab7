"""Workspace facts from VS Code, as plain dicts the tools can return."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.objects import is_none
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')


def workspace_folders() -> 'List[JsonObject]':
    folders = vscode.workspace.workspaceFolders
    if is_none(folders):
        return []
    return [{'name': folder['name'], 'path': folder.uri.fsPath, 'uri': folder.uri.toString(),
             'index': folder.index} for folder in folders]


def workspace_name() -> 'Optional[str]':
    name = vscode.workspace['name']
    return None if is_none(name) else name
