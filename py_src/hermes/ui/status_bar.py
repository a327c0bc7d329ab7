"""The status bar item: what Hermes is serving at a glance; a click shows the full status."""
from hermes.js import vscode

SHOW_STATUS_COMMAND = 'hermes.showMcpStatus'


class StatusBar:
    def __init__(self, item):
        self.item = item

    def show_idle(self):
        self.show('$(hubot) Hermes', 'Hermes Agent is active. Click for status.')

    def show(self, text, tooltip):
        self.item.text = text
        self.item.tooltip = tooltip
        self.item.show()


def register_status_bar(context):
    item = vscode.window.createStatusBarItem('hermes.status', vscode.StatusBarAlignment.Right, 100)
    item['name'] = 'Hermes Agent'  # subscript: `.name` would be renamed by Transcrypt
    item.command = SHOW_STATUS_COMMAND
    context.subscriptions.push(item)
    bar = StatusBar(item)
    bar.show_idle()
    return bar
