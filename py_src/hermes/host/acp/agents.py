"""The window's ACP agent processes: every AcpAgent a front end starts is made here, so deactivate can stop
them all and wait until each process is gone (none outlives the window); and the window's one client side
(host/acp/client_side.py), which answers what every agent asks."""
# __pragma__('tconv')
from hermes.js.errors import to_js_callback
from hermes.js.modules import vscode
from hermes.js.objects import new
from hermes.js.parts import load_part
from hermes.js.promises import wait_all
# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, List, Optional
from hermes.contracts.json import JsonObject
from hermes.core.tools import ToolRegistry
from hermes.host.log import Log
from hermes.host.terminals import TerminalService
from hermes.host.acp.client_side import AcpClientSide
from hermes.net.acp.agent import AcpAgent
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


class AcpAgents:
    """Makes AcpAgents and keeps the ones not yet disposed. `make_client_side()`: the window's AcpClientSide, made the
    first time `client_side` is read (None: there is none)."""

    def __init__(self, log: 'Optional[Log]', make_client_side: 'Optional[Callable[[], AcpClientSide]]' = None) -> None:
        self.log = log
        self.make_client_side = make_client_side
        self.made_client_side = None  # type: Optional[AcpClientSide]
        self.agents = []  # type: List[AcpAgent]

    @property
    def client_side(self) -> 'Optional[AcpClientSide]':
        """The window's one client side (host/acp/client_side.py, a part loaded on first use: the ACP sessions read it
        when they are made, ui/acp/session.py)."""
        if self.made_client_side is None and self.make_client_side is not None:
            self.made_client_side = self.make_client_side()
        return self.made_client_side

    def create(self, spec: 'JsonObject', client_side: 'Optional[AcpClientSide]') -> 'AcpAgent':
        """A new, not yet started AcpAgent for `spec` ({'name', 'command', 'args', 'env', 'cwd'}) whose requests
        `client_side` answers. The caller starts it and disposes it; stop_all() disposes what is left."""
        self.running()  # forget the ones that ended (disposed, crashed, never started): their processes are gone
        # net/acp/agent.py and what only it needs load with the first agent (hermes/lazy_parts.py)
        agent = load_part('hermes.net.acp.agent').AcpAgent(spec, client_side, self.log)  # type: AcpAgent
        self.agents.append(agent)
        return agent

    def running(self) -> 'List[AcpAgent]':
        """The agents that may still have a process: not disposed, and not started yet or still connected (the
        others are dropped from the list here)."""
        self.agents = [agent for agent in self.agents if not agent.disposed and
                       (agent.connection is None or (agent.connection.error is None and not agent.connection.exited))]
        return list(self.agents)

    def dispose_all(self) -> None:
        for agent in self.agents:
            agent.dispose()

    async def stop_all(self) -> None:
        """Dispose every agent and wait until every process has exited (SIGKILL comes within seconds)."""
        agents = self.agents
        self.agents = []
        for agent in agents:
            agent.dispose()
        await wait_all([agent.closed() for agent in agents])


def register_acp_agents(context: 'ExtensionContext', log: 'Optional[Log]', registry: 'ToolRegistry',
                        terminals: 'TerminalService') -> AcpAgents:
    """The window's agents and their client side over the tool `registry` (its gate, services, change log) and
    the `terminals` service."""
    def make_client_side() -> 'AcpClientSide':
        client_side = load_part('hermes.host.acp.client_side').AcpClientSide(registry, terminals, log)  # type: AcpClientSide
        return client_side
    agents = AcpAgents(log, make_client_side)
    context.subscriptions.push(new(vscode.Disposable, to_js_callback(agents.dispose_all)))
    return agents

