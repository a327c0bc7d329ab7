"""The one rule for what Hermes shows that no caller named by a path: locations and text that VS Code, the
language servers, search and completions hand back (definitions, references, hover, symbols, rename edits,
problems, the active editor, selections, tabs, search results). Tools and resources share it.

- A file in the workspace (judged by where its symlinks really point) is shown: its path and its text.
- Anything else — a file outside the workspace, the user's settings.json, an output channel, a virtual
  document — is withheld: its location is shown only as "a file outside the workspace" and its text never,
  unless the user's own `hermes.tools.allowOutsideWorkspace` allows outside paths (host/paths.py).
- An untitled document is shown: it is the user's scratch text in this window and names no place on disk.
An outside path alone tells a remote model about the user's home folder and other projects, so it is withheld
as the text is. tests/unit/test_rules.py keeps every module that turns a URI into a shown path going through
here (`.fsPath` is allowed only in the modules listed there)."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node, vscode
from hermes.host.paths import is_confined, display_path, outside_allowed, in_workspace, is_inside
# __pragma__('skip')
from typing import TYPE_CHECKING, Dict, List, Optional, TypedDict
if TYPE_CHECKING:
    from vscode import Uri


class Place(TypedDict):
    path: str  # shown_path, or OUTSIDE
    uri: Optional[str]  # None when withheld
# __pragma__('noskip')

OUTSIDE = 'a file outside the workspace'
# Schemes whose URIs name a path on this machine: judged by that path.
PATH_SCHEMES = ['file', 'vscode-userdata', 'vscode-remote', 'git', 'vscode-notebook-cell']
# Documents that are nowhere on disk and belong to this window.
OPEN_SCHEMES = ['untitled']


def shows(uri: 'Optional[Uri]') -> bool:
    """Whether the location and the text behind `uri` (a vscode.Uri) may be shown."""
    if uri is None:
        return False
    scheme = uri.scheme
    if scheme in OPEN_SCHEMES:
        return True
    if scheme in PATH_SCHEMES:
        return is_confined(uri.fsPath)
    return outside_allowed()


def shown_path(uri: 'Uri') -> str:
    """What a shown location is called: workspace-relative for a file, the URI for anything else. Only for a
    `uri` that `shows`."""
    return display_path(uri.fsPath) if uri.scheme == 'file' else uri.toString()


def place(uri: 'Optional[Uri]') -> 'Place':
    """{'path', 'uri'} of a location as it may be shown: the file's path and URI, or `OUTSIDE` and None."""
    if uri is not None and shows(uri):
        return {'path': shown_path(uri), 'uri': uri.toString()}
    return {'path': OUTSIDE, 'uri': None}


def is_public(uri: 'Optional[Uri]') -> bool:
    """A file of VS Code's own installation (the TypeScript library's .d.ts files a hover of `console.log`
    comes from): public text, not the user's, though its path is outside the workspace."""
    root = vscode.env.appRoot
    return uri is not None and uri.scheme == 'file' and root is not None and is_inside(uri.fsPath, root)


def confined_paths(paths: 'List[str]') -> 'List[str]':
    """The absolute paths among `paths` whose real place is inside the workspace (all of them when the user
    allows outside paths): search and completions list what VS Code found, and it follows symlinks. A folder
    is resolved once for all the files in it; a file is resolved itself only when it is a symlink."""
    if outside_allowed():
        return paths
    fs = node('fs')
    node_path = node('path')
    verdicts = {}  # type: Dict[str, bool]
    kept = []
    for path in paths:
        folder = node_path.dirname(path)
        slot = 'd:' + folder
        if not (slot in verdicts):
            verdicts[slot] = in_workspace(folder)
        if not verdicts[slot]:
            continue
        try:
            linked = fs.lstatSync(path).isSymbolicLink()
        except JsError:
            linked = False
        if linked and not in_workspace(path):
            continue
        kept.append(path)
    return kept
