# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalReadArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data
from hermes.core.terminal_text import render_execution
from hermes.tools.terminal_parts import TERMINAL_REF, find_terminal


async def read_terminal(args: 'TerminalReadArgs', call: 'CallContext') -> 'ToolReturn':
    record = find_terminal(call.services.terminals, args['terminal'])
    if not record.owned:
        # A terminal the user opened holds what the user ran and printed (tokens, other projects): ask first.
        refusal = await call.confirm('terminal_read', 'Read your terminal "' + record.label() + '"',
                                     {'terminal': record.id, 'name': record.label(),
                                      'what': 'shows what you ran and what it printed in the terminal "' +
                                      record.label() + '", which you opened yourself'})
        if refusal is not None:
            raise ToolError(refusal)
    last = args['last']
    limit = args['max_chars']
    entries = record.executions[max(0, len(record.executions) - last):]
    integration = record.terminal.shellIntegration is not None
    header = 'Terminal ' + str(record.id) + ' "' + record.label() + '"'
    if len(entries) == 0:
        text = header + ': no commands captured yet.'
        if not integration:
            text = (text + ' Shell integration is not active in this terminal, so VS Code does not share its '
                    'output; run commands with terminal_run in a terminal made by terminal_create.')
        return text_and_data(text, {'terminal': record.id, 'executions': []})
    per_entry = max(500, limit // len(entries))
    blocks = [render_execution(entry, per_entry) for entry in entries]
    text = (header + ': the last ' + str(len(entries)) + ' of ' + str(len(record.executions)) +
            ' captured commands (oldest first)\n\n' + '\n\n'.join(blocks))
    return text_and_data(text, {'terminal': record.id, 'executions': [entry.describe() for entry in entries]})


TOOL = Tool(
    'terminal_read',
    'Read what recent commands in an integrated terminal printed, with their exit codes (escape sequences '
    'removed). Captured through VS Code\'s shell integration, so only commands run while it was active are '
    'available (up to 20 per terminal; the output of a very fast command typed by the user may be missing). '
    'Useful after terminal_send, or to check a command terminal_run left running.',
    {'type': 'object', 'properties': {
        'terminal': TERMINAL_REF,
        'last': {'type': 'integer', 'minimum': 1, 'maximum': 20, 'default': 3, 'description': 'How many recent commands.'},
        'max_chars': {'type': 'integer', 'minimum': 500, 'maximum': 200000, 'default': 20000,
                      'description': 'Output size limit; the most recent output is kept.'},
    }, 'additionalProperties': False},
    read_terminal,
    title='Read terminal output',
)
