"""Reading the disk at the disk's speed. `file:` URIs are read with Node's `fs` in the extension host
(which runs where those files are, local or remote); every other scheme goes through
`vscode.workspace.fs`. Each `workspace.fs` call is a round trip to the window (measured in code-server:
~4 ms for a 2-line file, 7× a plain read for 10 MB); Node's `fs` answers in microseconds.

Both backends offer the `workspace.fs` shapes the callers use: `stat(uri)` → {'type', 'size', 'mtime'}
with VS Code's FileType bits (a symlink is followed and flagged; a dangling one is Unknown|SymbolicLink),
`readDirectory(uri)` → [[name, type]], `readFile(uri)` → bytes. A missing path raises an error whose
message has ENOENT (Node) or whose code is FileNotFound (VS Code)."""
# __pragma__('tconv')
from hermes.js.errors import JsError
from hermes.js.modules import node, vscode
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, List, Optional, Protocol
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from vscode import Uri


class ReadingFileSystem(Protocol):
    """What file_system_for hands back: Node's fs (NodeFileSystem) or vscode.workspace.fs, read the same way."""
    def stat(self, uri: 'Uri') -> 'Awaitable[Any]': ...

    def readDirectory(self, uri: 'Uri') -> 'Awaitable[List[Any]]': ...

    def readFile(self, uri: 'Uri') -> 'Awaitable[Any]': ...
# __pragma__('noskip')

FILE = 1
DIRECTORY = 2
SYMLINK = 64



class Disk:
    """How the window reads local folders: a choice made when the window's services are built (host/services.py,
    FileService and SearchService hold it) and passed to the file and search functions, never a module's switch.
    The product reads `file:` URIs with Node's fs (`node_fs`) and lists small local trees in process
    (`small_trees`, host/small_tree.py); tests build `Disk(node_fs=False)` to run a file tool through
    `vscode.workspace.fs` (the path of every other scheme), `Disk(small_trees=False)` to make ripgrep list.
    It also remembers where VS Code's ripgrep binary is, once found (host/search.py ripgrep_path)."""

    def __init__(self, node_fs: bool = True, small_trees: bool = True) -> None:
        self.node_fs = node_fs
        self.small_trees = small_trees
        self.ripgrep = None  # type: Optional[str]


def uses_node_fs(disk: 'Optional[Disk]') -> bool:
    """Whether local folders are read directly (Node's fs, ripgrep) rather than through VS Code; `disk` None is
    the product's choice (yes)."""
    return disk is None or disk.node_fs


def file_system_for(uri: 'Uri', disk: 'Optional[Disk]' = None) -> 'ReadingFileSystem':
    """What reads `uri`: Node's fs for a `file:` URI (unless `disk` says otherwise), else vscode.workspace.fs."""
    if uses_node_fs(disk) and uri.scheme == 'file':
        return NODE_FILE_SYSTEM
    return vscode.workspace.fs


def _type_of(info: Any) -> int:
    if info.isFile():
        return FILE
    if info.isDirectory():
        return DIRECTORY
    return 0


def _followed_type(path: str) -> int:
    """A symlink's type as VS Code reports it: its target's type plus SymbolicLink (Unknown when dangling)."""
    try:
        return _type_of(node('fs').statSync(path)) | SYMLINK
    except JsError:
        return SYMLINK


SMALL_FILE_BYTES = 256 * 1024  # read in one synchronous call: less than the thread pool's round trips
SMALL_FOLDER_BYTES = 64 * 1024  # a folder's own size (~1,000-3,000 entries on ext4): listed synchronously


class NodeFileSystem:
    """Metadata, small folders and small files synchronously (microseconds; each promise-based call
    is a trip through libuv's thread pool, measured ~1 ms apiece on a busy 2-core machine), large
    folders and big files asynchronously."""

    async def stat(self, uri: 'Uri') -> 'JsonObject':
        path = uri.fsPath
        fs = node('fs')
        info = fs.lstatSync(path)  # one call for the common case: not a symlink
        if info.isSymbolicLink():
            kind = _followed_type(path)
            if kind != SYMLINK:
                info = fs.statSync(path)
        else:
            kind = _type_of(info)
        return {'type': kind, 'size': info.size, 'mtime': info.mtimeMs}

    async def readDirectory(self, uri: 'Uri') -> 'List[Any]':
        path = uri.fsPath
        fs = node('fs')
        options = {'withFileTypes': True}
        if fs.statSync(path).size <= SMALL_FOLDER_BYTES:
            entries = fs.readdirSync(path, options)
        else:
            entries = await fs.promises.readdir(path, options)
        result = []  # type: List[Any]
        for entry in entries:
            name = entry['name']  # subscript: `.name` would be renamed by Transcrypt
            if entry.isSymbolicLink():
                kind = _followed_type(node('path').join(path, name))
            elif entry.isFile():
                kind = FILE
            elif entry.isDirectory():
                kind = DIRECTORY
            else:
                kind = 0
            result.append([name, kind])
        return result

    async def readFile(self, uri: 'Uri') -> Any:
        fs = node('fs')
        if fs.statSync(uri.fsPath).size <= SMALL_FILE_BYTES:
            return fs.readFileSync(uri.fsPath)
        return await fs.promises.readFile(uri.fsPath)


NODE_FILE_SYSTEM = NodeFileSystem()
