"""The "Hermes" output channel: one LogOutputChannel every part of the extension writes to."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.modules import vscode
from hermes.js.objects import is_none

DEBUG_LEVEL = 2  # vscode.LogLevel.Debug (Trace is 1, Info 3)


class Log:
    """Thin wrapper so callers pass Python values and never care whether the channel is a log one."""

    def __init__(self, channel):
        self.channel = channel

    def debug(self, message):
        self.channel.debug(message)

    def debug_enabled(self):
        """Whether the channel keeps debug lines (its level is Debug or Trace): callers on hot paths skip
        building a line nobody will see. A channel without a level keeps everything."""
        level = getattr(self.channel, 'logLevel', None)  # VS Code: vscode.LogLevel; the test shim has none
        return is_none(level) or level <= DEBUG_LEVEL

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
