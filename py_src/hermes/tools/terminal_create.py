# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalCreateArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.js.modules import node
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data

SHELLS = ['bash', 'zsh', 'fish', 'pwsh', 'sh']


async def create_terminal(args: 'TerminalCreateArgs', call: 'CallContext') -> 'ToolReturn':
    cwd = None
    folder = args['cwd']
    if folder is not None:
        cwd = call.services.paths.resolve_path(folder)
        if not node('fs').existsSync(cwd):
            raise ToolError('The folder "' + folder + '" does not exist.')
    service = call.services.terminals
    record = service.create(args['name'], cwd, args['shell'], args['show'])
    integration = await service.wait_for_integration(record.terminal, service.new_terminal_wait_ms, call)
    data = record.describe()
    text = 'Created terminal ' + str(record.id) + ' "' + record.label() + '"'
    if cwd is not None:
        text = text + ' in ' + call.services.paths.display_path(cwd)
    if integration is None:
        text = (text + '. Shell integration did not activate, so terminal_run and terminal_read cannot '
                'capture output here (try shell "bash"); terminal_send still works.')
    else:
        text = text + ' (shell integration active: terminal_run and terminal_read capture its output).'
    return text_and_data(text, data)


async def what_runs(args: 'TerminalCreateArgs', call: 'CallContext') -> 'ToolReturn':
    """For the dialog: the shell that would start (a workspace's settings can name the default profile's program)."""
    return call.services.terminals.shell_to_start(args['shell'])


TOOL = Tool(
    'terminal_create',
    'Open a new integrated terminal in VS Code and return its id (use it with the other terminal_* tools). '
    'Optional: name, working folder (cwd, workspace-relative), shell (bash, zsh, fish, pwsh or sh; default: '
    'the user\'s default profile), show. Reports whether shell integration is active, which '
    'terminal_run/terminal_read need to capture output and exit codes.',
    {'type': 'object', 'properties': {
        'name': {'type': 'string', 'default': 'Hermes', 'description': 'Terminal name shown in VS Code.'},
        'cwd': {'type': 'string', 'description': 'Working folder, relative to the workspace or absolute inside it.'},
        'shell': {'type': 'string', 'enum': SHELLS, 'description': 'Shell to start instead of the default.'},
        'show': {'type': 'boolean', 'default': True, 'description': 'Reveal the terminal panel.'},
    }, 'additionalProperties': False},
    create_terminal,
    title='Create terminal',
    read_only=False,
    preview=what_runs,
    destructive=True,  # starts a shell: the workspace's settings can name the program (terminal profiles)
)
