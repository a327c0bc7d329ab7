# __pragma__('tconv')
# __pragma__('skip')
from typing import Any
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import CommandExecuteArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.core.tools import Tool
from hermes.core.output_text import cap_chars

MAX_RESULT_CHARS = 20000


async def execute_command(args: 'CommandExecuteArgs', call: 'CallContext') -> 'ToolReturn':
    result = await call.services.commands.execute(args['command'], args['args'])
    return describe_result(result, MAX_RESULT_CHARS)


def describe_result(value: 'Any', limit: int) -> str:
    if value is None:
        return 'The command ran; it returned nothing.'
    try:
        text = dump_json(value, 2)
    except JsError as error:
        text = 'an unserialisable value (' + error_message(error) + ')'
    if text is None:
        text = str(value)
    text = cap_chars(text, limit)
    return 'The command ran and returned:\n' + text


TOOL = Tool(
    'command_execute',
    'Run any VS Code command by its id (command_list_common suggests useful ones), with arguments as a JSON '
    'array. Write {"$uri": "src/a.ts"} where a command expects a file URI. Returns what the command returned, '
    'as JSON.',
    {'type': 'object', 'properties': {
        'command': {'type': 'string', 'minLength': 1, 'description': 'Command id, e.g. '
                                                                     '"editor.action.formatDocument".'},
        'args': {'type': 'array', 'default': [], 'description': 'Arguments, in order.'},
    }, 'required': ['command'], 'additionalProperties': False},
    execute_command,
    title='Run VS Code command',
    read_only=False,
    destructive=True,
)
