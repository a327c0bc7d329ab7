"""The VS Code window as the tools and front ends see it, one Protocol per concern, implemented by host/.

A Protocol is checked structurally: `host/terminals.py TerminalService` is a `Terminals` because it has the
methods, not because it names the Protocol (nothing in the bundle may import this module). The host's module
functions are offered as services by thin classes (host/tool_services.py FileService is a `Files`). A tool test
hands a tool the typed fakes of tests/unit/service_fakes.py, which mypy holds to these Protocols.

VS Code's own objects (TextDocument, Position, Uri, Terminal, DebugSession, WorkspaceEdit) are `Any` here:
their types live in VS Code's .d.ts, not in Python."""
# __pragma__('skip')
from typing import Any, Callable, List, Literal, Optional, Protocol, Tuple, TypedDict

from hermes.contracts.json import Json, JsonObject
from hermes.contracts.loop import ChangeAuthor, ConfirmationState
from hermes.contracts.terminals import RunResult, TerminalView

Document = Any  # vscode.TextDocument
Position = Any  # vscode.Position
Editor = Any  # vscode.TextEditor
Unsubscribe = Callable[[], None]

# ------------------------------------------------------------------------------ a tool call


class CallContext(Protocol):
    """What a running handler may do besides computing its result (core/tools.py ToolCall): the window's services
    (`services`), asking the user again (`confirm`), progress, logs, cancellation, and who is calling (`author`)."""
    confirmation: ConfirmationState
    gate: Optional['Approval']
    author: Optional[ChangeAuthor]

    @property
    def services(self) -> 'WindowServices': ...

    @property
    def cancelled(self) -> bool: ...

    @property
    def confirmed(self) -> bool: ...

    async def confirm(self, tool_name: str, title: str, arguments: JsonObject,
                      key: Optional[str] = None) -> Optional[str]: ...

    def progress(self, progress: float, total: Optional[float] = None, message: Optional[str] = None) -> None: ...

    def log(self, level: str, message: str) -> None: ...

    def on_cancel(self, callback: Callable[[], None]) -> Unsubscribe: ...

    def set_confirmation(self, state: ConfirmationState) -> None: ...

# ------------------------------------------------------------------------------ files and paths


FileKind = Literal['file', 'directory', 'other']


class FileStat(TypedDict):
    kind: FileKind
    symlink: bool
    size: int
    mtime: float


class DirectoryEntry(TypedDict):
    name: str
    kind: FileKind
    symlink: bool


class FileText(TypedDict):
    text: str
    size: int  # bytes on disk


WriteOutcome = Literal['created', 'replaced']
DeleteOutcome = Literal['trash', 'undoable']


class ExcludeRules(Protocol):
    """A settings section's exclude globs (`files.exclude`) as VS Code's explorer applies them."""

    def excludes(self, relative_path: str, sibling_names: List[str]) -> bool: ...


class Files(Protocol):
    """Files on disk through VS Code's file system (host/tool_services.py FileService over host/files.py): confined
    paths in, ToolError out. A write or deletion given the tool's `call` is checked against and recorded in the
    change log."""

    async def stat(self, path: str) -> Optional[FileStat]: ...

    async def read_text(self, path: str, max_bytes: Optional[int] = None) -> FileText: ...

    async def write_text(self, path: str, text: str, must_not_exist: bool = False,
                         call: Optional['CallContext'] = None) -> WriteOutcome: ...

    async def create_folder(self, path: str) -> None: ...

    async def delete_path(self, path: str, recursive: bool, call: Optional['CallContext'] = None) -> DeleteOutcome: ...

    async def read_directory(self, path: str) -> List[DirectoryEntry]: ...

    def exclude_rules(self, sections: List[str]) -> ExcludeRules: ...


class Paths(Protocol):
    """Where a tool argument points (host/tool_services.py PathService over host/paths.py): workspace confinement
    and how paths are shown."""

    def folder_paths(self) -> List[str]: ...

    def resolve_path(self, path_text: str) -> str: ...

    def is_confined(self, path: str) -> bool: ...

    def display_path(self, path: str, folders: Optional[List[str]] = None) -> str: ...

    def workspace_folders(self) -> List[JsonObject]: ...

    def workspace_name(self) -> Optional[str]: ...

    def relative_to_folder(self, path: str, folders: Optional[List[str]] = None) -> Optional[str]: ...


class Documents(Protocol):
    """Open documents and editors (host/tool_services.py DocumentService over host/documents.py)."""

    def open_document_for(self, path: str) -> Optional[Document]: ...

    async def load_document(self, path: str, shown: str) -> Document: ...

    async def replace_text(self, document: Document, planned: List[JsonObject], shown: str,
                           call: Optional['CallContext'] = None) -> None: ...

    async def save_document(self, document: Document, shown: str) -> None: ...

    def active_editor(self) -> Optional[Editor]: ...

    async def show_document(self, path: str, shown: str, line: Optional[int] = None, column: Optional[int] = None,
                            end_line: Optional[int] = None, end_column: Optional[int] = None,
                            preview: Optional[bool] = None, keep_focus: bool = False) -> Editor: ...

    def shown_path_of(self, document: Document) -> Optional[str]:
        """What the document is called for a model (host/confinement.py shown_path), or None when its path and
        text are withheld (a file outside the workspace, a settings file, an output channel)."""

    def file_path_of(self, document: Document) -> Optional[str]:
        """The path of a document of a file on disk (the change log's key), None for any other document."""


class Commands(Protocol):
    """VS Code's commands (host/tool_services.py CommandService over host/commands.py)."""

    async def execute(self, command: str, args: List[Json]) -> Any: ...

    async def all_commands(self) -> List[str]: ...


class Tasks(Protocol):
    """The workspace's tasks (host/tool_services.py TaskService over host/tasks.py)."""

    async def fetch_tasks(self) -> List[Any]: ...

    def pick(self, tasks: List[Any], wanted: str) -> Any: ...

    def task_label(self, task: Any) -> str: ...

    def command_line(self, task: Any) -> str: ...

    async def run_task(self, task: Any, timeout_ms: float, call: CallContext) -> JsonObject: ...

# ------------------------------------------------------------------------------ git and search


class _ProcessResultBase(TypedDict):
    code: Optional[int]
    stdout: str
    stderr: str
    error: Optional[str]


class ProcessResult(_ProcessResultBase, total=False):
    """A program's end (js/child_process.py start_process): its exit code or the signal that ended it, its output
    (cut at the limit: `truncated`), whether the time ran out, or why it could not start (`error`)."""
    signal: Optional[str]
    timedOut: bool
    truncated: bool


class Git(Protocol):
    """git in a workspace folder (host/tool_services.py GitService over host/git.py); read-only commands run with a
    safe configuration."""

    def directory_of(self, path_text: Optional[str]) -> str: ...

    async def gate_read_only(self, tool_name: str, shown: str, arguments: JsonObject, cwd: str, paths: List[str],
                             call: CallContext) -> bool: ...

    async def run_git(self, args: List[str], cwd: str, call: Optional[CallContext] = None,
                      timeout_ms: int = ..., safe: bool = True) -> ProcessResult: ...

    async def git_output(self, args: List[str], cwd: str, call: Optional[CallContext] = None,
                         safe: bool = True) -> str: ...

    async def repository_root(self, cwd: str, call: Optional[CallContext] = None) -> str: ...


class ContentMatches(TypedDict):
    files: List[JsonObject]
    matches: int
    truncated: bool
    warnings: Optional[str]


class FoundFiles(TypedDict):
    paths: List[str]
    truncated: bool
    ignore_files_applied: bool


class Search(Protocol):
    """Searching the workspace (host/search.py): ripgrep where it can, VS Code's findFiles elsewhere."""

    async def search_content(self, query: str, options: JsonObject, call: CallContext) -> ContentMatches: ...

    async def find_files(self, glob: str, base: Optional[str], max_results: int, use_ignore_files: bool,
                         call: CallContext) -> FoundFiles: ...

# ------------------------------------------------------------------------------ the window's services


class Terminals(Protocol):
    """The window's terminals and what ran in them (host/terminals.py TerminalService)."""
    records: List[Any]  # the terminals this window knows, oldest first
    new_terminal_wait_ms: int  # how long a new terminal's shell integration is waited for

    def shell_to_start(self, shell: Optional[str] = None) -> str: ...

    async def wait_for_integration(self, terminal: Any, timeout_ms: int, call: Optional[CallContext] = None) -> Any: ...

    def summary(self) -> str: ...

    def lookup(self, ref: Json) -> Any: ...

    def create(self, name: str, cwd: Optional[str] = None, shell: Optional[str] = None, show: bool = True) -> Any: ...

    def terminal_for_run(self, ref: Json) -> Tuple[Any, bool]: ...

    async def run(self, record: Any, command: str, timeout_ms: int, call: CallContext,
                  new_terminal: bool = False) -> RunResult: ...

    def send(self, record: Any, text: str, enter: bool) -> bool: ...

    def kill(self, record: Any) -> None: ...


class Debugging(Protocol):
    """Debug sessions, breakpoints and the state of a stopped program (host/debugging.py DebugService)."""
    states: List[Any]  # every session seen (SessionState), oldest first
    order: int  # sessions started so far: a new one's `order` is higher
    seq: int  # stops and ends so far, so a waiter can ask "anything since N?"

    def live(self) -> List[Any]: ...

    def launch_configuration(self, folder: Any, name: str) -> Optional[JsonObject]: ...

    async def request(self, state: Any, command: str, args: JsonObject) -> Any: ...

    async def variables(self, state: Any, reference: int, limit: int, depth: int) -> List[JsonObject]: ...

    def find(self, ref: Json) -> Any: ...

    def find_stopped(self, ref: Json) -> Any: ...

    def summary(self) -> str: ...

    async def wait_for(self, check: Callable[[], bool], timeout_ms: int, call: CallContext) -> bool: ...

    def workspace_folder(self, name: Optional[str] = None) -> Any: ...

    def launch_names(self, folder: Any) -> List[str]: ...

    async def start(self, folder: Any, target: Json) -> bool: ...

    async def stop(self, session: Any = None) -> None: ...

    async def thread_id(self, state: Any, requested: Optional[int] = None) -> int: ...

    async def stack(self, state: Any, thread_id: int, levels: int) -> Tuple[List[JsonObject], int]: ...

    def source_line(self, frame: JsonObject) -> Optional[str]: ...

    def breakpoints_in(self, path: str) -> List[JsonObject]: ...

    def set_breakpoints(self, path: str, lines: List[int], condition: Optional[str] = None,
                        replace: bool = True) -> List[JsonObject]: ...


class WorkspaceSymbol(TypedDict):
    """A symbol of the workspace: its name, kind ('class', 'function', …), container and location (a location
    dict: 'path', 'uri', 'line', 'column', …)."""
    name: str
    kind: str
    container: Optional[str]
    location: JsonObject


class EditedFile(TypedDict):
    """A file a WorkspaceEdit changes: its shown path (None: outside the workspace, not to be named) and how many
    text edits it gets."""
    path: Optional[str]
    edits: int


class Language(Protocol):
    """What the language extensions answer about a file, the edits they make, the problems
    (host/language_service.py LanguageService)."""

    async def open(self, path_text: str) -> Tuple[str, Document]: ...

    async def position(self, document: Document, line: Optional[int], column: Optional[int],
                       symbol: Optional[str]) -> Position: ...

    async def definitions(self, document: Document, position: Position) -> List[JsonObject]: ...

    async def references(self, document: Document, position: Position) -> List[JsonObject]: ...

    async def hover(self, document: Document, position: Position) -> str: ...

    async def outline(self, document: Document) -> List[JsonObject]: ...

    async def workspace_symbols(self, query: str) -> List['WorkspaceSymbol']: ...

    async def previews(self, locations: List[JsonObject], limit: int) -> None: ...

    async def rename_edit(self, document: Document, position: Position, new_name: str) -> Any: ...

    def edited_files(self, edit: Any) -> List['EditedFile']: ...

    async def apply(self, edit: Any, save: bool, call: Optional[CallContext] = None) -> bool: ...

    def problems(self, path: Optional[str] = None, min_severity: str = 'hint') -> List[JsonObject]: ...

    async def wait_for_problems(self, path: str, timeout_ms: float, call: CallContext) -> Any: ...


class Tabs(Protocol):
    """The editor tabs (host/editors.py EditorTabs)."""

    def described(self) -> List[JsonObject]: ...

    def showing(self, path: str) -> List[Any]: ...

    async def open_in_background(self, path: str, shown: str) -> None: ...

    async def close(self, tabs: List[Any]) -> None: ...


class Configuration(Protocol):
    """Any extension's settings (host/configuration.py ConfigurationService)."""

    def read(self, key: str) -> JsonObject: ...

    async def write(self, key: str, value: Json, target_name: Optional[str] = None,
                    call: Optional[CallContext] = None) -> JsonObject: ...


class Changes(Protocol):
    """What agents changed through Hermes and what the user kept or undid (host/changes/log.py ChangeLog), as the
    tools see it."""

    def for_agents(self, wanted: Optional[JsonObject] = None, include_lines: bool = True) -> JsonObject: ...

    def note_read(self, client: str, path: str) -> None: ...


ReviewDecision = Literal['accepted', 'rejected', 'timeout', 'cancelled']


class Reviews(Protocol):
    """Proposed file changes shown as a diff for the user to accept or reject (host/doors/diff_review.py)."""

    async def review(self, path: str, exists: bool, proposed: str, title: str, timeout_ms: float,
                     call: CallContext) -> ReviewDecision: ...


class Approval(Protocol):
    """The confirmation gate every front end shares (host/approval.py Approver): None to go ahead, or the text
    of a refusal the model reads as the tool's result."""

    def would_ask(self, tool: Any, arguments: Optional[JsonObject] = None) -> bool: ...

    async def approve(self, tool: Any, arguments: JsonObject, call: CallContext) -> Optional[str]: ...

    async def confirm(self, tool_name: str, title: str, arguments: JsonObject, call: CallContext,
                      key: Optional[str] = None) -> Optional[str]: ...


# ------------------------------------------------------------------------------ all of them, as a call has them


class WindowServices(Protocol):
    """The window's services a tool call carries (`call.services`, core/tools.py Services): each one a Protocol
    above, built once by host/services.py register_services; one a registry was built without raises a ToolError
    naming it."""

    @property
    def files(self) -> Files: ...

    @property
    def documents(self) -> Documents: ...

    @property
    def paths(self) -> Paths: ...

    @property
    def search(self) -> Search: ...

    @property
    def git(self) -> Git: ...

    @property
    def terminals(self) -> Terminals: ...

    @property
    def debugging(self) -> Debugging: ...

    @property
    def language(self) -> Language: ...

    @property
    def tabs(self) -> Tabs: ...

    @property
    def configuration(self) -> Configuration: ...

    @property
    def reviews(self) -> Reviews: ...

    @property
    def commands(self) -> Commands: ...

    @property
    def tasks(self) -> Tasks: ...

    @property
    def changes(self) -> Changes: ...

    @property
    def change_log_or_none(self) -> Optional[Any]: ...
# __pragma__('noskip')
