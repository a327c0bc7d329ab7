# __pragma__('tconv')
# __pragma__('skip')
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugGetVariablesArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.values import get_key
from hermes.core.output_text import text_and_data
from hermes.tools.debug_parts import frame_text
from hermes.tools.debug_parts import SESSION_REF, find_paused, render_variables


async def get_variables(args: 'DebugGetVariablesArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.debugging
    state = find_paused(service, args['session'])
    thread = await service.thread_id(state, args['thread_id'])
    index = args['frame']
    frames, total = await service.stack(state, thread, max(index + 1, args['max_frames']))
    if index >= len(frames):
        raise ToolError('Frame ' + str(index) + ' does not exist: the stack has ' + str(len(frames)) + ' frames.')
    limit = args['max_variables']
    depth = args['depth']
    wanted = args['scope']
    lines = ['Session "' + state.label() + '" paused (' + str(state.reason) + '), thread ' + str(thread) + '.',
             'Stack (' + str(len(frames)) + ' of ' + str(total) + ' frames):']
    for position in range(len(frames)):
        lines.append('  ' + frame_text(frames[position], position))
    frame = frames[index]
    lines.append('')
    lines.append('Variables of frame #' + str(index) + ' (' + str(frame['name']) + '):')
    scopes = get_key(await service.request(state, 'scopes', {'frameId': frame['id']}), 'scopes', [])
    result = []
    for scope in scopes:
        name = get_key(scope, 'name')
        chosen = name == wanted if wanted is not None else not get_key(scope, 'expensive')
        if not chosen:
            lines.append(name + ': (not expanded; pass scope="' + name + '" to see it)')
            result.append({'name': name, 'variables': None})
            continue
        variables = await service.variables(state, get_key(scope, 'variablesReference'), limit, depth)
        lines.append(name + ':')
        render_variables(variables, '  ', lines)
        result.append({'name': name, 'variables': variables})
    return text_and_data('\n'.join(lines), {'session': state.describe(), 'threadId': thread, 'frames': frames,
                                            'frame': index, 'scopes': result})


TOOL = Tool(
    'debug_get_variables',
    'While a debug session is paused: its call stack and the variables (locals, closure, ...) of one stack '
    'frame (frame 0 = where it stopped), read through the Debug Adapter Protocol. Structured values are '
    'expanded `depth` levels. Expensive scopes such as globals are listed but only expanded when '
    'named with scope.',
    {'type': 'object', 'properties': {
        'session': SESSION_REF,
        'thread_id': {'type': 'integer', 'description': 'Thread (default: the one that stopped).'},
        'frame': {'type': 'integer', 'minimum': 0, 'default': 0, 'description': 'Stack frame index.'},
        'scope': {'type': 'string', 'description': 'Only this scope, e.g. "Local" or "Global".'},
        'depth': {'type': 'integer', 'minimum': 0, 'maximum': 3, 'default': 1, 'description': 'Expansion depth.'},
        'max_variables': {'type': 'integer', 'minimum': 1, 'maximum': 500, 'default': 50,
                          'description': 'Per scope/object.'},
        'max_frames': {'type': 'integer', 'minimum': 1, 'maximum': 200, 'default': 20,
                       'description': 'Stack frames to list.'},
    }, 'additionalProperties': False},
    get_variables,
    title='Get debug variables',
)
