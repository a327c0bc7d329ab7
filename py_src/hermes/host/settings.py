"""Typed access to `hermes.*` settings; defaults mirror package.json's contributes.configuration."""
# __pragma__('tconv')
from hermes.js import vscode, is_none

DEFAULTS = {
    'mcp.enabled': True,
    'mcp.port': 19999,
    'mcp.auth': 'token',
    'tools.confirm': 'destructive',
    'tools.allowOutsideWorkspace': False,
    'llm.endpoint': 'http://127.0.0.1:11434/v1',
    'llm.model': 'qwen2.5:7b',
    'llm.toolCalling': 'auto',
    'llm.extraHeaders': {},
    'agent.maxIterations': 10,
    'llm.contextLength': 0,
}


def setting(key):
    value = vscode.workspace.getConfiguration('hermes').js_get(key)
    return DEFAULTS[key] if is_none(value) else value


def on_settings_changed(context, section, callback):
    """Call `callback()` when anything under `hermes.<section>` changes (no reload needed)."""
    def listener(event):
        if event.affectsConfiguration('hermes.' + section):
            callback()
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(listener))
