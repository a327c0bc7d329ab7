"""Where a tool may touch the disk: paths are workspace-relative or absolute inside a workspace folder.
`..`, symlinks and absolute paths that leave the workspace are refused unless the user turned on
`hermes.tools.allowOutsideWorkspace`. Symlinks are judged by where they really point."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node
from hermes.core.tools import ToolError
from hermes.host.settings import setting
from hermes.host.workspace import workspace_folders
from hermes.host.live_values import remembered
# __pragma__('skip')
from typing import List, Optional
# __pragma__('noskip')


def folder_paths() -> 'List[str]':
    """The workspace folders' paths (a fresh list: callers may change it)."""
    return list(remembered('folders', lambda: [folder['path'] for folder in workspace_folders()]))


def real_path(path: str, depth: int = 0) -> str:
    """The path with symlinks resolved; for a path that doesn't exist yet, its nearest existing parent's
    real path plus the rest (so a file about to be created is judged by its real folder). A dangling
    symlink on the way is followed to where it points: writing through it would create its target."""
    node_path = node('path')
    fs = node('fs')
    missing = []  # type: List[str]
    current = path
    while True:
        try:
            real = fs.realpathSync(current)
            break
        except JsError:
            target = _link_target(current)
            if target is not None and depth < 40:
                rest = node_path.resolve(node_path.dirname(current), target)
                for part in missing:
                    rest = node_path.join(rest, part)
                return real_path(rest, depth + 1)
            parent = node_path.dirname(current)
            if parent == current:
                return path
            missing.insert(0, node_path.basename(current))
            current = parent
    for part in missing:
        real = node_path.join(real, part)
    return real


def _link_target(path: str) -> 'Optional[str]':
    """Where a (dangling) symlink at `path` points, or None when `path` is no symlink."""
    fs = node('fs')
    try:
        if fs.lstatSync(path).isSymbolicLink():
            return fs.readlinkSync(path)
    except JsError:
        return None
    return None


def is_inside(path: str, folder: str) -> bool:
    sep = node('path').sep
    return path == folder or path.startswith(folder if folder.endswith(sep) else folder + sep)


def outside_allowed() -> bool:
    """Whether the user's own setting `hermes.tools.allowOutsideWorkspace` allows outside paths."""
    # (kept until any setting changes: a profile showed its read at 5% of a small file_read)
    return remembered('setting:tools.allowOutsideWorkspace', lambda: setting('tools.allowOutsideWorkspace'))


def in_workspace(path: str) -> bool:
    """Whether `path`, judged by where its symlinks really point, is inside a workspace folder (always
    true when the user allowed outside paths)."""
    if outside_allowed():
        return True
    real = real_path(path)
    folders = folder_paths()
    for folder in folders:
        if is_inside(real, real_folder(folder)):
            return True
    for folder in folders:  # a folder that became a symlink since its real path was remembered
        if is_inside(real, real_path(folder)):
            return True
    return False


def real_folder(folder: str) -> str:
    """A workspace folder's real path; remembered only when the folder is its own real path. That is
    safe: a real path found inside it proves the folder is still a real folder (a canonical path has
    no symlinks on the way), so no symlink changed since can make a path pass (the path itself is
    resolved on every call)."""
    def compute() -> 'Optional[str]':
        real = real_path(folder)
        return real if real == folder else None
    known = remembered('real:' + folder, compute)
    return real_path(folder) if known is None else known


def resolve_path(path_text: 'Optional[str]') -> str:
    """The absolute path a tool argument names, or a ToolError the model can act on."""
    node_path = node('path')
    folders = folder_paths()
    if path_text is None or path_text.strip() == '':
        raise ToolError('The path is empty. Give a path relative to the workspace, e.g. "src/main.py".')
    if node_path.isAbsolute(path_text):
        candidate = node_path.normalize(path_text)
    elif len(folders) == 0:
        raise ToolError('No folder is open in VS Code, so "' + path_text + '" has no base folder. Open a '
                        'folder, or pass an absolute path.')
    else:
        candidate = node_path.resolve(base_folder_for(path_text, folders), path_text)
    if in_workspace(candidate):
        return candidate
    raise ToolError('"' + path_text + '" is outside the workspace (' + ', '.join(folders or ['no folder open']) +
                    '). Use a path inside it; the user can allow outside paths with the setting '
                    '"hermes.tools.allowOutsideWorkspace".')


def is_confined(path: str) -> bool:
    """Whether a tool may name `path` (inside the workspace, or the user allows outside paths): what the
    resources and listings apply before they show a path, since an outside path alone tells a remote model
    about the user's home folder and other projects."""
    try:
        resolve_path(path)
        return True
    except ToolError:
        return False


def base_folder_for(path_text: str, folders: 'List[str]') -> str:
    """Multi-root: "api/src/x.ts" resolves in the folder named "api" when there is one; else the first."""
    node_path = node('path')
    first = path_text.replace('\\', '/').split('/')[0]
    for folder in folders:
        if node_path.basename(folder) == first and len(folders) > 1:
            return node_path.dirname(folder)
    return folders[0]


def display_path(path: str, folders: 'Optional[List[str]]' = None) -> str:
    """Workspace-relative when inside a folder (what the model and the user read), else absolute.
    (`folders`: folder_paths() when the caller already has them, e.g. for thousands of paths.)"""
    node_path = node('path')
    for folder in (folder_paths() if folders is None else folders):
        if is_inside(path, folder):
            if plainly_under(path, folder, node_path.sep):  # (file_search: 5,000 of them, 6 ms of path.relative)
                return path[len(folder) + 1:]
            relative = node_path.relative(folder, path)
            return relative if relative != '' else '.'
    return path


def plainly_under(path: str, folder: str, sep: str) -> bool:
    """Whether `path` is `folder` + '/' + a relative path that path.relative would give back unchanged:
    POSIX paths without '.', '..' or empty parts (dot-files are left to path.relative too)."""
    return (sep == '/' and len(path) > len(folder) + 1 and path[len(folder)] == '/' and not folder.endswith('/') and
            folder.find('/.') == -1 and folder.find('//') == -1 and path.find('/.', len(folder)) == -1 and
            path.find('//', len(folder)) == -1 and not path.endswith('/'))
