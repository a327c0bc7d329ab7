"""Commands. Every one goes through `register_command`, so a Python exception in a handler reaches
VS Code as a real Error and the registration is disposed on deactivate."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.promises import spawn
from hermes.core.client_config import clients_for, snippet_for, all_snippets
from hermes.ui.mcp.config_file import COPIED, offer_workspace_file
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Optional
from hermes.host.log import Log
from hermes.host.mcp.service import McpService
if TYPE_CHECKING:
    from vscode import Disposable, ExtensionContext
# __pragma__('noskip')

COPY_CONFIG_ACTION = 'Copy MCP Config'
SHOW_LOG_ACTION = 'Show Log'


def register_command(context: 'ExtensionContext', command_id: str, handler: 'Callable[..., Any]') -> 'Disposable':
    disposable = vscode.commands.registerCommand(command_id, to_js_callback(handler))
    context.subscriptions.push(disposable)
    return disposable


def register_mcp_commands(context: 'ExtensionContext', log: 'Log', service: 'McpService') -> None:
    async def show_status() -> str:
        await service.started()
        text = service.describe()
        log.info(text)
        actions = [COPY_CONFIG_ACTION, SHOW_LOG_ACTION] if service.running else [SHOW_LOG_ACTION]
        if service.running:
            choice = await vscode.window.showInformationMessage(text, *actions)
        else:
            choice = await vscode.window.showWarningMessage(text, *actions)
        if choice == COPY_CONFIG_ACTION:
            await vscode.commands.executeCommand('hermes.copyMcpConfig')
        elif choice == SHOW_LOG_ACTION:
            log.show()
        return text

    async def copy_config(client: 'Optional[str]' = None) -> 'Optional[str]':
        """Copy a client snippet; `client` (a name in core/client_config.py CLIENTS, or 'all') skips the picker."""
        await service.started()
        url = service.url
        if not service.running or url is None:
            vscode.window.showErrorMessage(service.describe())
            return None
        if client is None:
            picks = [{'label': entry[1], 'client': entry[0]} for entry in clients_for(vscode.version)]
            picks.append({'label': 'All of the above', 'client': 'all'})
            picked = await vscode.window.showQuickPick(picks, {'placeHolder': 'Which MCP client should connect '
                                                                              'to this window?'})
            if picked is None:
                return None
            client = picked['client']
        if service.forwarded_url is not None:  # hermes.mcp.forwardedAddress: the client may be on the other side
            where = await vscode.window.showQuickPick([
                {'label': 'On the machine this window runs on', 'description': url, 'url': url},
                {'label': 'On your own machine (the address VS Code forwards)', 'description': service.forwarded_url,
                 'url': service.forwarded_url}], {'placeHolder': 'Where does the MCP client run?'})
            if where is None:
                return None
            url = where['url']
        text = all_snippets(url, service.token) if client == 'all' else snippet_for(client, url, service.token)
        await vscode.env.clipboard.writeText(text)
        if client == 'vscode' or client == 'vscode-portable':
            spawn(offer_workspace_file(text))  # the command ends now; the offer waits for the user's click
        else:
            vscode.window.showInformationMessage(COPIED)
        return text

    register_command(context, 'hermes.showMcpStatus', show_status)
    register_command(context, 'hermes.copyMcpConfig', copy_config)
