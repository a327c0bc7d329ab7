import json
from pathlib import Path

import vscode
from hermes import extension
from hermes.version import VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_version_matches_package_json():
    assert json.loads((ROOT / 'package.json').read_text())['version'] == VERSION


def test_activate_logs_version_and_activation_time(context):
    extension.activate(context)
    [channel] = vscode.window.output_channels
    assert channel.name == 'Hermes' and channel.is_log
    [line] = channel.lines
    assert line.startswith(f'[info] Hermes Agent {VERSION} activated in ')
    assert line.endswith(' ms')


def test_activate_shows_a_status_bar_item_that_opens_the_status(context):
    extension.activate(context)
    [item] = vscode.window.status_bar_items
    assert item.visible and item.name == 'Hermes Agent'
    assert item.command == 'hermes.showMcpStatus'
    assert item.alignment == vscode.StatusBarAlignment.Right


def test_show_status_command_logs_and_notifies(context):
    extension.activate(context)
    vscode.commands.executeCommand('hermes.showMcpStatus')
    [(level, text, _)] = vscode.window.messages
    assert level == 'info' and text.startswith(f'Hermes Agent {VERSION}')
    assert vscode.window.output_channels[0].lines[-1] == '[info] ' + text


def test_deactivate_leaves_nothing_behind(context):
    extension.activate(context)
    assert len(context.subscriptions) == 3
    extension.deactivate()
    context.dispose_all()
    assert vscode.commands.handlers == {}
    assert all(item.disposed and not item.visible for item in vscode.window.status_bar_items)
    assert all(channel.disposed for channel in vscode.window.output_channels)


def test_activate_twice_after_deactivate_works(context):
    """A window reload deactivates then activates again in the same host: nothing may be left over."""
    extension.activate(context)
    context.dispose_all()
    extension.activate(context)
    assert 'hermes.showMcpStatus' in vscode.commands.handlers
