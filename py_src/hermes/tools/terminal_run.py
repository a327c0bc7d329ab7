# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalRunArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.values import get_key
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data, cap_tail
from hermes.core.service_problems import ServiceProblem, with_next_step
from hermes.tools.terminal_parts import TERMINAL_REF, NEXT_STEP


async def what_runs(args: 'TerminalRunArgs', call: 'CallContext') -> 'ToolReturn':
    """For the dialog: the command, and where it runs — a new terminal starts the default profile's program,
    which a workspace's settings can name."""
    command = 'command: ' + args['command']
    folder = get_key(args, 'cwd')  # an ACP agent's terminal/create: a new terminal in this folder (not a tool input)
    if folder is not None:
        return command + '\nin a new terminal in ' + folder + ': ' + call.services.terminals.shell_to_start()
    ref = args['terminal']
    if ref is not None:
        record = call.services.terminals.lookup(ref)
        return command + '\nin terminal ' + str(record.id) + ' "' + record.label() + '"'
    return command + '\nin an idle terminal Hermes made, else a new one: ' + call.services.terminals.shell_to_start()


async def run_command(args: 'TerminalRunArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.terminals
    timeout_s = args['timeout_seconds']
    limit = args['max_chars']
    try:
        record, is_new = service.terminal_for_run(args['terminal'])
        where = 'terminal ' + str(record.id) + ' "' + record.label() + '"'
        result = await service.run(record, args['command'], timeout_s * 1000, call, is_new)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)
    outcome = result['outcome']
    data = {'terminal': record.id, 'command': args['command'], 'shellIntegration': outcome != 'no-integration',
            'exitCode': None, 'output': None, 'timedOut': outcome == 'timeout', 'cancelled': outcome == 'cancelled'}
    if outcome == 'no-integration':
        return text_and_data(
            'Shell integration is not available in ' + where + ', so VS Code cannot report this command\'s output '
            'or exit code. The command was sent as text and may be running now; look at the terminal, or '
            'create a terminal with shell "bash" (terminal_create) and run it there.', data)
    entry = result['entry']
    if entry is None:
        return text_and_data('Cancelled before the command started.', data)
    output = cap_tail(entry.output(), limit).rstrip()
    data['exitCode'] = entry.exit_code
    data['output'] = output
    data['durationMs'] = round(entry.duration_ms())
    body = '$ ' + args['command'] + '\n' + (output + '\n' if output != '' else '')
    if outcome == 'ended':
        code = 'unknown' if entry.exit_code is None else str(entry.exit_code)
        return text_and_data(body + '(exit code ' + code + ', ' + where + ')', data)
    if outcome == 'timeout':
        return text_and_data(body + '(still running after ' + str(timeout_s) + ' s in ' + where + '; check it '
                             'later with terminal_read, or stop it with terminal_send text "\\u0003", enter false)', data)
    return text_and_data(body + '(cancelled: Ctrl+C sent to ' + where + ')', data)


TOOL = Tool(
    'terminal_run',
    'Run a shell command in a VS Code integrated terminal and wait for it: returns its output (escape '
    'sequences removed, the most recent part when long) and exit code. Uses an idle terminal Hermes created '
    '(a new one if needed) unless `terminal` names one. Stops waiting after timeout_seconds and '
    'leaves the command running. Needs VS Code shell integration (bash, zsh, fish, pwsh); without it the '
    'command is only sent, and the result says so.',
    {'type': 'object', 'properties': {
        'command': {'type': 'string', 'minLength': 1, 'description': 'The command line to run.'},
        'terminal': TERMINAL_REF,
        'timeout_seconds': {'type': 'integer', 'minimum': 1, 'maximum': 3600, 'default': 60,
                            'description': 'How long to wait for the command to finish.'},
        'max_chars': {'type': 'integer', 'minimum': 500, 'maximum': 200000, 'default': 20000,
                      'description': 'Output size limit; the end of the output is kept.'},
    }, 'required': ['command'], 'additionalProperties': False},
    run_command,
    title='Run command in terminal',
    read_only=False,
    destructive=True,
    preview=what_runs,
    essential=True,  # offered even when the model's context is too small for every tool
)
