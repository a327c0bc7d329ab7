# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import CommandListCommonArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool

# [id, what it does (and its arguments, if any)]
COMMON = [
    ['workbench.action.files.save', 'Save the active editor.'],
    ['workbench.action.files.saveAll', 'Save all editors with unsaved changes.'],
    ['workbench.action.files.revert', 'Discard the active editor\'s unsaved changes.'],
    ['workbench.action.closeActiveEditor', 'Close the active editor tab.'],
    ['workbench.action.closeAllEditors', 'Close every editor tab.'],
    ['workbench.action.splitEditor', 'Split the active editor into a new group.'],
    ['workbench.action.quickOpen', 'Open Quick Open (go to file); optional arg: initial text.'],
    ['workbench.action.showCommands', 'Open the command palette.'],
    ['workbench.action.findInFiles', 'Open the search view; optional arg {"query": "...", "isRegex": false}.'],
    ['workbench.action.togglePanel', 'Show or hide the bottom panel.'],
    ['workbench.action.toggleSidebarVisibility', 'Show or hide the primary side bar.'],
    ['workbench.view.explorer', 'Show the Explorer.'],
    ['workbench.view.scm', 'Show Source Control.'],
    ['workbench.actions.view.problems', 'Show the Problems panel.'],
    ['workbench.action.terminal.new', 'Open a new terminal.'],
    ['workbench.action.tasks.runTask', 'Pick and run a task (workspace_run_task runs one and waits).'],
    ['workbench.action.debug.start', 'Start debugging with the selected launch configuration.'],
    ['workbench.action.reloadWindow', 'Reload the VS Code window (restarts extensions, Hermes included).'],
    ['workbench.action.openSettingsJson', 'Open the user settings.json.'],
    ['workbench.action.openGlobalKeybindings', 'Open the keyboard shortcuts editor.'],
    ['workbench.extensions.action.showInstalledExtensions', 'Show installed extensions.'],
    ['editor.action.formatDocument', 'Format the active document with its formatter.'],
    ['editor.action.organizeImports', 'Organize imports in the active document.'],
    ['editor.action.rename', 'Start renaming the symbol at the cursor (interactive).'],
    ['editor.action.revealDefinition', 'Go to the definition of the symbol at the cursor.'],
    ['editor.action.goToReferences', 'Show references of the symbol at the cursor.'],
    ['editor.action.quickFix', 'Show quick fixes at the cursor.'],
    ['editor.action.commentLine', 'Toggle line comments on the selected lines.'],
    ['editor.action.marker.nextInFiles', 'Go to the next problem in any file.'],
    ['editor.fold', 'Fold the region at the cursor.'],
    ['editor.unfoldAll', 'Unfold every region in the active editor.'],
    ['undo', 'Undo the last edit in the active editor.'],
    ['redo', 'Redo the last undone edit.'],
    ['vscode.open', 'Open a resource: args [{"$uri": "path or URI"}].'],
    ['vscode.openFolder', 'Open a folder in this window: args [{"$uri": "/abs/folder"}] (reloads the window).'],
    ['revealInExplorer', 'Reveal a file in the Explorer: args [{"$uri": "path"}].'],
    ['vscode.executeDocumentSymbolProvider', 'Symbols of a file: args [{"$uri": "path"}].'],
    ['vscode.executeFormatDocumentProvider', 'Formatting edits for a file: args [{"$uri": "path"}, {}].'],
    ['git.refresh', 'Refresh the Git view.'],
    ['markdown.showPreview', 'Open a Markdown preview of the active file.'],
]


async def list_common(args: 'CommandListCommonArgs', call: 'CallContext') -> 'ToolReturn':
    text_filter = args['filter'].lower()
    max_results = args['max_results']
    curated = [entry for entry in COMMON if text_filter == '' or entry[0].lower().find(text_filter) != -1 or
               entry[1].lower().find(text_filter) != -1]
    lines = ['Useful commands (run them with command_execute):']
    lines.extend([entry[0] + ' — ' + entry[1] for entry in curated] if len(curated) > 0 else ['(none match)'])
    if args['include_all'] is True:
        available = await call.services.commands.all_commands()
        known = [entry[0] for entry in COMMON]
        others = [command for command in available if command not in known and not command.startswith('_') and
                  (text_filter == '' or command.lower().find(text_filter) != -1)]
        others.sort()
        lines.append('')
        lines.append(str(len(others)) + ' more command ids available in this window' +
                     ('' if text_filter == '' else ' containing "' + text_filter + '"') + ':')
        lines.extend(others[:max_results])
        if len(others) > max_results:
            lines.append('[truncated: ' + str(len(others) - max_results) + ' more; use filter to narrow]')
    return '\n'.join(lines)


TOOL = Tool(
    'command_list_common',
    'List useful VS Code command ids with what they do (and their arguments), to run with command_execute. '
    'With include_all: true, also every other command id this window knows (thousands: use filter).',
    {'type': 'object', 'properties': {
        'filter': {'type': 'string', 'default': '', 'description': 'Only commands whose id (or description) contains this text.'},
        'include_all': {'type': 'boolean', 'description': 'Also list all other registered command ids.'},
        'max_results': {'type': 'integer', 'minimum': 1, 'maximum': 5000, 'default': 200,
                        'description': 'Cap on the extra ids listed.'},
    }, 'additionalProperties': False},
    list_common,
    title='List useful commands',
)
