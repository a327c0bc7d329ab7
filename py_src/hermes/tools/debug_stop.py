# __pragma__('tconv')
# __pragma__('skip')
from typing import Any
from hermes.contracts.mcp import ToolReturn
from hermes.contracts.tool_args import DebugStopArgs
from hermes.contracts.services import CallContext
# __pragma__('noskip')
from hermes.core.tools import Tool
from hermes.tools.debug_parts import SESSION_REF, find_session


def _root(session: 'Any') -> 'Any':
    while session.parentSession is not None:
        session = session.parentSession
    return session


async def stop_debugging(args: 'DebugStopArgs', call: 'CallContext') -> 'ToolReturn':
    service = call.services.debugging
    ref = args['session']
    live = service.live()
    if len(live) == 0:
        return 'No debug session is running.'
    if ref is None:
        targets = live
        await service.stop()
    else:
        root = _root(find_session(service, ref).session)
        targets = [state for state in live if state.session is root or _root(state.session) is root]
        await service.stop(root)
    await service.wait_for(lambda: all([state.terminated for state in targets]), 5000, call)
    names = ', '.join(['"' + state.label() + '"' for state in targets])
    if all([state.terminated for state in targets]):
        return 'Stopped ' + names + '.'
    return 'Asked ' + names + ' to stop; not all have ended yet.'


TOOL = Tool(
    'debug_stop',
    'Stop a debug session (with its child sessions), or all of them when no session is named.',
    {'type': 'object', 'properties': {'session': SESSION_REF}, 'additionalProperties': False},
    stop_debugging,
    title='Stop debugging',
    read_only=False,
)
