"""Workspace facts from VS Code, as plain dicts the tools can return."""
# __pragma__('tconv')
from hermes.js.modules import vscode
# __pragma__('skip')
from typing import List, Optional
from hermes.contracts.json import JsonObject
# __pragma__('noskip')


def workspace_folders() -> 'List[JsonObject]':
    folders = vscode.workspace.workspaceFolders
    if folders is None:
        return []
    return [{'name': folder['name'], 'path': folder.uri.fsPath, 'uri': folder.uri.toString(),
             'index': folder.index} for folder in folders]


def disk_folders() -> 'List[JsonObject]':
    """The workspace folders on this machine's disk (`file:`), where an agent in a terminal of this window can stand:
    what the IDE doors name. A folder of another file system (a virtual workspace, another machine's) has a path
    that names nothing here — or something else that a CLI standing there would take for this window."""
    return [folder for folder in workspace_folders() if folder['uri'].startswith('file:')]


def workspace_name() -> 'Optional[str]':
    name = vscode.workspace['name']
    return None if name is None else name
