"""The host's module functions the tools use, as services (`call.services.files`, `.documents`, `.paths`, `.search`,
`.git`, `.commands`, `.tasks`): a tool imports no host module, and a test hands it a fake with the same methods
(contracts/services.py Files, Documents, Paths, …; tests/unit/service_fakes.py). Each method is the host function
of the same name; the file and search services hand those functions the window's `Disk` (host/disk.py: how local
folders are read), chosen when the services are built."""
# __pragma__('tconv')
from hermes.host.files import (stat, read_text, write_text, create_folder, delete_path, read_directory, exclude_rules,
                               relative_to_folder)
from hermes.host.documents import (open_document_for, load_document, replace_text, save_document, active_editor,
                                   show_document)
from hermes.host.confinement import shows, shown_path
from hermes.host.search import search_content, find_files
from hermes.host.disk import Disk
from hermes.host.git import DEFAULT_TIMEOUT_MS, directory_of, gate_read_only, git_output, repository_root, run_git
from hermes.host.paths import display_path, folder_paths, is_confined, resolve_path
from hermes.host.workspace import workspace_folders, workspace_name
from hermes.host.commands import all_commands, execute
from hermes.host.tasks import command_line, fetch_tasks, pick, run_task, task_label
from hermes.host.language_service import LanguageService
from hermes.host.editors import EditorTabs
from hermes.host.configuration import ConfigurationService
# __pragma__('skip')
from typing import Any, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.services import (CallContext, ContentMatches, DeleteOutcome, DirectoryEntry, Document, Editor,
                                       ExcludeRules, FileStat, FileText, FoundFiles, ProcessResult, WriteOutcome)
# __pragma__('noskip')


class GitService:
    def directory_of(self, path_text: 'Optional[str]') -> str:
        return directory_of(path_text)

    async def run_git(self, args: 'List[str]', cwd: str, call: 'Optional[CallContext]' = None,
                      timeout_ms: int = DEFAULT_TIMEOUT_MS, safe: bool = True) -> 'ProcessResult':
        return await run_git(args, cwd, call, timeout_ms, safe)

    async def git_output(self, args: 'List[str]', cwd: str, call: 'Optional[CallContext]' = None,
                         safe: bool = True) -> str:
        return await git_output(args, cwd, call, safe)

    async def repository_root(self, cwd: str, call: 'Optional[CallContext]' = None) -> str:
        return await repository_root(cwd, call)

    async def gate_read_only(self, tool_name: str, shown: str, arguments: 'JsonObject', cwd: str, paths: 'List[str]',
                             call: 'CallContext') -> bool:
        return await gate_read_only(tool_name, shown, arguments, cwd, paths, call)


class PathService:
    def folder_paths(self) -> 'List[str]':
        return folder_paths()

    def resolve_path(self, path_text: str) -> str:
        return resolve_path(path_text)

    def is_confined(self, path: str) -> bool:
        return is_confined(path)

    def display_path(self, path: str, folders: 'Optional[List[str]]' = None) -> str:
        return display_path(path, folders)

    def workspace_folders(self) -> 'List[JsonObject]':
        return workspace_folders()

    def workspace_name(self) -> 'Optional[str]':
        return workspace_name()

    def relative_to_folder(self, path: str, folders: 'Optional[List[str]]' = None) -> 'Optional[str]':
        return relative_to_folder(path, folders)


class FileService:
    def __init__(self, disk: 'Optional[Disk]' = None) -> None:
        self.disk = Disk() if disk is None else disk  # the product's choice unless one is handed in

    async def stat(self, path: str) -> 'Optional[FileStat]':
        return await stat(path, self.disk)

    async def read_text(self, path: str, max_bytes: 'Optional[int]' = None) -> 'FileText':
        return await read_text(path, max_bytes, self.disk)

    async def write_text(self, path: str, text: str, must_not_exist: bool = False,
                         call: 'Optional[CallContext]' = None) -> 'WriteOutcome':
        return await write_text(path, text, must_not_exist, call, self.disk)

    async def create_folder(self, path: str) -> None:
        await create_folder(path, self.disk)

    async def delete_path(self, path: str, recursive: bool, call: 'Optional[CallContext]' = None) -> 'DeleteOutcome':
        return await delete_path(path, recursive, call, self.disk)

    async def read_directory(self, path: str) -> 'List[DirectoryEntry]':
        return await read_directory(path, self.disk)

    def exclude_rules(self, sections: 'List[str]') -> 'ExcludeRules':
        return exclude_rules(sections)


class DocumentService:
    def open_document_for(self, path: str) -> 'Optional[Document]':
        return open_document_for(path)

    async def load_document(self, path: str, shown: str) -> 'Document':
        return await load_document(path, shown)

    async def replace_text(self, document: 'Document', planned: 'List[JsonObject]', shown: str,
                           call: 'Optional[CallContext]' = None) -> None:
        await replace_text(document, planned, shown, call)

    async def save_document(self, document: 'Document', shown: str) -> None:
        await save_document(document, shown)

    def active_editor(self) -> 'Optional[Editor]':
        return active_editor()

    async def show_document(self, path: str, shown: str, line: 'Optional[int]' = None, column: 'Optional[int]' = None,
                            end_line: 'Optional[int]' = None, end_column: 'Optional[int]' = None,
                            preview: 'Optional[bool]' = None, keep_focus: bool = False) -> 'Editor':
        return await show_document(path, shown, line, column, end_line, end_column, preview, keep_focus)

    def shown_path_of(self, document: 'Document') -> 'Optional[str]':
        """The document's shown path, or None when confinement withholds it (host/confinement.py)."""
        return shown_path(document.uri) if shows(document.uri) else None

    def file_path_of(self, document: 'Document') -> 'Optional[str]':
        return document.uri.fsPath if document.uri.scheme == 'file' else None


class SearchService:
    def __init__(self, disk: 'Optional[Disk]' = None) -> None:
        self.disk = Disk() if disk is None else disk  # also remembers where ripgrep is, once found

    async def search_content(self, query: str, options: 'JsonObject', call: 'CallContext') -> 'ContentMatches':
        return await search_content(query, options, call, self.disk)

    async def find_files(self, glob: str, base: 'Optional[str]', max_results: int, use_ignore_files: bool,
                         call: 'CallContext') -> 'FoundFiles':
        return await find_files(glob, base, max_results, use_ignore_files, call, self.disk)


class CommandService:
    async def execute(self, command: str, args: 'List[Json]') -> Any:
        return await execute(command, args)

    async def all_commands(self) -> 'List[str]':
        return await all_commands()


class TaskService:
    async def fetch_tasks(self) -> 'List[Any]':
        return await fetch_tasks()

    def pick(self, tasks: 'List[Any]', wanted: str) -> Any:
        return pick(tasks, wanted)

    def task_label(self, task: Any) -> str:
        return task_label(task)

    def command_line(self, task: Any) -> str:
        return command_line(task)

    async def run_task(self, task: Any, timeout_ms: float, call: 'CallContext') -> 'JsonObject':
        return await run_task(task, timeout_ms, call)


# __pragma__('skip')
from hermes.contracts.services import Commands, Documents, Files, Git, Paths, Search, Tasks


def _implements(git: GitService, paths: PathService, commands: CommandService, tasks: TaskService, files: FileService,
                documents: DocumentService,
                search: SearchService) -> 'tuple[Git, Paths, Commands, Tasks, Files, Documents, Search]':
    return git, paths, commands, tasks, files, documents, search  # held to contracts/services.py
# __pragma__('noskip')


class ToolServices:
    """The services only tools use, for one window: the seven above, the language service, the editor tabs and the
    settings service, built together the first time a tool reads one (core/tools.py Services `tool_side`, given by
    host/services.py): this module is a part loaded on first use (hermes/lazy_parts.py), with the modules only they
    reach (search, tasks, commands, the language features)."""

    def __init__(self, disk: 'Optional[Disk]' = None) -> None:
        self.language = LanguageService()
        self.tabs = EditorTabs()
        self.configuration = ConfigurationService()
        self.git = GitService()
        self.paths = PathService()
        self.commands = CommandService()
        self.tasks = TaskService()
        self.files = FileService(disk)
        self.documents = DocumentService()
        self.search = SearchService(disk)
