"""The ACP agents behind the front ends (chat sessions, side panel), one service per responsibility, wired here once:

- `choice` (host/acp/agent_choice.py AgentChoice): which agent answers a conversation;
- `processes` (host/acp/processes.py AgentProcesses): one warm agent process per agent spec, reused between turns and
  sessions, started again after a crash;
- `place` (host/acp/session_place.py SessionPlace): the folder sessions work in and this window's MCP server handed
  over in session/new, load and fork;
- `updates` (host/acp/session_updates.py SessionUpdates): what agents send between turns (commands, titles);
- `options` (host/acp/session_options.py SessionOptions): the modes, models and config options offered and chosen;
- `sessions` (host/acp/agent_sessions.py AgentSessions): the agent session behind a conversation, ended, forked,
  replayed, listed;
- `turns` (host/acp/turn_runner.py AcpTurnRunner): one prompt turn with its permission requests and questions.

Each front end holds the pieces it uses (ui/acp/session.py AcpSessionRunner); the agent process and the protocol are
net/acp/agent.py (AcpAgent); what an agent may ask of us is host/acp/client_side.py."""
# __pragma__('tconv')
from hermes.host.approval import restricted_mode
from hermes.host.acp.agent_launch import find_program
from hermes.host.acp.agent_choice import AgentChoice
from hermes.host.acp.agent_sessions import AgentSessions
from hermes.host.acp.processes import AgentProcesses
from hermes.host.acp.session_options import SessionOptions
from hermes.host.acp.session_place import SessionPlace
from hermes.host.acp.session_updates import SessionUpdates
from hermes.host.acp.turn_runner import AcpTurnRunner
# __pragma__('skip')
from typing import TYPE_CHECKING, Callable, Optional
from hermes.core.acp.backends import Spec
from hermes.host.acp.agent_choice import ProgramFinder
from hermes.host.acp.client_side import AcpClientSide
from hermes.host.log import Log
from hermes.host.mcp.service import McpService
from hermes.net.acp.agent import AcpAgent
if TYPE_CHECKING:
    from vscode import Memento
# __pragma__('noskip')


def _trusted_workspace() -> bool:
    return not restricted_mode()


class AcpServices:
    """`make_agent(spec)` builds an AcpAgent (net/acp/agent.py) for a spec; `client_side` is the one
    host/acp/client_side.py object every agent shares; `mcp` the McpService whose url and token go to the agent
    (None: a window without one); `find` looks programs up (host/acp/agent_launch.py find_program); `trusted()`
    whether the workspace is trusted (Restricted Mode starts no agent); `memory` a Memento (context.globalState)
    keeping what agents offered and their commands across reloads; `storage` the extension's global storage folder
    (the agents' working folder is in it)."""

    def __init__(self, log: 'Log', make_agent: 'Callable[[Spec], AcpAgent]', client_side: 'AcpClientSide',
                 mcp: 'Optional[McpService]', find: 'Optional[ProgramFinder]' = None,
                 trusted: 'Optional[Callable[[], bool]]' = None, memory: 'Optional[Memento]' = None,
                 storage: 'Optional[str]' = None) -> None:
        self.choice = AgentChoice(find_program if find is None else find,
                                  _trusted_workspace if trusted is None else trusted, mcp is not None)
        self.place = SessionPlace(mcp)
        self.updates = SessionUpdates(log, memory)
        self.processes = AgentProcesses(log, make_agent, self.choice.trusted, self.updates.between_turns, storage)
        self.options = SessionOptions(log, memory, self.choice, self.processes, self.place, self.updates)
        self.sessions = AgentSessions(log, self.choice, self.processes, self.place, self.options, self.updates)
        self.turns = AcpTurnRunner(log, client_side, self.processes, self.sessions, self.options, self.updates,
                                   self.place)

    def dispose(self) -> None:
        """Stop every agent process (the window closes)."""
        self.processes.dispose()
