"""After Copy MCP Config for VS Code itself: offer to write the file this VS Code reads (core/client_config.py
`vscode_config_file`: `.mcp.json` from 1.140, `.vscode/mcp.json` before) into the first workspace folder.
A file that is already there is opened, never changed: it may hold other servers, and comments that a rewrite of
its JSON would lose; the copied entry is on the clipboard to paste into it."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.modules import vscode
from hermes.js.text import utf8_bytes
from hermes.core.client_config import vscode_config_file
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
if TYPE_CHECKING:
    from vscode import Uri
# __pragma__('noskip')

COPIED = 'Hermes: MCP config copied to the clipboard (it contains the access token; keep it private).'


def write_action(relative: str) -> str:
    return 'Write ' + relative


async def exists(uri: 'Uri') -> bool:
    try:
        await vscode.workspace.fs.stat(uri)
        return True
    except JsError:
        return False


async def offer_workspace_file(text: str) -> 'Optional[str]':
    """The copied message with a button that writes `text` to this VS Code's MCP file; returns what happened:
    'written', 'opened' (it existed), or None (no folder, or the user did not ask)."""
    folders = vscode.workspace.workspaceFolders
    if folders is None or len(folders) == 0:
        vscode.window.showInformationMessage(COPIED)
        return None
    relative = vscode_config_file(vscode.version)
    choice = await vscode.window.showInformationMessage(COPIED, write_action(relative))
    if choice != write_action(relative):
        return None
    uri = vscode.Uri.joinPath(folders[0].uri, *relative.split('/'))
    if await exists(uri):
        await vscode.window.showTextDocument(uri)
        vscode.window.showInformationMessage('Hermes: ' + relative + ' already exists and was left as it is: paste '
                                             'the copied entry into it.')
        return 'opened'
    try:
        if '/' in relative:
            await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folders[0].uri, relative.split('/')[0]))
        await vscode.workspace.fs.writeFile(uri, utf8_bytes(text))
    except JsError as error:
        vscode.window.showErrorMessage('Hermes: could not write ' + relative + ': ' + error_message(error) +
                                       ' The entry is still on the clipboard.')
        return None
    await vscode.window.showTextDocument(uri)
    vscode.window.showInformationMessage('Hermes: wrote ' + relative + '. It holds this window\'s access token: '
                                         'keep it out of version control.')
    return 'written'
