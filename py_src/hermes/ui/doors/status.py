"""Which terminal CLIs are connected to this window through its doors (host/doors/service.py): a status bar item shown
while any is ("Claude Code ⇄ Hermes"), naming the window and the door in its tooltip — with the vendors' own
companions installed too, the CLI's picker decides, and this says which one it chose — and the commands
"Send Selection to the Agent in the Terminal" and "Show Terminal Agents Connected to This Window"."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, List
from hermes.contracts.json import JsonObject
from hermes.host.doors.late import LateDoors
if TYPE_CHECKING:
    from vscode import ExtensionContext, StatusBarItem
# __pragma__('noskip')

SEND_SELECTION_COMMAND = 'hermes.doors.sendSelection'
SHOW_STATUS_COMMAND = 'hermes.doors.showStatus'


def connections_text(connected: 'List[JsonObject]') -> str:
    """'Claude Code 2.1.328 (Claude Code door, port 40123)' lines, or a sentence saying none is."""
    if len(connected) == 0:
        return ('No terminal agent is connected to this window. Start `claude` or `gemini` (IDE mode) in a VS Code '
                'terminal, or run /ide in one started elsewhere.')
    lines = []  # type: List[str]
    for item in connected:
        version = '' if item['version'] == '' else ' ' + item['version']
        port = '' if item['port'] is None else ', 127.0.0.1:' + str(item['port'])
        lines.append(item['client'] + version + ' (' + item['door'] + ' door' + port + ')')
    return 'Connected to this window through Hermes: ' + '; '.join(lines) + '. Its proposed edits are reviewed here.'


class DoorStatus:
    def __init__(self, doors: 'LateDoors', item: 'StatusBarItem') -> None:
        self.doors = doors
        self.item = item

    def refresh(self) -> None:
        connected = self.doors.describe()
        if len(connected) == 0:
            self.item.hide()
            return
        names = []  # type: List[str]
        for entry in connected:
            if not (entry['client'] in names):
                names.append(entry['client'])
        self.item.text = '$(terminal) ' + ', '.join(names) + ' ⇄ Hermes'
        self.item.tooltip = connections_text(connected)
        self.item.show()

    def show(self) -> None:
        vscode.window.showInformationMessage(connections_text(self.doors.describe()))


def register_door_status(context: 'ExtensionContext', doors: 'LateDoors') -> DoorStatus:
    item = vscode.window.createStatusBarItem('hermes.doors', vscode.StatusBarAlignment.Right, 99)
    item['name'] = 'Hermes: terminal agents'  # subscript: `.name` would be renamed by Transcrypt
    item.command = SHOW_STATUS_COMMAND
    context.subscriptions.push(item)
    status = DoorStatus(doors, item)
    doors.on_change(status.refresh)
    context.subscriptions.push(vscode.commands.registerCommand(SEND_SELECTION_COMMAND,
                                                               to_js_callback(lambda *ignored: doors.send_selection())))
    context.subscriptions.push(vscode.commands.registerCommand(SHOW_STATUS_COMMAND,
                                                               to_js_callback(lambda *ignored: status.show())))
    return status
