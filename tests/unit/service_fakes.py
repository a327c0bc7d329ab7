"""Small typed fakes of the window's services (py_src/hermes/contracts/services.py), for tool tests that test the
tool and not the host: no VS Code, no shim, no disk. mypy checks this module strictly against the Protocols
(pyproject.toml), so a fake that drifts from its Protocol fails `inv typecheck`, not a test much later.

    from service_fakes import FakeFiles, FakePaths, run_tool
    files = FakeFiles({'/w/a.txt': 'hello'})
    result = run_tool('file_read', {'path': 'a.txt'}, files=files)

Each fake keeps what it was asked in plain lists and dicts a test can read (`files.texts`, `language.asked`).
The workspace is one folder, `/w`."""
import asyncio
import posixpath
from typing import Any, Dict, List, Optional, Tuple

from hermes.contracts.json import Json, JsonObject
from hermes.contracts.mcp import CallToolResult
from hermes.contracts.services import (CallContext, Changes, ContentMatches, DeleteOutcome, DirectoryEntry, Document,
                                       Documents, EditedFile, Editor, ExcludeRules, Files, FileStat, FileText,
                                       FoundFiles, Language, Paths, Position, Search, Tabs, WorkspaceSymbol,
                                       WriteOutcome)
from hermes.core.tools import Services, ToolCall, ToolError
from hermes.tools.catalog import build_registry

ROOT = '/w'

# ------------------------------------------------------------------------------ paths


class FakePaths:
    """One workspace folder, ROOT; a path outside it is refused as host/paths.py refuses it."""

    def __init__(self, root: str = ROOT) -> None:
        self.root = root

    def folder_paths(self) -> List[str]:
        return [self.root]

    def resolve_path(self, path_text: str) -> str:
        path = posixpath.normpath(posixpath.join(self.root, path_text))
        if not self.is_confined(path):
            raise ToolError('"' + path_text + '" is outside the workspace.')
        return path

    def is_confined(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + '/')

    def display_path(self, path: str, folders: Optional[List[str]] = None) -> str:
        relative = self.relative_to_folder(path, folders)
        return path if relative is None else (relative or '.')

    def workspace_folders(self) -> List[JsonObject]:
        return [{'name': posixpath.basename(self.root), 'path': self.root, 'uri': 'file://' + self.root, 'index': 0}]

    def workspace_name(self) -> Optional[str]:
        return posixpath.basename(self.root)

    def relative_to_folder(self, path: str, folders: Optional[List[str]] = None) -> Optional[str]:
        for folder in folders if folders is not None else self.folder_paths():
            if path == folder or path.startswith(folder + '/'):
                return posixpath.relpath(path, folder) if path != folder else ''
        return None

# ------------------------------------------------------------------------------ files and documents


class NoExcludes:
    def excludes(self, relative_path: str, sibling_names: List[str]) -> bool:
        return False


class FakeFiles:
    """Files in memory: `texts` {path: text}, `folders` (ROOT and every file's parents are folders)."""

    def __init__(self, texts: Optional[Dict[str, str]] = None, folders: Optional[List[str]] = None) -> None:
        self.texts = dict(texts or {})
        self.folders = set(folders or []) | {ROOT}
        self.calls = []  # type: List[Tuple[str, str]]  # (method, path) of every change

    def _all_folders(self) -> List[str]:
        found = set(self.folders)
        for path in self.texts:
            parent = posixpath.dirname(path)
            while parent not in found and parent != '/':
                found.add(parent)
                parent = posixpath.dirname(parent)
        return sorted(found)

    async def stat(self, path: str) -> Optional[FileStat]:
        if path in self.texts:
            return {'kind': 'file', 'symlink': False, 'size': len(self.texts[path].encode()), 'mtime': 0}
        if path in self._all_folders():
            return {'kind': 'directory', 'symlink': False, 'size': 0, 'mtime': 0}
        return None

    async def read_text(self, path: str, max_bytes: Optional[int] = None) -> FileText:
        if path not in self.texts:
            raise ToolError('"' + path + '" does not exist.')
        return {'text': self.texts[path], 'size': len(self.texts[path].encode())}

    async def write_text(self, path: str, text: str, must_not_exist: bool = False,
                         call: Optional[CallContext] = None) -> WriteOutcome:
        existed = path in self.texts
        if existed and must_not_exist:
            raise ToolError('"' + path + '" already exists.')
        self.texts[path] = text
        self.calls.append(('write_text', path))
        return 'replaced' if existed else 'created'

    async def create_folder(self, path: str) -> None:
        self.folders.add(path)
        self.calls.append(('create_folder', path))

    async def delete_path(self, path: str, recursive: bool, call: Optional[CallContext] = None) -> DeleteOutcome:
        if await self.stat(path) is None:
            raise ToolError('"' + path + '" does not exist.')
        for known in list(self.texts):
            if known == path or known.startswith(path + '/'):
                del self.texts[known]
        self.folders.discard(path)
        self.calls.append(('delete_path', path))
        return 'trash'

    async def read_directory(self, path: str) -> List[DirectoryEntry]:
        entries = []  # type: List[DirectoryEntry]
        for folder in self._all_folders():
            if posixpath.dirname(folder) == path and folder != path:
                entries.append({'name': posixpath.basename(folder), 'kind': 'directory', 'symlink': False})
        for file in sorted(self.texts):
            if posixpath.dirname(file) == path:
                entries.append({'name': posixpath.basename(file), 'kind': 'file', 'symlink': False})
        return entries

    def exclude_rules(self, sections: List[str]) -> ExcludeRules:
        return NoExcludes()


class FakeUri:
    def __init__(self, path: str, scheme: str = 'file') -> None:
        self.fsPath = path
        self.scheme = scheme


class FakeDocument:
    """The few members of a vscode.TextDocument the tools read."""

    def __init__(self, path: str, text: str, dirty: bool = False, language_id: str = 'plaintext',
                 scheme: str = 'file') -> None:
        self.uri = FakeUri(path, scheme)
        self.text = text
        self.isDirty = dirty
        self.languageId = language_id
        self.saved = 0

    def getText(self) -> str:
        return self.text


class FakePosition:
    def __init__(self, line: int, character: int) -> None:
        self.line = line  # 0-based, as VS Code's
        self.character = character


class FakeEditor:
    def __init__(self, document: FakeDocument) -> None:
        self.document = document
        self.selection = FakeSelection(FakePosition(0, 0), FakePosition(0, 0))
        self.selections = [self.selection]


class FakeSelection:
    def __init__(self, start: FakePosition, end: FakePosition) -> None:
        self.start, self.end, self.active = start, end, end
        self.isEmpty = (start.line, start.character) == (end.line, end.character)


class FakeDocuments:
    """Open documents over a FakeFiles: `open` {path: FakeDocument}; a document not open is loaded from the files.
    `outside` paths are withheld as confinement withholds a file outside the workspace."""

    def __init__(self, files: FakeFiles, open_documents: Optional[List[FakeDocument]] = None) -> None:
        self.files = files
        self.open = {document.uri.fsPath: document for document in open_documents or []}
        self.active = None  # type: Optional[FakeEditor]
        self.shown = []  # type: List[Tuple[str, Optional[int]]]

    def open_document_for(self, path: str) -> Optional[Document]:
        return self.open.get(path)

    async def load_document(self, path: str, shown: str) -> Document:
        if path not in self.open:
            if path not in self.files.texts:
                raise ToolError('Cannot open "' + shown + '" as text: it does not exist.')
            self.open[path] = FakeDocument(path, self.files.texts[path])
        return self.open[path]

    async def replace_text(self, document: Document, planned: List[JsonObject], shown: str,
                           call: Optional[CallContext] = None) -> None:
        text = document.getText()
        for item in sorted(planned, key=lambda item: -int(item['start'])):
            text = text[:item['start']] + item['text'] + text[item['end']:]
        document.text = text
        document.isDirty = True

    async def save_document(self, document: Document, shown: str) -> None:
        self.files.texts[document.uri.fsPath] = document.getText()
        document.isDirty = False
        document.saved += 1

    def active_editor(self) -> Optional[Editor]:
        return self.active

    async def show_document(self, path: str, shown: str, line: Optional[int] = None, column: Optional[int] = None,
                            end_line: Optional[int] = None, end_column: Optional[int] = None,
                            preview: Optional[bool] = None, keep_focus: bool = False) -> Editor:
        editor = FakeEditor(await self.load_document(path, shown))
        if line is not None:
            editor.selection.active = FakePosition(line - 1, (column or 1) - 1)
        self.shown.append((path, line))
        self.active = editor
        return editor

    def shown_path_of(self, document: Document) -> Optional[str]:
        path = document.uri.fsPath
        return path[len(ROOT) + 1:] if path.startswith(ROOT + '/') else None

    def file_path_of(self, document: Document) -> Optional[str]:
        return document.uri.fsPath if document.uri.scheme == 'file' else None

# ------------------------------------------------------------------------------ search, language, tabs, changes


class FakeSearch:
    """Answers every search with what it was built with; `asked` keeps the queries."""

    def __init__(self, found_files: Optional[List[str]] = None, matches: Optional[List[JsonObject]] = None) -> None:
        self.found_files = found_files or []
        self.matches = matches or []  # [{'path', 'lines': [{'line', 'text', 'match'}]}]
        self.asked = []  # type: List[Tuple[str, Json]]

    async def search_content(self, query: str, options: JsonObject, call: CallContext) -> ContentMatches:
        self.asked.append((query, options))
        count = sum(len([line for line in entry['lines'] if line['match']]) for entry in self.matches)
        return {'files': self.matches, 'matches': count, 'truncated': False, 'warnings': None}

    async def find_files(self, glob: str, base: Optional[str], max_results: int, use_ignore_files: bool,
                         call: CallContext) -> FoundFiles:
        self.asked.append((glob, base))
        return {'paths': self.found_files[:max_results], 'truncated': len(self.found_files) > max_results,
                'ignore_files_applied': use_ignore_files}


class FakeLanguage:
    """A language service whose every document is one line long and whose every symbol is defined at
    lib.ts:7:3; `asked` records what the tools asked, `applied` the edits they applied."""

    def __init__(self, edited: Optional[List[EditedFile]] = None) -> None:
        self.asked = []  # type: List[Tuple[Any, ...]]
        self.applied = []  # type: List[Tuple[Any, bool]]
        self.edited = edited or []
        self.found_problems = []  # type: List[JsonObject]

    async def open(self, path_text: str) -> Tuple[str, Document]:
        self.asked.append(('open', path_text))
        return ROOT + '/' + path_text, 'the document'

    async def position(self, document: Document, args: JsonObject) -> Position:
        self.asked.append(('position', document, args['line']))
        return FakePosition(args['line'] - 1, 0)

    async def definitions(self, document: Document, position: Position) -> List[JsonObject]:
        return [{'path': 'lib.ts', 'uri': 'file:///w/lib.ts', 'line': 7, 'column': 3}]

    async def references(self, document: Document, position: Position) -> List[JsonObject]:
        return await self.definitions(document, position)

    async def hover(self, document: Document, position: Position) -> str:
        return 'function greet(): void'

    async def outline(self, document: Document) -> List[JsonObject]:
        return []

    async def workspace_symbols(self, query: str) -> List[WorkspaceSymbol]:
        return [{'name': 'greet', 'kind': 'function', 'container': None,
                 'location': {'path': 'lib.ts', 'uri': 'file:///w/lib.ts', 'line': 7, 'column': 3}}]

    async def previews(self, locations: List[JsonObject], limit: int) -> None:
        for location in locations[:limit]:
            location['text'] = 'function greet() {'

    async def rename_edit(self, document: Document, position: Position, new_name: str) -> Any:
        return 'the edit'

    def edited_files(self, edit: Any) -> List[EditedFile]:
        return self.edited

    async def apply(self, edit: Any, save: bool, call: Optional[CallContext] = None) -> bool:
        self.applied.append((edit, save))
        return True

    def problems(self, path: Optional[str] = None, min_severity: str = 'hint') -> List[JsonObject]:
        return [problem for problem in self.found_problems if path is None or problem['path'] == path]

    async def wait_for_problems(self, path: str, timeout_ms: int, call: CallContext) -> Any:
        self.asked.append(('wait_for_problems', path, timeout_ms))


class FakeTabs:
    """Tabs by the file they show: `tabs` {path: [tab, …]}; `done` records opening and closing in order."""

    def __init__(self, tabs: Optional[Dict[str, List[Any]]] = None) -> None:
        self.tabs = dict(tabs or {})
        self.done = []  # type: List[Tuple[str, Any]]

    def described(self) -> List[JsonObject]:
        return [{'label': str(tab), 'path': path} for path in self.tabs for tab in self.tabs[path]]

    def showing(self, path: str) -> List[Any]:
        return self.tabs.get(path, [])

    async def open_in_background(self, path: str, shown: str) -> None:
        self.done.append(('open', shown))
        self.tabs[path] = ['tab of ' + shown]

    async def close(self, tabs: List[Any]) -> None:
        self.done.append(('close', tabs))
        for path in self.tabs:
            self.tabs[path] = [tab for tab in self.tabs[path] if tab not in tabs]


class FakeChanges:
    """A change log that reports `view` and remembers the reads noted."""

    def __init__(self, view: Optional[JsonObject] = None) -> None:
        self.view = view or {'files': [], 'decisions': []}
        self.asked = []  # type: List[Tuple[Optional[JsonObject], bool]]
        self.reads = []  # type: List[Tuple[str, str]]

    def for_agents(self, wanted: Optional[JsonObject] = None, include_lines: bool = True) -> JsonObject:
        self.asked.append((wanted, include_lines))
        return self.view

    def note_read(self, client: str, path: str) -> None:
        self.reads.append((client, path))

# ------------------------------------------------------------------------------ running a tool on them


def run_tool(name: str, arguments: JsonObject, files: Optional[Files] = None, documents: Optional[Documents] = None,
             paths: Optional[Paths] = None, search: Optional[Search] = None, language: Optional[Language] = None,
             tabs: Optional[Tabs] = None, changes: Optional[Changes] = None,
             call: Optional[ToolCall] = None) -> CallToolResult:
    """Call tool `name` through the real registry (schema, defaults, result shape) on the given fakes; the paths
    are FakePaths() unless given. No gate: a tool that asks the user is refused, as in a registry without one."""
    services = Services(language=language, tabs=tabs, changes=changes, paths=paths or FakePaths(), files=files,
                        documents=documents, search=search)
    return asyncio.run(build_registry(None, services).call(name, arguments, call or ToolCall()))


def text(result: CallToolResult) -> str:
    """The result's text, as the model reads it."""
    item = result['content'][0]
    return item['text'] if item['type'] == 'text' else ''


def _implements() -> Tuple[Paths, Files, Documents, Search, Language, Tabs, Changes]:
    """Each fake is its Protocol (mypy checks this; it never runs)."""
    files = FakeFiles()
    return FakePaths(), files, FakeDocuments(files), FakeSearch(), FakeLanguage(), FakeTabs(), FakeChanges()
