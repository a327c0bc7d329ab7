"""Proposed changes shown in VS Code's diff view, waiting for the user's verdict.

The proposal is a read-only virtual document (scheme `hermes-proposed`) on the right of a diff
against the file. The user answers with the ✓ / ✗ actions in the diff editor's title bar or the
"Hermes: Accept/Reject Proposed Change" commands; closing the diff or the progress notification's
Cancel rejects. A timeout or the caller cancelling ends the wait too. Registered once at activation
(host/services.py); editor_open_diff reaches it as `call.services.reviews`.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError, to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.promises import make_promise
from hermes.js.timers import clear_timer, set_timer
from hermes.core.tools import ToolError
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Protocol
from hermes.contracts.json import JsonObject
from hermes.contracts.services import ReviewDecision
if TYPE_CHECKING:
    from vscode import ExtensionContext, TabChangeEvent, Uri


class Cancellable(Protocol):
    """What a review needs of its caller: a tool's call, or a door's request (host/doors/proposals.py)."""
    def on_cancel(self, callback: 'Callable[[], Any]') -> 'Callable[[], None]': ...
# __pragma__('noskip')

SCHEME = 'hermes-proposed'
ACCEPT_COMMAND = 'hermes.diff.accept'
REJECT_COMMAND = 'hermes.diff.reject'
PENDING_CONTEXT = 'hermes.diffPending'


class DiffReviews:
    def __init__(self) -> None:
        self.pending = []  # type: List[JsonObject]
        self.contents = {}  # type: Dict[str, str]  # 'k:' + uri → text (the prefix keeps URIs clear of dict members)
        self.counter = 0

    def provide(self, uri: 'Uri', token: Any = None) -> str:
        key = 'k:' + uri.toString()
        return self.contents[key] if key in self.contents else ''

    def virtual_uri(self, path: str, query: str) -> 'Uri':
        return vscode.Uri.js_from({'scheme': SCHEME, 'path': path, 'query': query})

    async def review(self, path: str, exists: bool, proposed: str, title: str, timeout_ms: float,
                     call: 'Cancellable') -> 'ReviewDecision':
        """Show the diff and wait: 'accepted', 'rejected', 'timeout' or 'cancelled'."""
        self.counter += 1
        number = str(self.counter)
        right = self.virtual_uri(path, 'proposal=' + number)
        left = vscode.Uri.file(path) if exists else self.virtual_uri(path, 'original=' + number)
        self.contents['k:' + right.toString()] = proposed
        if not exists:
            self.contents['k:' + left.toString()] = ''
        entry = {'right': right.toString(), 'left': left.toString(), 'path': path, 'settled': False,
                 'resolve': None, 'cleanup': []}  # type: JsonObject
        decision = make_promise(lambda resolve, reject: self._track(entry, resolve, timeout_ms, call))
        try:
            await vscode.commands.executeCommand('vscode.diff', left, right, title, {'preview': False})
        except JsError as error:
            self.settle(entry, 'cancelled')
            raise ToolError('VS Code could not open the diff view: ' + str(error))
        if entry['settled']:  # it ended (timeout, cancel) while VS Code was still opening the diff: close that too
            self._close_tabs(entry)
        else:
            self._notify(entry, title)
        return await decision

    def _track(self, entry: 'JsonObject', resolve: 'Callable[[ReviewDecision], None]', timeout_ms: float,
               call: 'Cancellable') -> None:
        entry['resolve'] = resolve
        self.pending.append(entry)
        self._update_context()
        timer = set_timer(lambda: self.settle(entry, 'timeout'), timeout_ms)
        entry['cleanup'].append(lambda: clear_timer(timer))
        entry['cleanup'].append(call.on_cancel(lambda: self.settle(entry, 'cancelled')))

    def _notify(self, entry: 'JsonObject', title: str) -> None:
        """A progress notification that lasts as long as the review; its Cancel button rejects."""
        def task(progress: Any, token: Any) -> Any:
            token.onCancellationRequested(lambda event: self.settle(entry, 'rejected'))
            return make_promise(lambda resolve, reject: entry['cleanup'].append(lambda: resolve(None)))
        vscode.window.withProgress({'location': vscode.ProgressLocation.Notification, 'cancellable': True,
                                    'title': title + ': accept (✓) or reject (✗) in the diff editor title bar'},
                                   to_js_callback(task))

    def settle(self, entry: 'JsonObject', decision: 'ReviewDecision') -> None:
        if entry['settled']:
            return
        entry['settled'] = True
        self.pending = [item for item in self.pending if item is not entry]
        self._update_context()
        for cleanup in entry['cleanup']:
            cleanup()
        self._close_tabs(entry)
        for key in ['k:' + entry['right'], 'k:' + entry['left']]:
            if key in self.contents:
                del self.contents[key]
        entry['resolve'](decision)

    def _close_tabs(self, entry: 'JsonObject') -> None:
        for group in vscode.window.tabGroups.all:
            for tab in group.tabs:
                modified = None if tab.input is None else tab.input.modified
                if modified is not None and modified.toString() == entry['right']:
                    vscode.window.tabGroups.close(tab)

    def _update_context(self) -> None:
        vscode.commands.executeCommand('setContext', PENDING_CONTEXT, len(self.pending) > 0)

    def find(self, uri: Any = None) -> 'Optional[JsonObject]':
        """The review a command means: the one whose diff it was run on, else the active diff's, else
        the newest."""
        wanted = None  # type: Optional[str]
        if uri is not None and uri.toString is not None:
            wanted = uri.toString()
        else:
            group = vscode.window.tabGroups.activeTabGroup
            tab = None if group is None else group.activeTab
            if tab is not None and tab.input is not None and tab.input.modified is not None:
                wanted = tab.input.modified.toString()
        for entry in self.pending:
            if entry['right'] == wanted or entry['left'] == wanted:
                return entry
        return self.pending[len(self.pending) - 1] if len(self.pending) > 0 else None

    def answer(self, decision: 'ReviewDecision', uri: Any = None) -> bool:
        entry = self.find(uri)
        if entry is None:
            vscode.window.showInformationMessage('Hermes: no proposed change is waiting for an answer.')
            return False
        self.settle(entry, decision)
        return True

    def on_tabs_changed(self, event: 'TabChangeEvent') -> None:
        for tab in event.closed:
            modified = None if tab.input is None else tab.input.modified
            if modified is None:
                continue
            for entry in self.pending[:]:
                if entry['right'] == modified.toString():
                    self.settle(entry, 'rejected')


def register_diff_review(context: 'ExtensionContext') -> 'DiffReviews':
    reviews = DiffReviews()
    provider = {'provideTextDocumentContent': to_js_callback(reviews.provide)}
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider))
    context.subscriptions.push(vscode.commands.registerCommand(ACCEPT_COMMAND, answer_command(reviews, 'accepted')))
    context.subscriptions.push(vscode.commands.registerCommand(REJECT_COMMAND, answer_command(reviews, 'rejected')))
    context.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs(to_js_callback(reviews.on_tabs_changed)))
    context.subscriptions.push(new(vscode.Disposable, ending(reviews)))
    return reviews


def answer_command(reviews: 'DiffReviews', decision: 'ReviewDecision') -> 'Callable[..., Any]':
    """A command handler: from the editor title VS Code passes the diff's URI (and more); from the
    palette nothing."""
    def handler(*args: Any) -> bool:
        return reviews.answer(decision, args[0] if len(args) > 0 else None)
    return to_js_callback(handler)


def ending(reviews: 'DiffReviews') -> 'Callable[[], None]':
    """On deactivate: every waiting review ends as cancelled."""
    def dispose() -> None:
        for entry in reviews.pending[:]:
            reviews.settle(entry, 'cancelled')
    return dispose
