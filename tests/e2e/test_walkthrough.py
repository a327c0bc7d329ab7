"""The "Get started with Hermes" walkthrough in a real VS Code: it lists the three ways in, each step's page is
shipped in the .vsix, and a step completes by itself once done — here "Connect any MCP client" by running Copy MCP
Config (a client picked in its quick pick)."""


def test_the_walkthrough_shows_the_three_ways_in_and_a_step_completes_when_done(code_server, workbench, artifacts):
    code_server.wait_for_log(r'activated in')
    page = workbench.page
    workbench.run_command('View: Close Primary Side Bar')  # room for the step's page beside the steps
    workbench.run_command('View: Toggle Secondary Side Bar Visibility')  # (the Chat, shown at start)
    try:
        workbench.run_command('Welcome: Open Walkthrough...')
        page.locator('.quick-input-widget .monaco-list-row', has_text='Get started with Hermes').first.click()
        steps = page.locator('.getting-started-step')
        steps.filter(has_text='Connect any MCP client').first.wait_for(state='visible')
        titles = [text.split('\n')[0] for text in steps.all_inner_texts()]
        assert titles == ['Run an agent in the terminal', 'Ask an agent in the side panel',
                          'Connect any MCP client'], titles
        step = steps.filter(has_text='Connect any MCP client').first
        assert step.locator('.codicon.complete').count() == 0  # (VS Code marks a done step's checkbox `complete`)
        workbench.screenshot(artifacts / 'walkthrough.png')

        workbench.run_command('Hermes: Copy MCP Config')
        page.locator('.quick-input-widget .monaco-list-row', has_text='Claude Code').first.click()
        workbench.notification_text('MCP config copied')
        step.locator('.codicon.complete').first.wait_for(state='visible')
        step.click()  # (the completed step shown open, with its tick)
        # its page (media/walkthrough/mcp.md, shipped in the .vsix), drawn in a webview beside the steps
        page.frame_locator('iframe.webview').frame_locator('iframe#active-frame').get_by_text(
            'Any MCP client').first.wait_for(state='visible')
        workbench.screenshot(artifacts / 'walkthrough-step-done.png')
        assert page.locator('.notifications-toasts', has_text='Error reading markdown').count() == 0
    finally:  # the layout the other tests of this window expect
        workbench.run_command('View: Close All Editors')
        workbench.run_command('View: Toggle Primary Side Bar Visibility')
        workbench.run_command('View: Toggle Secondary Side Bar Visibility')
