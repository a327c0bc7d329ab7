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
from typing import Any, Callable, Dict, List, Optional, Tuple

from hermes.contracts.json import Json, JsonObject
from hermes.contracts.mcp import CallToolResult
from hermes.contracts.services import (CallContext, Changes, Commands, Configuration, ContentMatches, Debugging,
                                       DeleteOutcome, DirectoryEntry, Document, Documents, EditedFile, Editor,
                                       ExcludeRules, Files, FileStat, FileText, FoundFiles, Git, Language, Paths,
                                       Position, ProcessResult, ReviewDecision, Reviews, Search, Tabs, Tasks,
                                       Terminals, WorkspaceSymbol, WriteOutcome)
from hermes.contracts.terminals import RunResult
from hermes.core.tools import Services, ToolCall, ToolError
from hermes.core.service_problems import ServiceProblem
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
            raise ServiceProblem('not-found', '"' + path + '" does not exist.')  # the fact, as host/files.py states it
        return {'text': self.texts[path], 'size': len(self.texts[path].encode())}

    async def write_text(self, path: str, text: str, must_not_exist: bool = False,
                         call: Optional[CallContext] = None) -> WriteOutcome:
        existed = path in self.texts
        if existed and must_not_exist:
            raise ServiceProblem('exists', '"' + path + '" already exists.')
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

    def __init__(self, edited: Optional[List[EditedFile]] = None, asked: Optional[List[Tuple[Any, ...]]] = None,
                 problems_after_wait: Optional[List[JsonObject]] = None) -> None:
        self.asked = asked if asked is not None else []  # (a test may share one list between fakes, for the order)
        self.applied = []  # type: List[Tuple[Any, bool]]
        self.edited = edited or []
        self.found_problems = []  # type: List[JsonObject]
        self.problems_after_wait = problems_after_wait  # what a language service reports once waited for

    async def open(self, path_text: str) -> Tuple[str, Document]:
        self.asked.append(('open', path_text))
        return ROOT + '/' + path_text, 'the document'

    async def position(self, document: Document, line: Optional[int], column: Optional[int],
                       symbol: Optional[str]) -> Position:
        self.asked.append(('position', document, line))
        return FakePosition(0 if line is None else line - 1, 0)

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
        return list(self.found_problems)

    async def wait_for_problems(self, path: str, timeout_ms: float, call: CallContext) -> Any:
        self.asked.append(('wait', timeout_ms))
        if self.problems_after_wait is not None:
            self.found_problems = self.problems_after_wait


class FakeTabs:
    """Tabs by the file they show: `tabs` {path: [tab, …]}; `done` records opening and closing in order."""

    def __init__(self, tabs: Optional[Dict[str, List[Any]]] = None) -> None:
        self.tabs = dict(tabs or {})
        self.done = []  # type: List[Tuple[Any, ...]]

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

# ------------------------------------------------------------------------------ git, settings, reviews, commands, tasks


class FakeGit:
    """git in one repository, ROOT: `outputs` {subcommand: stdout}; `ran` records (subcommand, cwd, safe)."""

    def __init__(self, outputs: Optional[Dict[str, str]] = None, read_only_allowed: bool = True) -> None:
        self.outputs = dict(outputs or {})
        self.read_only_allowed = read_only_allowed
        self.ran = []  # type: List[Tuple[str, str, bool]]

    def directory_of(self, path_text: Optional[str]) -> str:
        return ROOT

    async def gate_read_only(self, tool_name: str, shown: str, arguments: JsonObject, cwd: str, paths: List[str],
                             call: CallContext) -> bool:
        return self.read_only_allowed

    async def run_git(self, args: List[str], cwd: str, call: Optional[CallContext] = None, timeout_ms: int = 30000,
                      safe: bool = True) -> ProcessResult:
        return {'code': 0, 'stdout': await self.git_output(args, cwd, call, safe), 'stderr': '', 'error': None}

    async def git_output(self, args: List[str], cwd: str, call: Optional[CallContext] = None,
                         safe: bool = True) -> str:
        self.ran.append((args[0], cwd, safe))
        return self.outputs.get(args[0], '')

    async def repository_root(self, cwd: str, call: Optional[CallContext] = None) -> str:
        return ROOT


class FakeConfiguration:
    """Settings in a dict: `values` {key: value}; `written` records (key, value, target)."""

    def __init__(self, values: Optional[Dict[str, Json]] = None) -> None:
        self.values = dict(values or {})
        self.written = []  # type: List[Tuple[str, Json, Optional[str]]]

    def read(self, key: str) -> JsonObject:
        return {'key': key, 'value': self.values.get(key), 'known': key in self.values}

    async def write(self, key: str, value: Json, target_name: Optional[str] = None,
                    call: Optional[CallContext] = None) -> JsonObject:
        self.written.append((key, value, target_name))
        self.values[key] = value
        return self.read(key)


class FakeReviews:
    """A user who answers every diff review with `decision`; `shown` records (path, proposed text)."""

    def __init__(self, decision: ReviewDecision = 'accepted') -> None:
        self.decision = decision  # type: ReviewDecision
        self.shown = []  # type: List[Tuple[str, str]]

    async def review(self, path: str, exists: bool, proposed: str, title: str, timeout_ms: float,
                     call: CallContext) -> ReviewDecision:
        self.shown.append((path, proposed))
        return self.decision


class FakeCommands:
    """VS Code's commands: `results` {command: what it returns}; `ran` records (command, args)."""

    def __init__(self, results: Optional[Dict[str, Any]] = None) -> None:
        self.results = dict(results or {})
        self.ran = []  # type: List[Tuple[str, List[Json]]]

    async def execute(self, command: str, args: List[Json]) -> Any:
        self.ran.append((command, args))
        if command not in self.results:
            raise ToolError('command \'' + command + '\' not found')
        return self.results[command]

    async def all_commands(self) -> List[str]:
        return sorted(self.results)


class FakeTasks:
    """Tasks by label (each task is its label); running one returns `outcome`."""

    def __init__(self, labels: Optional[List[str]] = None, outcome: Optional[JsonObject] = None) -> None:
        self.labels = list(labels or [])
        self.outcome = outcome or {'exitCode': 0}
        self.ran = []  # type: List[str]

    async def fetch_tasks(self) -> List[Any]:
        return list(self.labels)

    def pick(self, tasks: List[Any], wanted: str) -> Any:
        if wanted not in tasks:
            raise ToolError('No task named "' + wanted + '".')
        return wanted

    def task_label(self, task: Any) -> str:
        return str(task)

    def command_line(self, task: Any) -> str:
        return 'run ' + str(task)

    async def run_task(self, task: Any, timeout_ms: float, call: CallContext) -> JsonObject:
        self.ran.append(str(task))
        return self.outcome

# ------------------------------------------------------------------------------ terminals and debugging


class FakeTerminals:
    """Terminals whose records the test makes (each with `id`, `label()`, `describe()`, …); `sent` and `killed`
    record what the tools did to them. No command runs: `run` answers `run_result`."""

    def __init__(self, records: Optional[List[Any]] = None, run_result: Optional[RunResult] = None) -> None:
        self.records = list(records or [])  # type: List[Any]
        self.new_terminal_wait_ms = 0
        self.run_result = run_result or {'outcome': 'no-integration', 'entry': None}  # type: RunResult
        self.sent = []  # type: List[Tuple[Any, str, bool]]
        self.killed = []  # type: List[Any]

    def shell_to_start(self, shell: Optional[str] = None) -> str:
        return 'shell: ' + (shell or 'bash')

    async def wait_for_integration(self, terminal: Any, timeout_ms: int, call: Optional[CallContext] = None) -> Any:
        return None

    def summary(self) -> str:
        return ', '.join([str(record.id) + ' "' + record.label() + '"' for record in self.records]) or 'none'

    def lookup(self, ref: Json) -> Any:
        for record in self.records:
            if ref is None or record.id == ref or record.label() == ref:
                return record
        raise ToolError('No terminal ' + str(ref) + '.')

    def create(self, name: str, cwd: Optional[str] = None, shell: Optional[str] = None, show: bool = True) -> Any:
        raise ToolError('FakeTerminals makes no terminals: give it records.')

    def terminal_for_run(self, ref: Json) -> Tuple[Any, bool]:
        return self.lookup(ref), False

    async def run(self, record: Any, command: str, timeout_ms: int, call: CallContext,
                  new_terminal: bool = False) -> RunResult:
        self.sent.append((record, command, True))
        return self.run_result

    def send(self, record: Any, text: str, enter: bool) -> bool:
        self.sent.append((record, text, enter))
        return True

    def kill(self, record: Any) -> None:
        self.killed.append(record)


class FakeDebugging:
    """No debug session (a test adds SessionState-like objects to `states`); breakpoints are kept per path in
    `breakpoints`, and `calls` records each set_breakpoints."""

    def __init__(self) -> None:
        self.states = []  # type: List[Any]
        self.order = 0
        self.seq = 0
        self.breakpoints = {}  # type: Dict[str, List[JsonObject]]
        self.calls = []  # type: List[Tuple[str, List[int], Optional[str], bool]]

    def live(self) -> List[Any]:
        return [state for state in self.states if not state.terminated]

    def launch_configuration(self, folder: Any, name: str) -> Optional[JsonObject]:
        return None

    async def request(self, state: Any, command: str, args: JsonObject) -> Any:
        return {}

    async def variables(self, state: Any, reference: int, limit: int, depth: int) -> List[JsonObject]:
        return []

    def find(self, ref: Json) -> Any:
        live = self.live()
        if len(live) == 0:
            raise ToolError('No debug session is running.')
        return live[0]

    def find_stopped(self, ref: Json) -> Any:
        return self.find(ref)

    def summary(self) -> str:
        return ', '.join([str(state) for state in self.live()]) or '(none)'

    async def wait_for(self, check: Callable[[], bool], timeout_ms: int, call: CallContext) -> bool:
        return check()

    def workspace_folder(self, name: Optional[str] = None) -> Any:
        return None

    def launch_names(self, folder: Any) -> List[str]:
        return []

    async def start(self, folder: Any, target: Json) -> bool:
        return False

    async def stop(self, session: Any = None) -> None:
        return None

    async def thread_id(self, state: Any, requested: Optional[int] = None) -> int:
        return requested or 1

    async def stack(self, state: Any, thread_id: int, levels: int) -> Tuple[List[JsonObject], int]:
        return [], 0

    def source_line(self, frame: JsonObject) -> Optional[str]:
        return None

    def breakpoints_in(self, path: str) -> List[JsonObject]:
        return self.breakpoints.get(path, [])

    def set_breakpoints(self, path: str, lines: List[int], condition: Optional[str] = None,
                        replace: bool = True) -> List[JsonObject]:
        self.calls.append((path, lines, condition, replace))
        self.breakpoints[path] = [{'line': line, 'enabled': True} for line in lines]
        return self.breakpoints[path]

# ------------------------------------------------------------------------------ running a tool on them


def run_tool(name: str, arguments: JsonObject, files: Optional[Files] = None, documents: Optional[Documents] = None,
             paths: Optional[Paths] = None, search: Optional[Search] = None, language: Optional[Language] = None,
             tabs: Optional[Tabs] = None, changes: Optional[Changes] = None, git: Optional[Git] = None,
             terminals: Optional[Terminals] = None, debugging: Optional[Debugging] = None,
             configuration: Optional[Configuration] = None, reviews: Optional[Reviews] = None,
             commands: Optional[Commands] = None, tasks: Optional[Tasks] = None,
             call: Optional[ToolCall] = None) -> CallToolResult:
    """Call tool `name` through the real registry (schema, defaults, result shape) on the given fakes; the paths
    are FakePaths() unless given; a service not given is absent (its use is the ToolError naming it). No gate: a
    tool that asks the user is refused, as in a registry without one."""
    services = Services(terminals, debugging, reviews, language, tabs, configuration, changes, git,
                        paths or FakePaths(), commands, tasks, files, documents, search)
    return asyncio.run(build_registry(None, services).call(name, arguments, call or ToolCall()))


def text(result: CallToolResult) -> str:
    """The result's text, as the model reads it."""
    item = result['content'][0]
    return item['text'] if item['type'] == 'text' else ''


def _implements() -> Tuple[Paths, Files, Documents, Search, Language, Tabs, Changes, Git, Configuration, Reviews,
                           Commands, Tasks, Terminals, Debugging]:
    """Each fake is its Protocol (mypy checks this; it never runs)."""
    files = FakeFiles()
    return (FakePaths(), files, FakeDocuments(files), FakeSearch(), FakeLanguage(), FakeTabs(), FakeChanges(),
            FakeGit(), FakeConfiguration(), FakeReviews(), FakeCommands(), FakeTasks(), FakeTerminals(),
            FakeDebugging())
