"""What the Changes view says about changes Hermes saw but could not put under review exactly (core/changes/notes.py):
the view's message names the newest, "Show Notes" (view title bar, palette) lists them all and opens the chosen
file, "Dismiss Notes" clears them. The title bar's buttons show only while there are notes
(`hermes.changes.hasNotes`)."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.changes.notes import note_text, notes_message
from hermes.host.paths import display_path

# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Optional
from hermes.core.changes.notes import ChangeNotes
if TYPE_CHECKING:
    from vscode import ExtensionContext, TreeView
js_undefined = None  # in the bundle, Transcrypt turns this name into JS `undefined`
# __pragma__('noskip')

SHOW_NOTES_COMMAND = 'hermes.changes.showNotes'
DISMISS_NOTES_COMMAND = 'hermes.changes.dismissNotes'
HAS_NOTES_CONTEXT = 'hermes.changes.hasNotes'


def register_change_notes_view(context: 'ExtensionContext', notes: 'ChangeNotes', view: 'TreeView[Any]') -> None:
    """`notes`: the change log's ChangeNotes; `view`: the Changes TreeView (its `message` shows them)."""
    def show_message() -> None:
        items = notes.items
        # no message is `undefined`: an empty string still takes the view's first line
        view.message = js_undefined if len(items) == 0 else notes_message(items, display_path)
        vscode.commands.executeCommand('setContext', HAS_NOTES_CONTEXT, len(items) > 0)

    async def show_notes(*ignored: 'Any') -> 'Optional[str]':
        items = notes.items[:]
        if len(items) == 0:
            vscode.window.showInformationMessage('Hermes: every change agents made is under review; nothing to note.')
            return None
        items.reverse()
        picks = [{'label': display_path(item['path']), 'detail': note_text(item, display_path), 'path': item['path']}
                 for item in items]
        picked = await vscode.window.showQuickPick(picks, {'placeHolder': 'Changes not under review exactly (newest '
                                                           'first): choose one to open its file',
                                                           'matchOnDetail': True})
        if picked is None:
            return None
        await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(picked['path']))
        return picked['path']

    stop = notes.on_change(show_message)
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(stop)))
    context.subscriptions.push(vscode.commands.registerCommand(SHOW_NOTES_COMMAND, to_js_callback(show_notes)))
    context.subscriptions.push(vscode.commands.registerCommand(DISMISS_NOTES_COMMAND,
                                                               to_js_callback(lambda *ignored: notes.clear())))
    show_message()
