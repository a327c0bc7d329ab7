"""The ACP agent processes of this window: one warm process per agent spec, started (and initialized) on first use,
reused between turns and sessions, started again after it exited, stopped when the window closes. The one way to an
agent process (a turn, a reopened session, a listing, a sign-in): Restricted Mode gets none. The process and its
protocol are net/acp/agent.py (AcpAgent); how it is launched (program, environment, folder) host/acp/agent_launch.py."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.modules import node
from hermes.core.values import json_type
from hermes.core.acp.backends import describe_failure, AcpAgentError, RESTRICTED_HINT
from hermes.host.paths import folder_paths
from hermes.host.acp.agent_launch import launch_spec, agent_home, agent_environment, home_folder
# __pragma__('skip')
from typing import Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json
from hermes.core.acp.backends import Spec
from hermes.host.log import Log
from hermes.net.acp.agent import AcpAgent

# (session id, update): a session's update that arrives while no turn of it runs (net/acp/agent.py on_session_update)
SessionUpdateListener = Callable[[str, Json], None]
# __pragma__('noskip')


def spec_key(spec: 'Spec') -> str:
    return dump_json([spec['name'], spec['command'], spec['args'], spec['env']])


def error_kind(error: Any) -> Any:
    """An AcpError's kind (net/acp/agent.py: 'agent' for the agent's own answer, 'exited', 'timeout', …), or None."""
    return getattr(error, 'kind', None)


def failure_of(error: Any, agent_name: str) -> AcpAgentError:
    """An AcpError (or anything thrown) as an AcpAgentError the user can read (one already is as it is)."""
    if isinstance(error, AcpAgentError):
        return error
    kind = getattr(error, 'kind', None)
    code = getattr(error, 'code', None)
    data = getattr(error, 'data', None)
    described = describe_failure(kind if json_type(kind) == 'string' else None,
                                 code if json_type(code) in ['integer', 'number'] else None,
                                 error_message(error), agent_name, data)
    return AcpAgentError(described['message'], described['setup'])


class WarmAgent:
    """An agent process kept between turns: the agent, its start while under way, the sessions opened in it."""

    def __init__(self, agent: 'AcpAgent') -> None:
        self.agent = agent
        self.starting = None  # type: Optional[Awaitable[Json]]
        self.sessions = []  # type: List[str]


class AgentProcesses:
    """`make_agent(spec)` builds an AcpAgent (net/acp/agent.py) for a launched spec; `trusted()` says whether the
    workspace is trusted; `on_session_update(session_id, update)` hears every agent's updates between turns;
    `storage`: the extension's global storage folder (the agents' working folder is in it; None: a test's window)."""

    def __init__(self, log: 'Log', make_agent: 'Callable[[Spec], AcpAgent]', trusted: 'Callable[[], bool]',
                 on_session_update: 'SessionUpdateListener', storage: 'Optional[str]' = None) -> None:
        self.log = log
        self.make_agent = make_agent
        self.trusted = trusted
        self.on_session_update = on_session_update
        self.storage = storage
        self.warm = {}  # type: Dict[str, WarmAgent]  # spec_key → its process

    def running(self, spec: 'Spec') -> 'Optional[WarmAgent]':
        """The process kept for `spec` (started, starting, or exited but not yet noticed), or None."""
        key = spec_key(spec)
        return self.warm[key] if key in self.warm else None

    async def agent(self, spec: 'Spec') -> 'AcpAgent':
        """The warm agent for `spec`, started (and initialized) if it is not running."""
        if not self.trusted():
            raise AcpAgentError(RESTRICTED_HINT)
        key = spec_key(spec)
        entry = self.running(spec)
        if entry is not None and entry.agent.alive:
            if entry.starting is not None:
                await entry.starting
            return entry.agent
        launched = launch_spec(spec, agent_environment(spec['env']), self.agent_home(), folder_paths())
        agent = self.make_agent(launched)
        warm = WarmAgent(agent)
        self.warm[key] = warm

        def exited(*ignored: Any) -> None:
            if key in self.warm and self.warm[key] is warm:
                del self.warm[key]
                self.log.warn('ACP: ' + spec['name'] + ' exited; the next turn starts it again')
        agent.on_exit(exited)
        agent.on_session_update(self.on_session_update)
        warm.starting = agent.start()
        try:
            await warm.starting
        except JsError as error:
            if key in self.warm and self.warm[key] is warm:
                del self.warm[key]
            agent.dispose()
            raise error
        warm.starting = None
        info = getattr(agent, 'agent_info', None)
        self.log.info('ACP: ' + spec['name'] + ' started (' + launched['command'] + ' ' + ' '.join(spec['args']) + ')' +
                      ('' if info is None else ': ' + dump_json(info)))
        return agent

    def forget(self, spec: 'Spec') -> None:
        """Stop the warm agent for `spec` (the next turn starts a new process)."""
        key = spec_key(spec)
        if key in self.warm:
            entry = self.warm[key]
            del self.warm[key]
            entry.agent.dispose()

    def agent_home(self) -> str:
        """Where agent processes start: a private folder outside the workspace (host/acp/agent_launch.py says why)."""
        storage = self.storage
        if storage is None:  # (tests that build the services without an extension context)
            storage = node('path').join(home_folder(), '.hermes')
        return agent_home(storage)

    def dispose(self) -> None:
        for key in list(self.warm.keys()):
            entry = self.warm[key]
            del self.warm[key]
            try:
                entry.agent.dispose()
            except JsError as error:
                self.log.warn('ACP: stopping an agent failed: ' + error_message(error))
