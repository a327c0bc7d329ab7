"""The status bar item: what Hermes is serving at a glance; a click shows the full status."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.js.objects import new
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
if TYPE_CHECKING:
    from vscode import ExtensionContext, StatusBarItem, ThemeColor
# __pragma__('noskip')

SHOW_STATUS_COMMAND = 'hermes.showMcpStatus'


class StatusBar:
    def __init__(self, item: 'StatusBarItem') -> None:
        self.item = item

    def show_idle(self) -> None:
        self.show('$(hubot) Hermes', 'Hermes Agent is starting…')

    def show_serving(self, port: int, clients: int, auth_off: bool, description: str) -> None:
        text = '$(radio-tower) Hermes :' + str(port)
        if clients > 0:
            text = text + ' · ' + str(clients)
        warning = new(vscode.ThemeColor, 'statusBarItem.warningBackground') if auth_off else None
        self.show(text, description + '\nClick for status and client configuration.', warning)

    def show_off(self, tooltip: str) -> None:
        self.show('$(circle-slash) Hermes', tooltip)

    def show_error(self, tooltip: str) -> None:
        self.show('$(error) Hermes', tooltip, new(vscode.ThemeColor, 'statusBarItem.errorBackground'))

    def show(self, text: str, tooltip: str, background: 'Optional[ThemeColor]' = None) -> None:
        self.item.text = text
        self.item.tooltip = tooltip
        self.item.backgroundColor = background
        self.item.show()


def register_status_bar(context: 'ExtensionContext') -> StatusBar:
    item = vscode.window.createStatusBarItem('hermes.status', vscode.StatusBarAlignment.Right, 100)
    item['name'] = 'Hermes Agent'  # subscript: `.name` would be renamed by Transcrypt
    item.command = SHOW_STATUS_COMMAND
    context.subscriptions.push(item)
    bar = StatusBar(item)
    bar.show_idle()
    return bar
