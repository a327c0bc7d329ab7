"""Parts the debug tools share: the session argument, the resume-and-wait arguments and behaviour
(debug_continue, debug_step), and how variables are written out (debug_get_variables, debug_evaluate)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Any, List, Optional, Tuple, Union
from hermes.contracts.json import JsonObject
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugContinueArgs, DebugStepArgs
from hermes.contracts.services import CallContext, Debugging
# __pragma__('noskip')
from hermes.core.values import get_key
from hermes.core.output_text import text_and_data
from hermes.core.service_problems import ServiceProblem, with_next_step


# What to do next after each ServiceProblem of the debug service (host/debugging.py states the fact).
NEXT_STEP = {
    'no-session': 'Start one with debug_start.',
    'not-paused': 'Set a breakpoint (debug_set_breakpoints) and wait for it, or start it again.',
}


def find_session(service: 'Debugging', ref: 'Any') -> 'Any':
    """The session a tool means (service.find), its problems with the next step."""
    try:
        return service.find(ref)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)


def find_paused(service: 'Debugging', ref: 'Any') -> 'Any':
    """The paused session a tool means (service.find_stopped), its problems with the next step."""
    try:
        return service.find_stopped(ref)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)


SESSION_REF = {'type': 'string', 'description': 'Session id or name (default: the one that paused last).'}

WAIT_ARGS = {
    'session': SESSION_REF,
    'thread_id': {'type': 'integer', 'description': 'Thread (default: the one that stopped).'},
    'wait': {'type': 'boolean', 'default': True, 'description': 'Wait for the next pause or the end.'},
    'timeout_seconds': {'type': 'integer', 'minimum': 1, 'maximum': 300, 'default': 10,
                        'description': 'How long to wait.'},
}


def wait_properties(extra: 'Optional[JsonObject]' = None) -> 'JsonObject':
    """The schema properties of a tool that resumes and waits: `extra` first, then WAIT_ARGS."""
    properties = {} if extra is None else extra
    for key in ['session', 'thread_id', 'wait', 'timeout_seconds']:
        properties[key] = WAIT_ARGS[key]
    return properties


async def resume(args: 'Union[DebugContinueArgs, DebugStepArgs]', command: str, verb: str,
                 call: 'CallContext') -> 'ToolReturn':
    """Send a DAP execution request (continue, next, stepIn, stepOut) and report where it paused next."""
    service = call.services.debugging
    state = find_paused(service, args['session'])
    thread = await service.thread_id(state, args['thread_id'])
    last_stop = state.stop_seq
    await service.request(state, command, {'threadId': thread})
    if state.stop_seq == last_stop:  # (the next stop may already have arrived with the reply)
        state.stopped = False
    if not args['wait']:
        return text_and_data(verb + ' "' + state.label() + '".', {'session': state.describe(), 'frame': None})
    timeout_s = args['timeout_seconds']
    call.progress(0, None, 'Waiting for "' + state.label() + '" to pause')
    await service.wait_for(lambda: state.stop_seq > last_stop or state.terminated, timeout_s * 1000, call)
    text, frame = await pause_report(service, state)
    if not state.stopped and not state.terminated:
        text = text + ' It did not pause within ' + str(timeout_s) + ' s.'
    return text_and_data(verb + '. ' + text, {'session': state.describe(), 'frame': frame})


def render_variables(variables: 'List[JsonObject]', indent: str, lines: 'List[str]') -> None:
    for variable in variables:
        kind = '' if variable['type'] is None or variable['type'] == '' else ' (' + variable['type'] + ')'
        lines.append(indent + str(variable['name']) + ' = ' + str(variable['value']) + kind)
        if get_key(variable, 'children') is not None:
            render_variables(variable['children'], indent + '  ', lines)


def frame_text(frame: 'JsonObject', index: int) -> str:
    """'#0 compute  debug/app.js:5': a frame as the debug tools show it (`describe_frame`'s dict)."""
    where = ''
    if frame['path'] is not None:
        where = '  ' + frame['path'] + ':' + str(frame['line'])
    return '#' + str(index) + ' ' + str(frame['name']) + where


async def pause_report(service: 'Debugging', state: 'Any') -> 'Tuple[str, Optional[JsonObject]]':
    """'Paused (breakpoint) in "app.js" at #0 compute  debug/app.js:5' plus that line's text; the
    top frame as data. `service`: call.services.debugging."""
    if state.terminated:
        return 'Debug session "' + state.label() + '" has ended.', None
    if not state.stopped:
        return 'Debug session "' + state.label() + '" is running.', None
    frames, total = await service.stack(state, await service.thread_id(state), 1)
    text = 'Paused (' + str(state.reason or 'stopped') + ') in "' + state.label() + '"'
    if len(frames) == 0:
        return text + '.', None
    text = text + ' at ' + frame_text(frames[0], 0)
    line = service.source_line(frames[0])
    if line is not None:
        text = text + '\n    ' + str(frames[0]['line']) + ' | ' + line.strip()
    return text, frames[0]
