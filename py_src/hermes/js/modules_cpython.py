"""CPython twins of hermes/js/modules.py (never transpiled): the test shim as `vscode`, and stand-ins
for the Node built-ins the code uses."""
import importlib
import os
import stat
import uuid
# __pragma__('skip')
from typing import Any, Dict, List, Optional, Union  # (typing only inside skip blocks, as everywhere: tests/unit/test_rules.py)
# __pragma__('noskip')


class _NodePath:
    """The parts of Node's `path` the host code uses, on top of os.path (POSIX)."""
    sep = '/'

    @staticmethod
    def join(*parts: str) -> str:
        return os.path.normpath(os.path.join(*parts))

    @staticmethod
    def resolve(*parts: str) -> str:
        return os.path.normpath(os.path.join(os.getcwd(), *parts))

    @staticmethod
    def normalize(path: str) -> str:
        return os.path.normpath(path)

    @staticmethod
    def isAbsolute(path: str) -> bool:
        return path.startswith('/')

    @staticmethod
    def dirname(path: str) -> str:
        return os.path.dirname(path) or '.'

    @staticmethod
    def basename(path: str) -> str:
        return os.path.basename(path)

    @staticmethod
    def relative(start: str, path: str) -> str:
        relative = os.path.relpath(path, start)
        return '' if relative == '.' else relative


class _NodeStats:
    """fs.Stats / fs.Dirent: the kind tests, `size`, `mtimeMs`, `ctimeMs`, and `name` by subscript."""

    def __init__(self, mode: int, size: int = 0, mtime_ms: float = 0, name: Optional[str] = None,
                 ctime_ms: float = 0) -> None:
        self._mode, self.size, self.mtimeMs, self._name, self.ctimeMs = mode, size, mtime_ms, name, ctime_ms
        self.isFile = lambda: stat.S_ISREG(mode)
        self.isDirectory = lambda: stat.S_ISDIR(mode)
        self.isSymbolicLink = lambda: stat.S_ISLNK(mode)

    def __getitem__(self, key: str) -> Optional[str]:
        return {'name': self._name}[key]


def _node_error(call: str, path: Union[str, int], error: OSError) -> OSError:
    codes = {2: 'ENOENT', 13: 'EACCES', 17: 'EEXIST', 20: 'ENOTDIR', 21: 'EISDIR', 28: 'ENOSPC', 30: 'EROFS'}
    code = codes.get(error.errno or 0, 'EIO')
    wrapped = type(error)(f"{code}: {(error.strerror or '').lower()}, {call} '{path}'")
    setattr(wrapped, 'code', code)  # Node's errors carry their code (an attribute OSError does not declare)
    return wrapped


class _NodeFsPromises:
    """The `fs.promises` calls the host code uses (host/disk.py), with Node's error texts and codes."""

    @staticmethod
    def _stats(call: str, path: str, follow: bool) -> _NodeStats:
        try:
            info = os.stat(path) if follow else os.lstat(path)
        except OSError as error:
            raise _node_error(call, path, error) from None
        return _NodeStats(info.st_mode, info.st_size, info.st_mtime_ns / 1e6, None, info.st_ctime_ns / 1e6)

    @staticmethod
    async def stat(path: str) -> _NodeStats:
        return _NodeFsPromises._stats('stat', path, True)

    @staticmethod
    async def lstat(path: str) -> _NodeStats:
        return _NodeFsPromises._stats('lstat', path, False)

    @staticmethod
    async def readdir(path: str, options: Optional[Dict[str, Any]] = None) -> List[_NodeStats]:
        return _NodeFs.readdirSync(path, options)

    @staticmethod
    async def readFile(path: str) -> bytes:
        try:
            with open(path, 'rb') as handle:
                return handle.read()
        except OSError as error:
            raise _node_error('open', path, error) from None


class _NodeFs:
    """The synchronous parts of Node's `fs` the host code uses; errors carry Node's `code`."""

    @staticmethod
    def realpathSync(path: str) -> str:
        if not os.path.lexists(path):
            error = FileNotFoundError(f"ENOENT: no such file or directory, realpath '{path}'")
            setattr(error, 'code', 'ENOENT')
            raise error
        return os.path.realpath(path)

    @staticmethod
    def existsSync(path: str) -> bool:
        return os.path.exists(path)

    @staticmethod
    def readFileSync(path: str, encoding: Optional[str] = None) -> Union[str, bytes]:
        """Text with an encoding, bytes without (a Buffer in Node)."""
        try:
            if encoding is None:
                with open(path, 'rb') as raw:
                    return raw.read()
            with open(path, 'r', encoding=encoding) as text:
                return text.read()
        except OSError as error:
            raise _node_error('open', path, error) from None

    @staticmethod
    def writeFileSync(path: Union[str, int], text: str, encoding: str) -> None:
        """A path, or a descriptor from openSync (left open, as Node leaves it)."""
        try:
            if isinstance(path, int):
                os.write(path, text.encode(encoding))  # a regular file takes the whole write
                return
            with open(path, 'w', encoding=encoding) as file:
                file.write(text)
        except OSError as error:
            raise _node_error('write', path, error) from None

    @staticmethod
    def appendFileSync(path: str, text: str, options: Optional[Dict[str, int]] = None) -> None:
        """Node's: the file made with `options['mode']` when missing, `text` added at its end (utf-8)."""
        mode = (options or {}).get('mode', 0o666)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, mode)
        except OSError as error:
            raise _node_error('open', path, error) from None
        try:
            data = text.encode('utf-8')
            while data:
                data = data[os.write(descriptor, data):]
        except OSError as error:
            raise _node_error('write', path, error) from None
        finally:
            os.close(descriptor)

    @staticmethod
    def openSync(path: str, flags: str, mode: int = 0o666) -> int:
        opened = {'w': os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 'r': os.O_RDONLY}[flags]
        try:
            return os.open(path, opened, mode)
        except OSError as error:
            raise _node_error('open', path, error) from None

    @staticmethod
    def fsyncSync(descriptor: int) -> None:
        try:
            os.fsync(descriptor)
        except OSError as error:
            raise _node_error('fsync', descriptor, error) from None

    @staticmethod
    def closeSync(descriptor: int) -> None:
        os.close(descriptor)

    @staticmethod
    def unlinkSync(path: str) -> None:
        try:
            os.unlink(path)
        except OSError as error:
            raise _node_error('unlink', path, error) from None

    @staticmethod
    def writeSync(handle: int, text: str) -> None:
        data = text.encode('utf-8')
        while data:
            data = data[os.write(handle, data):]

    @staticmethod
    def renameSync(source: str, target: str) -> None:
        try:
            os.replace(source, target)
        except OSError as error:
            raise _node_error('rename', source, error) from None

    @staticmethod
    def mkdirSync(path: str, options: Optional[Dict[str, Any]] = None) -> None:
        os.makedirs(path, mode=(options or {}).get('mode', 0o777), exist_ok=bool(options and options.get('recursive')))

    class constants:
        X_OK = os.X_OK

    @staticmethod
    def accessSync(path: str, mode: int = 0) -> None:
        if not os.access(path, mode):
            error = PermissionError(f"EACCES: permission denied, access '{path}'")
            setattr(error, 'code', 'EACCES')
            raise error

    @staticmethod
    def statSync(path: str) -> _NodeStats:
        try:
            info = os.stat(path)
        except OSError as error:
            raise _node_error('stat', path, error) from None
        return _NodeStats(info.st_mode, info.st_size, info.st_mtime_ns / 1e6, None, info.st_ctime_ns / 1e6)

    @staticmethod
    def lstatSync(path: str) -> _NodeStats:
        return _NodeFsPromises._stats('lstat', path, False)

    @staticmethod
    def readdirSync(path: str, options: Optional[Dict[str, Any]] = None) -> List[_NodeStats]:
        """Entries with their types (`withFileTypes`), as Dirents."""
        try:
            with os.scandir(path) as entries:
                return [_NodeStats(entry.stat(follow_symlinks=False).st_mode, name=entry.name) for entry in entries]
        except OSError as error:
            raise _node_error('scandir', path, error) from None

    promises = _NodeFsPromises


class _NodeCrypto:
    @staticmethod
    def randomUUID() -> str:
        return str(uuid.uuid4())


NODE_MODULES = {'path': _NodePath, 'fs': _NodeFs, 'crypto': _NodeCrypto}  # type: Dict[str, Any]
"""Stand-ins for Node built-ins by name; tests may register more."""


def require(name: str) -> Any:
    if name == 'vscode':
        return importlib.import_module('vscode')  # the test shim (tests/shim/vscode/, on sys.path through pyproject's pythonpath)
    if name in NODE_MODULES:
        return NODE_MODULES[name]
    raise ImportError(f'no CPython stand-in for Node module {name!r}')


def node(module_name: str) -> 'Any':
    return require(module_name)
