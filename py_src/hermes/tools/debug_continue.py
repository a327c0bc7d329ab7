# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugContinueArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.debug_parts import resume, wait_properties


async def continue_running(args: 'DebugContinueArgs', call: 'CallContext') -> 'ToolReturn':
    return await resume(args, 'continue', 'Continued', call)


TOOL = Tool(
    'debug_continue',
    'Resume a paused debug session, then (by default) wait until it pauses again (next breakpoint) or ends, '
    'and report where it paused.',
    {'type': 'object', 'properties': wait_properties(), 'additionalProperties': False},
    continue_running,
    title='Continue debugging',
    read_only=False,
)
