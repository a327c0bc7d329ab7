"""What the user sees of a terminal CLI's proposal under review (host/doors/proposals.py): a lens at the top of the file
("Claude Code proposes changes: decide each one below, then · Accept · Reject"), ✓ / ✗ in the editor title,
the commands "Accept/Reject the Agent's Proposed Changes", and the end of the review when the file's editor closes.
The hunks' own Keep/Undo marks are the change log's (ui/changes/review.py)."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.promises import spawn
from hermes.host.doors.proposals import PENDING_CONTEXT
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List, Optional
from hermes.host.doors.proposals import Proposals
if TYPE_CHECKING:
    from vscode import CodeLens, ExtensionContext, TabChangeEvent, TextDocument, Uri
# __pragma__('noskip')

ACCEPT_COMMAND = 'hermes.proposal.accept'
REJECT_COMMAND = 'hermes.proposal.reject'


def path_of(argument: Any) -> 'Optional[str]':
    """The file a command means: its argument (a path from a lens, a URI from the editor title), else the active
    editor's."""
    if argument is not None:
        if argument.fsPath is not None:
            return argument.fsPath
        return str(argument)
    editor = vscode.window.activeTextEditor
    if editor is None or editor.document.uri.scheme != 'file':
        return None
    return editor.document.uri.fsPath


class ProposalUi:
    def __init__(self, proposals: 'Proposals') -> None:
        self.proposals = proposals
        self.lenses_changed = new(vscode.EventEmitter)  # type: Any

    def refresh(self) -> None:
        self.lenses_changed.fire(None)
        self.update_context()

    def update_context(self, *ignored: Any) -> None:
        path = path_of(None)
        under_review = path is not None and self.proposals.find(path) is not None
        vscode.commands.executeCommand('setContext', PENDING_CONTEXT, under_review)

    def provide_lenses(self, document: 'TextDocument', token: Any = None) -> 'List[CodeLens]':
        if document.uri.scheme != 'file':
            return []
        entry = self.proposals.find(document.uri.fsPath)
        if entry is None:
            return []
        top = new(vscode.Range, 0, 0, 0, 0)
        path = entry['path']
        return [new(vscode.CodeLens, top, {'title': '$(hubot) ' + entry['author']['client'] + ' proposes changes: '
                                                    'decide each one below, then', 'command': ''}),
                new(vscode.CodeLens, top, {'title': '$(check) Accept', 'command': ACCEPT_COMMAND, 'arguments': [path],
                                           'tooltip': 'Answer the agent with this file as it is now'}),
                new(vscode.CodeLens, top, {'title': '$(close) Reject', 'command': REJECT_COMMAND, 'arguments': [path],
                                           'tooltip': 'Undo the proposal: the agent writes nothing'})]

    def tabs_changed(self, event: 'TabChangeEvent') -> None:
        for tab in event.closed:
            uri = None if tab.input is None else tab.input.uri
            if uri is None or uri.scheme != 'file' or self.proposals.find(uri.fsPath) is None:
                continue
            if not _still_shown(uri):
                self.proposals.editor_closed(uri.fsPath)

    def answer(self, accept: bool, argument: Any = None) -> bool:
        path = path_of(argument)
        if path is None or self.proposals.find(path) is None:
            vscode.window.showInformationMessage('Hermes: no proposed change of an agent is waiting in this editor.')
            return False
        spawn(self.proposals.accept(path) if accept else self.proposals.reject(path))
        return True

    def dispose(self) -> None:
        self.lenses_changed.dispose()


def _still_shown(uri: 'Uri') -> bool:
    for group in vscode.window.tabGroups.all:
        for tab in group.tabs:
            shown = None if tab.input is None else tab.input.uri
            if shown is not None and shown.toString() == uri.toString():
                return True
    return False


def register_proposal_ui(context: 'ExtensionContext', proposals: 'Proposals') -> 'ProposalUi':
    ui = ProposalUi(proposals)
    context.subscriptions.push(ui)
    proposals.on_change(ui.refresh)
    provider = {'provideCodeLenses': to_js_callback(ui.provide_lenses), 'onDidChangeCodeLenses': ui.lenses_changed.event}
    context.subscriptions.push(vscode.languages.registerCodeLensProvider({'scheme': 'file'}, provider))
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(to_js_callback(ui.update_context)))
    context.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs(to_js_callback(ui.tabs_changed)))
    context.subscriptions.push(vscode.commands.registerCommand(
        ACCEPT_COMMAND, to_js_callback(lambda *args: ui.answer(True, args[0] if len(args) > 0 else None))))
    context.subscriptions.push(vscode.commands.registerCommand(
        REJECT_COMMAND, to_js_callback(lambda *args: ui.answer(False, args[0] if len(args) > 0 else None))))
    return ui
