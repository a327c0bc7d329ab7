"""The agent session behind a conversation, and what else the front ends do with an agent's sessions: open one (a new
session, or the stored one loaded again into a fresh process), end a deleted conversation's, fork one, replay a listed
one's turns, list the agent's own sessions for this workspace."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.core.values import json_type, get_key
from hermes.core.acp.backends import AcpAgentError
from hermes.core.acp.options import offered_options, chosen_values
from hermes.host.acp.processes import error_kind, failure_of
# __pragma__('skip')
from typing import Callable, List
from hermes.contracts.json import Json, JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.chat.conversations import Conversation
from hermes.host.log import Log
from hermes.host.acp.agent_choice import AgentChoice
from hermes.host.acp.processes import AgentProcesses
from hermes.host.acp.session_options import SessionOptions
from hermes.host.acp.session_place import SessionPlace
from hermes.host.acp.session_updates import SessionUpdates
from hermes.net.acp.agent import AcpAgent
# __pragma__('noskip')


class AgentSessions:
    """Over who answers (`choice`), the warm agents (`processes`), where sessions work (`place`), the options chosen
    for them (`options`) and the commands agents send while a session loads (`updates`)."""

    def __init__(self, log: 'Log', choice: 'AgentChoice', processes: 'AgentProcesses', place: 'SessionPlace',
                 options: 'SessionOptions', updates: 'SessionUpdates') -> None:
        self.log = log
        self.choice = choice
        self.processes = processes
        self.place = place
        self.options = options
        self.updates = updates

    async def session_for(self, spec: 'Spec', agent: 'AcpAgent', conversation: 'Conversation',
                          notices: 'List[str]') -> str:
        """The agent session id behind `conversation`: a new one, or the stored one loaded into this
        process (its replay is not shown: the conversation is already recorded). A session the agent no
        longer knows becomes a new one, with a notice."""
        entry = self.processes.running(spec)
        servers = await self.place.mcp_servers()
        cwd = self.place.cwd()
        stored = conversation.acp
        if stored is not None and stored['sessionId'] != '':
            session_id = stored['sessionId']  # type: str
            if entry is not None and session_id in entry.sessions:
                return session_id
            try:
                # (the replay is not shown: the conversation has the turns; commands the agent sends are kept)
                loaded = await agent.load_session(session_id, cwd, servers,
                                                  lambda update: self.updates.note_commands(session_id, update),
                                                  self.place.other_folders())
                if entry is not None:
                    entry.sessions.append(session_id)
                await self.options.apply_chosen(spec, agent, session_id, stored, offered_options(loaded))
                self.options.tell_chosen(conversation)
                return session_id
            except JsError as error:
                if error_kind(error) != 'agent':
                    raise error
                notices.append(spec['name'] + ' no longer has this conversation\'s session (' + error_message(error) +
                               '); it continues in a new session without the earlier turns.')
        created = await agent.new_session(cwd, servers, self.place.other_folders())
        session_id = created['sessionId']
        wanted = chosen_values(conversation.acp)  # chosen in the input area before the session existed
        acp = {'agent': spec['name'], 'sessionId': session_id}  # type: JsonObject
        for option in wanted.keys():
            acp[option] = wanted[option]
        conversation.acp = acp
        if entry is not None:
            entry.sessions.append(session_id)
        offered = offered_options(created)
        self.options.remember_offered(spec['name'], offered)
        await self.options.apply_chosen(spec, agent, session_id, acp, offered)
        self.options.tell_chosen(conversation)
        return session_id

    async def end_session(self, agent_name: str, session_id: 'Json') -> 'List[str]':
        """A deleted conversation's agent session, ended through its agent: `session/close` when this process has it
        open, then `session/delete` so the agent's own session list (shown beside ours) forgets it — each only where
        the agent offers it. Returns what was done (['closed', 'deleted'], [] for nothing); never raises."""
        spec = self.choice.spec_named(agent_name)
        if spec is None or json_type(session_id) != 'string' or session_id == '' or not self.choice.trusted():
            return []
        done = []  # type: List[str]
        try:
            agent = await self.processes.agent(spec)
            offered = get_key(getattr(agent, 'capabilities', None), 'sessionCapabilities')
            entry = self.processes.running(spec)
            if json_type(get_key(offered, 'close')) == 'object' and entry is not None and \
                    session_id in entry.sessions:
                await agent.close_session(session_id)
                done.append('closed')
            if entry is not None and session_id in entry.sessions:
                entry.sessions.remove(session_id)
            if json_type(get_key(offered, 'delete')) == 'object':
                await agent.delete_session(session_id)
                done.append('deleted')
        except JsError as error:
            self.log.warn('ACP: ending ' + agent_name + '\'s session ' + session_id + ' failed: ' + error_message(error))
        return done

    async def fork_session(self, agent_name: str, session_id: 'Json') -> str:
        """`session/fork` of the agent session `session_id` (ACP, unstable: `sessionCapabilities.fork`): a new session
        with its history, in this window's folder with its MCP server. Returns the new session id; raises
        AcpAgentError saying why not (the agent is not configured, offers no fork, or has no such session)."""
        spec = self.choice.spec_named(agent_name)
        if spec is None:
            raise AcpAgentError('No agent named ' + agent_name + ' is configured: its conversation cannot be forked.')
        if not self.choice.trusted():
            raise AcpAgentError('Hermes starts no agent in Restricted Mode: trust this workspace to fork a conversation.')
        if json_type(session_id) != 'string' or session_id == '':
            raise AcpAgentError('This conversation has no ' + agent_name + ' session yet: send a message first.')
        try:
            agent = await self.processes.agent(spec)
        except JsError as error:
            raise failure_of(error, agent_name)
        offered = get_key(getattr(agent, 'capabilities', None), 'sessionCapabilities')
        if json_type(get_key(offered, 'fork')) != 'object':
            raise AcpAgentError(agent_name + ' cannot fork a conversation (it offers no session/fork).')
        try:
            forked = await agent.fork_session(session_id, self.place.cwd(), await self.place.mcp_servers(),
                                              self.place.other_folders())
        except JsError as error:
            if error_kind(error) == 'agent':  # the agent's answer (the connection masks secrets in it)
                raise AcpAgentError(agent_name + ' could not fork the session ' + session_id + ' (does it still have '
                                    'it?) — ' + error_message(error))
            raise failure_of(error, agent_name)
        entry = self.processes.running(spec)
        if entry is not None:
            entry.sessions.append(forked['sessionId'])
        self.options.remember_offered(agent_name, offered_options(forked))
        fork_id = forked['sessionId']  # type: str
        return fork_id

    async def replay_session(self, spec: 'Spec', session_id: str, on_update: 'Callable[[Json], None]') -> None:
        """Load an agent session into its warm process, its replay (the earlier turns) to `on_update`."""
        agent = await self.processes.agent(spec)
        servers = await self.place.mcp_servers()
        await agent.load_session(session_id, self.place.cwd(), servers, on_update)
        entry = self.processes.running(spec)
        if entry is not None and not (session_id in entry.sessions):
            entry.sessions.append(session_id)

    async def list_sessions(self, spec: 'Spec') -> 'List[JsonObject]':
        """The agent's own sessions for this workspace ([] when it cannot list them)."""
        try:
            agent = await self.processes.agent(spec)
            return await agent.list_sessions(self.place.cwd())
        except JsError as error:
            self.log.warn('ACP: listing ' + spec['name'] + '\'s sessions failed: ' + error_message(error))
            return []
