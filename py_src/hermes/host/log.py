"""The "Hermes" output channel: one LogOutputChannel every part of the extension writes to."""
# __pragma__('tconv')
from hermes.js.errors import error_message
from hermes.js.modules import vscode
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional
if TYPE_CHECKING:  # the type checker's vscode (typings/vscode.pyi); the test shim has no such names
    from vscode import ExtensionContext, LogOutputChannel
# __pragma__('noskip')

DEBUG_LEVEL = 2  # vscode.LogLevel.Debug (Trace is 1, Info 3)


class Log:
    """Thin wrapper so callers pass Python values and never care whether the channel is a log one."""

    def __init__(self, channel: 'LogOutputChannel') -> None:
        self.channel = channel

    def debug(self, message: str) -> None:
        self.channel.debug(message)

    def debug_enabled(self) -> bool:
        """Whether the channel keeps debug lines (its level is Debug or Trace): callers on hot paths skip
        building a line nobody will see. A channel without a level keeps everything."""
        level = getattr(self.channel, 'logLevel', None)  # VS Code: vscode.LogLevel; the test shim has none
        return level is None or level <= DEBUG_LEVEL

    def info(self, message: str) -> None:
        self.channel.info(message)

    def warn(self, message: str) -> None:
        self.channel.warn(message)

    def error(self, message: str, error: 'Any' = None) -> None:
        if error is not None:
            message = message + ': ' + error_message(error)
        self.channel.error(message)

    def show(self) -> None:
        self.channel.show(True)


def register_log(context: 'ExtensionContext') -> Log:
    channel = vscode.window.createOutputChannel('Hermes', {'log': True})
    context.subscriptions.push(channel)
    return Log(channel)
