"""activate()/deactivate() under CPython. The MCP server itself needs Node's http, so here it is switched
off by its setting; the node and integration layers run it for real."""
import asyncio
import json
from pathlib import Path

import pytest

import vscode
from hermes import extension
from hermes.version import VERSION

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def mcp_off():
    vscode.workspace.settings['hermes.mcp.enabled'] = False


def activate(context):
    async def activate_and_start():
        api = await extension.activate(context)
        await api['mcp'].ready  # the MCP server starts after activate() returns
        return api
    return asyncio.run(activate_and_start())


def test_version_matches_package_json():
    assert json.loads((ROOT / 'package.json').read_text())['version'] == VERSION


def test_activate_logs_version_and_activation_time(context):
    api = activate(context)
    assert api['version'] == VERSION
    [channel] = vscode.window.output_channels
    assert channel.name == 'Hermes' and channel.is_log
    assert channel.lines[0].startswith('[info] Hermes chat sessions ("Hermes Agent" in the Chat view\'s "+" menu) need')
    assert channel.lines[1].startswith(f'[info] Hermes Agent {VERSION} activated in ')
    assert channel.lines[1].endswith(' ms')
    assert channel.lines[2] == '[info] MCP server disabled (hermes.mcp.enabled is false)'


def test_status_bar_item_says_the_server_is_off(context):
    activate(context)
    [item] = [item for item in vscode.window.status_bar_items if item.id == 'hermes.status']
    assert item.visible and item.name == 'Hermes Agent'
    assert item.command == 'hermes.showMcpStatus'
    assert item.alignment == vscode.StatusBarAlignment.Right
    assert item.text == '$(circle-slash) Hermes'


def test_show_status_command_warns_that_the_server_is_off(context):
    activate(context)
    text = asyncio.run(vscode.commands.executeCommand('hermes.showMcpStatus'))
    assert text == 'Hermes MCP server is off (enable it with the "hermes.mcp.enabled" setting).'
    [(level, shown, actions)] = [message for message in vscode.window.messages if message[0] == 'warning']
    assert (level, shown, actions) == ('warning', text, ['Show Log'])  # (the info: the shim has no proposals)


def test_copy_config_refuses_while_the_server_is_off(context):
    activate(context)
    assert asyncio.run(vscode.commands.executeCommand('hermes.copyMcpConfig', 'claude')) is None
    assert vscode.window.messages[-1][0] == 'error'
    assert vscode.env.clipboard.text == ''


def test_mcp_definition_provider_offers_nothing_while_off(context):
    activate(context)
    provider = vscode.lm.mcp_providers['hermes.mcpServers']
    assert provider['provideMcpServerDefinitions'](None) == []


def test_deactivate_leaves_nothing_behind(context):
    activate(context)
    asyncio.run(extension.deactivate())
    context.dispose_all()
    assert vscode.commands.handlers == {}
    assert vscode.lm.mcp_providers == {}
    assert all(item.disposed and not item.visible for item in vscode.window.status_bar_items)
    assert all(channel.disposed for channel in vscode.window.output_channels)


def test_activate_again_after_deactivate_works(context):
    """A window reload deactivates then activates again in the same host: nothing may be left over."""
    activate(context)
    context.dispose_all()
    activate(context)
    assert {'hermes.showMcpStatus', 'hermes.copyMcpConfig'} <= set(vscode.commands.handlers)


def test_activate_builds_the_windows_services_once_for_the_tools_and_the_resources(context):
    started = activate(context)
    service = started['mcp']
    services = service.registry.services
    assert type(services.terminals).__name__ == 'TerminalService'
    assert type(services.debugging).__name__ == 'DebugService'
    assert type(services.reviews).__name__ == 'DiffReviews'
    assert type(services.language).__name__ == 'LanguageService'
    assert type(services.tabs).__name__ == 'EditorTabs'
    assert type(services.configuration).__name__ == 'ConfigurationService'
    # one registry, behind one gate, for every front end: a handler's confirm() always has the call's gate
    assert type(service.registry.approver).__name__ == 'Approver' and started['llm'].registry is service.registry
    assert service.features.provider.terminal_service is services.terminals
    vscode.window.createTerminal({'name': 'build'})  # the one service heard it: the resources list it
    assert service.features.provider.terminals() == [{'id': 1, 'name': 'build'}]
