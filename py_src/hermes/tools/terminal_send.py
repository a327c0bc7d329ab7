# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import TerminalSendArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.terminal_parts import TERMINAL_REF, find_terminal


async def send_text(args: 'TerminalSendArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.terminals
    record = find_terminal(service, args['terminal'])
    enter = args['enter']
    service.send(record, args['text'], enter)
    return ('Sent ' + str(len(args['text'])) + ' characters' + (' and Enter' if enter else '') + ' to terminal ' +
            str(record.id) + ' "' + record.label() + '". Its output is not returned: use terminal_read (needs '
            'shell integration), or terminal_run to run a command and get its output and exit code.')


TOOL = Tool(
    'terminal_send',
    'Type text into an integrated terminal, by default followed by Enter (enter: false to send it as is, '
    'e.g. "\\u0003" for Ctrl+C or an answer to a prompt). Does not wait or return output; prefer terminal_run '
    'for commands.',
    {'type': 'object', 'properties': {
        'terminal': TERMINAL_REF,
        'text': {'type': 'string', 'description': 'The text to send.'},
        'enter': {'type': 'boolean', 'default': True, 'description': 'Press Enter after the text.'},
    }, 'required': ['text'], 'additionalProperties': False},
    send_text,
    title='Send text to terminal',
    read_only=False,
    destructive=True,
)
