# __pragma__('tconv')
from hermes.core.tools import Tool
from hermes.host.commands import execute, describe_result

MAX_RESULT_CHARS = 20000


async def execute_command(args, call):
    result = await execute(args['command'], args['args'])
    return describe_result(result, MAX_RESULT_CHARS)


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
