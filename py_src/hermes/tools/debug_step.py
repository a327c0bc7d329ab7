# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugStepArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.debug_parts import resume, wait_properties

COMMANDS = {'over': 'next', 'into': 'stepIn', 'out': 'stepOut'}


async def step(args: 'DebugStepArgs', call: 'CallContext') -> 'ToolReturn':
    kind = args['kind']
    return await resume(args, COMMANDS[kind], 'Stepped ' + kind, call)  # transcrypt-ok[untrusted-key]: the schema's enum


def _properties() -> 'JsonObject':
    return wait_properties({'kind': {'type': 'string', 'enum': ['over', 'into', 'out'], 'default': 'over',
                                     'description': 'over: the next line; into: into the call on this line; '
                                                    'out: to the caller.'}})


TOOL = Tool(
    'debug_step',
    'Step a paused debug session one statement (over), into the called function (into) or out to the caller '
    '(out), wait for it to pause again and report the new position with its source line.',
    {'type': 'object', 'properties': _properties(), 'additionalProperties': False},
    step,
    title='Step in debugger',
    read_only=False,
)
