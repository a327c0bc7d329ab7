"""The window's services, built once at activation and passed on, never fetched from a module: the
registry hands them to every tool call (`call.services`, core/tools.py `Services`), the MCP resources get
the terminals by constructor (host/mcp/features.py). Those only tools use (host/tool_services.py ToolServices) are
built the first time a tool reads one, from a part loaded then (hermes/lazy_parts.py)."""
# __pragma__('tconv')
from hermes.core.tools import Services
from hermes.host.debugging import register_debugging
from hermes.js.modules import vscode
from hermes.host.disk import Disk
from hermes.host.changes.log import ChangeLog, ANNOUNCE_QUIET_MS
from hermes.host.changes.files import EditorFiles
from hermes.host.changes.store import ChangeStore, change_store_path
from hermes.host.settings import setting
from hermes.js.parts import load_part
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
from hermes.host.doors.diff_review import DiffReviews
from hermes.host.terminals import TerminalService
from hermes.host.tool_services import ToolServices
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


def register_services(context: 'ExtensionContext', terminals: 'TerminalService', reviews: 'DiffReviews',
                      change_log: 'ChangeLog', disk: 'Optional[Disk]' = None) -> 'Services':
    """Start each service (its listeners' disposables go into `context.subscriptions`) and return them. `terminals`,
    `reviews`, `change_log`: the window's (register_terminals, register_diff_review, register_change_log), which
    activate() also hands other features as what they are (`Services` gives each tool the Protocol it needs).
    `disk`: how local folders are read (host/disk.py Disk; the product's choice when None), shared by the file and
    search services (so ripgrep is looked for once)."""
    disk = Disk() if disk is None else disk

    def tool_side() -> 'ToolServices':  # the host side of the tools, from a part loaded on the first tool's use of it
        return load_part('hermes.host.tool_services').ToolServices(disk)
    return Services(terminals, register_debugging(context), reviews, None, None, None, change_log, None, None, None,
                    None, None, None, None, tool_side)


def register_change_log(context: 'ExtensionContext') -> 'ChangeLog':
    """The workspace's change log (host/changes/log.py), loaded from its storage and saved on dispose. Its listeners
    (the review UI, sessions, the panel, hermes://changes) hear a burst of changes once it pauses (ANNOUNCE_QUIET_MS):
    after the tool's reply."""
    reported = []  # type: List[str]

    def report(text: str) -> None:
        if text in reported:  # each problem once per window
            return
        reported.append(text)
        vscode.window.showWarningMessage(text)
    log = ChangeLog(EditorFiles(), ChangeStore(change_store_path(context), report), setting, report,
                    announce_quiet_ms=ANNOUNCE_QUIET_MS)
    context.subscriptions.push(log)
    return log
