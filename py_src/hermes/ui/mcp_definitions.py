"""Lists this window's MCP server in VS Code's own MCP client (agent mode), with its auth header."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import is_none, new
from hermes.core.client_config import auth_headers

PROVIDER_ID = 'hermes.mcpServers'


def register_mcp_definitions(context, service):
    if is_none(vscode.lm) or is_none(vscode.lm.registerMcpServerDefinitionProvider):
        return None  # an older VS Code without the API: nothing to offer
    changed = new(vscode.EventEmitter)
    context.subscriptions.push(changed)
    service.on_change(lambda: changed.fire(None))

    def provide(token):
        if not service.running:
            return []
        return [new(vscode.McpHttpServerDefinition, 'Hermes (this window)', vscode.Uri.parse(service.url),
                    auth_headers(service.token))]

    provider = {'onDidChangeMcpServerDefinitions': changed.event, 'provideMcpServerDefinitions': to_js_callback(provide)}
    disposable = vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, provider)
    context.subscriptions.push(disposable)
    return disposable
