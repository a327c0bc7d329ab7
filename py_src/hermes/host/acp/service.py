"""ACP agents for the front ends (chat sessions, side panel): which agent answers, one warm agent
process per agent spec (reused between turns and sessions, started again after a crash), the agent
session behind a conversation (new, or loaded again after a reload), this window's MCP server handed
over in session/new and session/load, and one prompt turn with its permission requests and questions.

The front ends talk to `AcpService.run_turn(...)` with a TurnView (core/acp/turn.py), an `ask` function for
permission requests and an `elicit` function for an agent's form questions (core/acp/elicitation.py; a URL question is
asked here, host/acp/url_consent.py, the same in every front end); they never see the protocol. The agent process and the protocol are
net/acp/agent.py (AcpAgent); what an agent may ask of us is host/acp/client_side.py.
"""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.json import dump_json
from hermes.js.modules import node, vscode
from hermes.js.objects import is_none
from hermes.js.process import environment_variable
from hermes.js.promises import first_of, deferred, spawn
from hermes.js.timers import set_timer, clear_timer
from hermes.core.values import copy_object, copyable_keys, is_object, json_type, get_key
from hermes.host.paths import folder_paths
from hermes.core.acp.backends import (hermes_spec, configured_agents, choose_backend, find_spec, mcp_server_entry,
                                    describe_failure, HERMES_NAME, AcpAgentError, lacks_provider, no_provider_failure,
                                    backend_choices, default_choice, path_outside, RESTRICTED_HINT)
from hermes.core.acp.commands import commands_update, commands_of
from hermes.core.acp.options import (offered_options, option_groups, chosen_values, current_values, offers_value,
                                     with_config_update, wire_value, observing, CONFIG, OPTIONS, MODE)
from hermes.core.acp.turn import (AcpTurn, permission_choices, deny_choice, selected_outcome, cancelled_outcome,
                                  permission_summary)
from hermes.core.acp.prompt_content import fit_prompt
from hermes.core.acp.hermes_background import BACKGROUND_UPDATE
from hermes.core.acp.elicitation import accepted, declined, cancelled, check_answers, answer_text
from hermes.host.settings import setting
from hermes.host.acp.url_consent import ask_to_open
from hermes.host.approval import restricted_mode
from hermes.host.workspace import workspace_folders
from hermes.host.acp.agent_launch import safe_path_entries, search_program, launch_spec, agent_home
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, List, Optional
from hermes.contracts.json import Json, JsonObject
from hermes.core.acp.backends import Spec
from hermes.core.chat.conversations import Conversation
from hermes.host.acp.client_side import AcpClientSide
from hermes.host.log import Log
from hermes.host.mcp.service import McpService
from hermes.net.acp.agent import AcpAgent
if TYPE_CHECKING:
    from vscode import Memento
# __pragma__('noskip')

OFFERED_KEY = 'hermes.acp.offeredOptions'
COMMANDS_KEY = 'hermes.acp.commands'
PERMISSION_DEADLINE_MS = 50000
ASK_HERMES_ACTION = 'Ask Hermes Agent'  # the button of a background notification: its prompt into the chat input
"""An unanswered permission request is answered "deny" by us after this (Hermes denies by itself at 60 s)."""
DENIED_IN_TIME = ('No answer within 50 seconds: Hermes denied the request (it would have timed out at 60 s). '
                  'Ask again to retry.')
QUESTION_EXPIRED = 'No answer within 50 seconds: the question was cancelled. Ask the agent again to retry.'
QUESTION_STOPPED = 'The turn was stopped: its question was cancelled.'


def find_program(name: str, extra_folders: 'Optional[List[str]]' = None) -> 'Optional[str]':
    """The absolute path of `name` on PATH (or in `extra_folders`), or None: PATH entries that are empty, relative
    or inside the workspace are not searched (host/acp/agent_launch.py)."""
    folders = [folder['path'] for folder in workspace_folders()]  # (read fresh: asked when a front end lists agents)
    entries = safe_path_entries(environment_variable('PATH'), folders)
    for folder in safe_path_entries(':'.join(extra_folders or []), folders):
        entries.append(folder)
    return search_program(name, entries, folders)


def agent_environment(configured: 'Json') -> 'JsonObject':
    """What an agent process gets besides VS Code's environment: the user's `env` of its entry, and — unless that
    names PATH itself — a PATH without empty, relative or workspace entries (core/acp/backends.py path_outside):
    the program is looked up in the child's PATH, from the workspace as its working folder."""
    environment = copy_object(configured) if is_object(configured) else {}
    if not ('PATH' in environment):
        windows = environment_variable('OS') == 'Windows_NT'
        safe = path_outside(environment_variable('PATH'), ';' if windows else ':', folder_paths(),
                            '\\' if windows else '/')
        if not is_none(safe):
            environment['PATH'] = safe
    return environment


def _user_bin_folders() -> 'List[str]':
    """Where `pip install --user` and pipx put programs; VS Code started from a desktop may lack them in PATH."""
    home = environment_variable('HOME')
    if home is None or home == '':  # (environment_variable: a string or None)
        return []
    return [home + '/.local/bin']


def spec_key(spec: 'Spec') -> str:
    return dump_json([spec['name'], spec['command'], spec['args'], spec['env']])


def _kind_of(error: Any) -> Any:
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


class AcpService:
    """`make_agent(spec)` builds an AcpAgent (net/acp/agent.py) for a spec; `client_side` is the one
    host/acp/client_side.py object every agent shares (permission prompts per session id);
    `mcp` the McpService whose url and token go to the agent."""

    def __init__(self, log: 'Log', make_agent: 'Callable[[Spec], AcpAgent]', client_side: 'Optional[AcpClientSide]',
                 mcp: 'Optional[McpService]', find: 'Optional[Callable[..., Optional[str]]]' = None,
                 trusted: 'Optional[Callable[[], bool]]' = None, memory: 'Optional[Memento]' = None,
                 storage: 'Optional[str]' = None) -> None:
        self.log = log
        self.storage = storage  # the extension's global storage folder: the agents' working directory is in it
        self.memory = memory  # a Memento (context.globalState): the options each agent offered, across reloads
        remembered = None if is_none(memory) else memory.js_get(OFFERED_KEY)  # type: Json
        # agent name → offered_options(...)
        self.offered = remembered if json_type(remembered) == 'object' else {}  # type: JsonObject
        self.offered_listeners = []  # type: List[Callable[[], None]]
        remembered = None if is_none(memory) else memory.js_get(COMMANDS_KEY)
        # agent name → the slash commands it sent last (a new conversation's panel lists them before its first turn)
        self.agent_commands = remembered if json_type(remembered) == 'object' else {}  # type: JsonObject
        self.chosen_listeners = []  # type: List[Callable[[Conversation], None]]  # callback(conversation): its mode/model known anew (after session/new or load)
        self.choice_sends = {}  # type: Dict[str, Awaitable[Any]]  # 's:' + session id → the last of its mode/model calls still under way
        self.make_agent = make_agent
        self.client_side = client_side
        self.mcp = mcp
        self.find = find_program if is_none(find) else find
        self.trusted = (lambda: not restricted_mode()) if is_none(trusted) else trusted
        self.agents = {}  # type: Dict[str, JsonObject]  # spec_key → {'agent', 'starting', 'sessions': [session ids opened in this process]}
        self.session_listeners = {}  # type: Dict[str, Callable[[Json], None]]  # 's:' + session id → callback(update) for updates between turns (a title)
        # 's:' + session id → the agent's latest slash commands for it (core/acp/commands.py): they often come right
        # after session/new or during session/load, before anyone watches the session; the next turn hands them on
        self.session_commands = {}  # type: Dict[str, List[JsonObject]]
        self.hinted = []  # type: List[Optional[str]]  # conversation ids that were told once how to get Hermes Agent
        self.permission_deadline_ms = PERMISSION_DEADLINE_MS  # also an agent's question's (elicitation)
        self.url_consent = ask_to_open  # async (agent name, question, still_waiting) → result or None

    # ------------------------------------------------------------------ who answers

    def hermes(self) -> 'Optional[Spec]':
        hands_mcp = setting('mcp.enabled') is True and bool(self.mcp)  # (no MCP service: a test's window)
        return hermes_spec(setting('acp.hermesPath'), lambda name: self.find(name, _user_bin_folders()), hands_mcp)

    def agents_configured(self) -> 'List[Spec]':
        return configured_agents(setting('acp.agents'))

    def backend_for(self, conversation: 'Conversation', wanted: 'Optional[str]' = None) -> 'JsonObject':
        """{'kind': 'acp', 'spec'} | {'kind': 'builtin', 'notice'} | {'kind': 'missing', 'notice'}: the
        conversation's agent (it keeps the one it started with), else the one `wanted` (a front end's choice,
        core/acp/backends.py `backend_choices`; None: `hermes.agent.backend`) picks for a new conversation."""
        if not is_none(conversation.acp):
            if not self.trusted():
                return choose_backend('auto', None, [], False)
            spec = self.spec_named(conversation.acp['agent'])
            if not is_none(spec):
                return {'kind': 'acp', 'spec': spec}
            return {'kind': 'missing', 'notice': conversation.acp['agent'] + ' answered this conversation, but it is '
                    'no longer installed or configured. Start a new session to continue with another agent.'}
        if len(conversation.messages) > 0:
            return {'kind': 'builtin', 'notice': None}  # a conversation the built-in loop began stays with it
        return choose_backend(setting('agent.backend') if is_none(wanted) else wanted, self.hermes(),
                              self.agents_configured(), self.trusted())

    def choices(self) -> 'JsonObject':
        """{'choices': what a front end offers (backend_choices), 'default': the choice hermes.agent.backend makes}."""
        hermes = self.hermes()
        agents = self.agents_configured()
        trusted = self.trusted()
        return {'choices': backend_choices(hermes, agents, trusted),
                'default': default_choice(setting('agent.backend'), hermes, agents, trusted)}

    def choose_for_listing(self) -> 'Optional[JsonObject]':
        """The agent whose own sessions the list shows: the one new sessions use, when it is an ACP agent."""
        choice = choose_backend(setting('agent.backend'), self.hermes(), self.agents_configured(), self.trusted())
        return choice if choice['kind'] == 'acp' else None

    def spec_named(self, name: str) -> 'Optional[Spec]':
        """The spec of the agent called `name`, or None. Hermes Agent is looked up on PATH only when it is the one
        named: a turn of another agent does not search PATH (a stat per entry, every turn)."""
        hermes = self.hermes() if name == HERMES_NAME else None
        return find_spec(name, hermes, self.agents_configured())

    def notice_once(self, conversation: 'Conversation', notice: 'Optional[str]') -> 'Optional[str]':
        """The install hint is said once per conversation."""
        if is_none(notice) or conversation.id in self.hinted:
            return None
        self.hinted.append(conversation.id)
        return notice

    # ------------------------------------------------------------------ agent processes

    async def agent(self, spec):
        """The warm agent for `spec`, started (and initialized) if it is not running. The one way to an agent
        process (a turn, a reopened session, a listing): Restricted Mode gets none."""
        if not self.trusted():
            raise AcpAgentError(RESTRICTED_HINT)
        key = spec_key(spec)
        entry = self.agents[key] if key in self.agents else None
        if not is_none(entry) and not is_none(entry['agent']) and entry['agent'].alive:
            if not is_none(entry['starting']):
                await entry['starting']
            return entry['agent']
        launched = launch_spec(spec, agent_environment(spec['env']), self.agent_home(), folder_paths())
        agent = self.make_agent(launched)
        entry = {'agent': agent, 'starting': None, 'sessions': []}
        self.agents[key] = entry

        def exited(*ignored):
            if key in self.agents and self.agents[key] is entry:
                del self.agents[key]
                self.log.warn('ACP: ' + spec['name'] + ' exited; the next turn starts it again')
        agent.on_exit(exited)
        if not is_none(getattr(agent, 'on_session_update', None)):
            agent.on_session_update(self._between_turns)
        entry['starting'] = agent.start()
        try:
            await entry['starting']
        except JsError as error:
            if key in self.agents and self.agents[key] is entry:
                del self.agents[key]
            agent.dispose()
            raise error
        entry['starting'] = None
        info = getattr(agent, 'agent_info', None)
        self.log.info('ACP: ' + spec['name'] + ' started (' + launched['command'] + ' ' + ' '.join(spec['args']) + ')' +
                      ('' if is_none(info) else ': ' + dump_json(info)))
        return agent

    async def end_session(self, agent_name: str, session_id: 'Json') -> 'List[str]':
        """A deleted conversation's agent session, ended through its agent: `session/close` when this process has it
        open, then `session/delete` so the agent's own session list (shown beside ours) forgets it — each only where
        the agent offers it. Returns what was done (['closed', 'deleted'], [] for nothing); never raises."""
        spec = self.spec_named(agent_name)
        if is_none(spec) or json_type(session_id) != 'string' or session_id == '' or not self.trusted():
            return []
        done = []  # type: List[str]
        try:
            agent = await self.agent(spec)
            offered = get_key(getattr(agent, 'capabilities', None), 'sessionCapabilities')
            key = spec_key(spec)
            entry = self.agents[key] if key in self.agents else None
            if json_type(get_key(offered, 'close')) == 'object' and not is_none(entry) and \
                    session_id in entry['sessions']:
                await agent.close_session(session_id)
                done.append('closed')
            if not is_none(entry) and session_id in entry['sessions']:
                entry['sessions'].remove(session_id)
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
        spec = self.spec_named(agent_name)
        if is_none(spec):
            raise AcpAgentError('No agent named ' + agent_name + ' is configured: its conversation cannot be forked.')
        if not self.trusted():
            raise AcpAgentError('Hermes starts no agent in Restricted Mode: trust this workspace to fork a conversation.')
        if json_type(session_id) != 'string' or session_id == '':
            raise AcpAgentError('This conversation has no ' + agent_name + ' session yet: send a message first.')
        try:
            agent = await self.agent(spec)
        except JsError as error:
            raise failure_of(error, agent_name)
        offered = get_key(getattr(agent, 'capabilities', None), 'sessionCapabilities')
        if json_type(get_key(offered, 'fork')) != 'object':
            raise AcpAgentError(agent_name + ' cannot fork a conversation (it offers no session/fork).')
        try:
            forked = await agent.fork_session(session_id, self.cwd(), await self.mcp_servers(), self.other_folders())
        except JsError as error:
            if _kind_of(error) == 'agent':  # the agent's answer (the connection masks secrets in it)
                raise AcpAgentError(agent_name + ' could not fork the session ' + session_id + ' (does it still have '
                                    'it?) — ' + error_message(error))
            raise failure_of(error, agent_name)
        key = spec_key(spec)
        if key in self.agents:
            self.agents[key]['sessions'].append(forked['sessionId'])
        self._remember_offered(agent_name, offered_options(forked))
        return forked['sessionId']

    def forget_agent(self, spec: 'Spec') -> None:
        """Stop the warm agent for `spec` (the next turn starts a new process)."""
        key = spec_key(spec)
        if key in self.agents:
            entry = self.agents[key]
            del self.agents[key]
            entry['agent'].dispose()

    def _note_commands(self, session_id: 'Json', update: 'Json') -> None:
        """Keep the commands of an `available_commands_update` for the session (the latest list wins)."""
        commands = commands_update(update)
        if not is_none(commands):
            self.session_commands['s:' + str(session_id)] = commands

    def remember_commands(self, agent_name: str, commands: 'List[JsonObject]') -> None:
        """The agent's latest commands, kept across reloads (globalState) for conversations it has not answered yet."""
        if dump_json(get_key(self.agent_commands, agent_name)) == dump_json(commands):
            return
        self.agent_commands[agent_name] = commands
        if not is_none(self.memory):
            self.memory.js_update(COMMANDS_KEY, self.agent_commands)

    def known_commands(self, agent_name: str) -> 'List[JsonObject]':
        """The commands the agent sent last in any session ([] when none is known)."""
        return commands_of(get_key(self.agent_commands, agent_name))

    def commands_for(self, session_id: 'Json') -> 'Optional[List[JsonObject]]':
        """The latest commands the agent sent for the session in this window, or None."""
        return get_key(self.session_commands, 's:' + str(session_id))

    def _between_turns(self, session_id: 'Json', update: 'Json') -> None:
        key = 's:' + str(session_id)
        if get_key(update, 'sessionUpdate') == BACKGROUND_UPDATE:
            self._background_between_turns(update)
            return
        self._note_commands(session_id, update)
        if key in self.session_listeners:
            self.session_listeners[key](update)

    def _background_between_turns(self, update: 'JsonObject') -> None:
        """Hermes Agent's background work while no turn runs (core/acp/hermes_background.py): a process is logged; a
        notification is a message whose button puts its suggested prompt into the chat input, for the user to send
        (Hermes Agent's CLI would send it by itself; here the user decides)."""
        if update['prompt'] is None:  # (our own record: core/acp/hermes_background.py background_update)
            self.log.info('ACP: Hermes Agent in the background: ' + update['plain'])
            return
        spawn(self._offer_prompt(update['plain'], update['prompt']))

    async def _offer_prompt(self, title: str, prompt: str) -> None:
        choice = await vscode.window.showInformationMessage('Hermes Agent: ' + title, ASK_HERMES_ACTION)
        if choice == ASK_HERMES_ACTION:
            await vscode.commands.executeCommand('workbench.action.chat.open', {'query': prompt,
                                                                                 'isPartialQuery': True})

    def watch_session(self, session_id: str, callback: 'Callable[[Json], None]') -> None:
        """`callback(update)` for the session's updates that arrive outside a turn (Hermes sends the title
        after the prompt's answer)."""
        self.session_listeners['s:' + session_id] = callback

    def agent_home(self) -> str:
        """Where agent processes start: a private folder outside the workspace (host/acp/agent_launch.py says why)."""
        storage = self.storage
        if is_none(storage):  # (tests that build a service without an extension context)
            storage = node('path').join(environment_variable('HOME'), '.hermes')
        return agent_home(storage)

    def cwd(self) -> 'Optional[str]':
        """The workspace folder the agent's sessions work in (session/new's `cwd`; not its process's)."""
        folders = workspace_folders()
        return folders[0]['path'] if len(folders) > 0 else environment_variable('HOME')

    def other_folders(self) -> 'List[str]':
        """A multi-root window's folders after the first (the sessions' additional roots, where the agent offers them)."""
        return [folder['path'] for folder in workspace_folders()[1:]]

    async def mcp_servers(self) -> 'List[JsonObject]':
        """This window's MCP server for the agent (waits for it to listen); none when it is off."""
        if is_none(self.mcp):
            return []
        if not is_none(self.mcp.ready):
            await self.mcp.ready
        if not self.mcp.running or is_none(self.mcp.url):
            return []
        return [mcp_server_entry(self.mcp.url, self.mcp.token)]

    async def session_for(self, spec, agent, conversation, notices):
        """The agent session id behind `conversation`: a new one, or the stored one loaded into this
        process (its replay is not shown: the conversation is already recorded). A session the agent no
        longer knows becomes a new one, with a notice."""
        key = spec_key(spec)
        entry = self.agents[key] if key in self.agents else None
        servers = await self.mcp_servers()
        cwd = self.cwd()
        if not is_none(conversation.acp) and conversation.acp['sessionId'] != '':
            session_id = conversation.acp['sessionId']
            if not is_none(entry) and session_id in entry['sessions']:
                return session_id
            try:
                # (the replay is not shown: the conversation has the turns; commands the agent sends are kept)
                loaded = await agent.load_session(session_id, cwd, servers,
                                                  lambda update: self._note_commands(session_id, update),
                                                  self.other_folders())
                if not is_none(entry):
                    entry['sessions'].append(session_id)
                await self._apply_chosen(spec, agent, session_id, conversation.acp, offered_options(loaded))
                self._tell_chosen(conversation)
                return session_id
            except JsError as error:
                if _kind_of(error) != 'agent':
                    raise error
                notices.append(spec['name'] + ' no longer has this conversation\'s session (' + error_message(error) +
                               '); it continues in a new session without the earlier turns.')
        created = await agent.new_session(cwd, servers, self.other_folders())
        session_id = created['sessionId']
        wanted = chosen_values(conversation.acp)  # chosen in the input area before the session existed
        conversation.acp = {'agent': spec['name'], 'sessionId': session_id}
        for option in wanted.keys():
            conversation.acp[option] = wanted[option]
        if not is_none(entry):
            entry['sessions'].append(session_id)
        offered = offered_options(created)
        self._remember_offered(spec['name'], offered)
        await self._apply_chosen(spec, agent, session_id, conversation.acp, offered)
        self._tell_chosen(conversation)
        return session_id

    # ------------------------------------------------------------------ modes and models (core/acp/options.py)

    def on_offered(self, callback: 'Callable[[], None]') -> None:
        """`callback()` when an agent offers other modes or models than before (the input area's pickers)."""
        self.offered_listeners.append(callback)

    def on_chosen(self, callback: 'Callable[[Conversation], None]') -> None:
        """`callback(conversation)` when a session's mode and model are known anew (VS Code shows a picker only
        for a session that has a value for it)."""
        self.chosen_listeners.append(callback)

    def _tell_chosen(self, conversation: 'Conversation') -> None:
        for callback in self.chosen_listeners:
            try:
                callback(conversation)
            except JsError as error:
                self.log.warn('ACP: showing the session\'s mode and model failed: ' + error_message(error))

    def _remember_offered(self, agent_name: str, offered: 'Optional[JsonObject]') -> None:
        if dump_json(get_key(self.offered, agent_name)) == dump_json(offered):
            return
        self.offered[agent_name] = offered
        if not is_none(self.memory):
            self.memory.js_update(OFFERED_KEY, self.offered)
        for callback in self.offered_listeners:
            callback()

    def option_groups(self) -> 'List[JsonObject]':
        """The pickers for new sessions: the modes and models the agent new sessions use offered last."""
        backend = self.choose_for_listing()
        if is_none(backend):
            return []
        return option_groups(get_key(self.offered, backend['spec']['name']))

    def offered_to(self, agent_name: str) -> 'Optional[JsonObject]':
        """What `agent_name` offers to choose, as its sessions last said (core/acp/options.py offered_options), or None."""
        return get_key(self.offered, agent_name)

    async def _apply_chosen(self, spec, agent, session_id, acp, offered):
        """Set the session's chosen options on the agent (session/set_config_option, or the deprecated
        session/set_mode and session/set_model): those that differ from what its session/new or session/load answer
        reported (`offered`); the rest are taken as reported. A value is never set again when it is already current:
        see _set_option for what a model change costs. A chosen value the agent no longer offers is dropped."""
        options = [option for option in OPTIONS]
        for option in copyable_keys(offered):
            if option.startswith(CONFIG):
                options.append(option)
        for option in options:
            offer = get_key(offered, option)
            current = None if is_none(offer) else offer['current']
            wanted = get_key(acp, option)
            if is_none(wanted):
                if not is_none(current):
                    acp[option] = current
                continue
            if wanted == current:
                continue
            if option.startswith(CONFIG) and not offers_value(offer, wanted):
                self.log.warn('ACP: ' + spec['name'] + ' no longer offers ' + wanted + ' for ' + option + '; it '
                              'keeps ' + str(current))
                acp[option] = current
                continue
            try:
                answered = await self._set_option(agent, session_id, option, wanted, offered)
                self._config_answered(spec['name'], answered)
            except JsError as error:
                self.log.warn('ACP: ' + spec['name'] + ' refused the ' + option + ' ' + wanted + ': ' +
                              error_message(error))

    async def _set_option(self, agent, session_id, option, value, offered):
        """One option set on the agent; returns its answer (a config option's: every config option anew)."""
        if option.startswith(CONFIG):
            return await agent.set_config_option(session_id, option[len(CONFIG):], wire_value(offered, option, value))
        if option == MODE:
            await agent.set_mode(session_id, value)
            return None
        await agent.set_model(session_id, value)
        # Hermes Agent 0.19.0 answers session/set_model by building the session's agent anew from its config
        # file, which drops the MCP servers the client handed it: the next turn would have none of this window's
        # tools. Handing them again is what session/load does (its replay is not shown: the turns are recorded).
        if get_key(agent.capabilities, 'loadSession') is True:
            await agent.load_session(session_id, self.cwd(), await self.mcp_servers(),
                                     lambda update: self._note_commands(session_id, update))
        return None

    def _config_answered(self, agent_name: str, answered: 'Json', conversation: 'Optional[Conversation]' = None) -> None:
        """An agent sent its config options anew (a set_config_option answer, a config_option_update): the pickers
        offer them, and `conversation` (when known) takes the values the agent reports."""
        entries = get_key(answered, 'configOptions')
        if json_type(entries) != 'array':
            return
        offered = with_config_update(get_key(self.offered, agent_name), entries)
        self._remember_offered(agent_name, offered)
        if is_none(conversation) or is_none(conversation.acp):
            return
        values = current_values(offered)
        for option in copyable_keys(values):
            if option.startswith(CONFIG):
                conversation.acp[option] = values[option]
        self._tell_chosen(conversation)

    def choose(self, conversation: 'Conversation', option: str, value: 'Json') -> 'Optional[JsonObject]':
        """The user chose `value` for `option` ('mode', 'model', 'config:<id>') in a session's input area: kept in
        `conversation.acp` at once. Returns the agent and session to tell now (its session is open in the warm
        process: `send_choice`), or None (it is set when the session opens: the next turn). A conversation no agent
        answered yet is given to the agent new sessions use."""
        if is_none(conversation.acp):
            backend = self.choose_for_listing()
            if is_none(backend):
                return None
            conversation.acp = {'agent': backend['spec']['name'], 'sessionId': ''}
        conversation.acp[option] = value
        session_id = conversation.acp['sessionId']
        spec = self.spec_named(conversation.acp['agent'])
        if is_none(spec) or session_id == '':
            return None
        entry = get_key(self.agents, spec_key(spec))
        if is_none(entry) or not entry['agent'].alive or not (session_id in entry['sessions']):
            return None
        return {'agent': entry['agent'], 'sessionId': session_id, 'agentName': spec['name'],
                'conversation': conversation}

    def send_choice(self, target: 'JsonObject', option: str, value: 'Json') -> 'Awaitable[None]':
        """Tell the agent a choice (`target`: what `choose` returned). The session's choices go out one after the
        other, and its next prompt waits for them (`choices_sent`). Returns an awaitable of the call."""
        key = 's:' + target['sessionId']
        previous = get_key(self.choice_sends, key)
        done = deferred()
        self.choice_sends[key] = done['promise']

        async def send() -> None:
            try:
                if not is_none(previous):
                    await previous
                offered = get_key(self.offered, target['agentName'])
                answered = await self._set_option(target['agent'], target['sessionId'], option, value, offered)
                self._config_answered(target['agentName'], answered, target['conversation'])
            finally:
                done['resolve'](None)
                if get_key(self.choice_sends, key) is done['promise']:
                    del self.choice_sends[key]
        return spawn(send())

    async def choices_sent(self, session_id: str) -> None:
        pending = get_key(self.choice_sends, 's:' + session_id)
        if not is_none(pending):
            await pending

    # ------------------------------------------------------------------ a turn

    async def run_turn(self, spec, conversation, reply, blocks, view, cancellation, ask, save, between_turns=None,
                       author=None, elicit=None):
        """One prompt: `blocks` (ACP content blocks) to the conversation's agent session; updates go to
        an AcpTurn on `reply` and `view`. `ask(question)` asks the user a permission question
        ({'title', 'detail', 'diffs', 'command', 'choices'}) and returns the chosen choice id or None;
        `save()` stores the conversation (the list shows NeedsInput); `between_turns(update)` hears the
        session's updates outside a turn (Hermes sends the title after the answer); `author`: the change log's
        author of the turn's writes through fs/write_text_file; `elicit(question)` asks a form question
        (core/acp/elicitation.py read_question) and returns {'action': 'accept', 'content'} | {'action': 'decline'}
        | None (dismissed). Returns {'stopReason', 'turn',
        'notices'}; raises AcpAgentError when the agent cannot run."""
        notices = []
        cwd = self.cwd()
        turn = AcpTurn(reply, view, cwd)
        stored_session = dump_json(conversation.acp)  # as the front end stored it when the turn began
        if is_none(conversation.acp):
            conversation.acp = {'agent': spec['name'], 'sessionId': ''}  # this agent answers it from now on
        try:
            agent = await self.agent(spec)
        except JsError as error:
            raise failure_of(error, spec['name'])
        if lacks_provider(spec['name'], getattr(agent, 'auth_methods', None)):
            self.forget_agent(spec)  # the next turn starts Hermes anew: it reads the provider chosen meanwhile
            failure = no_provider_failure(spec['name'])
            raise AcpAgentError(failure['message'], failure['setup'])
        try:
            session_id = await self.session_for(spec, agent, conversation, notices)
        except JsError as error:
            raise failure_of(error, spec['name'])
        await self.choices_sent(session_id)  # a mode or model chosen just before the prompt applies to it
        turn.cost_before = get_key(conversation.acp, 'cost')  # (a new session has none: its first cost is all its own)
        if not is_none(between_turns):
            self.watch_session(session_id, between_turns)
        known = self.commands_for(session_id)
        if not is_none(known):  # sent before this turn (after session/new, during load, in an earlier turn)
            view.on_commands(known)
        fitted = fit_prompt(blocks, getattr(agent, 'capabilities', None), spec['name'])  # images, embedded files
        blocks = fitted['blocks']
        for note in fitted['notes']:
            notices.append(note)
        set_author = getattr(self.client_side, 'set_change_author', None)
        if not is_none(author) and not is_none(set_author):
            set_author(session_id, author)  # fs/write_text_file of agents that use it: this turn's changes
        # Hermes' observe mode: writes captured for the review, no command run (host/acp/client_side.py)
        self.client_side.set_observing(session_id, lambda: observing(conversation.acp, turn.mode))
        if dump_json(conversation.acp) != stored_session:
            save()  # a new or reloaded session's id: a window that dies during the turn reopens this session

        async def prompter(params):
            return await self.answer_permission(turn, params, view, ask, save, cancellation)
        self.client_side.set_permission_prompter(session_id, prompter)

        async def questioner(question):
            return await self.answer_question(turn, question, view, elicit, save, cancellation, spec['name'])
        set_questioner = getattr(self.client_side, 'set_question_prompter', None)
        if not is_none(set_questioner):
            set_questioner(session_id, questioner)
        unsubscribe = cancellation.on_cancel(lambda: agent.cancel(session_id))

        def on_update(update):
            self._note_commands(session_id, update)  # the latest list also for the next turns' views
            if get_key(update, 'sessionUpdate') == 'config_option_update':  # the agent changed an option itself
                self._config_answered(spec['name'], update, conversation)
            turn.apply(update)
        try:
            result = await agent.prompt(session_id, blocks, on_update)
        except JsError as error:
            turn.finish(None)
            if cancellation.cancelled:
                return {'stopReason': 'cancelled', 'turn': turn, 'notices': notices}
            raise failure_of(error, spec['name'])
        finally:
            unsubscribe()
            self.client_side.set_permission_prompter(session_id, None)
            if not is_none(set_questioner):
                set_questioner(session_id, None)
            self.client_side.set_observing(session_id, None)
        stop_reason = get_key(result, 'stopReason', 'end_turn')
        turn.said_usage = get_key(result, 'usage')
        turn.finish(stop_reason)
        return {'stopReason': stop_reason, 'turn': turn, 'notices': notices}

    async def answer_permission(self, turn, params, view, ask, save, cancellation):
        """A `session/request_permission`: asked in the front end with every option the agent offers,
        the answer mapped back exactly; no answer within PERMISSION_DEADLINE_MS → deny, with a note."""
        choices = permission_choices(params)
        if cancellation.cancelled:
            return cancelled_outcome()
        part = turn.permission_waiting(params)
        save()
        question = permission_summary(params, turn.cwd)
        question['choices'] = choices
        question['part'] = part['id']  # the waiting tool part the front end showed (a card asks in its place)
        timed_out = {'value': False}
        deadline = deferred()

        def expire():
            timed_out['value'] = True
            deadline['resolve'](None)
        timer = set_timer(expire, self.permission_deadline_ms)
        try:
            chosen = await first_of([ask(question), deadline['promise'], cancellation.wait()])
        except JsError as error:
            self.log.warn('ACP: asking for permission failed: ' + error_message(error))
            chosen = None
        finally:
            clear_timer(timer)
        picked = None
        for choice in choices:
            if json_type(chosen) == 'string' and choice['id'] == chosen:
                picked = choice
        if is_none(picked):
            deny = deny_choice(choices)
            note = DENIED_IN_TIME if timed_out['value'] else 'Not answered: denied.'
            if cancellation.cancelled:
                note = 'The turn was stopped: denied.'
            turn.permission_answered(part, note, False)
            view.on_notice(note)
            save()
            return cancelled_outcome() if is_none(deny) else selected_outcome(deny['id'])
        turn.permission_answered(part, picked['label'], picked['allow'])
        save()
        return selected_outcome(picked['id'])

    async def answer_question(self, turn, question, view, elicit, save, cancellation, agent_name):
        """An agent's question (elicitation/create, read by core/acp/elicitation.py): a form asked by the front end's
        `elicit`, a URL by the consent dialog (host/acp/url_consent.py). The answer maps exactly: the user's checked
        values → accept with content (checked here again), Decline → decline, dismissed → cancel; no answer within
        the permission deadline → cancel, with a note; a stopped turn → cancel (net/acp/agent.py answers at once)."""
        if cancellation.cancelled:
            return cancelled()
        part = turn.question_waiting(question)
        save()
        question['part'] = part['id']  # the waiting part the front end showed (a panel card asks in its place)
        question['agent'] = agent_name
        state = {'settled': False, 'timed_out': False}
        deadline = deferred()

        def expire():
            state['timed_out'] = True
            deadline['resolve'](None)
        timer = set_timer(expire, self.permission_deadline_ms)
        try:
            if question['mode'] == 'url':
                asking = self.url_consent(agent_name, question, lambda: not state['settled'])
            elif is_none(elicit):
                asking = deadline['promise']  # a front end that cannot ask forms: its deadline answers
            else:
                asking = elicit(question)
            answer = await first_of([asking, deadline['promise'], cancellation.wait()])
        except JsError as error:
            self.log.warn('ACP: asking a question failed: ' + error_message(error))
            answer = None
        finally:
            state['settled'] = True
            clear_timer(timer)
        action = get_key(answer, 'action')
        result = cancelled()
        note = None
        if cancellation.cancelled:
            note = QUESTION_STOPPED
        elif action == 'decline':
            result = declined()
        elif action == 'accept' and question['mode'] == 'url':
            result = accepted()
        elif action == 'accept':
            checked = check_answers(question, get_key(answer, 'content'))
            if len(checked['problems']) > 0:  # a front end let through what the form refuses: nothing is sent
                self.log.warn('ACP: refused answers the form does not accept: ' + '; '.join(checked['problems']))
            else:
                result = accepted(checked['content'])
        elif state['timed_out']:
            note = QUESTION_EXPIRED
        turn.question_answered(part, answer_text(result), result['action'] == 'accept')
        if not is_none(note):
            view.on_notice(note)
        save()
        return result

    async def replay_session(self, spec: 'Spec', session_id: str, on_update: 'Callable[[Json], None]') -> None:
        """Load an agent session into its warm process, its replay (the earlier turns) to `on_update`."""
        agent = await self.agent(spec)
        key = spec_key(spec)
        servers = await self.mcp_servers()
        await agent.load_session(session_id, self.cwd(), servers, on_update)
        if key in self.agents and not (session_id in self.agents[key]['sessions']):
            self.agents[key]['sessions'].append(session_id)

    async def list_sessions(self, spec: 'Spec') -> 'List[JsonObject]':
        """The agent's own sessions for this workspace ([] when it cannot list them)."""
        try:
            agent = await self.agent(spec)
            return await agent.list_sessions(self.cwd())
        except JsError as error:
            self.log.warn('ACP: listing ' + spec['name'] + '\'s sessions failed: ' + error_message(error))
            return []

    def dispose(self) -> None:
        for key in list(self.agents.keys()):
            entry = self.agents[key]
            del self.agents[key]
            try:
                entry['agent'].dispose()
            except JsError as error:
                self.log.warn('ACP: stopping an agent failed: ' + error_message(error))


HERMES_AGENT_NAME = HERMES_NAME
