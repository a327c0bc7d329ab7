# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalKillArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.terminal_parts import TERMINAL_REF, find_terminal


async def kill_terminal(args: 'TerminalKillArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.terminals
    record = find_terminal(service, args['terminal'])
    running = record.running()
    service.kill(record)
    text = 'Closed terminal ' + str(record.id) + ' "' + record.label() + '" and ended its shell'
    if running is not None:
        text = text + ', which was running `' + running.command + '`'
    return text + '.'


TOOL = Tool(
    'terminal_kill',
    'Close an integrated terminal and end its shell and whatever runs in it.',
    {'type': 'object', 'properties': {'terminal': TERMINAL_REF}, 'required': ['terminal'],
     'additionalProperties': False},
    kill_terminal,
    title='Kill terminal',
    read_only=False,
    destructive=True,
)
