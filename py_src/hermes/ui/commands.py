"""Command registration: every command goes through `register_command`, so a Python exception in a
handler reaches VS Code as a real Error, is logged, and the registration is disposed on deactivate."""
from hermes.js import vscode, to_js_callback


def register_command(context, command_id, handler):
    disposable = vscode.commands.registerCommand(command_id, to_js_callback(handler))
    context.subscriptions.push(disposable)
    return disposable


def register_status_command(context, log, describe_status):
    """`hermes.showMcpStatus`: log the current status and show it in a notification."""
    def show_status():
        text = describe_status()
        log.info(text)
        return vscode.window.showInformationMessage(text)

    return register_command(context, 'hermes.showMcpStatus', show_status)
