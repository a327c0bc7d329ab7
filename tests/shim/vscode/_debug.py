"""vscode.debug: breakpoints and sessions whose DAP requests tests answer."""
import vscode
from vscode._events import Disposable, EventEmitter, resolved, soon
from vscode._types import _Undefined


class SourceBreakpoint(_Undefined):
    _next = [0]

    def __init__(self, location, enabled=True, condition=None, hitCondition=None, logMessage=None):
        SourceBreakpoint._next[0] += 1
        self.id = f'bp{SourceBreakpoint._next[0]}'
        self.location, self.enabled, self.condition = location, enabled, condition
        self.hitCondition, self.logMessage = hitCondition, logMessage


class FunctionBreakpoint(_Undefined):
    def __init__(self, functionName, enabled=True, condition=None):
        self.functionName, self.enabled, self.condition = functionName, enabled, condition


class DebugSession(_Undefined):
    """A session whose DAP requests are answered by `handlers[command](args)` (a dict or an exception)."""
    _next = [0]

    def __init__(self, name, type='node', configuration=None, parent=None, handlers=None):
        DebugSession._next[0] += 1
        self.id = f'session-{DebugSession._next[0]}'
        self.name, self.type = name, type
        self.configuration = configuration or {'name': name, 'type': type, 'request': 'launch'}
        self.parentSession = parent
        self.handlers = dict(handlers or {})
        self.requests = []
        self.trackers = []

    async def customRequest(self, command, args=None):
        self.requests.append((command, args))
        for tracker in self.trackers:
            if tracker.get('onWillReceiveMessage'):
                tracker['onWillReceiveMessage']({'type': 'request', 'command': command, 'arguments': args})
        handler = self.handlers.get(command)
        if handler is None:
            raise Exception(f"Unrecognized request '{command}'")
        result = handler(args or {})
        if isinstance(result, Exception):
            raise result
        return result

    def send_event(self, event, body=None):
        """What the debug adapter sends: every tracker sees it."""
        for tracker in self.trackers:
            if tracker.get('onDidSendMessage'):
                tracker['onDidSendMessage']({'seq': 1, 'type': 'event', 'event': event, 'body': body or {}})


class _Debug(_Undefined):
    def __init__(self):
        self.breakpoints = []
        self.activeDebugSession = None
        self.sessions = []
        self.tracker_factories = []
        self.started = []  # (folder, name or configuration)
        self.launcher = None  # tests: launcher(folder, config) → [DebugSession] (they may send events later)
        self._started = EventEmitter()
        self._terminated = EventEmitter()
        self._breakpoints_changed = EventEmitter()
        self.onDidStartDebugSession = self._started.event
        self.onDidTerminateDebugSession = self._terminated.event
        self.onDidChangeBreakpoints = self._breakpoints_changed.event

    def registerDebugAdapterTrackerFactory(self, debug_type, factory):
        entry = (debug_type, factory)
        self.tracker_factories.append(entry)
        return Disposable(lambda: self.tracker_factories.remove(entry))

    def addBreakpoints(self, breakpoints):
        self.breakpoints = self.breakpoints + list(breakpoints)
        self._breakpoints_changed.fire({'added': list(breakpoints), 'removed': [], 'changed': []})

    def removeBreakpoints(self, breakpoints):
        self.breakpoints = [bp for bp in self.breakpoints if bp not in breakpoints]
        self._breakpoints_changed.fire({'added': [], 'removed': list(breakpoints), 'changed': []})

    def add_session(self, session):
        """Test helper: a session starts (trackers attach, the start event fires)."""
        for debug_type, factory in self.tracker_factories:
            if debug_type in ('*', session.type):
                tracker = factory['createDebugAdapterTracker'](session)
                if tracker is not None:
                    session.trackers.append(tracker)
        self.sessions.append(session)
        self.activeDebugSession = session
        self._started.fire(session)
        return session

    def end_session(self, session):
        if session not in self.sessions:
            return
        for child in [item for item in self.sessions if item.parentSession is session]:
            self.end_session(child)
        session.send_event('terminated')
        self.sessions.remove(session)
        if self.activeDebugSession is session:
            self.activeDebugSession = self.sessions[-1] if self.sessions else None
        self._terminated.fire(session)

    def startDebugging(self, folder, name_or_config, options=None):
        config = name_or_config
        if isinstance(name_or_config, str):
            known = vscode.workspace.settings.get('launch.configurations') or []
            matches = [item for item in known if item.get('name') == name_or_config]
            if not matches:
                return resolved(False)
            config = matches[0]
        self.started.append((folder, name_or_config))
        if self.launcher is None:
            self.add_session(DebugSession(config.get('name', 'debug'), config.get('type', 'node'), config))
            return resolved(True)
        sessions = self.launcher(folder, config)
        return resolved(bool(sessions))

    def stopDebugging(self, session=None):
        targets = [session] if session is not None else [item for item in self.sessions if item.parentSession is None]
        for target in targets:
            soon(self.end_session, target)
        return resolved(None)
