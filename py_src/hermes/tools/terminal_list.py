# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalListArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.core.output_text import text_and_data


async def list_terminals(args: 'TerminalListArgs', call: 'CallContext') -> 'ToolReturn':
    entries = [record.describe() for record in call.services.terminals.records]
    if len(entries) == 0:
        return text_and_data('No terminals are open. Create one with terminal_create.', {'terminals': []})
    lines = []
    for entry in entries:
        flags = []
        if entry['active']:
            flags.append('active')
        flags.append('shell integration ' + ('on' if entry['shellIntegration'] else 'off'))
        if entry['running']:
            flags.append('running `' + entry['running'] + '`')
        if entry['exitCode'] is not None:
            flags.append('exited with ' + str(entry['exitCode']))
        flags.append(str(entry['executions']) + ' captured commands')
        lines.append(str(entry['id']) + ' "' + entry['name'] + '": ' + ', '.join(flags))
    return text_and_data('\n'.join(lines), {'terminals': entries})


TOOL = Tool(
    'terminal_list',
    'List the integrated terminals open in VS Code: id, name, whether it is active, whether shell '
    'integration is on (needed to capture output), the command running now, and how many recent commands '
    'terminal_read can show.',
    {'type': 'object', 'properties': {}, 'additionalProperties': False},
    list_terminals,
    title='List terminals',
)
