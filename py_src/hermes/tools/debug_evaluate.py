# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugEvaluateArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.values import get_key, json_type
from hermes.core.output_text import text_and_data, cap_head
from hermes.tools.debug_parts import SESSION_REF, find_session, render_variables


async def evaluate(args: 'DebugEvaluateArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.debugging
    state = find_session(service, args['session'])
    request = {'expression': args['expression'], 'context': args['context']}
    where = 'globally (the session is not paused)'
    if state.stopped:
        index = args['frame']
        frames, total = await service.stack(state, await service.thread_id(state), index + 1)
        if index >= len(frames):
            raise ToolError('Frame ' + str(index) + ' does not exist: the stack has ' + str(len(frames)) + ' frames.')
        request['frameId'] = frames[index]['id']
        where = 'in frame #' + str(index) + ' (' + str(frames[index]['name']) + ')'
    response = await service.request(state, 'evaluate', request)
    value = get_key(response, 'result')
    kind = get_key(response, 'type')
    children = []
    reference = get_key(response, 'variablesReference')
    if json_type(reference) == 'integer' and reference > 0:
        children = await service.variables(state, reference, 50, 0)
    lines = [cap_head(str(value), 20000) + ('' if kind is None or kind == '' else '  (' + kind + ')')]
    render_variables(children, '  ', lines)
    return text_and_data('\n'.join(lines) + '\n— evaluated ' + where + ' in "' + state.label() + '"',
                         {'result': value, 'type': kind, 'children': children})


TOOL = Tool(
    'debug_evaluate',
    'Evaluate an expression in the debugged program (in the paused stack frame, frame 0 by default, like the '
    'Debug Console does) and return its value; objects list their members one level deep. The expression '
    'runs in the program and can change its state.',
    {'type': 'object', 'properties': {
        'expression': {'type': 'string', 'minLength': 1},
        'session': SESSION_REF,
        'frame': {'type': 'integer', 'minimum': 0, 'default': 0, 'description': 'Stack frame index.'},
        'context': {'type': 'string', 'enum': ['repl', 'watch', 'hover', 'clipboard'], 'default': 'repl',
                    'description': 'Evaluation context.'},
    }, 'required': ['expression'], 'additionalProperties': False},
    evaluate,
    title='Evaluate in debugger',
    read_only=False,
    destructive=True,  # evaluating runs code in the debuggee
)
