# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Union
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugStartArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool, ToolError
from hermes.core.values import get_key, json_type, copy_object
from hermes.js.json import dump_json
from hermes.core.output_text import text_and_data
from hermes.tools.debug_parts import pause_report


def _inline(configuration: 'JsonObject') -> 'JsonObject':
    config = copy_object(configuration)
    if json_type(get_key(config, 'name')) != 'string':
        config['name'] = 'Hermes: ' + str(config['type'])
    return config


async def what_runs(args: 'DebugStartArgs', call: 'CallContext') -> 'ToolReturn':
    """For the dialog: the launch configuration a name stands for, whole (its program, runtime, arguments,
    environment, pre-launch task: launch.json can make "Run it" start anything). An inline one is in the
    arguments already."""
    name = args['name']
    if name is None:
        return None
    service = call.services.debugging
    found = service.launch_configuration(service.workspace_folder(args['folder']), name)
    if found is None:
        return None  # the handler says which names there are
    return 'launch configuration "' + name + '" (complete):\n' + dump_json(copy_object(found), 2)


async def start_debugging(args: 'DebugStartArgs', call: 'CallContext') -> 'ToolReturn':
    name = args['name']
    configuration = args['configuration']
    if (name is None) == (configuration is None):
        raise ToolError('Give exactly one of "name" (a launch configuration) or "configuration" (an inline one).')
    service = call.services.debugging
    folder = service.workspace_folder(args['folder'])
    if name is not None:
        names = service.launch_names(folder)
        if name not in names:
            raise ToolError('No launch configuration "' + name + '" in launch.json. Available: ' +
                            (', '.join(['"' + item + '"' for item in names]) or '(none)') +
                            '. Or pass an inline "configuration".')
        target = name  # type: Union[str, JsonObject]
        label = name
    elif configuration is not None:  # (one of the two: checked above)
        inline = _inline(configuration)
        target = inline
        label = inline['name']
    first_order = service.order
    first_seq = service.seq
    started = await service.start(folder, target)
    if not started:
        raise ToolError('VS Code could not start debugging "' + label + '" (see its notification or the Debug '
                        'Console: a missing program, a wrong "type", or a build task that failed).')
    timeout_s = args['timeout_seconds']

    def new_states() -> 'List[Any]':
        return [state for state in service.states if state.order > first_order]

    def settled() -> bool:
        states = new_states()
        if len(states) == 0:
            return False
        stopped = [state for state in states if state.stopped and state.stop_seq > first_seq]
        return len(stopped) > 0 or all([state.terminated for state in states])

    if args['wait_for_stop']:
        call.progress(0, None, 'Waiting for "' + label + '" to stop at a breakpoint')
        await service.wait_for(settled, timeout_s * 1000, call)
    states = new_states()
    sessions = [state.describe() for state in states]
    stopped = [state for state in states if state.stopped]
    if len(stopped) > 0:
        text, frame = await pause_report(service, stopped[len(stopped) - 1])
        return text_and_data('Started "' + label + '". ' + text, {'sessions': sessions, 'frame': frame})
    if len(states) > 0 and all([state.terminated for state in states]):
        return text_and_data('Started "' + label + '"; it ran to the end without stopping (no breakpoint hit).',
                             {'sessions': sessions, 'frame': None})
    return text_and_data('Started "' + label + '"; it is running' +
                         (' (no breakpoint hit within ' + str(timeout_s) + ' s)' if args['wait_for_stop'] else '') +
                         '. Use debug_set_breakpoints, then debug_get_variables when it pauses.',
                         {'sessions': sessions, 'frame': None})


TOOL = Tool(
    'debug_start',
    'Start debugging in VS Code, with a launch configuration from launch.json (name) or an inline one '
    '(configuration, e.g. {"type": "node", "request": "launch", "program": "${workspaceFolder}/app.js"}). '
    'By default waits up to timeout_seconds for the program to pause at a breakpoint and reports where; '
    'set breakpoints first with debug_set_breakpoints.',
    {'type': 'object', 'properties': {
        'name': {'type': 'string', 'description': 'Name of a configuration in .vscode/launch.json.'},
        'configuration': {'type': 'object', 'required': ['type', 'request'],
                          'description': 'An inline debug configuration (type, request, program, args, ...).'},
        'folder': {'type': 'string', 'description': 'Workspace folder name whose launch.json to use (default the first).'},
        'wait_for_stop': {'type': 'boolean', 'default': True, 'description': 'Wait for the first pause.'},
        'timeout_seconds': {'type': 'integer', 'minimum': 1, 'maximum': 300, 'default': 15},
    }, 'additionalProperties': False},
    start_debugging,
    title='Start debugging',
    read_only=False,
    destructive=True,
    preview=what_runs,
)
