"""What debugging reads and sets in the workspace outside any session (host/debugging.py DebugService hands it to the
debug tools): the launch configurations of launch.json (and the user's), and the source breakpoints."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.tools import ToolError
from hermes.core.values import json_type, get_key
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional, Sequence
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import SourceBreakpoint, WorkspaceFolder
# __pragma__('noskip')


def workspace_folder(name: 'Optional[str]' = None) -> 'Optional[WorkspaceFolder]':
    """The workspace folder called `name` (the first one when None); None when no folder is open."""
    folders = vscode.workspace.workspaceFolders
    if folders is None or len(folders) == 0:
        return None
    if name is None:
        return folders[0]
    for folder in folders:
        if folder['name'] == name:
            return folder
    raise ToolError('No workspace folder named "' + name + '".')


def launch_names(folder: 'Optional[WorkspaceFolder]') -> 'List[str]':
    """The names of the configurations in `folder`'s launch.json (and the user's)."""
    scope = None if folder is None else folder.uri
    configurations = vscode.workspace.getConfiguration('launch', scope).js_get('configurations')
    if json_type(configurations) != 'array':
        return []
    return [get_key(item, 'name') for item in configurations if json_type(get_key(item, 'name')) == 'string']


def launch_configuration(folder: 'Optional[WorkspaceFolder]', name: str) -> 'Optional[JsonObject]':
    """The launch configuration (or compound) called `name` in `folder`'s launch.json (and the user's), as
    written there; None when there is none."""
    scope = None if folder is None else folder.uri
    launch = vscode.workspace.getConfiguration('launch', scope)
    for kind in ['configurations', 'compounds']:
        found = launch.js_get(kind)
        if json_type(found) == 'array':
            for item in found:
                if get_key(item, 'name') == name:
                    return item
    return None


def breakpoints_in(path: str) -> 'List[JsonObject]':
    """The source breakpoints in the file at `path`: [{'line' (1-based), 'enabled', 'condition'?}]."""
    found = []  # type: List[JsonObject]
    for breakpoint in _source_breakpoints(path):
        entry = {'line': breakpoint.location.range.start.line + 1,  # type: JsonObject
                 'enabled': breakpoint.enabled}
        if breakpoint.condition is not None:
            entry['condition'] = breakpoint.condition
        found.append(entry)
    return found


def set_breakpoints(path: str, lines: 'List[int]', condition: 'Optional[str]' = None,
                    replace: bool = True) -> 'List[JsonObject]':
    """Add enabled breakpoints at the 1-based `lines` of `path` (after removing the file's others when
    `replace`); returns the file's breakpoints now."""
    existing = _source_breakpoints(path)
    if replace and len(existing) > 0:
        vscode.debug.removeBreakpoints(existing)
    uri = vscode.Uri.file(path)
    added = []  # type: List[SourceBreakpoint]
    for line in lines:
        location = new(vscode.Location, uri, new(vscode.Position, line - 1, 0))
        if condition is None:
            added.append(new(vscode.SourceBreakpoint, location, True))
        else:
            added.append(new(vscode.SourceBreakpoint, location, True, condition))
    if len(added) > 0:
        vscode.debug.addBreakpoints(added)
    return breakpoints_in(path)


def _source_breakpoints(path: str) -> 'List[Any]':
    found = []  # type: List[Any]
    breakpoints = vscode.debug.breakpoints  # type: Sequence[Any]  # (a SourceBreakpoint has a location)
    for breakpoint in breakpoints:
        location = breakpoint.location
        if location is not None and location.uri.fsPath == path:
            found.append(breakpoint)
    return found
