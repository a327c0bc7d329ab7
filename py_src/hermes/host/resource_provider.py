"""The host side of MCP resources, prompts and completions: what core/mcp/resources.py,
core/mcp/prompts.py and core/completions.py ask the window for, answered from VS Code (one object,
so the three share the same path rules and the same recent-files list)."""
# __pragma__('tconv')
from hermes.core.changes.report import agent_view
from hermes.js.modules import vscode
from hermes.js.promises import next_turn
from hermes.host.paths import resolve_path, display_path
from hermes.host.confinement import confined_paths
from hermes.host.files import read_text, exclude_patterns
from hermes.host.editor_state import (active_editor, selection, tabs, diagnostics, workspace, terminal_list,
                                      terminal_output)

MAX_COMPLETION_FILES = 5000
CONFINE_SLICE = 1000  # completion candidates checked per turn of the event loop

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.contracts.json import JsonObject
from hermes.contracts.services import FileText
from hermes.host.recent_files import RecentFiles
from hermes.host.terminals import TerminalService
if TYPE_CHECKING:
    from hermes.host.changes.log import ChangeLog
js_undefined = None  # in the bundle, Transcrypt turns this name into JS `undefined`
# __pragma__('noskip')


class HostResources:
    def __init__(self, recent_files: 'RecentFiles', terminal_service: 'TerminalService',
                 change_log: 'Optional[ChangeLog]' = None) -> None:
        self.recent = recent_files
        self.terminal_service = terminal_service  # the window's TerminalService (host/terminals.py)
        self.change_log = change_log  # the window's ChangeLog (host/changes/log.py); None: nothing is recorded

    # resources
    def active_editor(self) -> 'Optional[JsonObject]':
        return active_editor()

    def selection(self) -> 'Optional[JsonObject]':
        return selection()

    def tabs(self) -> 'JsonObject':
        return tabs()

    def diagnostics(self) -> 'JsonObject':
        return diagnostics()

    async def workspace(self) -> 'JsonObject':
        return await workspace()

    def terminals(self) -> 'List[JsonObject]':
        return terminal_list(self.terminal_service)

    def changes(self) -> 'JsonObject':
        """The change log as agents read it (core/changes/report.py agent_view)."""
        if self.change_log is None:
            return agent_view([], [], False)
        return self.change_log.for_agents(None, True)

    def terminal_output(self, terminal_id: Any) -> 'Optional[str]':
        return terminal_output(self.terminal_service, terminal_id)

    # files: the same confinement and limits as the file tools
    def confine(self, path_text: str) -> str:
        return resolve_path(path_text)

    async def read_file(self, path: str) -> 'FileText':
        return await read_text(resolve_path(path))

    def file_uri(self, path: str) -> str:
        return vscode.Uri.file(path).toString()

    def display_path(self, path: str) -> str:
        return display_path(path)

    # completions
    def recent_files(self) -> 'List[str]':
        return list(self.recent.paths)

    async def workspace_files(self) -> 'List[str]':
        excluded = exclude_patterns(['files.exclude', 'search.exclude'])['plain']
        # undefined (not null, which switches files.exclude off) when there is nothing to exclude
        exclude = js_undefined if len(excluded) == 0 else '{' + ','.join(excluded) + '}'
        uris = await vscode.workspace.findFiles('**/*', exclude, MAX_COMPLETION_FILES)
        # Each step in a turn of the event loop of its own: findFiles' answer lands at the end of VS Code's own work
        # on it, and checking 5,000 paths, then ranking them, added to that task (up to 146 ms in a workspace of
        # 100,000 files, tests/bench/large_repo_bench.py).
        files = [uri.fsPath for uri in uris if uri.scheme == 'file']
        paths = []
        # findFiles follows symlinks: only what is really inside is offered (confinement.py), checked a slice per
        # turn (an lstat each: 5,000 at once took 15-28 ms)
        for start in range(0, len(files), CONFINE_SLICE):
            await next_turn()
            paths.extend(confined_paths(files[start:start + CONFINE_SLICE]))
        await next_turn()
        return paths
