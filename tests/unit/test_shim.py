"""The `vscode` shim (tests/shim/vscode/): one reset() gives every namespace anew, with nothing left over."""
import vscode

NAMESPACES = ['window', 'workspace', 'commands', 'env', 'lm', 'chat', 'debug', 'languages', 'tasks']


def test_reset_makes_every_namespace_anew_and_forgets_what_a_test_did():
    vscode.window.showInformationMessage('left over')
    vscode.workspace.set_setting('hermes.x', 1)
    vscode.commands.registerCommand('hermes.left', lambda: None)
    vscode.window.createTerminal({'name': 'left'})
    before = {name: getattr(vscode, name) for name in NAMESPACES}

    vscode.reset()

    assert [name for name in NAMESPACES if getattr(vscode, name) is before[name]] == []
    assert vscode.window.messages == [] and vscode.window.terminals == []
    assert 'hermes.x' not in vscode.workspace.settings
    assert 'hermes.left' not in vscode.commands.handlers


def test_the_namespaces_see_each_other_after_a_reset():
    """Code in one namespace's module reads another namespace at call time (vscode.diff opens a tab in
    the window of now, not of the first reset)."""
    vscode.reset()
    left, right = vscode.Uri.file('/a'), vscode.Uri.parse('hermes-diff:/b')
    vscode.commands.executeCommand('vscode.diff', left, right, 'a ↔ b')
    assert [diff.title for diff in vscode.window.diffs] == ['a ↔ b']
    assert [tab.label for tab in vscode.window.tabGroups.activeTabGroup.tabs] == ['a ↔ b']
