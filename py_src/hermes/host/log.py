"""The "Hermes" output channel: one LogOutputChannel every part of the extension writes to."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.modules import vscode


class Log:
    """Thin wrapper so callers pass Python values and never care whether the channel is a log one."""

    def __init__(self, channel):
        self.channel = channel

    def debug(self, message):
        self.channel.debug(message)

    def info(self, message):
        self.channel.info(message)

    def warn(self, message):
        self.channel.warn(message)

    def error(self, message, error=None):
        if error is not None:
            message = message + ': ' + error_message(error)
        self.channel.error(message)

    def show(self):
        self.channel.show(True)


def register_log(context):
    channel = vscode.window.createOutputChannel('Hermes', {'log': True})
    context.subscriptions.push(channel)
    return Log(channel)
