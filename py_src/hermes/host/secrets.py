"""Secrets live in VS Code's SecretStorage (the OS keychain), never in settings."""
# __pragma__('tconv')
from hermes.js.modules import node
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional
if TYPE_CHECKING:  # the type checker's vscode (typings/vscode.pyi); the test shim has no such names
    from vscode import ExtensionContext
# __pragma__('noskip')

MCP_TOKEN_KEY = 'hermes.mcp.token'


async def mcp_token(context: 'ExtensionContext') -> str:
    """The MCP bearer token: generated once (256 random bits), then the same for every window."""
    token = await context.secrets.js_get(MCP_TOKEN_KEY)
    if token is None or token == '':
        token = node('crypto').randomBytes(32).toString('hex')
        await context.secrets.store(MCP_TOKEN_KEY, token)
    return token
