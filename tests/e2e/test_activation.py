"""The packaged .vsix, installed into a real VS Code, activates and does its job."""
import re


def test_extension_activates_and_logs_version(code_server, workbench):
    match = code_server.wait_for_log(r'Hermes Agent (\d+\.\d+\.\d+) activated in (\d+) ms')
    assert match.group(1) == '0.1.0'


def test_status_command_is_registered_and_shows_status(code_server, workbench, artifacts):
    code_server.wait_for_log(r'activated in')
    workbench.run_command('Hermes: Show MCP Server Status')
    text = workbench.notification_text('Hermes MCP server:')
    assert re.search(r'http://127\.0\.0\.1:\d+/mcp · \d+ clients? · \d+ tools · auth: token', text)
    workbench.screenshot(artifacts / 'activation.png')
    assert re.search(r'\[info\] Hermes MCP server: http://127\.0\.0\.1:\d+/mcp', code_server.extension_log_text())


def test_status_bar_item_is_visible(workbench):
    item = workbench.page.locator('.statusbar-item', has_text='Hermes').first
    item.wait_for(state='visible')
    assert 'Hermes' in item.inner_text()
