"""Lists this window's MCP server in VS Code's own MCP client (agent mode), with its auth header."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.core.client_config import auth_headers
# __pragma__('skip')
from typing import TYPE_CHECKING, List, Optional
from hermes.host.mcp.service import McpService
if TYPE_CHECKING:
    from vscode import CancellationToken, Disposable, EventEmitter, ExtensionContext, McpHttpServerDefinition
# __pragma__('noskip')

PROVIDER_ID = 'hermes.mcpServers'


def register_mcp_definitions(context: 'ExtensionContext', service: 'McpService') -> 'Optional[Disposable]':
    if vscode.lm is None or vscode.lm.registerMcpServerDefinitionProvider is None:
        return None  # an older VS Code without the API: nothing to offer
    changed = new(vscode.EventEmitter)  # type: EventEmitter[None]
    context.subscriptions.push(changed)
    service.on_change(lambda: changed.fire(None))

    def provide(token: 'CancellationToken') -> 'List[McpHttpServerDefinition]':
        url = service.url
        if not service.running or url is None:
            return []
        return [new(vscode.McpHttpServerDefinition, 'Hermes (this window)', vscode.Uri.parse(url),
                    auth_headers(service.token))]

    provider = {'onDidChangeMcpServerDefinitions': changed.event, 'provideMcpServerDefinitions': to_js_callback(provide)}
    disposable = vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, provider)
    context.subscriptions.push(disposable)
    return disposable
