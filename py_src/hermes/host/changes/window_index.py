"""The window's one index of the workspace (host/changes/workspace_index.py WorkspaceIndex: one watcher, one copy of
the small texts, one walk), handed at activation to every user of spans of disk changes — the ACP sessions, the
doors, `terminal_run` — which ask it for the index when they need it. The index's module is a part
(hermes/lazy_parts.py): loaded, and the index made, the first time a user asks; disposed with the window."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.parts import load_part
from hermes.host.paths import folder_paths
from hermes.host.changes.log import SEAM_TIMERS
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional
from hermes.host.changes.workspace_index import WorkspaceIndex
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


class WindowIndex:
    """`context`: the window's (the index is disposed with it); `make()`: the index (tests hand one with a fake disk
    or timers; else the part's, on SEAM_TIMERS)."""

    def __init__(self, context: 'Optional[ExtensionContext]',
                 make: 'Optional[Callable[[], WorkspaceIndex]]' = None) -> None:
        self.context = context
        self.make = make
        self.made = None  # type: Optional[WorkspaceIndex]

    def index(self) -> 'WorkspaceIndex':
        if self.made is None:
            made = load_part('hermes.host.changes.workspace_index').WorkspaceIndex(None, SEAM_TIMERS) \
                if self.make is None else self.make()  # type: WorkspaceIndex
            if self.context is not None:
                self.context.subscriptions.push(new(vscode.Disposable, to_js_callback(made.dispose)))
            self.made = made
        return self.made

    def warm(self) -> None:
        """A user of the index appeared: it walks the workspace in the background, so the first span finds it ready."""
        self.index().warm(folder_paths())

    def ready(self) -> 'Optional[Awaitable[Any]]':
        """None when a span can start at once; else a promise to await first (the walk in the background, begun now
        if need be: the host is held a slice at a time, not a whole walk)."""
        return self.index().ready(folder_paths())
