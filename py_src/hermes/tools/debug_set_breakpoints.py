# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugSetBreakpointsArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.output_text import text_and_data


async def set_breakpoints(args: 'DebugSetBreakpointsArgs', call: 'CallContext') -> 'ToolReturn':
    path = call.services.paths.resolve_path(args['path'])
    try:
        found = await call.services.files.read_text(path)  # (`(await x)[…]` loses its parentheses in Transcrypt)
    except ToolError:  # missing, a folder, binary or huge: no line to stop at
        raise ToolError('Cannot read "' + args['path'] + '": set breakpoints in an existing file.')
    content = found['text']
    line_count = len(content.split('\n')) - (1 if content.endswith('\n') else 0)
    lines = args['lines']
    for line in lines:
        if line > line_count:
            raise ToolError('Line ' + str(line) + ' is past the end of ' + args['path'] + ' (' +
                            str(line_count) + ' lines).')
    now = call.services.debugging.set_breakpoints(path, lines, args['condition'], args['replace'])
    shown = call.services.paths.display_path(path)
    if len(now) == 0:
        return text_and_data('No breakpoints left in ' + shown + '.', {'path': shown, 'breakpoints': []})
    listed = ', '.join([str(entry['line']) + (' if ' + entry['condition'] if 'condition' in entry else '')
                        for entry in now])
    return text_and_data('Breakpoints in ' + shown + ' at line ' + listed + '. They apply to running and future '
                         'debug sessions.', {'path': shown, 'breakpoints': now})


TOOL = Tool(
    'debug_set_breakpoints',
    'Set source breakpoints in a file at the given 1-based line numbers (optionally with a condition, e.g. '
    '"i > 3"). By default they replace the file\'s existing breakpoints (replace=false adds to them; an empty '
    'lines list with replace clears the file). Shown in VS Code like breakpoints the user sets.',
    {'type': 'object', 'properties': {
        'path': {'type': 'string', 'description': 'Source file, workspace-relative.'},
        'lines': {'type': 'array', 'items': {'type': 'integer', 'minimum': 1}, 'description': '1-based line numbers.'},
        'condition': {'type': 'string', 'description': 'Only stop when this expression is true.'},
        'replace': {'type': 'boolean', 'default': True, 'description': 'Remove the file\'s other breakpoints first.'},
    }, 'required': ['path', 'lines'], 'additionalProperties': False},
    set_breakpoints,
    title='Set breakpoints',
    read_only=False,
    destructive=True,  # conditions, hit conditions and log messages are code the debuggee evaluates
)
