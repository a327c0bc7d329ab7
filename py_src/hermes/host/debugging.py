"""Debugging for the tools: sessions started and stopped through VS Code's debug API, their state learned
from the Debug Adapter Protocol messages a tracker (`registerDebugAdapterTrackerFactory('*')`) sees, DAP
requests (`session.customRequest`) for threads, stacks, scopes, variables and evaluation, and source
breakpoints. The debug tools reach all of it through `call.services.debugging`, never `vscode` itself.

Some debuggers run a parent session that owns no threads and child sessions that stop (the built-in
JavaScript debugger does), so "the session" a tool means is, by default, the one that stopped last.
Positions shown to the model are 1-based lines, like an editor shows them.
"""
# __pragma__('tconv')
from hermes.js.errors import JsError, to_js_callback
from hermes.js.modules import node, vscode
from hermes.js.promises import deferred
from hermes.js.timers import clear_timer, set_timer
from hermes.core.tools import ToolError
from hermes.core.service_problems import ServiceProblem
from hermes.core.values import json_type, get_key
from hermes.host.paths import display_path, is_confined
from hermes.host.confinement import OUTSIDE
from hermes.host.debug_workspace import (workspace_folder, launch_names, launch_configuration, breakpoints_in,
                                         set_breakpoints)
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple
from hermes.contracts.json import Json, JsonObject
from hermes.contracts.services import CallContext
if TYPE_CHECKING:
    from vscode import DebugSession, ExtensionContext, WorkspaceFolder
# __pragma__('noskip')


class SessionState:
    def __init__(self, session: 'DebugSession', order: int) -> None:
        self.session = session
        self.order = order
        self.stopped = False
        self.thread_id = None  # type: Optional[int]
        self.reason = None  # type: Optional[str]
        self.description = None  # type: Optional[str]
        self.stop_seq = 0
        self.terminated = False

    def label(self) -> str:
        return self.session['name']

    def describe(self) -> 'JsonObject':
        state = 'terminated' if self.terminated else ('paused' if self.stopped else 'running')
        result = {'id': self.session.id, 'name': self.label(), 'type': self.session['type'],  # type: JsonObject
                  'state': state}
        if self.stopped:
            result['reason'] = self.reason
            result['threadId'] = self.thread_id
        parent = self.session.parentSession
        if parent is not None:
            result['parent'] = parent['name']
        return result


class DebugService:
    def __init__(self) -> None:
        self.states = []  # type: List[SessionState]
        self.order = 0
        self.seq = 0  # counts every stop and end, so a waiter can ask "anything since N?"
        self._waiters = []  # type: List[JsonObject]

    def listen(self) -> 'List[Any]':
        debug = vscode.debug
        factory = {'createDebugAdapterTracker': to_js_callback(self._tracker_for)}
        disposables = [
            debug.registerDebugAdapterTrackerFactory('*', factory),
            debug.onDidStartDebugSession(to_js_callback(self._started)),
            debug.onDidTerminateDebugSession(to_js_callback(self._terminated)),
        ]
        return disposables

    # ---------------------------------------------------------------- events

    def _tracker_for(self, session: 'DebugSession') -> 'JsonObject':
        state = self.state_for(session)

        def on_message(message: Any) -> None:
            self._adapter_message(state, message)

        def on_request(message: Any) -> None:
            if get_key(message, 'type') == 'request' and get_key(message, 'command') in ['continue', 'next', 'stepIn', 'stepOut',
                                                                       'stepBack', 'reverseContinue', 'goto']:
                state.stopped = False

        return {'onDidSendMessage': to_js_callback(on_message), 'onWillReceiveMessage': to_js_callback(on_request)}

    def _adapter_message(self, state: 'SessionState', message: Any) -> None:
        if get_key(message, 'type') != 'event':
            return
        event = get_key(message, 'event')
        body = get_key(message, 'body', {})
        if event == 'stopped':
            state.stopped = True
            state.thread_id = get_key(body, 'threadId')
            state.reason = get_key(body, 'reason')
            state.description = get_key(body, 'description')
            self.seq = self.seq + 1
            state.stop_seq = self.seq
            self._notify()
        elif event == 'continued':
            state.stopped = False
        elif event == 'exited':
            state.stopped = False
        elif event == 'terminated':  # the adapter is done; VS Code's own end event follows later
            self._ended(state)

    def _started(self, session: 'DebugSession') -> None:
        self.state_for(session)
        self._notify()

    def _terminated(self, session: 'DebugSession') -> None:
        self._ended(self.state_for(session))

    def _ended(self, state: 'SessionState') -> None:
        if state.terminated:
            return
        state.terminated = True
        state.stopped = False
        self.seq = self.seq + 1
        self._notify()

    def _notify(self) -> None:
        waiters = self._waiters[:]
        for waiter in waiters:
            if waiter['check']():
                waiter['resolve'](True)

    # ---------------------------------------------------------------- lookup

    def state_for(self, session: 'DebugSession') -> 'SessionState':
        for state in self.states:
            if state.session is session or state.session.id == session.id:
                return state
        self.order = self.order + 1
        state = SessionState(session, self.order)
        self.states.append(state)
        if len(self.states) > 50:
            self.states = [item for item in self.states if not item.terminated]
        return state

    def live(self) -> 'List[SessionState]':
        return [state for state in self.states if not state.terminated]

    def find(self, ref: 'Json') -> 'SessionState':
        """The session a tool means: by id or name when given, else the live session that stopped last,
        else the active one."""
        live = self.live()
        if ref is not None:
            matches = [state for state in live if state.session.id == ref or state.label() == ref]
            if len(matches) == 0:
                raise ToolError('No debug session "' + ref + '". Running: ' + self.summary() + '.')
            return _latest_stopped(matches) or matches[len(matches) - 1]
        if len(live) == 0:
            raise ServiceProblem('no-session', 'No debug session is running.')  # the tools say what to do next
        stopped = _latest_stopped(live)
        if stopped is not None:
            return stopped
        active = vscode.debug.activeDebugSession
        if active is not None:
            return self.state_for(active)
        return live[len(live) - 1]

    def find_stopped(self, ref: 'Json') -> 'SessionState':
        state = self.find(ref)
        if not state.stopped:
            raise ServiceProblem('not-paused', 'Debug session "' + state.label() + '" is running, not paused.')
        return state

    def summary(self) -> str:
        live = self.live()
        if len(live) == 0:
            return '(none)'
        return ', '.join(['"' + state.label() + '" (' + state.describe()['state'] + ')' for state in live])

    # ---------------------------------------------------------------- waiting

    async def wait_for(self, check: 'Callable[[], bool]', timeout_ms: int, call: 'CallContext') -> bool:
        """Wait until `check()` is true (re-checked after every stop, start and end), the timeout, or
        cancellation; returns whether check() held."""
        if check():
            return True
        waiter = deferred()
        entry = {'check': check, 'resolve': waiter['resolve']}  # type: JsonObject
        self._waiters.append(entry)
        timer = set_timer(lambda: waiter['resolve'](False), timeout_ms)
        unsubscribe = call.on_cancel(lambda: waiter['resolve'](False))
        await waiter['promise']
        clear_timer(timer)
        unsubscribe()
        self._waiters = [item for item in self._waiters if item is not entry]
        return check()

    # ---------------------------------------------------------------- starting and stopping

    def workspace_folder(self, name: 'Optional[str]' = None) -> 'Optional[WorkspaceFolder]':
        """The workspace folder called `name` (the first one when None); None when no folder is open."""
        return workspace_folder(name)

    def launch_names(self, folder: 'Optional[WorkspaceFolder]') -> 'List[str]':
        """The names of the configurations in `folder`'s launch.json (and the user's)."""
        return launch_names(folder)

    def launch_configuration(self, folder: 'Optional[WorkspaceFolder]', name: str) -> 'Optional[JsonObject]':
        """The launch configuration (or compound) called `name` in `folder`'s launch.json (and the user's)."""
        return launch_configuration(folder, name)

    async def start(self, folder: 'Optional[WorkspaceFolder]', target: 'Json') -> bool:
        """Start a launch configuration (its name, or an inline one); False when VS Code could not."""
        return await vscode.debug.startDebugging(folder, target)

    async def stop(self, session: 'Optional[DebugSession]' = None) -> None:
        """Stop `session` with its children, or every session."""
        if session is None:
            await vscode.debug.stopDebugging()
        else:
            await vscode.debug.stopDebugging(session)

    # ---------------------------------------------------------------- breakpoints

    def source_line(self, frame: 'JsonObject') -> 'Optional[str]':
        """The text of a frame's current line (`describe_frame`), read from disk, or None."""
        return source_line(frame)

    def breakpoints_in(self, path: str) -> 'List[JsonObject]':
        """The source breakpoints in the file at `path`: [{'line' (1-based), 'enabled', 'condition'?}]."""
        return breakpoints_in(path)

    def set_breakpoints(self, path: str, lines: 'List[int]', condition: 'Optional[str]' = None,
                        replace: bool = True) -> 'List[JsonObject]':
        """Breakpoints at the 1-based `lines` of `path` (host/debug_workspace.py); the file's breakpoints now."""
        return set_breakpoints(path, lines, condition, replace)

    # ---------------------------------------------------------------- DAP requests

    async def request(self, state: 'SessionState', command: str, args: 'JsonObject') -> Any:
        try:
            return await state.session.customRequest(command, args)
        except JsError as error:
            raise ToolError('The debugger refused "' + command + '": ' + _message(error))

    async def thread_id(self, state: 'SessionState', requested: 'Optional[int]' = None) -> int:
        if requested is not None:
            return requested
        if state.thread_id is not None:
            return state.thread_id
        threads = get_key(await self.request(state, 'threads', {}), 'threads', [])
        if len(threads) == 0:
            raise ToolError('Debug session "' + state.label() + '" has no threads.')
        return get_key(threads[0], 'id')

    async def stack(self, state: 'SessionState', thread_id: int, levels: int) -> 'Tuple[List[JsonObject], int]':
        response = await self.request(state, 'stackTrace', {'threadId': thread_id, 'startFrame': 0, 'levels': levels})
        frames = [describe_frame(frame) for frame in get_key(response, 'stackFrames', [])]
        total = get_key(response, 'totalFrames')
        return frames, (len(frames) if json_type(total) != 'integer' else total)

    async def variables(self, state: 'SessionState', reference: int, limit: int, depth: int) -> 'List[JsonObject]':
        """The variables under `reference`, expanding structured ones `depth` more levels."""
        response = await self.request(state, 'variables', {'variablesReference': reference})
        items = get_key(response, 'variables', [])
        result = []  # type: List[JsonObject]
        for item in items[:limit]:
            entry = {'name': get_key(item, 'name'), 'value': get_key(item, 'value'),  # type: JsonObject
                     'type': get_key(item, 'type')}
            child = get_key(item, 'variablesReference')
            if depth > 0 and json_type(child) == 'integer' and child > 0:
                entry['children'] = await self.variables(state, child, limit, depth - 1)
            result.append(entry)
        if len(items) > limit:
            result.append({'name': '…', 'value': str(len(items) - limit) + ' more not shown', 'type': None})
        return result


def _latest_stopped(states: 'List[SessionState]') -> 'Optional[SessionState]':
    best = None  # type: Optional[SessionState]
    for state in states:
        if state.stopped and (best is None or state.stop_seq > best.stop_seq):
            best = state
    return best


def _message(error: Any) -> str:
    message = error.message if error is not None else None  # type: Any
    return message if json_type(message) == 'string' else str(error)


def source_file(path: Any) -> Any:
    """A DAP source path as a file path. In code-server the JavaScript debugger reports sources as
    `vscode-remote://host:port/abs/path` URIs (VS Code runs "remotely" from the browser's view)."""
    if json_type(path) != 'string' or '://' not in path:
        return path
    uri = vscode.Uri.parse(path)
    return uri.fsPath if uri.scheme in ['file', 'vscode-remote'] else path


def describe_frame(frame: Any) -> 'JsonObject':
    """A stack frame as a dict; one in a file outside the workspace says only "a file outside the workspace"
    (host/confinement.py: its place and its lines are withheld)."""
    source = get_key(frame, 'source')
    path = source_file(get_key(source, 'path')) or get_key(source, 'name')
    if json_type(path) == 'string' and node('path').isAbsolute(path) and not is_confined(path):
        return {'id': get_key(frame, 'id'), 'name': get_key(frame, 'name'), 'path': OUTSIDE, 'file': None,
                'line': get_key(frame, 'line'), 'column': get_key(frame, 'column')}
    return {'id': get_key(frame, 'id'), 'name': get_key(frame, 'name'),
            'path': None if path is None else display_path(path), 'file': path,
            'line': get_key(frame, 'line'), 'column': get_key(frame, 'column')}


def source_line(frame: 'JsonObject') -> 'Optional[str]':
    """The text of the frame's current line, read from disk, or None."""
    path = frame['file']
    line = frame['line']
    if path is None or json_type(line) != 'integer' or not node('path').isAbsolute(path):
        return None
    try:
        lines = node('fs').readFileSync(path, 'utf8').split('\n')
    except JsError:
        return None
    return lines[line - 1].rstrip() if line > 0 and line <= len(lines) else None


def register_debugging(context: 'ExtensionContext') -> 'DebugService':
    """The window's debug service, tracking sessions (stops, ends) from now on (host/services.py builds it
    once)."""
    service = DebugService()
    for disposable in service.listen():
        context.subscriptions.push(disposable)
    return service

