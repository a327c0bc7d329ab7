"""vscode.workspace's text documents and edits. Documents hold text until saved, as VS Code's do.
The functions read the current `vscode.workspace` (tests call `vscode._load_document(path)` too)."""
import os
import re

import vscode
from vscode._events import resolved
from vscode._types import FileSystemError, JsObject, Position, Range, Uri


_LANGUAGES = {'.ts': 'typescript', '.js': 'javascript', '.py': 'python', '.md': 'markdown', '.json': 'json',
              '.txt': 'plaintext'}


class _DocLine(JsObject):
    def __init__(self, text, number):
        self.text, self.lineNumber = text, number
        self.range = Range(number, 0, number, len(text))
        self.isEmptyOrWhitespace = text.strip() == ''


class _Document(JsObject):
    """A TextDocument: positions count lines split at \\n or \\r\\n, as VS Code does."""

    def __init__(self, uri, text, language_id=None):
        self.uri = uri
        self.fileName = uri.fsPath
        self.isUntitled = False
        self.isClosed = False
        self.isDirty = False
        self.version = 1
        self.languageId = language_id or _LANGUAGES.get(os.path.splitext(uri.path)[1], 'plaintext')
        self.saves = 0
        self._set(text)

    def _set(self, text):
        self._text = text
        self._starts = [0] + [match.end() for match in re.finditer('\n', text)]

    @property
    def eol(self):
        return 2 if '\r\n' in self._text else 1

    @property
    def lineCount(self):
        return len(self._starts)

    def _line_text(self, line):
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self._text)
        text = self._text[start:end]
        return text[:-1] if text.endswith('\r') else text

    def lineAt(self, line):
        line = line.line if isinstance(line, Position) else line
        if not 0 <= line < len(self._starts):
            raise IndexError(f'Illegal value for `line`: {line}')
        return _DocLine(self._line_text(line), line)

    def offsetAt(self, position):
        line = min(max(position.line, 0), len(self._starts) - 1)
        return self._starts[line] + min(max(position.character, 0), len(self._line_text(line)))

    def positionAt(self, offset):
        offset = min(max(offset, 0), len(self._text))
        line = max(index for index, start in enumerate(self._starts) if start <= offset)
        return Position(line, min(offset - self._starts[line], len(self._line_text(line))))

    def getText(self, range=None):
        if range is None:
            return self._text
        return self._text[self.offsetAt(range.start):self.offsetAt(range.end)]

    def _apply(self, edits):
        spans = sorted(((self.offsetAt(edit.range.start), self.offsetAt(edit.range.end), edit.newText)
                        for edit in edits), key=lambda span: span[0], reverse=True)
        text = self._text
        for start, end, new_text in spans:
            text = text[:start] + new_text + text[end:]
        self._set(text)
        self.isDirty = True
        self.version += 1

    def save(self):
        if vscode.workspace.save_answer is False:
            return resolved(False)
        with open(self.uri.fsPath, 'w', newline='') as handle:
            handle.write(self._text)
        self.isDirty = False
        self.saves += 1
        return resolved(True)

    def _reload_from_disk(self):
        """What VS Code does when a file changes on disk and its document has no unsaved changes."""
        if not self.isDirty and os.path.isfile(self.uri.fsPath):
            with open(self.uri.fsPath, newline='') as handle:
                self._set(handle.read())
            self.version += 1


class _TextEdit(JsObject):
    def __init__(self, range, newText):
        self.range, self.newText = range, newText


class WorkspaceEdit(JsObject):  # text edits and file operations
    def __init__(self):
        self._entries = []
        self.operations = []  # ('text', uri, [edits]) | ('create', uri, options) | ('delete', uri, options)

    def replace(self, uri, range, newText, metadata=None):
        for entry_uri, edits in self._entries:
            if entry_uri == uri:
                edits.append(_TextEdit(range, newText))
                return
        edits = [_TextEdit(range, newText)]
        self._entries.append((uri, edits))
        self.operations.append(('text', uri, edits))

    js_replace = replace

    def insert(self, uri, position, newText, metadata=None):
        self.replace(uri, Range(position, position), newText)

    def delete(self, uri, range, metadata=None):
        self.replace(uri, range, '')

    def createFile(self, uri, options=None, metadata=None):
        self.operations.append(('create', uri, dict(options or {})))

    def deleteFile(self, uri, options=None, metadata=None):
        self.operations.append(('delete', uri, dict(options or {})))

    def entries(self):
        return [[uri, list(edits)] for uri, edits in self._entries]

    @property
    def size(self):
        return len(self._entries)


def _find_document(uri):
    for document in vscode.workspace.textDocuments:
        if document.uri == uri:
            return document
    return None


def _load_document(uri):
    uri = Uri.file(uri) if isinstance(uri, str) else uri
    document = _find_document(uri)
    if document is not None:
        return document
    if not os.path.isfile(uri.fsPath):
        raise FileSystemError(f'cannot open {uri.toString()}. Detail: Unable to read file (FileNotFound)',
                              'FileNotFound')
    with open(uri.fsPath, newline='') as handle:
        document = _Document(uri, handle.read())
    vscode.workspace.textDocuments.append(document)
    return document


def _reload_documents(path):
    for document in vscode.workspace.textDocuments:
        if document.uri.fsPath == path or document.uri.fsPath.startswith(path + os.sep):
            document._reload_from_disk()


def _apply_workspace_edit(edit, metadata=None):
    if vscode.workspace.apply_edit_answer is False:
        return resolved(False)
    for operation in getattr(edit, 'operations', None) or [('text', uri, edits) for uri, edits in edit.entries()]:
        kind, uri = operation[0], operation[1]
        if kind == 'text':
            _load_document(uri)._apply(operation[2])
        elif kind == 'create':
            options = operation[2]
            if os.path.exists(uri.fsPath) and not options.get('overwrite'):
                if options.get('ignoreIfExists'):
                    continue
                return resolved(False)
            os.makedirs(os.path.dirname(uri.fsPath), exist_ok=True)
            with open(uri.fsPath, 'wb') as handle:
                handle.write(bytes(options.get('contents') or b''))
            _reload_documents(uri.fsPath)
        elif kind == 'delete':
            if not os.path.lexists(uri.fsPath):
                if operation[2].get('ignoreIfNotExists'):
                    continue
                return resolved(False)
            vscode.workspace.fs._remove(uri.fsPath)
    vscode.workspace.applied_edits.append(edit)
    return resolved(True)
