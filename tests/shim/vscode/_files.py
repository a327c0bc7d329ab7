"""workspace.fs over the real disk (tests use tmp_path), and findFiles."""
import os
import re
import shutil

from vscode._documents import _reload_documents
from vscode._events import resolved
from vscode._types import FileSystemError, FileType, JsObject, Uri, WorkspaceFolder


class RelativePattern(JsObject):
    def __init__(self, base, pattern):
        if isinstance(base, str):
            base = Uri.file(base)
        self.baseUri = base.uri if isinstance(base, WorkspaceFolder) else base
        self.base = self.baseUri.fsPath
        self.pattern = pattern


class _FileStat(JsObject):
    def __init__(self, kind, size, mtime):
        self.type, self.size, self.mtime, self.ctime = kind, size, mtime, mtime


def _file_type(path):
    kind = FileType.SymbolicLink if os.path.islink(path) else 0
    if os.path.isdir(path):
        kind |= FileType.Directory
    elif os.path.isfile(path):
        kind |= FileType.File
    return kind


class _FileSystem:
    """workspace.fs over the real disk. `supports_trash = False` imitates code-server, whose
    file system refuses `useTrash` deletes."""

    def __init__(self):
        self.supports_trash = True
        self.trashed = []

    @staticmethod
    def _missing(uri):
        return FileSystemError(f'Unable to resolve nonexistent file \'{uri.fsPath}\' (FileNotFound)', 'FileNotFound')

    def stat(self, uri):
        if not os.path.lexists(uri.fsPath):
            raise self._missing(uri)
        info = os.stat(uri.fsPath) if os.path.exists(uri.fsPath) else os.lstat(uri.fsPath)
        return resolved(_FileStat(_file_type(uri.fsPath), info.st_size, info.st_mtime * 1000))

    def readFile(self, uri):
        if not os.path.isfile(uri.fsPath):
            raise self._missing(uri)
        with open(uri.fsPath, 'rb') as handle:
            return resolved(handle.read())

    def writeFile(self, uri, content):
        with open(uri.fsPath, 'wb') as handle:
            handle.write(bytes(content))
        _reload_documents(uri.fsPath)
        return resolved(None)

    def createDirectory(self, uri):
        os.makedirs(uri.fsPath, exist_ok=True)
        return resolved(None)

    def readDirectory(self, uri):
        if not os.path.isdir(uri.fsPath):
            raise self._missing(uri)
        return resolved([[name, _file_type(os.path.join(uri.fsPath, name))]
                          for name in sorted(os.listdir(uri.fsPath))])

    def delete(self, uri, options=None):
        options = options or {}
        path = uri.fsPath
        if not os.path.lexists(path):
            raise self._missing(uri)
        if options.get('useTrash') and not self.supports_trash:
            raise FileSystemError(f"Unable to delete file '{path}' via trash because provider does not support it.",
                                  'Unknown')
        if os.path.isdir(path) and not os.path.islink(path) and os.listdir(path) and not options.get('recursive'):
            raise FileSystemError(f"Unable to delete non-empty folder '{path}'.", 'Unknown')
        if options.get('useTrash'):
            self.trashed.append(path)
        self._remove(path)
        return resolved(None)

    @staticmethod
    def _remove(path):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)


def _glob_regex(pattern):
    """An independent, small translation of VS Code globs for the shim's findFiles."""
    out, index = '', 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith('**/', index):
            out, index = out + '(?:.*/)?', index + 3
            continue
        if pattern.startswith('**', index):
            out, index = out + '.*', index + 2
            continue
        if char == '*':
            out += '[^/]*'
        elif char == '?':
            out += '[^/]'
        elif char == '{':
            close = pattern.index('}', index)
            out += '(?:' + '|'.join(_glob_regex(part)[1:-1] for part in pattern[index + 1:close].split(',')) + ')'
            index = close
        else:
            out += re.escape(char)
        index += 1
    return '^' + out + '$'


def _matches(pattern, relative):
    return re.match(_glob_regex(pattern), relative) is not None


def find_files(workspace, include, exclude=None, max_results=None):
    """workspace.findFiles over the folders (or a RelativePattern's base), honouring files.exclude."""
    workspace.find_files_calls.append((include, exclude, max_results))
    if isinstance(include, RelativePattern):
        roots, pattern = [include.base], include.pattern
    else:
        roots, pattern = [folder.uri.fsPath for folder in (workspace.workspaceFolders or [])], include
    excludes = [key for key, value in (workspace.settings.get('files.exclude') or {}).items() if value is True]
    if exclude is not None:
        excludes.append(exclude)
    found = []
    for root in roots:
        for folder, folder_names, file_names in os.walk(root):
            folder_names.sort()  # a stable order, like a real traversal's
            for name in sorted(file_names):
                relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                if not _matches(pattern, relative) or any(_matches(item, relative) or
                                                          _matches(item + '/**', relative) for item in excludes):
                    continue
                found.append(Uri.file(os.path.join(folder, name)))
                if max_results is not None and len(found) >= max_results:
                    return resolved(found)
    return resolved(found)
